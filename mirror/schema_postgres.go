package mirror

import (
	"context"
	"database/sql"
	"errors"
)

// postgresSchema is the schemaBackend of PostgreSQL.
type postgresSchema struct{}

// schemaLockKey is the PostgreSQL advisory lock that serializes the making
// and upgrading of the schema by runs that start at once.
const schemaLockKey = 0x6f72646d73670001

// useWAL has nothing to do: PostgreSQL always writes ahead.
func (postgresSchema) useWAL(context.Context, *sql.Conn) error { return nil }

// lock takes schemaLockKey until the transaction ends.
func (postgresSchema) lock(ctx context.Context, conn *sql.Conn) error {
	_, err := conn.ExecContext(ctx, "SELECT pg_advisory_xact_lock($1)", int64(schemaLockKey))
	return err
}

// tune has PostgreSQL compress the records' JSON with lz4 rather than its
// default, pglz, when the server was built with it: it takes about half the
// server's time per row (BENCHMARKS.md). A storage setting only: the text
// read back is the same.
func (postgresSchema) tune(ctx context.Context, conn *sql.Conn) error {
	var lz4 bool
	err := conn.QueryRowContext(ctx, `SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'`).Scan(&lz4)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && !lz4) {
		return nil
	}
	for _, table := range []string{ordersTable.name, messagesTable.name, changesTable(PostgreSQL).name} {
		if err == nil {
			_, err = conn.ExecContext(ctx, "ALTER TABLE "+table+" ALTER COLUMN json SET COMPRESSION lz4")
		}
	}
	return err
}
