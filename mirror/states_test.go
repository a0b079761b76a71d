package mirror_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// TestSyncRecordsItsRun: a Sync of one website leaves its row in
// mirror_runs as a fleet's website does: ok with its counts, then failed
// with the failure's text, the Options.Secrets masked in it (a server that
// quotes the key), while the error returned keeps them.
func TestSyncRecordsItsRun(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		_, s, db, m := mirrorOf(t, be, target, ordermsgtest.Config{Seed: 3, Websites: 1, OrdersPerWebsite: 5, MessagesPerWebsite: 7})
		before := time.Now()
		syncSite(t, m, s, nil)
		quoting := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusForbidden)
			fmt.Fprintf(w, `{"message":"the key %s may not read website %d"}`, s.key, s.id)
		}))
		t.Cleanup(quoting.Close)
		_, err := m.Sync(context.Background(), clientOf(t, quoting.URL, s).c, s.id,
			&mirror.Options{BaseURLMoved: true, Secrets: []string{s.key}})
		if !errors.Is(err, ordermsg.ErrForbidden) || !strings.Contains(err.Error(), s.key) {
			t.Fatalf("Sync against a server that quotes the key: %v; want its 403, as the server said it", err)
		}
		rows := runRows(t, db)
		if len(rows) != 2 {
			t.Fatalf("mirror_runs: %+v; want a row per Sync", rows)
		}
		ok, failed := rows[0], rows[1]
		if ok.site != s.id || ok.status != "ok" || ok.added != 12 || ok.err.Valid || ok.started.Before(before.Truncate(time.Microsecond)) || ok.finished.Before(ok.started) {
			t.Errorf("the first run's row: %+v; want ok, 12 new, no error", ok)
		}
		if failed.status != "failed" || !strings.Contains(failed.err.String, "may not read website") || strings.Contains(failed.err.String, s.key) ||
			failed.started.Before(ok.finished) {
			t.Errorf("the failed run's row: %+v; want failed, its text without the key, after the first", failed)
		}
	})
}

// TestSyncWaitsForTheWebsite: two Syncs of one website and a fleet's
// worker with it, at once, each through a handle of its own as processes
// would: all finish, the mirror is exact, and their runs in mirror_runs
// never overlap, for each starts once it holds the website.
func TestSyncWaitsForTheWebsite(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		srv := newFake(t, ordermsgtest.Config{Seed: 9, Websites: 1, OrdersPerWebsite: 200, MessagesPerWebsite: 200},
			ordermsgtest.WithLatency(time.Millisecond))
		s := siteOf(t, srv, 0)
		openMirror(t, be, be.Open(t, target))
		var wg sync.WaitGroup
		errs := make([]error, 3)
		for i := range 2 {
			m := openMirror(t, be, be.Open(t, target))
			wg.Go(func() { _, errs[i] = m.Sync(context.Background(), s.c, s.id, &mirror.Options{PageSize: 20}) })
		}
		fm := openMirror(t, be, be.Open(t, target))
		wg.Go(func() {
			_, _, errs[2] = syncFleet(fm, context.Background(), fleetOf(s), &mirror.FleetOptions{Options: mirror.Options{PageSize: 20}})
		})
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("run %d: %v", i, err)
			}
		}
		db := be.Open(t, target)
		sameRecords(t, db, s)
		rows := runRows(t, db)
		if len(rows) < 2 {
			t.Errorf("mirror_runs: %+v; want a row per Sync (the fleet's worker may skip)", rows)
		}
		noOverlap(t, rows)
	})
}

// insertRun adds a row to mirror_runs that finished at the given time,
// after a run of a second.
func insertRun(t *testing.T, be mirrortest.Backend, db *sql.DB, site int64, finished time.Time, status, text string) {
	t.Helper()
	started := finished.Add(-time.Second)
	var a, b any = started.UTC(), finished.UTC()
	q := "INSERT INTO mirror_runs (website_id, started_at, finished_at, status, new_records, updated_records, deleted_records, error) VALUES ($1, $2, $3, $4, 0, 0, 0, $5)"
	if be.Backend == mirror.SQLite {
		const layout = "2006-01-02T15:04:05.000000Z"
		a, b = started.UTC().Format(layout), finished.UTC().Format(layout)
		q = strings.NewReplacer("$1", "?", "$2", "?", "$3", "?", "$4", "?", "$5", "?").Replace(q)
	}
	var e any
	if text != "" {
		e = text
	}
	if _, err := db.Exec(q, site, a, b, status, e); err != nil {
		t.Fatal(err)
	}
}

