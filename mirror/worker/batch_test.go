package worker_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/mirror/worker"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// Websites spread evenly over the batches, whether their ids follow each
// other or a pattern (every fourth one).
func TestBatchesAreEven(t *testing.T) {
	if got := worker.BatchCount(0); got != 1 {
		t.Errorf("BatchCount(0) = %d, want 1", got)
	}
	for _, step := range []int64{1, 2, 4, 1000} {
		const n = 400
		batches := worker.BatchCount(n)
		if batches != 8 {
			t.Fatalf("BatchCount(%d) = %d, want 8", n, batches)
		}
		count := make([]int, batches)
		for i := range int64(n) {
			count[worker.BatchOf(7+i*step, batches)]++
		}
		for k, c := range count {
			if c < 30 || c > 70 {
				t.Errorf("ids %d apart: batch %d has %d of %d websites, want about %d", step, k, c, n, n/batches)
			}
		}
	}
}

// inFlight counts the runs Events were told of that have not ended, and
// keeps the most at once.
type inFlight struct {
	mu        sync.Mutex
	now, most int
	ended     map[int64]int
}

func (f *inFlight) RunStarted(int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now++
	f.most = max(f.most, f.now)
}

func (f *inFlight) RunEnded(r mirror.WebsiteResult) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now--
	f.ended[r.WebsiteID]++
}

// A worker syncs Parallel websites at once at most, in its batches and in
// the jobs of websites that failed together, on each backend: with a
// service that answers slowly, eight websites and one whose key is
// refused (retried alone) reach two at once and never three.
func TestWorkerSyncsParallelWebsitesAtMost(t *testing.T) {
	t.Parallel() // each has a database and a fake of its own, and mostly waits for periods
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 43, Websites: 8, OrdersPerWebsite: 2, MessagesPerWebsite: 2}),
			ordermsgtest.WithLatency(30*time.Millisecond))
		t.Cleanup(srv.Close)
		sites := websitesOf(t, srv)
		refused, err := ordermsg.NewClient(srv.URL, "refused-key-77c1")
		if err != nil {
			t.Fatal(err)
		}
		sites = append(sites, mirror.Website{ID: 999, Client: refused})
		ev := &inFlight{ended: map[int64]int{}}
		_, db, stop := startWorker(t, be, target, worker.Config{
			Websites: func() ([]mirror.Website, error) { return sites, nil },
			Every:    time.Second, Parallel: 2, Events: ev,
		})
		waitFor(t, db, time.Minute, "two ok runs of each good website and two failed of the refused one", func(runs []run) bool {
			ok := countRuns(runs, "ok")
			for _, s := range sites[:len(sites)-1] {
				if ok[s.ID] < 2 {
					return false
				}
			}
			return countRuns(runs, "failed")[999] >= 2
		})
		if err := stop(); err != nil {
			t.Fatal(err)
		}
		ev.mu.Lock()
		defer ev.mu.Unlock()
		if ev.most != 2 || ev.now != 0 {
			t.Errorf("websites at once: %d at most, %d left at the end; want 2 and 0", ev.most, ev.now)
		}
	})
}

// websitesOf are the Websites of the fake's dataset, each with its key as
// its secret.
func websitesOf(t *testing.T, srv *ordermsgtest.Server) []mirror.Website {
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

// A list that grows past a batch gets the batches of its new size, on
// each backend: every website of it is synced, the batch of the old size
// ends, and the live batches are those of the new.
func TestWorkerSpreadsAGrowingListOverBatches(t *testing.T) {
	t.Parallel() // each has a database and a fake of its own, and mostly waits for periods
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 47, Websites: 60, OrdersPerWebsite: 1, MessagesPerWebsite: 1}))
		t.Cleanup(srv.Close)
		all := websitesOf(t, srv)
		var mu sync.Mutex
		sites := all[:3]
		w, db, stop := startWorker(t, be, target, worker.Config{
			Websites: func() ([]mirror.Website, error) {
				mu.Lock()
				defer mu.Unlock()
				return sites, nil
			},
			Every: time.Second,
		})
		waitFor(t, db, time.Minute, "an ok run of the first three websites", func(runs []run) bool { return len(countRuns(runs, "ok")) == 3 })
		mu.Lock()
		sites = all
		mu.Unlock()
		w.Refresh()
		since := time.Now()
		waitFor(t, db, time.Minute, "two ok runs of each of the 60 websites since the list grew", func(runs []run) bool {
			ok := map[int64]int{}
			for _, r := range runs {
				if r.status == "ok" && r.started.After(since) {
					ok[r.site]++
				}
			}
			for _, s := range all {
				if ok[s.ID] < 2 {
					return false
				}
			}
			return true
		})
		if err := stop(); err != nil {
			t.Fatal(err)
		}
		if o := overlapping(runsOf(t, db)); len(o) > 0 {
			t.Errorf("runs that overlap:\n%s", strings.Join(o, "\n"))
		}
		args := "CAST(args AS TEXT)"
		if be.Backend == mirror.SQLite {
			args = "json(args)" // River's SQLite driver keeps JSONB
		}
		rows, err := db.QueryContext(context.Background(), `SELECT `+args+` FROM river_job WHERE kind = 'ordermsg_fleet_sync'
			AND state IN ('available', 'pending', 'running', 'retryable', 'scheduled') ORDER BY 1`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var live []string
		for rows.Next() {
			var args string
			if err := rows.Scan(&args); err != nil {
				t.Fatal(err)
			}
			live = append(live, strings.ReplaceAll(args, " ", ""))
		}
		if want := fmt.Sprint([]string{`{"batch":0,"batches":2}`, `{"batch":1,"batches":2}`}); fmt.Sprint(live) != want {
			t.Errorf("live batches: %v, want %v", live, want)
		}
	})
}
