package mirror

import (
	"context"
	"database/sql"
	"fmt"
)

// backendOps is what differs between the backends: the SQL of each, and
// the mechanisms that work apart (how a run holds a website, how rows are
// inserted, how the feed of changes is read). Each backend's are in a file
// of its own (backend_sqlite.go, backend_postgres.go, and the mechanisms
// they call: lease.go, sqliteinsert.go, copy.go); Backend.ops chooses them.
type backendOps interface {
	sqlOps
	connOps
	holdOps
}

// ops are the backend's operations: the one place that tells the
// backends apart.
func (b Backend) ops() backendOps {
	if b == PostgreSQL {
		return postgresOps{}
	}
	return sqliteOps{}
}

// sqlOps are the backend's spelling of SQL.
type sqlOps interface {
	// rebind turns the ? placeholders of a query into the backend's.
	rebind(query string) string
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
