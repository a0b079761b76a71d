package mirror

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// sqliteOps are SQLite's operations (see backendOps).
type sqliteOps struct{}

// rebind keeps the ? placeholders, which are SQLite's.
func (sqliteOps) rebind(query string) string { return query }

// checkDriver takes any driver of SQLite.
func (sqliteOps) checkDriver(*sql.Conn) error { return nil }

// prepare sets conn's busy timeout: another run may hold the write lock for
// one batch, which conn then waits for.
func (sqliteOps) prepare(ctx context.Context, conn *sql.Conn) error {
	_, err := conn.ExecContext(ctx, fmt.Sprintf("PRAGMA busy_timeout = %d", busyWait.Milliseconds()))
	return err
}

// leaseConns is 1: a lease is moved on from a connection of its own
// (lease.go).
func (sqliteOps) leaseConns() int { return 1 }

// oneWriter is true: a SQLite database takes one writer at a time.
func (sqliteOps) oneWriter() bool { return true }

// hold takes the lease of h (lease.go). Its release never ends a session.
func (sqliteOps) hold(ctx context.Context, m *Mirror, conn *sql.Conn, h holding, wait bool) (func() bool, error) {
	take := m.tryLease
	if wait {
		take = m.lease
	}
	leased, err := take(ctx, conn, h.site, h.resource)
	if err != nil || leased == nil {
		return nil, err
	}
	return func() bool { leased(); return false }, nil
}

// onSession is false: a lease is a row, which outlives the session.
func (sqliteOps) onSession() bool { return false }

// idleEnds is false: no server ends SQLite's connections.
func (sqliteOps) idleEnds() bool { return false }

// begin starts an immediate transaction, which takes the write lock at
// once (waiting its busy timeout).
func (sqliteOps) begin() string { return "BEGIN IMMEDIATE" }

// tableExists reads sqlite_master.
func (sqliteOps) tableExists() string {
	return "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?"
}

// jsonArg is the bytes as text (sqliteText), not a BLOB.
func (sqliteOps) jsonArg(v []byte) any { return sqliteText(v) }

// timeArg is the time as UTC text: stampLayout for a typeStamp column,
// else RFC 3339.
func (sqliteOps) timeArg(typ colType, v time.Time) any {
	if typ == typeStamp {
		return v.UTC().Format(stampLayout)
	}
	return v.UTC().Format(time.RFC3339)
}

// walk is a join of json_each.
func (sqliteOps) walk(w each) string {
	want := "array"
	if w.object {
		want = "object"
	}
	p := "'$." + w.path + "'"
	return fmt.Sprintf("\nJOIN json_each(CASE json_type(%s, %s) WHEN '%s' THEN json_extract(%s, %s) END) AS %s",
		w.parent, p, want, w.parent, p, w.alias)
}

// jsonColumn reads c's path with json_extract.
func (sqliteOps) jsonColumn(c col) string {
	e := c.element + ".value"
	p := "'$." + c.path + "'"
	switch c.kind {
	case colRef:
		return fmt.Sprintf("NULLIF(CASE json_type(%s, %s) WHEN 'object' THEN json_extract(%s, '$.%s.id') ELSE json_extract(%s, %s) END, 0)",
			e, p, e, c.path, e, p)
	case colJSON:
		return e + " -> " + p
	case colTime:
		return "strftime('%Y-%m-%dT%H:%M:%SZ', json_extract(" + e + ", " + p + "))"
	}
	return "json_extract(" + e + ", " + p + ")"
}

// ownTables are mirror_leases.
func (sqliteOps) ownTables() []tableDef { return []tableDef{leasesTable} }

// insert writes the rows with INSERTs of many rows (sqliteinsert.go).
func (sqliteOps) insert(ctx context.Context, w *writer, rows [][]any) error {
	return w.insertSQLite(ctx, rows)
}

// stampLayout is the SQLite text of a typeStamp column.
const stampLayout = "2006-01-02T15:04:05.000000Z"
