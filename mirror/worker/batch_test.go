package worker_test

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
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

// A worker syncs Parallel websites of its batches at once at most, on
// each backend: with a service that answers slowly, sixty websites in two
// batches reach two at once and never three, and Events hear of each run
// as it starts.
func TestWorkerSyncsParallelWebsitesAtMost(t *testing.T) {
	t.Parallel() // each has a database and a fake of its own, and mostly waits for periods
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 43, Websites: 60, OrdersPerWebsite: 1, MessagesPerWebsite: 1}),
			ordermsgtest.WithLatency(30*time.Millisecond))
		t.Cleanup(srv.Close)
		sites := websitesOf(t, srv)
		ev := &inFlight{ended: map[int64]int{}}
		_, db, stop := startWorker(t, be, target, worker.Config{
			Websites: func() ([]mirror.Website, error) { return sites, nil },
			Every:    time.Second, Parallel: 2, Events: ev,
		})
		waitFor(t, db, time.Minute, "two ok runs of each website", func(runs []run) bool {
			ok := countRuns(runs, "ok")
			for _, s := range sites {
				if ok[s.ID] < 2 {
					return false
				}
			}
			return true
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

// lockedBuffer is a log that the test reads while the worker writes it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// At the info level a batch logs one line, and each of its websites none,
// while a failure logs a warning with the key masked; at the debug level
// each website's run logs a line too.
func TestWorkerLogsABatchInOneLine(t *testing.T) {
	t.Parallel() // each has a database and a fake of its own, and mostly waits for periods
	be := mirrortest.Backends()[0]
	for _, level := range []slog.Level{slog.LevelInfo, slog.LevelDebug} {
		f := newFleet(t, 3)
		const refusedKey = "refused-key-5d0c2e"
		sites := append(f.sites, f.website(t, 999, refusedKey))
		log := &lockedBuffer{}
		_, db, stop := startWorker(t, be, be.New(t), worker.Config{
			Websites: func() ([]mirror.Website, error) { return sites, nil },
			Every:    time.Second, Logger: slog.New(slog.NewTextHandler(log, &slog.HandlerOptions{Level: level})),
		})
		waitFor(t, db, time.Minute, "two ok runs of each good website", func(runs []run) bool {
			ok := countRuns(runs, "ok")
			return ok[f.sites[0].ID] >= 2 && ok[f.sites[1].ID] >= 2 && ok[f.sites[2].ID] >= 2
		})
		if err := stop(); err != nil {
			t.Fatal(err)
		}
		text := log.String()
		batches, synced := strings.Count(text, `msg="batch synced" batch=0 of=1 websites=`), strings.Count(text, `msg="website synced"`)
		switch {
		case batches < 2:
			t.Errorf("level %v: %d lines of a batch, want one per period:\n%s", level, batches, text)
		case level == slog.LevelInfo && synced > 0:
			t.Errorf("level %v: %d lines of a website synced in a batch, want none:\n%s", level, synced, text)
		case level == slog.LevelDebug && synced < 6:
			t.Errorf("level %v: %d lines of a website synced, want one per run:\n%s", level, synced, text)
		case !strings.Contains(text, `msg="website failed" website=999`) || strings.Contains(text, refusedKey):
			t.Errorf("level %v: want the refused website's failure, its key masked:\n%s", level, text)
		}
	}
}

// startTimes records when each run starts, and counts those that start
// once the test has set stopping.
type startTimes struct {
	stopping atomic.Bool
	late     atomic.Int32
}

func (s *startTimes) RunStarted(int64) {
	if s.stopping.Load() {
		s.late.Add(1)
	}
}

func (s *startTimes) RunEnded(mirror.WebsiteResult) {}

// slowFleet is a fake of n websites that answers after latency, and their
// Websites.
func slowFleet(t *testing.T, n int, latency time.Duration) []mirror.Website {
	t.Helper()
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 53, Websites: n, OrdersPerWebsite: 1, MessagesPerWebsite: 1}),
		ordermsgtest.WithLatency(latency))
	t.Cleanup(srv.Close)
	return websitesOf(t, srv)
}

