package main

import (
	"context"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/mirror/worker"
)

// workerQueue is the queue of a worker on the target, on connections of
// its own: a pgx pool in PostgreSQL, a pool of one connection in SQLite, as
// River's SQLite driver asks. close closes them.
func (t *mirrorTarget) workerQueue(ctx context.Context) (q *worker.Queue, close func(), err error) {
	if t.backend == mirror.SQLite {
		db, err := t.open()
		if err != nil {
			return nil, nil, err
		}
		db.SetMaxOpenConns(1)
		return worker.SQLiteQueue(db), func() { db.Close() }, nil
	}
	pool, err := pgxpool.New(ctx, t.dsn)
	if err != nil {
		return nil, nil, t.hide(err)
	}
	return worker.PostgreSQLQueue(pool), pool.Close, nil
}
