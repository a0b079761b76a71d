package mirror_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

func TestTwoWebsitesInOneDatabase(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		srv := newFake(t, ordermsgtest.Config{Seed: 4, Websites: 2, OrdersPerWebsite: 20, MessagesPerWebsite: 25})
		a, b := siteOf(t, srv, 0), siteOf(t, srv, 1)
		db := be.Open(t, target)
		m := openMirror(t, be, db)
		syncSite(t, m, a, nil)
		syncSite(t, m, b, &mirror.Options{PageSize: 6})
		srv.Handler.AddOrders(b.id, 3)
		if res := syncSite(t, m, a, nil); res != (mirror.Result{}) {
			t.Errorf("website %d, nothing new: %+v", a.id, res)
		}
		if res := syncSite(t, m, b, nil); res.Orders.New != 3 || res.Messages.New != 3 {
			t.Errorf("website %d after 3 new orders: %+v", b.id, res)
		}
		sameRecords(t, db, a)
		sameRecords(t, db, b)
		var states int
		db.QueryRow("SELECT count(*) FROM sync_state").Scan(&states)
		if states != 4 {
			t.Errorf("%d checkpoints, want one per website and resource", states)
		}
	})
}

// clientOf is a client of website s through the server at url.
func clientOf(t testing.TB, url string, s site) site {
	t.Helper()
	c, err := ordermsg.NewClient(url, s.key)
	if err != nil {
		t.Fatal(err)
	}
	s.c, s.url = c, url
	return s
}

// TestOpenAtOnceOnAFreshDatabase opens one new database from several
// handles at once, as overlapping cron runs of a first sync do: every Open
// succeeds, and a SQLite file ends in WAL mode. SQLite fails a switch to WAL
// that meets another connection's lock at once, whatever the busy timeout,
// so without Open's wait one of them fails with "database is locked".
func TestOpenAtOnceOnAFreshDatabase(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, _ string) {
		for round := range 5 {
			target := be.New(t)
			const handles = 6
			start := make(chan struct{})
			errs := make([]error, handles)
			var wg sync.WaitGroup
			for i := range handles {
				db := be.Open(t, target)
				wg.Go(func() {
					<-start
					_, errs[i] = mirror.Open(context.Background(), db, be.Backend)
				})
			}
			close(start)
			wg.Wait()
			for i, err := range errs {
				if err != nil {
					t.Fatalf("round %d, handle %d: Open: %v", round, i, err)
				}
			}
			if be.Backend != mirror.SQLite {
				continue
			}
			var mode string
			if err := be.Open(t, target).QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
				t.Fatalf("round %d: journal_mode %q, %v; want wal", round, mode, err)
			}
		}
	})
}

// TestTwoRunsAtOnce runs two Syncs of the same website into the same
// database at once, each through a handle of its own as two processes
// would: both succeed, every record is mirrored once, with the server's
// JSON, and counted new by exactly one of them.
func TestTwoRunsAtOnce(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		const orders, messages = 300, 350
		srv := newFake(t, ordermsgtest.Config{Seed: 6, Websites: 1, OrdersPerWebsite: orders, MessagesPerWebsite: messages},
			ordermsgtest.WithLatency(time.Millisecond))
		s := siteOf(t, srv, 0)
		openMirror(t, be, be.Open(t, target))
		var wg sync.WaitGroup
		results := make([]mirror.Result, 2)
		errs := make([]error, 2)
		for i := range 2 {
			m := openMirror(t, be, be.Open(t, target))
			wg.Go(func() { results[i], errs[i] = m.Sync(context.Background(), s.c, s.id, &mirror.Options{PageSize: 20}) })
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("run %d: %v", i, err)
			}
		}
		if n := results[0].Orders.New + results[1].Orders.New; n != orders {
			t.Errorf("orders counted new %d times, want %d: %+v", n, orders, results)
		}
		if n := results[0].Messages.New + results[1].Messages.New; n != messages {
			t.Errorf("messages counted new %d times, want %d: %+v", n, messages, results)
		}
		sameRecords(t, be.Open(t, target), s)
	})
}