// A worker told to stop starts no website more: a batch of slow websites
// in progress, one at a time, ends with the run under way, and is left
// available at once, for the next worker, rather than at its next period.
func TestWorkerStartsNoWebsiteAfterItsStop(t *testing.T) {
	t.Parallel() // each has a database and a fake of its own, and mostly waits for periods
	be := mirrortest.Backends()[0]
	sites := slowFleet(t, 12, 300*time.Millisecond)
	ev := &startTimes{}
	_, db, stop := startWorker(t, be, be.New(t), worker.Config{
		Websites: func() ([]mirror.Website, error) { return sites, nil },
		Every:    time.Minute, Parallel: 1, Events: ev,
	})
	waitFor(t, db, time.Minute, "a first ok run", func(runs []run) bool { return len(countRuns(runs, "ok")) > 0 })
	ev.stopping.Store(true)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	// The one slot may have been taken as the stop began.
	if late := ev.late.Load(); late > 1 {
		t.Errorf("%d websites started after the stop began, want at most the one under way", late)
	}
	if n := len(countRuns(runsOf(t, db), "ok")); n == len(sites) {
		t.Errorf("every website of the batch was synced: the stop did not cut it short")
	}
	var state string
	if err := db.QueryRow(`SELECT CAST(state AS TEXT) FROM river_job WHERE kind = 'ordermsg_fleet_sync'`).Scan(&state); err != nil {
		t.Fatal(err)
	}
	if state != "available" {
		t.Errorf("the batch cut short by the stop is %s, want available for the next worker", state)
	}
}

// A website that fails first in a long batch is retried by its own job
// RetryWait after its failed run, while the batch still runs: the batch
// does not hold its retry up.
func TestWorkerRetriesAFailureBeforeItsBatchEnds(t *testing.T) {
	t.Parallel() // each has a database and a fake of its own, and mostly waits for periods
	be := mirrortest.Backends()[0]
	sites := slowFleet(t, 24, 300*time.Millisecond)
	refused, err := ordermsg.NewClient(sites[0].Client.BaseURL(), "refused-key-9a41")
	if err != nil {
		t.Fatal(err)
	}
	// Id 1, below the fake's: the batch runs it first.
	sites = append(sites, mirror.Website{ID: 1, Client: refused})
	_, db, stop := startWorker(t, be, be.New(t), worker.Config{
		Websites: func() ([]mirror.Website, error) { return sites, nil },
		Every:    time.Minute, Parallel: 1,
	})
	runs := waitFor(t, db, time.Minute, "two failed runs of the refused website, an ok run of each other", func(runs []run) bool {
		return countRuns(runs, "failed")[1] >= 2 && len(countRuns(runs, "ok")) == len(sites)-1
	})
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	var failed []run
	var lastOK time.Time
	for _, r := range runs {
		switch {
		case r.site == 1:
			failed = append(failed, r)
		case r.status == "ok" && r.finished.After(lastOK):
			lastOK = r.finished
		}
	}
	wait := failed[1].started.Sub(failed[0].started)
	// RetryWait(1) is 5 s; River's scheduler makes the job available
	// within 5 s of its time (SQLite: its fetch polls every 2 s).
	if wantMin, wantMax := worker.RetryWait(1, time.Minute), worker.RetryWait(1, time.Minute)+5*time.Second; wait < wantMin || wait > wantMax {
		t.Errorf("the refused website ran again %v after its first failure, want %v to %v", wait, wantMin, wantMax)
	}
	if !failed[1].started.Before(lastOK) {
		t.Errorf("the retry started at %v, after the batch's last run ended (%v): want it during the batch", failed[1].started, lastOK)
	}
}

// A batch that its timeout (Every + 5 s) cuts short reaches, when it is
// retried, the websites it did not reach: with websites too slow for one
// period, every website is synced all the same.
func TestWorkerReachesTheWebsitesACutBatchLeft(t *testing.T) {
	t.Parallel() // each has a database and a fake of its own, and mostly waits for periods
	be := mirrortest.Backends()[0]
	sites := slowFleet(t, 14, 300*time.Millisecond)
	_, db, stop := startWorker(t, be, be.New(t), worker.Config{
		Websites: func() ([]mirror.Website, error) { return sites, nil },
		Every:    time.Second, Parallel: 1,
	})
	waitFor(t, db, 90*time.Second, "an ok run of each website", func(runs []run) bool { return len(countRuns(runs, "ok")) == len(sites) })
	if err := stop(); err != nil {
		t.Fatal(err)
	}
}
