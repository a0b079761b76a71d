package webhook

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// PgxStore is the Store of a PostgreSQL database, through the pgx pool
// that River's riverpgxv5 driver uses.
type PgxStore struct {
	Pool *pgxpool.Pool
}

var _ Store[pgx.Tx] = PgxStore{}

// CreateTable creates mirror_webhook_cursors when it is missing.
func (s PgxStore) CreateTable(ctx context.Context) error {
	_, err := s.Pool.Exec(ctx, createCursors)
	return err
}

// Begin starts a transaction.
func (s PgxStore) Begin(ctx context.Context) (pgx.Tx, error) { return s.Pool.Begin(ctx) }

// Commit commits tx.
func (PgxStore) Commit(ctx context.Context, tx pgx.Tx) error { return tx.Commit(ctx) }

// Rollback rolls tx back.
func (PgxStore) Rollback(ctx context.Context, tx pgx.Tx) error { return tx.Rollback(ctx) }

// LockCursor returns the endpoint's cursor, its row locked until tx ends.
func (PgxStore) LockCursor(ctx context.Context, tx pgx.Tx, endpoint string) (string, error) {
	if _, err := tx.Exec(ctx, `INSERT INTO mirror_webhook_cursors (endpoint, cursor) VALUES ($1, '') ON CONFLICT DO NOTHING`, endpoint); err != nil {
		return "", err
	}
	var cursor string
	err := tx.QueryRow(ctx, `SELECT cursor FROM mirror_webhook_cursors WHERE endpoint = $1 FOR UPDATE`, endpoint).Scan(&cursor)
	return cursor, err
}

// SetCursor moves the endpoint's cursor.
func (PgxStore) SetCursor(ctx context.Context, tx pgx.Tx, endpoint, cursor string) error {
	_, err := tx.Exec(ctx, `UPDATE mirror_webhook_cursors SET cursor = $2 WHERE endpoint = $1`, endpoint, cursor)
	return err
}

// CountGivenUp counts the given-up deliveries River still keeps.
func (s PgxStore) CountGivenUp(ctx context.Context) (int64, error) {
	var n int64
	err := s.Pool.QueryRow(ctx, countGivenUp).Scan(&n)
	return n, err
}
