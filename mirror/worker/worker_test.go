package worker_test

import (
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/mirror/worker"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
	_ "modernc.org/sqlite"
)

// fleet is a fake service of n websites and their Websites, with the
// clients of their keys; refused, when set, is the id of a website given
// a key the service refuses.
type fleet struct {
	srv   *ordermsgtest.Server
	sites []mirror.Website
	keys  map[int64]string
}

func newFleet(t *testing.T, n int) *fleet {
	t.Helper()
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 37, Websites: n, OrdersPerWebsite: 30, MessagesPerWebsite: 20}))
	t.Cleanup(srv.Close)
	f := &fleet{srv: srv, sites: websitesOf(t, srv), keys: map[int64]string{}}
	for _, s := range f.sites {
		f.keys[s.ID] = s.Secrets[0]
	}
	return f
}

// website is the website id read with key.
func (f *fleet) website(t *testing.T, id int64, key string) mirror.Website {
	t.Helper()
	c, err := ordermsg.NewClient(f.srv.URL, key)
	if err != nil {
		t.Fatal(err)
	}
	return mirror.Website{ID: id, Client: c, Secrets: []string{key}}
}

// startWorker runs a worker of cfg (its Mirror and Queue on target, its
// Logger the test's log of warnings unless set) until the test's end or
// stop; the error of Run comes on the channel.
func startWorker(t *testing.T, be mirrortest.Backend, target string, cfg worker.Config) (w *worker.Worker, db *sql.DB, stop func() error) {
	t.Helper()
	db = be.Open(t, target)
	m, err := mirror.Open(context.Background(), db, be.Backend)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Mirror, cfg.Queue = m, queueOf(t, be, target)
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	w, err = worker.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	for w.Healthy(ctx) != nil {
		select {
		case err := <-done:
			t.Fatalf("Run: %v", err)
		case <-time.After(20 * time.Millisecond):
		}
	}
	var once atomic.Bool
	stop = func() error {
		if !once.CompareAndSwap(false, true) {
			return nil
		}
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(30 * time.Second):
			return errors.New("Run did not return within 30 s of its context's end")
		}
	}
	t.Cleanup(func() { stop() })
	return w, db, stop
}

// TestWorkerSyncsEveryWebsiteEachPeriod runs a worker of three websites,
// and one whose key the service refuses, every second, on each backend:
// each good website gets run after run, each starting within Every + Slack
// of the last, none overlapping, and is exact after orders are added
// while it runs; the refused one gets failed runs only, retried, and its
// key shows neither in mirror_runs nor in River's jobs; each website has
// one live job (unique by its id); Events hears of
// every run; Run returns nil when its context ends.
func TestWorkerSyncsEveryWebsiteEachPeriod(t *testing.T) {
	t.Parallel() // each has a database and a fake of its own, and mostly waits for periods
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		f := newFleet(t, 3)
		const refusedID, refusedKey = 999, "refused-key-3f9a7c"
		sites := append(f.sites, f.website(t, refusedID, refusedKey))
		ev := newEvents()
		const every = time.Second
		w, db, stop := startWorker(t, be, target, worker.Config{
			Websites: func() ([]mirror.Website, error) { return sites, nil },
			Every:    every, Events: ev,
		})
		enough := func(n int) func([]run) bool {
			return func(runs []run) bool {
				ok, failed := countRuns(runs, "ok"), countRuns(runs, "failed")
				for id := range f.keys {
					if ok[id] < n {
						return false
					}
				}
				return failed[refusedID] >= 2
			}
		}
		waitFor(t, db, time.Minute, "two ok runs of each website", enough(2))
		for id := range f.keys {
			f.srv.Handler.AddOrders(id, 3)
			f.srv.Handler.AddMessages(id, 2)
		}
		before := countRuns(runsOf(t, db), "ok")
		waitFor(t, db, time.Minute, "two more ok runs of each website", func(runs []run) bool {
			ok := countRuns(runs, "ok")
			for id := range f.keys {
				if ok[id] < before[id]+2 {
					return false
				}
			}
			return true
		})
		if got := w.WebsiteIDs(); len(got) != len(sites) {
			t.Errorf("WebsiteIDs: %v, want the %d websites", got, len(sites))
		}
		if err := w.Healthy(context.Background()); err != nil {
			t.Errorf("Healthy while it runs: %v", err)
		}
		if err := stop(); err != nil {
			t.Fatalf("Run: %v", err)
		}
		if err := w.Healthy(context.Background()); err == nil {
			t.Error("Healthy after Run returned: nil")
		}

		runs := runsOf(t, db)
		for id, key := range f.keys {
			mirrortest.SameRecords(t, db, f.srv, id, key)
		}
		if o := overlapping(runs); len(o) > 0 {
			t.Errorf("runs that overlap:\n%s", strings.Join(o, "\n"))
		}
		var last = map[int64]time.Time{}
		for _, r := range runs {
			if r.site == refusedID {
				if r.status != "failed" {
					t.Errorf("the refused website has a run %q", r.status)
				}
				if strings.Contains(r.text, refusedKey) {
					t.Errorf("mirror_runs shows the key: %q", r.text)
				}
				continue
			}
			if r.status != "ok" {
				t.Errorf("website %d: a run %q: %s", r.site, r.status, r.text)
			}
			if prev, ok := last[r.site]; ok && r.started.Sub(prev) > every+worker.Slack {
				t.Errorf("website %d: runs started %v apart, more than Every + Slack", r.site, r.started.Sub(prev))
			}
			last[r.site] = r.started
		}
		var jobs string
		if err := db.QueryRow("SELECT coalesce(string_agg(CAST(args AS TEXT) || CAST(errors AS TEXT), ' '), '') FROM river_job").Scan(&jobs); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(jobs, refusedKey) || strings.Contains(jobs, f.keys[f.sites[0].ID]) {
			t.Errorf("River's jobs hold a key: %s", jobs)
		}
		var most int
		if err := db.QueryRow(`SELECT coalesce(max(n), 0) FROM (SELECT count(*) AS n FROM river_job
			WHERE state IN ('available', 'pending', 'running', 'retryable', 'scheduled') GROUP BY kind, CAST(args AS TEXT)) AS live`).Scan(&most); err != nil {
			t.Fatal(err)
		}
		if most != 1 {
			t.Errorf("a website has %d live jobs of a kind, want one", most)
		}
		ev.mu.Lock()
		defer ev.mu.Unlock()
		for _, s := range sites {
			if ev.started[s.ID] == 0 || ev.started[s.ID] != ev.ended[s.ID] {
				t.Errorf("website %d: Events told of %d starts and %d ends", s.ID, ev.started[s.ID], ev.ended[s.ID])
			}
		}
	})
}

// testWriter writes to the test's log.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSuffix(string(p), "\n"))
	return len(p), nil
}
