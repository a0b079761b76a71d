package mirror

import (
	"context"
	"database/sql"
	"strings"
	"time"
)

// sqliteSchema is the schemaBackend of SQLite.
type sqliteSchema struct{}

// busyWait is how long a connection of a Mirror waits for another's lock
// (SQLite's busy timeout), and useWAL for another's switch to WAL.
const busyWait = 30 * time.Second

// useWAL puts the SQLite database in WAL mode. SQLite switches without
// calling its busy handler: a switch that meets another connection's lock
// fails at once with "database is locked", whatever the busy timeout. It is
// then tried again, a few milliseconds later, for up to busyWait; the
// other's switch is usually what it met, and once the file is in WAL there
// is nothing to switch. A database that cannot be in WAL (in memory) keeps
// its mode.
func (sqliteSchema) useWAL(ctx context.Context, conn *sql.Conn) error {
	deadline := time.Now().Add(busyWait)
	pause := time.Millisecond
	for {
		var mode string
		err := conn.QueryRowContext(ctx, "PRAGMA journal_mode = WAL").Scan(&mode)
		if err == nil || !strings.Contains(err.Error(), "database is locked") || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(pause):
		}
		pause = min(2*pause, 50*time.Millisecond)
	}
}

// lock needs no statement: setUp's transaction is immediate (Backend.begin),
// so it holds SQLite's write lock from its start.
func (sqliteSchema) lock(context.Context, *sql.Conn) error { return nil }

// tune has nothing to set: the steps are all of SQLite's schema.
func (sqliteSchema) tune(context.Context, *sql.Conn) error { return nil }