// TestTwoReconcilesAtOnce: after deletions and status changes on the
// server, two reconciles of the same website at once, each through a handle
// of its own, both succeed; each deletion and each change is counted by
// exactly one of them, and the mirror's live records are the server's.
func TestTwoReconcilesAtOnce(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		srv := newFake(t, ordermsgtest.Config{Seed: 6, Websites: 1, OrdersPerWebsite: 300, MessagesPerWebsite: 350},
			ordermsgtest.WithLatency(time.Millisecond))
		s := siteOf(t, srv, 0)
		syncSite(t, openMirror(t, be, be.Open(t, target)), s, nil)
		var w *ordermsgtest.Website
		srv.Handler.Snapshot(func(ds *ordermsgtest.Dataset) { w = ds.Websites[0] })
		orders, messages := slices.Clone(w.Orders), slices.Clone(w.Messages)
		for i := range 5 {
			srv.Handler.DeleteOrder(s.id, orders[10+40*i].ID)
			srv.Handler.DeleteMessage(s.id, messages[7+50*i].ID)
			srv.Handler.SetOrderStatus(s.id, orders[30+40*i].ID, "shipped")
		}
		var wg sync.WaitGroup
		results := make([]mirror.Result, 2)
		errs := make([]error, 2)
		for i := range 2 {
			m := openMirror(t, be, be.Open(t, target))
			wg.Go(func() {
				results[i], errs[i] = m.Sync(context.Background(), s.c, s.id, &mirror.Options{PageSize: 20, Reconcile: true})
			})
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("run %d: %v", i, err)
			}
		}
		o, m := results[0].Orders, results[1].Orders
		if o.Deleted+m.Deleted != 5 || o.Updated+m.Updated != 5 || results[0].Messages.Deleted+results[1].Messages.Deleted != 5 {
			t.Errorf("5 deletions of each and 5 changes, counted %+v and %+v", results[0], results[1])
		}
		sameRecords(t, be.Open(t, target), s)
	})
}

// writeTxOpen reports whether a write transaction is open on the database,
// from a handle of its own.
func writeTxOpen(t *testing.T, be mirrortest.Backend, probe *sql.DB) bool {
	ctx := context.Background()
	conn, err := probe.Conn(ctx)
	if err != nil {
		t.Error(err)
		return false
	}
	defer conn.Close()
	if be.Backend == mirror.PostgreSQL {
		var n int
		err := conn.QueryRowContext(ctx, `SELECT count(*) FROM pg_stat_activity
			WHERE datname = current_database() AND pid <> pg_backend_pid() AND state LIKE 'idle in transaction%'`).Scan(&n)
		if err != nil {
			t.Error(err)
		}
		return n > 0
	}
	conn.ExecContext(ctx, "PRAGMA busy_timeout = 0")
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		return true // SQLITE_BUSY: another connection holds the write lock
	}
	conn.ExecContext(ctx, "ROLLBACK")
	return false
}

// TestNoTransactionOpenDuringARequest looks at the database whenever the
// server receives a request of a Sync (with a refresh pass). The SDK fetches
// the next page while the records of the current one are written, so a
// write transaction may be open as a request arrives; but it must end
// without waiting for the answer. The server answers only once no write
// transaction is open, and counts the requests where that took longer than
// any batch's writing can (a transaction held across the request would
// never end: it waits for the answer).
func TestNoTransactionOpenDuringARequest(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		srv, s, db, m := mirrorOf(t, be, target, ordermsgtest.Config{Seed: 7, Websites: 1, OrdersPerWebsite: 1200, MessagesPerWebsite: 1300})
		probe := be.Open(t, target)
		var requests, open atomic.Int64
		watched := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			requests.Add(1)
			for deadline := time.Now().Add(10 * time.Second); writeTxOpen(t, be, probe); time.Sleep(time.Millisecond) {
				if time.Now().After(deadline) {
					open.Add(1)
					break
				}
			}
			srv.Handler.ServeHTTP(w, r)
		}))
		defer watched.Close()
		ws := clientOf(t, watched.URL, s)
		res := syncSite(t, m, ws, &mirror.Options{PageSize: 50, RefreshDays: 3, Concurrency: 1})
		if res.Orders.New != 1200 || res.Messages.New != 1300 {
			t.Fatalf("%+v", res)
		}
		if open.Load() != 0 || requests.Load() < 50 {
			t.Errorf("a write transaction stayed open across %d of %d requests", open.Load(), requests.Load())
		}
		// The probe sees a transaction when there is one.
		tx, err := db.Begin()
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback()
		if _, err := tx.Exec("UPDATE sync_state SET checkpoint = checkpoint"); err != nil {
			t.Fatal(err)
		}
		if !writeTxOpen(t, be, probe) {
			t.Error("the probe does not see an open write transaction")
		}
	})
}

// TestNothingNewWritesNothing: a run that finds nothing new reads its
// checkpoints and the website's base URL, and writes neither to sync_state
// nor to website_sources: each statement naming them is a SELECT. (In
// SQLite, such a write would also take the file's write lock.)
func TestNothingNewWritesNothing(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		_, s, _, m := mirrorOf(t, be, target, ordermsgtest.Config{Seed: 8, Websites: 1, OrdersPerWebsite: 30, MessagesPerWebsite: 40})
		syncSite(t, m, s, nil)
		st := statements{keep: true}
		counted := openMirror(t, be, counted(t, be, target, &st))
		st.sent = nil // Open's
		if res := syncSite(t, counted, s, nil); res != (mirror.Result{}) {
			t.Fatalf("nothing new: %+v", res)
		}
		var named []string
		for _, q := range st.sent {
			if strings.Contains(q, "sync_state") || strings.Contains(q, "website_sources") {
				named = append(named, q)
			}
		}
		// A checkpoint of each table, and the base URL.
		if len(named) != 3 || slices.ContainsFunc(named, func(q string) bool { return !strings.HasPrefix(q, "SELECT ") }) {
			t.Errorf("a run with nothing new sent, on sync_state and website_sources:\n%s\nwant 3 SELECTs", strings.Join(named, "\n"))
		}
	})
}

