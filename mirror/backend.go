package mirror

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// backendOps is what differs between the backends: the SQL of each, and
// the mechanisms that work apart (how a run holds a website, how rows are
// inserted, how the feed of changes is written and read). Each backend's
// are in files of its own: backend_sqlite.go and changes_sqlite.go, with
// lease.go and sqliteinsert.go; backend_postgres.go and
// changes_postgres.go, with copy.go. Backend.ops chooses them.
type backendOps interface {
	sqlOps
	connOps
	holdOps
	feedOps
}

// ops are the backend's operations, nil for a Backend that is none of
// the constants: the one place that tells the backends apart.
func (b Backend) ops() backendOps {
	switch b {
	case SQLite:
		return sqliteOps{}
	case PostgreSQL:
		return postgresOps{}
	}
	return nil
}

// sqlOps are the backend's spelling of SQL.
type sqlOps interface {
	// rebind turns the ? placeholders of a query into the backend's.
	rebind(query string) string
	// begin is the statement that starts a write transaction: one that
	// never fails for a lock it would take later.
	begin() string
	// tableExists is a query of one row whose count is 1 when the table
	// (its name the argument) exists.
	tableExists() string
	// jsonArg and timeArg are the arguments of a column of JSON, and of a
	// time of type typ (see Backend.value).
	jsonArg(v []byte) any
	timeArg(typ colType, v time.Time) any
	// walk is the join that walks w (views.go).
	walk(w each) string
	// jsonColumn is the expression of c, a column read from JSON.
	jsonColumn(c col) string
	// ownTables are the backend's tables besides the others of the schema.
	ownTables() []tableDef
}

// connOps are how the backend's connections are used.
type connOps interface {
	// checkDriver refuses a connection whose driver the mirror cannot
	// write with.
	checkDriver(conn *sql.Conn) error
	// prepare readies a connection of the pool for a run.
	prepare(ctx context.Context, conn *sql.Conn) error
	// leaseConns is the number of connections that a connection holding a
	// website needs besides itself, to move its leases on from.
	leaseConns() int
	// insert writes rows of w's table, in the transaction open on its
	// connection; a row whose key the table holds already fails with
	// errHeld.
	insert(ctx context.Context, w *writer, rows [][]any) error
	// oneWriter reports whether the database takes one writer at a time,
	// so that the writers of a Mirror take turns (Mirror.writes).
	oneWriter() bool
}

// holdOps are how a run holds a website, or one of its tables, so that
// runs take turns.
type holdOps interface {
	// hold takes h on conn: waited for when wait is set, else tried, and
	// then nil when another run holds it. Its result is what a held
	// website's Release returns.
	hold(ctx context.Context, m *Mirror, conn *sql.Conn, h holding, wait bool) (release func() (sessionEnded bool), err error)
	// onSession reports whether a hold belongs to the connection's
	// session, so that a hold whose answer was lost may be held still and
	// the session must end (see endSession) rather than go back to the
	// pool.
	onSession() bool
	// idleEnds reports whether a connection kept idle may have lost its
	// session meanwhile (a server's restart, an idle timeout).
	idleEnds() bool
}

// holding is what a run holds: a website's resource (a table's name), or
// the whole website (fleetLease).
type holding struct {
	site     int64
	resource string
}

// String names what is held, for errors.
func (h holding) String() string {
	if h.resource == fleetLease {
		return fmt.Sprintf("website %d", h.site)
	}
	return fmt.Sprintf("website %d's %s", h.site, h.resource)
}

// endSession makes database/sql drop conn, ending its session, rather than
// return it to the pool.
func endSession(conn *sql.Conn) {
	conn.Raw(func(any) error { return errBadConn })
}

// feedOps are how the feed of changes is written and read. A change's
// position is its seq in SQLite, whose transactions commit in order, and
// its transaction's xid then its seq in PostgreSQL, where a reader reads
// only the changes of transactions older than any still in flight.
type feedOps interface {
	// changeKey are the columns of a change's position in mirror_changes,
	// and prunedColumns those of the newest change removed, in
	// mirror_changes_state.
	changeKey() []column
	prunedColumns() []column
	// cursor is the text of p for the database of the given origin, and
	// parseCursor reads it back.
	cursor(origin string, p position) string
	parseCursor(origin, cursor string) (position, bool)
	// positionSQL are the columns of a position (xid then seq) of the
	// table's columns named with prefix, and the order of the feed.
	positionSQL(prefix string) (cols, order string)
	// readable is the condition, and its arguments, of the changes (their
	// columns named with prefix) whose position is op ("=", ">") p and
	// that a reader may read.
	readable(prefix, op string, p position) (string, []any)
	// writeChanges appends rows of changeColumns to mirror_changes, in
	// the transaction open on conn, and wakes the followers once it
	// commits.
	writeChanges(ctx context.Context, conn *sql.Conn, rows [][]any) error
	// prune removes the changes recorded before before, in the
	// transaction open on conn, and moves the position of the newest
	// change removed on.
	prune(ctx context.Context, conn *sql.Conn, before any) (int64, error)
	// listen readies a reader before its first read; settled reports
	// whether every change committed before it started is readable; wait
	// returns when there may be new changes to read, or ctx's error.
	listen(ctx context.Context, r *changeReader) error
	settled(ctx context.Context, r *changeReader) (bool, error)
	wait(ctx context.Context, r *changeReader) error
}
