package worker

import (
	"context"
	"database/sql"

	"github.com/ordermsg/ordermsg-go/mirror/webhook"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riversqlite"
)

// SQLiteQueue is the queue of a worker on SQLite: River's tables in the
// mirror's file, through River's SQLite driver over database/sql. Give it
// a pool of its own on the mirror's file (modernc.org/sqlite, with a busy
// timeout), of one connection, as River's driver asks: OpenSQLiteQueueDB
// opens one that keeps its statements prepared. The caller closes it
// after Run returns. The file takes one writer at a time: run one
// worker per file.
func SQLiteQueue(db *sql.DB) *Queue {
	b := backend{
		ping: db.PingContext,
		// One worker per file: no other migrates at once.
		lockMigrations: func(context.Context) (func(), error) { return func() {}, nil },
		// River's SQLite listener reads its table of notifications every
		// 50 ms, which costs an idle worker of 200 websites 2% of a core;
		// polling for jobs costs much less (BENCHMARKS.md). Each poll of a
		// queue parses River's fetch again (a few milliseconds).
		pollOnly: true,
	}
	return &Queue{open: func(cfg *river.Config) (engine, error) {
		return newEngine(riversqlite.New(db), cfg, webhook.Store[*sql.Tx](webhook.SQLiteStore{DB: db}), b)
	}}
}
