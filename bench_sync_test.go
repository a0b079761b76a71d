package ordermsg_test

import (
	"context"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// BenchmarkSyncRequests counts the requests a Sync makes, in each scenario
// beside a plain walk of the same list (AllSince: ascending from the same
// date_start), on the server as the Sync left it: what Sync sends beyond that
// walk is what its checks and recoveries cost. Requests are counted, not
// timed: the metrics are requests per run.
//
//   - quiet: nothing changes; also the requests of a walk from two days
//     before the mark, the overlap before it was widened to five.
//   - new: 5 orders arrive between runs.
//   - leave: 5 orders arrive between runs, and during each run an order
//     already read leaves the Status filter before page 2 is served.
//   - first-run-leave: a first run over the whole history (1000 orders)
//     while an order of page 1 leaves before page 2.
//   - mark-deleted: the newest order the checkpoint remembers is deleted
//     before the run (the overlap check reads it by id).
func BenchmarkSyncRequests(b *testing.B) {
	for _, sc := range []string{"quiet", "new", "leave", "first-run-leave", "mark-deleted"} {
		b.Run(sc, func(b *testing.B) { benchSyncScenario(b, sc) })
	}
}

func benchSyncScenario(b *testing.B, scenario string) {
	ds := ordermsgtest.Generate(ordermsgtest.Config{Seed: 4, Websites: 1, OrdersPerWebsite: 1000})
	site := ds.Websites[0].ID
	var (
		leaveNext atomic.Bool // an order of page 1 leaves before page 2
		mu        sync.Mutex
		page1     int64 // an order of page 1 of the listing under way
		h         *ordermsgtest.Handler
	)
	h = ordermsgtest.NewHandler(ds, ordermsgtest.WithBeforeList(func(r ordermsgtest.ListRequest) {
		if r.Page == 2 && leaveNext.CompareAndSwap(true, false) {
			mu.Lock()
			h.SetOrderStatus(site, page1, "shipped")
			mu.Unlock()
		}
	}))
	var cs countingServer
	hs := httptest.NewServer(cs.wrap(h, nil))
	defer hs.Close()
	c, _ := ordermsg.NewClient(hs.URL, ds.Websites[0].APIKey)
	ctx := context.Background()
	const count = 10
	opts := &ordermsg.ListOrdersOptions{Status: ordermsg.OrderStatusNew, Count: count}
	run := func(cp *ordermsg.Checkpoint) {
		n := 0
		for o, err := range c.Orders.Sync(ctx, site, cp, opts) {
			if err != nil {
				b.Fatal(err)
			}
			if n++; n == 2 {
				mu.Lock()
				page1 = o.ID
				mu.Unlock()
			}
		}
	}
	plain := func(start ordermsg.Date) int64 {
		before := cs.requests.Load()
		for _, err := range ordermsg.OrdersResource().AllSince(ctx, c, site, start, &ordermsg.ResourceOptions{Filter: string(ordermsg.OrderStatusNew), Count: count}) {
			if err != nil {
				b.Fatal(err)
			}
		}
		return cs.requests.Load() - before
	}
	var cp ordermsg.Checkpoint
	if scenario != "first-run-leave" {
		run(&cp)
	}
	var syncReqs, plainReqs, twoDays int64
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		start := ordermsg.DateOf(cp.Mark().UTC().AddDate(0, 0, -5))
		switch scenario {
		case "new":
			h.AddOrders(site, 5)
		case "leave":
			h.AddOrders(site, 5)
			leaveNext.Store(true)
		case "first-run-leave":
			cp, start = ordermsg.Checkpoint{}, ordermsg.Date{}
			leaveNext.Store(true)
		case "mark-deleted":
			var newest *ordermsg.Order
			h.Snapshot(func(ds *ordermsgtest.Dataset) {
				for _, o := range ds.Websites[0].Orders {
					if newest == nil || o.DateCreated.After(newest.DateCreated.Time) {
						newest = o
					}
				}
			})
			h.DeleteOrder(site, newest.ID)
			h.AddOrders(site, 1) // a new mark for the next iteration
		}
		before := cs.requests.Load()
		b.StartTimer()
		run(&cp)
		b.StopTimer()
		syncReqs += cs.requests.Load() - before
		plainReqs += plain(start)
		if scenario == "quiet" {
			twoDays += plain(ordermsg.DateOf(cp.Mark().UTC().AddDate(0, 0, -2)))
		}
		b.StartTimer()
	}
	n := float64(b.N)
	b.ReportMetric(float64(syncReqs)/n, "requests/run")
	b.ReportMetric(float64(plainReqs)/n, "plain-walk-requests/run")
	b.ReportMetric(float64(syncReqs-plainReqs)/n, "extra-requests/run")
	if scenario == "quiet" {
		b.ReportMetric(float64(twoDays)/n, "two-day-overlap-requests/run")
	}
}
