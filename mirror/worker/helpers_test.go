package worker_test

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/mirror/worker"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// queueOf is the worker queue of the database at target, on a handle of
// its own.
func queueOf(t testing.TB, be mirrortest.Backend, target string) *worker.Queue {
	t.Helper()
	if be.Backend == mirror.SQLite {
		db, err := worker.OpenSQLiteQueueDB(mirrortest.SQLiteDSN(target))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return worker.SQLiteQueue(db)
	}
	pool, err := pgxpool.New(context.Background(), target)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return worker.PostgreSQLQueue(pool)
}

// run is a row of mirror_runs.
type run struct {
	site              int64
	status            string
	started, finished time.Time
	text              string
}

// runsOf reads mirror_runs, ordered by website and start.
func runsOf(t testing.TB, db *sql.DB) []run {
	t.Helper()
	rows, err := db.Query("SELECT website_id, status, started_at, finished_at, coalesce(error, '') FROM mirror_runs ORDER BY website_id, started_at")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []run
	for rows.Next() {
		var r run
		var started, finished any
		if err := rows.Scan(&r.site, &r.status, &started, &finished, &r.text); err != nil {
			t.Fatal(err)
		}
		r.started, r.finished = timeOf(t, started), timeOf(t, finished)
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// timeOf reads a time of mirror_runs: a time.Time (PostgreSQL) or RFC 3339
// text (SQLite).
func timeOf(t testing.TB, v any) time.Time {
	t.Helper()
	switch v := v.(type) {
	case time.Time:
		return v
	case string:
		at, err := time.Parse(time.RFC3339Nano, v)
		if err != nil {
			t.Fatal(err)
		}
		return at
	}
	t.Fatalf("a time of mirror_runs of type %T", v)
	return time.Time{}
}

// countRuns counts the runs of each website with the given status.
func countRuns(runs []run, status string) map[int64]int {
	n := map[int64]int{}
	for _, r := range runs {
		if r.status == status {
			n[r.site]++
		}
	}
	return n
}

// overlapping returns the runs of a website that overlap in time.
func overlapping(runs []run) []string {
	var out []string
	for i := 1; i < len(runs); i++ {
		a, b := runs[i-1], runs[i]
		if a.site == b.site && b.started.Before(a.finished) {
			out = append(out, fmt.Sprintf("website %d: %v–%v and %v–%v", a.site, a.started, a.finished, b.started, b.finished))
		}
	}
	return out
}

// waitFor polls db until cond holds of its runs, or fails the test after
// the deadline, saying what.
func waitFor(t testing.TB, db *sql.DB, within time.Duration, what string, cond func([]run) bool) []run {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		runs := runsOf(t, db)
		if cond(runs) {
			return runs
		}
		if time.Now().After(deadline) {
			var jobs string
			err := db.QueryRow("SELECT coalesce(string_agg(kind || ' ' || CAST(state AS TEXT) || ' ' || CAST(attempt AS TEXT) || ' ' || coalesce(CAST(errors AS TEXT), ''), '; '), '') FROM river_job").Scan(&jobs)
			jobs += fmt.Sprint(err)
			t.Fatalf("after %v: %s did not happen; runs: %+v; jobs: %s", within, what, runs, jobs)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// events records what a worker's Events are told.
type events struct {
	mu      sync.Mutex
	started map[int64]int
	ended   map[int64]int
}

func newEvents() *events { return &events{started: map[int64]int{}, ended: map[int64]int{}} }

func (e *events) RunStarted(id int64) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.started[id]++
}

func (e *events) RunEnded(r mirror.WebsiteResult) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.ended[r.WebsiteID]++
}

// websitesOf are the Websites of the fake's dataset, each with its key as
// its secret.
func websitesOf(t testing.TB, srv *ordermsgtest.Server) []mirror.Website {
	t.Helper()
	var sites []mirror.Website
	srv.Handler.Snapshot(func(ds *ordermsgtest.Dataset) {
		for _, w := range ds.Websites {
			c, err := ordermsg.NewClient(srv.URL, w.APIKey)
			if err != nil {
				t.Fatal(err)
			}
			sites = append(sites, mirror.Website{ID: w.ID, Client: c, Secrets: []string{w.APIKey}})
		}
	})
	return sites
}