// TestWebsiteStates reads the states of websites whose histories cover
// every case: ok throughout; failed after a success, three times; never a
// success; a success after failures. WebsiteStates gives each website's
// last success, last run, its status and error, and the failures since
// the last success; the view gives the same rows in SQL.
func TestWebsiteStates(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		db := be.Open(t, target)
		m := openMirror(t, be, db)
		if states, err := m.WebsiteStates(context.Background()); err != nil || len(states) != 0 {
			t.Fatalf("no runs: %+v, %v; want no state", states, err)
		}
		at := time.Date(2026, 11, 27, 10, 0, 0, 123456000, time.UTC)
		hour := func(n int) time.Time { return at.Add(time.Duration(n) * time.Hour) }
		for i, status := range []string{"ok", "failed", "ok", "ok"} {
			insertRun(t, be, db, 7, hour(i), status, map[string]string{"failed": "boom"}[status])
		}
		for i, status := range []string{"failed", "ok", "failed", "failed", "failed"} {
			insertRun(t, be, db, 3, hour(i), status, fmt.Sprintf("failure %d", i))
		}
		for i := range 4 {
			insertRun(t, be, db, 11, hour(i), "failed", "401 Unauthorized")
		}
		for i, status := range []string{"failed", "failed", "ok"} {
			insertRun(t, be, db, 5, hour(i), status, "")
		}
		states, err := m.WebsiteStates(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		want := []mirror.WebsiteState{
			{WebsiteID: 3, LastSuccess: hour(1), LastStarted: hour(4).Add(-time.Second), LastFinished: hour(4), LastStatus: "failed", LastError: "failure 4", ConsecutiveFailures: 3},
			{WebsiteID: 5, LastSuccess: hour(2), LastStarted: hour(2).Add(-time.Second), LastFinished: hour(2), LastStatus: "ok"},
			{WebsiteID: 7, LastSuccess: hour(3), LastStarted: hour(3).Add(-time.Second), LastFinished: hour(3), LastStatus: "ok"},
			{WebsiteID: 11, LastStarted: hour(3).Add(-time.Second), LastFinished: hour(3), LastStatus: "failed", LastError: "401 Unauthorized", ConsecutiveFailures: 4},
		}
		if fmt.Sprint(states) != fmt.Sprint(want) {
			t.Errorf("WebsiteStates:\n got  %+v\n want %+v", states, want)
		}
		for _, s := range states {
			if !s.LastFinished.Equal(s.LastFinished.UTC()) || s.LastFinished.Location() != time.UTC {
				t.Errorf("website %d: times not in UTC: %v", s.WebsiteID, s.LastFinished)
			}
		}
		rows := normalizedRows(t, db, "SELECT website_id, last_status, consecutive_failures FROM mirror_website_states")
		if got := fmt.Sprint(rows); got != "[11|failed|4 3|failed|3 5|ok|0 7|ok|0]" {
			t.Errorf("the view mirror_website_states: %s", got)
		}
	})
}

// TestWebsiteStatesUseTheIndexes asks each database for the plan of the
// view: it reads mirror_runs through its indexes only, never scanning the
// table, so that hundreds of websites with long histories cost a few rows
// each (BenchmarkWebsiteStates measures it). In PostgreSQL sequential scans
// are turned off for the session, so that a small table shows the index
// the planner would use on a large one.
func TestWebsiteStatesUseTheIndexes(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		db := be.Open(t, target)
		openMirror(t, be, db)
		for site := range int64(20) {
			for i := range 10 {
				insertRun(t, be, db, site+1, time.Date(2026, 1, 1, i, 0, 0, 0, time.UTC), []string{"ok", "failed"}[i%2], "")
			}
		}
		ctx := context.Background()
		conn, err := db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		explain := "EXPLAIN QUERY PLAN "
		if be.Backend == mirror.PostgreSQL {
			explain = "EXPLAIN "
			for _, stmt := range []string{"ANALYZE mirror_runs", "SET enable_seqscan = off"} {
				if _, err := conn.ExecContext(ctx, stmt); err != nil {
					t.Fatal(err)
				}
			}
		}
		plan := planOf(t, conn, explain+"SELECT * FROM mirror_website_states")
		for _, index := range []string{"mirror_runs_website_id_finished_at", "mirror_runs_website_id_status_finished_at"} {
			if !strings.Contains(plan, index) {
				t.Errorf("the plan does not use %s:\n%s", index, plan)
			}
		}
		lines := strings.Split(plan, "\n")
		for i, line := range lines {
			// SQLite: "SCAN r" reads the whole table, "SCAN r USING
			// INDEX" the whole index, where a SEARCH reads a range of it;
			// w is the view's list of websites. PostgreSQL: a scan of
			// mirror_runs reads a range of an index when its condition
			// names website_id (IS NOT NULL: the first of the index,
			// under a Limit), else all of it.
			whole := strings.Contains(line, "SCAN ") && !strings.Contains(line, "SCAN w")
			if be.Backend == mirror.PostgreSQL && strings.Contains(line, " on mirror_runs") {
				next := ""
				if i+1 < len(lines) {
					next = lines[i+1]
				}
				whole = !strings.Contains(next, "Cond: ((website_id = ") && !strings.Contains(next, "Cond: ((website_id > ") &&
					!strings.Contains(next, "Cond: (website_id IS NOT NULL)")
			}
			if whole {
				t.Errorf("the plan reads all of mirror_runs: %q\n%s", line, plan)
			}
		}
	})
}

// TestOpenExisting: OpenExisting refuses a database that holds no mirror,
// with an error that matches ErrSchema and ErrDatabase, and leaves it
// without a table; it opens one that holds a mirror, whose states it then
// reads.
func TestOpenExisting(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		ctx := context.Background()
		db := be.Open(t, target)
		_, err := mirror.OpenExisting(ctx, db, be.Backend)
		if !errors.Is(err, mirror.ErrSchema) || !errors.Is(err, mirror.ErrDatabase) || !strings.Contains(err.Error(), "holds no mirror") {
			t.Fatalf("OpenExisting of an empty database: %v; want ErrSchema", err)
		}
		tables := "SELECT count(*) FROM sqlite_master"
		if be.Backend == mirror.PostgreSQL {
			tables = "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema()"
		}
		if n := count(t, db, tables); n != 0 {
			t.Errorf("OpenExisting refused the database but made %d tables in it", n)
		}
		openMirror(t, be, db)
		insertRun(t, be, db, 4, time.Now(), "ok", "")
		m, err := mirror.OpenExisting(ctx, db, be.Backend)
		if err != nil {
			t.Fatal(err)
		}
		if states, err := m.WebsiteStates(ctx); err != nil || len(states) != 1 || states[0].WebsiteID != 4 {
			t.Errorf("WebsiteStates after OpenExisting: %+v, %v", states, err)
		}
	})
}
