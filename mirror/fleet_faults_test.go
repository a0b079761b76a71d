package mirror_test

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
)

// advisoryLocks is the number of advisory locks that sessions of the
// database at target hold.
func advisoryLocks(t *testing.T, be mirrortest.Backend, target string) int {
	t.Helper()
	return count(t, be.Open(t, target), `SELECT count(*) FROM pg_locks
		WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`)
}

// TestFleetEndsTheSessionOfAFailedWebsite loses PostgreSQL's answer to the
// lock of the first website (the server granted it; the worker sees an
// error, as when its context ends while the answer comes): that website
// fails, the next is synced, and once SyncFleet returns no session of its
// pool holds a lock, so that another worker takes the website.
func TestFleetEndsTheSessionOfAFailedWebsite(t *testing.T) {
	be := postgresBackend(t)
	target := be.New(t)
	_, sites := fleetSites(t, 2)
	lose, _ := firstOf("pg_try_advisory_lock", errors.New("the answer was lost"))
	m := openMirror(t, be, counted(t, be, target, &statements{lose: lose}))
	res, got, err := syncFleet(m, context.Background(), fleetOf(sites...), &mirror.FleetOptions{Parallel: 1})
	if !errors.Is(got[sites[0].id].Err, mirror.ErrDatabase) || got[sites[1].id].Err != nil || res.Synced != 1 {
		t.Fatalf("%+v, %v; the first website: %v", res, err, got[sites[0].id].Err)
	}
	if n := advisoryLocks(t, be, target); n != 0 {
		t.Errorf("%d advisory locks held once SyncFleet returned, want none", n)
	}
	other := openMirror(t, be, be.Open(t, target))
	if res, _, err := syncFleet(other, context.Background(), fleetOf(sites[0]), nil); err != nil || res.Synced != 1 {
		t.Errorf("another worker, on the website that failed: %+v, %v", res, err)
	}
}

