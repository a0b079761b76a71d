package mirror_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// BenchmarkFleetNothingNew runs a fleet of 12 websites, all mirrored
// already, where nothing is new: one Open, then a SyncFleet (a worker's
// run). Its peer, in the same iterations, is what a loop of one `sync --db`
// per website does: a handle, an Open and a Sync per website. It reports,
// per website, the fleet's requests, DDL statements, look-ups in the
// catalog, statements and milliseconds, and the loop's.
func BenchmarkFleetNothingNew(b *testing.B) {
	const websites = 12
	srv, sites := fleetSites(b, websites)
	for _, be := range mirrortest.Backends() {
		b.Run(be.Name, func(b *testing.B) {
			target := be.New(b)
			if _, _, err := syncFleet(openMirror(b, be, be.Open(b, target)), context.Background(), fleetOf(sites...), nil); err != nil {
				b.Fatal(err)
			}
			var fleet, loop statements
			var fleetTime, loopTime time.Duration
			var requests int64
			ctx := context.Background()
			b.ResetTimer()
			for range b.N {
				before := srv.Handler.Stats().Requests
				start := time.Now()
				db := counted(b, be, target, &fleet)
				m, err := mirror.Open(ctx, db, be.Backend)
				if err != nil {
					b.Fatal(err)
				}
				if res, err := m.SyncFleet(ctx, fleetOf(sites...), nil); err != nil || res != (mirror.FleetResult{Synced: websites}) {
					b.Fatalf("%+v, %v", res, err)
				}
				db.Close()
				fleetTime += time.Since(start)
				requests += srv.Handler.Stats().Requests - before

				start = time.Now()
				for _, s := range sites {
					db := counted(b, be, target, &loop)
					m, err := mirror.Open(ctx, db, be.Backend)
					if err != nil {
						b.Fatal(err)
					}
					if res, err := m.Sync(ctx, s.c, s.id, nil); err != nil || res != (mirror.Result{}) {
						b.Fatalf("%+v, %v", res, err)
					}
					db.Close()
				}
				loopTime += time.Since(start)
			}
			per := float64(b.N * websites)
			b.ReportMetric(float64(requests)/per, "requests/website")
			b.ReportMetric(float64(fleet.ddl.Load())/per, "ddl/website")
			b.ReportMetric(float64(fleet.catalog.Load())/per, "catalog/website")
			b.ReportMetric(float64(loop.catalog.Load())/per, "loop-catalog/website")
			b.ReportMetric(float64(fleet.all.Load())/per, "statements/website")
			b.ReportMetric(float64(loop.all.Load())/per, "loop-statements/website")
			b.ReportMetric(fleetTime.Seconds()*1000/per, "ms/website")
			b.ReportMetric(loopTime.Seconds()*1000/per, "loop-ms/website")
		})
	}
}

// BenchmarkFleetWorkers mirrors 12 websites from a fake 50 ms away into
// a new PostgreSQL database with one worker, and into another with three at
// once: goroutines, each with its own handle and Mirror as a process would
// have, each running Open and a SyncFleet of the 12. It reports the time of
// each, from the workers' start to the last one's end, and their ratio.
// The sub-benchmarks set each worker's Parallel (1, or the default 4) and
// the websites' size: light (10 orders and 12 messages each: 2 requests a
// website, the network's latency sets the pace, as in a fleet's run every
// few minutes, where little is new) or heavy (40 orders and 50 messages,
// every include: on two shared cores the CPU of the fake, the decoding and
// the database bounds it).
func BenchmarkFleetWorkers(b *testing.B) {
	const websites = 12
	for _, size := range []struct {
		name             string
		orders, messages int
	}{{"light", 10, 12}, {"heavy", 40, 50}} {
		srv := newFake(b, ordermsgtest.Config{Seed: 30, Websites: websites, OrdersPerWebsite: size.orders, MessagesPerWebsite: size.messages},
			ordermsgtest.WithLatency(50*time.Millisecond))
		sites := make([]site, websites)
		for i := range sites {
			sites[i] = siteOf(b, srv, i)
		}
		for _, parallel := range []int{1, mirror.DefaultParallel} {
			b.Run(fmt.Sprintf("%s/parallel-%d", size.name, parallel), func(b *testing.B) {
				fleetWorkers(b, srv, sites, parallel)
			})
		}
	}
}

// fleetWorkers is a run of BenchmarkFleetWorkers. It also reports the
// requests of the three workers over those of the one: above 1 when they
// sync a website more than once.
func fleetWorkers(b *testing.B, srv *ordermsgtest.Server, sites []site, parallel int) {
	be := postgresBackend(b)
	ctx := context.Background()
	workers := func(target string, n int) time.Duration {
		start := time.Now()
		var wg sync.WaitGroup
		for range n {
			db := be.Open(b, target)
			wg.Go(func() {
				// Closed now, not when the benchmark ends: each iteration
				// would leave its connections open, and -benchtime 20x
				// would pass max_connections.
				defer db.Close()
				m, err := mirror.Open(ctx, db, be.Backend)
				if err == nil {
					_, err = m.SyncFleet(ctx, fleetOf(sites...), &mirror.FleetOptions{Parallel: parallel})
				}
				if err != nil {
					b.Error(err)
				}
			})
		}
		wg.Wait()
		return time.Since(start)
	}
	var one, three time.Duration
	var oneRequests, threeRequests int64
	for range b.N {
		b.StopTimer()
		first, second := be.New(b), be.New(b)
		for _, target := range []string{first, second} {
			db := be.Open(b, target)
			openMirror(b, be, db)
			db.Close()
		}
		b.StartTimer()
		before := srv.Handler.Stats().Requests
		one += workers(first, 1)
		oneRequests += srv.Handler.Stats().Requests - before
		before = srv.Handler.Stats().Requests
		three += workers(second, 3)
		threeRequests += srv.Handler.Stats().Requests - before
	}
	b.ReportMetric(float64(threeRequests)/float64(oneRequests), "3-workers-requests/1-worker-requests")
	n := float64(b.N)
	b.ReportMetric(one.Seconds()*1000/n, "ms/1-worker")
	b.ReportMetric(three.Seconds()*1000/n, "ms/3-workers")
	b.ReportMetric(three.Seconds()/one.Seconds(), "3-workers/1-worker")
}