// TestRunCancelledBeforeItsFirstRead: a Sync whose context ends just before
// its first statement (the read of the website's base URL) returns the
// context's error, and not as an error of the database (ErrDatabase), which
// the tool reports with another exit status.
func TestRunCancelledBeforeItsFirstRead(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		_, s, _, m := mirrorOf(t, be, target, ordermsgtest.Config{Seed: 8, Websites: 1, OrdersPerWebsite: 3, MessagesPerWebsite: 4})
		syncSite(t, m, s, nil)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		st := statements{before: func(q string) {
			if strings.HasPrefix(q, "SELECT base_url FROM website_sources") {
				cancel()
			}
		}}
		counted := openMirror(t, be, counted(t, be, target, &st))
		if _, err := counted.Sync(ctx, s.c, s.id, nil); !errors.Is(err, context.Canceled) || errors.Is(err, mirror.ErrDatabase) {
			t.Errorf("a run cancelled before its first read: %v (ErrDatabase: %t)", err, errors.Is(err, mirror.ErrDatabase))
		}
	})
}

// TestRefreshDays: a status that changes is seen by a run with RefreshDays,
// and by no other.
func TestRefreshDays(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		srv, s, db, m := mirrorOf(t, be, target, ordermsgtest.Config{Seed: 2, Websites: 1, OrdersPerWebsite: 40, MessagesPerWebsite: 40})
		syncSite(t, m, s, nil)
		var changed *ordermsg.Order
		srv.Handler.Snapshot(func(ds *ordermsgtest.Dataset) {
			orders := ds.Websites[0].Orders
			changed = orders[len(orders)-2]
		})
		changed.Status = "shipped" // no request is in flight
		if res := syncSite(t, m, s, nil); res != (mirror.Result{}) {
			t.Errorf("without RefreshDays a change is not seen: %+v", res)
		}
		res := syncSite(t, m, s, &mirror.Options{RefreshDays: 1})
		if res.Orders.Updated < 1 || res.Orders.New != 0 || res.Messages.New != 0 {
			t.Errorf("RefreshDays 1 after one status change: %+v", res)
		}
		var status string
		if err := db.QueryRow("SELECT status FROM orders WHERE id = " + itoa(changed.ID)).Scan(&status); err != nil || status != "shipped" {
			t.Errorf("status column: %q, %v", status, err)
		}
		// More days than a time.Duration holds (about 106,751) read every
		// record again (those with file links come back with new
		// signatures, so some count as updated).
		res = syncSite(t, m, s, &mirror.Options{RefreshDays: 1 << 20})
		if o, msg := res.Orders, res.Messages; o.New+msg.New != 0 || o.Updated+o.Unchanged != 40 || msg.Updated+msg.Unchanged != 40 {
			t.Errorf("RefreshDays 1<<20: %+v; want every record read again", res)
		}
		sameRecords(t, db, s)
	})
}

// TestInterruptedRunKeepsWhatItRead cancels a Sync in its middle: it returns
// the context's error, what it read (of the orders and the messages, read at
// once) is mirrored, and the next run completes the mirror.
func TestInterruptedRunKeepsWhatItRead(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		_, s, db, m := mirrorOf(t, be, target, ordermsgtest.Config{Seed: 9, Websites: 1, OrdersPerWebsite: 1500, MessagesPerWebsite: 1500})
		ctx, cancel := context.WithCancel(context.Background())
		var read atomic.Int64
		_, err := m.Sync(ctx, s.c, s.id, &mirror.Options{PageSize: 50, Progress: func() {
			if read.Add(1) == 1100 {
				cancel()
			}
		}})
		if !errors.Is(err, context.Canceled) || errors.Is(err, mirror.ErrDatabase) {
			t.Fatalf("interrupted run: %v", err)
		}
		var orders, messages int
		db.QueryRow("SELECT count(*) FROM orders").Scan(&orders)
		db.QueryRow("SELECT count(*) FROM messages").Scan(&messages)
		if orders+messages != int(read.Load()) {
			t.Errorf("the interrupted run kept %d orders and %d messages of the %d records it read", orders, messages, read.Load())
		}
		res := syncSite(t, m, s, nil)
		if res.Orders.New+orders != 1500 || res.Messages.New+messages != 1500 {
			t.Errorf("the next run: %+v after %d orders and %d messages kept", res, orders, messages)
		}
		sameRecords(t, db, s)
	})
}

func itoa(n int64) string { return fmt.Sprint(n) }
