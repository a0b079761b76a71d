package mirror

import (
	"context"
	"database/sql"
	"fmt"
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