// TestFleetReplacesAConnectionThatEnded: a slot keeps its connection from
// one website to the next, and the next website is synced however that
// connection ended: its session ended while idle (PostgreSQL restarted,
// an idle timeout), the release of a website skipped as synced ended it,
// or SQLite's driver said it was bad while the website failed for another
// reason (whose run is recorded all the same, on another connection).
func TestFleetReplacesAConnectionThatEnded(t *testing.T) {
	t.Run("ended while idle", func(t *testing.T) {
		be := postgresBackend(t)
		target := be.New(t)
		_, sites := fleetSites(t, 2)
		admin := be.Open(t, target)
		m := openMirror(t, be, be.Open(t, target))
		var secondErr error
		_, err := m.SyncFleet(context.Background(), fleetOf(sites...), &mirror.FleetOptions{Parallel: 1, Done: func(r mirror.WebsiteResult) {
			if r.WebsiteID == sites[1].id {
				secondErr = r.Err
				return
			}
			if _, err := admin.Exec(`SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity
				WHERE datname = current_database() AND pid <> pg_backend_pid()`); err != nil {
				t.Error(err)
			}
		}})
		if err != nil || secondErr != nil {
			t.Errorf("the website after the slot's connection ended: %v (SyncFleet: %v)", secondErr, err)
		}
	})
	t.Run("ended by a release", func(t *testing.T) {
		be := postgresBackend(t)
		target := be.New(t)
		_, sites := fleetSites(t, 2)
		refuse, refused := firstOf("pg_advisory_unlock", errors.New("the connection broke"))
		db := counted(t, be, target, &statements{refuse: refuse})
		m := openMirror(t, be, db)
		// Another worker synced the first website after this fleet began.
		if _, err := db.Exec(`INSERT INTO mirror_runs (website_id, started_at, finished_at, status, new_records, updated_records, deleted_records)
			VALUES ($1, $2, $2, 'ok', 0, 0, 0)`, sites[0].id, time.Now().Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		_, got, err := syncFleet(m, context.Background(), fleetOf(sites...), &mirror.FleetOptions{Parallel: 1})
		if r := got[sites[0].id]; r.Skipped != mirror.SkipSynced || !refused.Load() {
			t.Fatalf("the first website: %+v (its release refused: %v)", r, refused.Load())
		}
		if r := got[sites[1].id]; r.Err != nil {
			t.Errorf("the website after a release that ended the connection: %v (SyncFleet: %v)", r.Err, err)
		}
	})
	t.Run("bad after a failure of the API", func(t *testing.T) {
		be := sqliteBackend(t)
		target := be.New(t)
		srv, sites := fleetSites(t, 2)
		var failed, bad atomic.Bool
		front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/websites/"+itoa(sites[0].id)+"/messages" && r.URL.Query().Get("page") == "2" {
				failed.Store(true)
				http.Error(w, `{"object":"error","status":400,"message":"bad request"}`, http.StatusBadRequest)
				return
			}
			srv.Handler.ServeHTTP(w, r)
		}))
		t.Cleanup(front.Close)
		for i := range sites {
			sites[i] = clientOf(t, front.URL, sites[i])
		}
		s := &statements{refuse: func(q string) error {
			if strings.HasPrefix(q, "INSERT INTO sync_state") && failed.Load() && bad.CompareAndSwap(false, true) {
				return driver.ErrBadConn
			}
			return nil
		}}
		m := openMirror(t, be, counted(t, be, target, s))
		_, got, err := syncFleet(m, context.Background(), fleetOf(sites...), &mirror.FleetOptions{Parallel: 1, Options: mirror.Options{PageSize: 5}})
		if r := got[sites[0].id]; r.Err == nil || errors.Is(r.Err, mirror.ErrDatabase) || !bad.Load() {
			t.Fatalf("the first website: %v, want the API's error (the driver said bad: %v)", r.Err, bad.Load())
		}
		if r := got[sites[1].id]; r.Err != nil {
			t.Errorf("the website after a connection the driver said was bad: %v (SyncFleet: %v)", r.Err, err)
		}
		// The run of the website whose connection ended is recorded, on
		// another connection.
		if rows := runRows(t, be.Open(t, target)); len(rows) != 2 || rows[0].site != sites[0].id || rows[0].status != "failed" || rows[1].status != "ok" {
			t.Errorf("mirror_runs: %+v", rows)
		}
	})
}

// TestFleetKeepsTheConnectionAfterAFailureOfTheAPI: a website the API
// refuses leaves the slot's connection as it was: a SQLite database in
// memory (a pool of one connection), which ending the connection would
// end, syncs the next website.
func TestFleetKeepsTheConnectionAfterAFailureOfTheAPI(t *testing.T) {
	db, err := sql.Open("sqlite", "file::memory:")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	db.SetMaxOpenConns(1)
	m := openMirror(t, sqliteBackend(t), db)
	srv, sites := fleetSites(t, 2)
	refused := clientOf(t, srv.URL, site{id: sites[0].id, key: "not-the-key"})
	res, got, err := syncFleet(m, context.Background(), fleetOf(refused, sites[1]), &mirror.FleetOptions{Parallel: 1})
	if !errors.Is(got[sites[0].id].Err, ordermsg.ErrUnauthorized) {
		t.Fatalf("the website of a wrong key: %+v", got[sites[0].id])
	}
	if r := got[sites[1].id]; r.Err != nil || res.Synced != 1 {
		t.Errorf("the website after it, in memory: %v (%+v, %v)", r.Err, res, err)
	}
}

