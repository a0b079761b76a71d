package webhook

import "context"

// Store keeps each endpoint's cursor, the last change enqueued for it, in
// the database that River's jobs live in, so that a cursor moves in the
// same transaction as the jobs it enqueued. PgxStore serves PostgreSQL
// (River's riverpgxv5 driver) and SQLiteStore serves SQLite (riversqlite).
type Store[TTx any] interface {
	// CreateTable creates the table of cursors, mirror_webhook_cursors,
	// when it is missing.
	CreateTable(ctx context.Context) error
	// Begin starts a transaction; Commit and Rollback end it.
	Begin(ctx context.Context) (TTx, error)
	Commit(ctx context.Context, tx TTx) error
	Rollback(ctx context.Context, tx TTx) error
	// LockCursor returns the endpoint's cursor ("" before its first
	// change), holding it until tx ends so that two enqueuers take turns.
	LockCursor(ctx context.Context, tx TTx, endpoint string) (string, error)
	// SetCursor moves the endpoint's cursor.
	SetCursor(ctx context.Context, tx TTx, endpoint, cursor string) error
	// CountGivenUp counts the deliveries given up that River still keeps
	// (discarded or cancelled jobs of Kind).
	CountGivenUp(ctx context.Context) (int64, error)
}

// createCursors is the table of cursors, in SQL both backends read.
const createCursors = `CREATE TABLE IF NOT EXISTS mirror_webhook_cursors (
	endpoint TEXT PRIMARY KEY,
	cursor TEXT NOT NULL
)`

// countGivenUp counts the given-up deliveries in River's table.
const countGivenUp = `SELECT count(*) FROM river_job WHERE kind = '` + Kind + `' AND state IN ('discarded', 'cancelled')`
