package main

import (
	"context"
	"database/sql"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/mirror/webhook"
	"github.com/ordermsg/ordermsg-go/mirror/worker"
)

// workerQueue is the queue of a worker on the target, on connections of
// its own: a pgx pool in PostgreSQL, a pool of one connection in SQLite, as
// River's SQLite driver asks (worker.OpenSQLiteQueueDB). close closes them.
func (t *mirrorTarget) workerQueue(ctx context.Context) (q *worker.Queue, close func(), err error) {
	if t.backend == mirror.SQLite {
		db, err := worker.OpenSQLiteQueueDB(t.dsn)
		if err != nil {
			return nil, nil, t.hide(err)
		}
		return worker.SQLiteQueue(db), func() { db.Close() }, nil
	}
	pool, err := pgxpool.New(ctx, t.dsn)
	if err != nil {
		return nil, nil, t.hide(err)
	}
	return worker.PostgreSQLQueue(pool), pool.Close, nil
}

// givenUpDeliveries counts the webhook deliveries given up that River
// keeps in the target's database db (webhook.Store's CountGivenUp), or
// returns -1 when no worker delivered webhooks into it: its table of
// cursors is missing.
func (t *mirrorTarget) givenUpDeliveries(ctx context.Context, db *sql.DB) (int64, error) {
	exists := `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'mirror_webhook_cursors'`
	if t.backend == mirror.PostgreSQL {
		exists = `SELECT count(*) FROM pg_tables WHERE tablename = 'mirror_webhook_cursors' AND schemaname = ANY(current_schemas(false))`
	}
	var n int
	if err := db.QueryRowContext(ctx, exists).Scan(&n); err != nil || n == 0 {
		return -1, err
	}
	if t.backend == mirror.SQLite {
		return webhook.SQLiteStore{DB: db}.CountGivenUp(ctx)
	}
	pool, err := pgxpool.New(ctx, t.dsn)
	if err != nil {
		return 0, t.hide(err)
	}
	defer pool.Close()
	return webhook.PgxStore{Pool: pool}.CountGivenUp(ctx)
}
