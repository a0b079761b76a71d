package worker

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/ordermsg/ordermsg-go/mirror/webhook"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
)

// PostgreSQLQueue is the queue of workers on PostgreSQL: River's tables in
// the database of pool, the mirror's, through River's pgx v5 driver. The
// caller keeps pool and closes it after Run returns. Several workers, on
// one machine or many, share the websites through it.
func PostgreSQLQueue(pool *pgxpool.Pool) *Queue {
	b := backend{ping: pool.Ping, lockMigrations: func(ctx context.Context) (func(), error) { return migrationLock(ctx, pool) }}
	return &Queue{open: func(cfg *river.Config) (engine, error) {
		return newEngine(riverpgxv5.New(pool), cfg, webhook.Store[pgx.Tx](webhook.PgxStore{Pool: pool}), b)
	}}
}

// migrationLock has workers that start at once migrate River's tables in
// turn: it holds an advisory lock, on a connection of pool, until unlock.
func migrationLock(ctx context.Context, pool *pgxpool.Pool) (unlock func(), err error) {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	const lock = "SELECT pg_advisory_lock(hashtext('ordermsg worker river migrations'))"
	if _, err := conn.Exec(ctx, lock); err != nil {
		conn.Release()
		return nil, err
	}
	return func() {
		// Closing the session releases the lock whatever happens.
		conn.Hijack().Close(context.WithoutCancel(ctx))
	}, nil
}
