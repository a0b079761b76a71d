package webhook

import (
	"context"
	"database/sql"
)

// SQLiteStore is the Store of a SQLite database, through the *sql.DB that
// River's riversqlite driver uses (modernc.org/sqlite serves it; River
// advises one open connection, db.SetMaxOpenConns(1)).
type SQLiteStore struct {
	DB *sql.DB
}

var _ Store[*sql.Tx] = SQLiteStore{}

// CreateTable creates mirror_webhook_cursors when it is missing.
func (s SQLiteStore) CreateTable(ctx context.Context) error {
	_, err := s.DB.ExecContext(ctx, createCursors)
	return err
}

// Begin starts a transaction.
func (s SQLiteStore) Begin(ctx context.Context) (*sql.Tx, error) { return s.DB.BeginTx(ctx, nil) }

// Commit commits tx.
func (SQLiteStore) Commit(_ context.Context, tx *sql.Tx) error { return tx.Commit() }

// Rollback rolls tx back.
func (SQLiteStore) Rollback(_ context.Context, tx *sql.Tx) error { return tx.Rollback() }

// LockCursor returns the endpoint's cursor. Its first statement writes, so
// that tx holds SQLite's write lock from the start.
func (SQLiteStore) LockCursor(ctx context.Context, tx *sql.Tx, endpoint string) (string, error) {
	if _, err := tx.ExecContext(ctx, `INSERT INTO mirror_webhook_cursors (endpoint, cursor) VALUES (?, '') ON CONFLICT DO NOTHING`, endpoint); err != nil {
		return "", err
	}
	var cursor string
	err := tx.QueryRowContext(ctx, `SELECT cursor FROM mirror_webhook_cursors WHERE endpoint = ?`, endpoint).Scan(&cursor)
	return cursor, err
}

// SetCursor moves the endpoint's cursor.
func (SQLiteStore) SetCursor(ctx context.Context, tx *sql.Tx, endpoint, cursor string) error {
	_, err := tx.ExecContext(ctx, `UPDATE mirror_webhook_cursors SET cursor = ? WHERE endpoint = ?`, cursor, endpoint)
	return err
}

// CountGivenUp counts the given-up deliveries River still keeps.
func (s SQLiteStore) CountGivenUp(ctx context.Context) (int64, error) {
	var n int64
	err := s.DB.QueryRowContext(ctx, countGivenUp).Scan(&n)
	return n, err
}
