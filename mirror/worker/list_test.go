package worker_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/mirror/worker"
)

// A list of websites that fails keeps the last good one, and the worker
// goes on syncing it; a website that leaves the list is no longer synced,
// and one that joins it is synced at once (Refresh).
func TestWorkerKeepsTheLastGoodList(t *testing.T) {
	t.Parallel() // each has a database and a fake of its own, and mostly waits for periods
	be := mirrortest.Backends()[0]
	target := be.New(t)
	f := newFleet(t, 3)
	a, b, c := f.sites[0], f.sites[1], f.sites[2]
	var list atomic.Pointer[[]mirror.Website]
	var failing atomic.Bool
	list.Store(&[]mirror.Website{a, b})
	w, db, stop := startWorker(t, be, target, worker.Config{
		Websites: func() ([]mirror.Website, error) {
			if failing.Load() {
				return nil, errors.New("FILE refused")
			}
			return *list.Load(), nil
		},
		Every: time.Second,
	})
	atLeast := func(n int, sites ...mirror.Website) func([]run) bool {
		return func(runs []run) bool {
			ok := countRuns(runs, "ok")
			for _, s := range sites {
				if ok[s.ID] < n {
					return false
				}
			}
			return true
		}
	}
	waitFor(t, db, time.Minute, "an ok run of a and b", atLeast(1, a, b))

	failing.Store(true)
	w.Refresh()
	ok := countRuns(runsOf(t, db), "ok")
	waitFor(t, db, time.Minute, "two more runs of a and b while the list fails", func(runs []run) bool {
		now := countRuns(runs, "ok")
		return now[a.ID] >= ok[a.ID]+2 && now[b.ID] >= ok[b.ID]+2
	})
	if got := w.WebsiteIDs(); !slices.Equal(got, []int64{min(a.ID, b.ID), max(a.ID, b.ID)}) {
		t.Errorf("WebsiteIDs while the list fails: %v", got)
	}

	list.Store(&[]mirror.Website{a, c})
	failing.Store(false)
	w.Refresh()
	waitFor(t, db, time.Minute, "an ok run of c, the website that joined", atLeast(1, c))
	left := countRuns(runsOf(t, db), "ok")[b.ID]
	before := countRuns(runsOf(t, db), "ok")
	waitFor(t, db, time.Minute, "three more runs of a", func(runs []run) bool { return countRuns(runs, "ok")[a.ID] >= before[a.ID]+3 })
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	// A run of b that had begun when it left may end after.
	if n := countRuns(runsOf(t, db), "ok")[b.ID]; n > left+1 {
		t.Errorf("website b left the list with %d runs, and has %d", left, n)
	}
}

// A 429's Retry-After delays that website alone: its next run starts no
// sooner than Retry-After after the refused one, longer than its retry
// wait, while another website goes on each second; the refused run's row
// says 429.
func TestWorkerHonoursRetryAfter(t *testing.T) {
	t.Parallel() // each has a database and a fake of its own, and mostly waits for periods
	be := mirrortest.Backends()[0]
	target := be.New(t)
	f := newFleet(t, 2)
	limited := f.sites[0].ID
	var refused atomic.Bool
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, fmt.Sprintf("/websites/%d/", limited)) && refused.CompareAndSwap(false, true) {
			w.Header().Set("Retry-After", "4")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		f.srv.Handler.ServeHTTP(w, r)
	}))
	t.Cleanup(front.Close)
	var sites []mirror.Website
	for _, s := range f.sites {
		c, err := ordermsg.NewClient(front.URL, f.keys[s.ID], ordermsg.WithRetry(ordermsg.RetryPolicy{}))
		if err != nil {
			t.Fatal(err)
		}
		sites = append(sites, mirror.Website{ID: s.ID, Client: c, Secrets: s.Secrets})
	}
	other := sites[1].ID
	_, db, stop := startWorker(t, be, target, worker.Config{
		Websites: func() ([]mirror.Website, error) { return sites, nil },
		Every:    time.Second,
	})
	runs := waitFor(t, db, time.Minute, "an ok run of the limited website", func(runs []run) bool { return countRuns(runs, "ok")[limited] > 0 })
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	var failed, next *run
	for i, r := range runs {
		if r.site != limited {
			continue
		}
		if failed == nil {
			failed = &runs[i]
		} else if next == nil {
			next = &runs[i]
		}
	}
	switch {
	case failed == nil || failed.status != "failed" || !strings.Contains(failed.text, "429"):
		t.Fatalf("the limited website's first run: %+v, want failed with a 429", failed)
	case next.started.Sub(failed.finished) < 4*time.Second:
		t.Errorf("the limited website ran again %v after its 429, before its Retry-After of 4s", next.started.Sub(failed.finished))
	}
	meanwhile := 0
	for _, r := range runs {
		if r.site == other && r.started.After(failed.finished) && r.started.Before(next.started) {
			meanwhile++
		}
	}
	if meanwhile < 2 {
		t.Errorf("the other website ran %d times while the limited one waited, want it held up by nothing", meanwhile)
	}
}

// A website whose run fails in its batch is retried by a job of its own,
// which its first success ends, on each backend: the website is back in
// its batch (its own job is gone, the batch's job has no attempt and no
// error), and keeps being synced.
func TestWorkerFailuresCountFromZeroAfterASuccess(t *testing.T) {
	t.Parallel() // each has a database and a fake of its own, and mostly waits for periods
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		f := newFleet(t, 1)
		site := f.sites[0]
		var failures atomic.Int32
		front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if failures.Add(1) <= 2 {
				http.Error(w, "down for a moment", http.StatusBadGateway)
				return
			}
			f.srv.Handler.ServeHTTP(w, r)
		}))
		t.Cleanup(front.Close)
		c, err := ordermsg.NewClient(front.URL, f.keys[site.ID], ordermsg.WithRetry(ordermsg.RetryPolicy{}))
		if err != nil {
			t.Fatal(err)
		}
		site.Client = c
		_, db, stop := startWorker(t, be, target, worker.Config{
			Websites: func() ([]mirror.Website, error) { return []mirror.Website{site}, nil },
			Every:    time.Second,
		})
		// The failed run's orders and messages meet the two failures.
		waitFor(t, db, time.Minute, "three ok runs after a failed one", func(runs []run) bool {
			return countRuns(runs, "failed")[site.ID] >= 1 && countRuns(runs, "ok")[site.ID] >= 3
		})
		if err := stop(); err != nil {
			t.Fatal(err)
		}
		live := func(kind string) (n, attempt int, errs any) {
			err := db.QueryRow(`SELECT count(*), coalesce(max(attempt), -1), max(errors) FROM river_job
				WHERE kind = '`+kind+`' AND state IN ('available', 'scheduled', 'retryable', 'running')`).Scan(&n, &attempt, &errs)
			if err != nil {
				t.Fatal(err)
			}
			return n, attempt, errs
		}
		if n, _, _ := live("ordermsg_website_sync"); n != 0 {
			t.Errorf("the website has %d live jobs of its own after its success, want none", n)
		}
		if n, attempt, errs := live("ordermsg_fleet_sync"); n != 1 || attempt > 1 || errs != nil {
			t.Errorf("the batches: %d live, attempt %d, errors %v; want one, no failed attempt, no error", n, attempt, errs)
		}
	})
}