// TestFleetDoesNotMistakeItsOwnLeaseForAnothers: in SQLite, the answer to
// the commit of a website's lease is lost (the lease is taken): the website
// fails, and is not reported skipped as held by another worker, which a
// second try would find (its own lease) and the fleet would pass over.
func TestFleetDoesNotMistakeItsOwnLeaseForAnothers(t *testing.T) {
	be := sqliteBackend(t)
	target := be.New(t)
	_, sites := fleetSites(t, 2)
	var armed, inLease, lost atomic.Bool
	s := &statements{lose: func(q string) error {
		switch {
		case !armed.Load():
		case strings.HasPrefix(q, "INSERT INTO mirror_leases"):
			inLease.Store(true)
		case q == "COMMIT" && inLease.Load() && lost.CompareAndSwap(false, true):
			return errors.New("the answer was lost")
		}
		return nil
	}}
	m := openMirror(t, be, counted(t, be, target, s))
	got := map[int64]mirror.WebsiteResult{}
	res, err := m.SyncFleet(context.Background(), fleetOf(sites...), &mirror.FleetOptions{Parallel: 1, Done: func(r mirror.WebsiteResult) {
		got[r.WebsiteID] = r
		armed.Store(true) // the first lease of the next website is its fleet's
	}})
	if r := got[sites[1].id]; !lost.Load() || r.Skipped != mirror.NotSkipped || r.Err == nil {
		t.Errorf("the website whose lease's commit lost its answer (lost: %v): %q, %v; want it failed (SyncFleet: %+v, %v)", lost.Load(), r.Skipped, r.Err, res, err)
	}
}

// TestFleetSyncsAWebsiteWhoseRunFailedMeanwhile: a run of another worker
// that began after this SyncFleet and failed does not make it skip the
// website: nobody has synced it.
func TestFleetSyncsAWebsiteWhoseRunFailedMeanwhile(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		_, sites := fleetSites(t, 1)
		db := be.Open(t, target)
		m := openMirror(t, be, db)
		later := time.Now().Add(time.Hour)
		q, at := "INSERT INTO mirror_runs (website_id, started_at, finished_at, status, new_records, updated_records, deleted_records, error) VALUES ($1, $2, $2, 'failed', 0, 0, 0, 'context canceled')", any(later)
		if be.Backend == mirror.SQLite {
			q, at = strings.NewReplacer("$1", "?1", "$2", "?2").Replace(q), later.UTC().Format(time.RFC3339Nano)
		}
		if _, err := db.Exec(q, sites[0].id, at); err != nil {
			t.Fatal(err)
		}
		if res, got, err := syncFleet(m, context.Background(), fleetOf(sites...), nil); err != nil || res.Synced != 1 {
			t.Errorf("%+v, %v: the website was %q", res, err, got[sites[0].id].Skipped)
		}
	})
}

// TestFleetIteratorOnTheCallersGoroutine: SyncFleet reads websites on its
// caller's goroutine, so that the caller can recover a panic of the
// iterator, or of one that yields after being told to stop; and it starts
// no more slots than it has websites, whatever Parallel says.
func TestFleetIteratorOnTheCallersGoroutine(t *testing.T) {
	be := sqliteBackend(t)
	target := be.New(t)
	_, sites := fleetSites(t, 2)
	m := openMirror(t, be, be.Open(t, target))
	recovered := func(ctx context.Context, websites iter.Seq[mirror.Website]) (r any) {
		defer func() { r = recover() }()
		m.SyncFleet(ctx, websites, nil)
		return nil
	}
	one := mirror.Website{ID: sites[0].id, Client: sites[0].c}
	if r := recovered(context.Background(), func(yield func(mirror.Website) bool) {
		yield(one)
		panic("the iterator failed")
	}); fmt.Sprint(r) != "the iterator failed" {
		t.Errorf("recovered %v, want the iterator's panic", r)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if r := recovered(ctx, func(yield func(mirror.Website) bool) {
		yield(one)
		yield(one) // told to stop: ctx has ended
	}); r == nil {
		t.Error("an iterator that yields after being told to stop: no panic, want the runtime's")
	}

	most := 0
	res, err := m.SyncFleet(context.Background(), fleetOf(sites...), &mirror.FleetOptions{Parallel: 100_000, Done: func(mirror.WebsiteResult) {
		most = max(most, runtime.NumGoroutine())
	}})
	if err != nil || res.Synced+res.Skipped != 2 {
		t.Fatalf("%+v, %v", res, err)
	}
	if most > 1000 {
		t.Errorf("%d goroutines for 2 websites at Parallel 100,000", most)
	}
}
