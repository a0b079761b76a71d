//go:build unix

package worker_test

import (
	"context"
	"database/sql"
	"runtime"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/mirror/worker"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// processCPU is the CPU time the process has used, user and system.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// periods counts the runs a worker ends, to tell when every website has
// ended n runs, and says on started when a run starts.
type periods struct {
	mu      sync.Mutex
	ended   map[int64]int
	sites   int
	started chan struct{}
}

func (p *periods) RunStarted(int64) {
	select {
	case p.started <- struct{}{}:
	default:
	}
}

func (p *periods) RunEnded(r mirror.WebsiteResult) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ended[r.WebsiteID]++
}

// done reports whether every website has ended n runs.
func (p *periods) done(n int) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.ended) < p.sites {
		return false
	}
	for _, c := range p.ended {
		if c < n {
			return false
		}
	}
	return true
}

// waitPeriod waits until every website has ended n runs.
func (p *periods) waitPeriod(b *testing.B, n int) {
	deadline := time.Now().Add(15 * time.Minute)
	for !p.done(n) {
		if time.Now().After(deadline) {
			b.Fatalf("period %d not done in 15 minutes", n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// benchFleet is a fake of 200 websites with nothing new once synced, and
// their Websites.
func benchFleet(b *testing.B, opts ...ordermsgtest.Option) []mirror.Website {
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 41, Websites: benchSites, OrdersPerWebsite: 3, MessagesPerWebsite: 3}), opts...)
	b.Cleanup(srv.Close)
	return websitesOf(b, srv)
}

// benchSites is the number of websites of the benchmarks.
const benchSites = 200

// benchMirror opens a fresh mirror of be, syncs fleet into it once with
// SyncFleet, and returns it, its database, its target and the CPU of a
// SyncFleet with nothing new, the mean of three.
func benchMirror(b *testing.B, be mirrortest.Backend, fleet []mirror.Website) (m *mirror.Mirror, db *sql.DB, target string, oneShot time.Duration) {
	target = be.New(b)
	db = be.Open(b, target)
	db.SetMaxIdleConns(3 * mirror.DefaultParallel)
	m, err := mirror.Open(context.Background(), db, be.Backend)
	if err != nil {
		b.Fatal(err)
	}
	all := slices.Values(fleet)
	if _, err := m.SyncFleet(context.Background(), all, nil); err != nil {
		b.Fatal(err)
	}
	cpu := processCPU()
	for range 3 {
		if _, err := m.SyncFleet(context.Background(), all, nil); err != nil {
			b.Fatal(err)
		}
	}
	return m, db, target, (processCPU() - cpu) / 3
}

// startBenchWorker runs a worker of fleet on m every period; stop ends it.
func startBenchWorker(b *testing.B, be mirrortest.Backend, m *mirror.Mirror, target string, fleet []mirror.Website, every time.Duration) (p *periods, stop func()) {
	p = &periods{ended: map[int64]int{}, sites: len(fleet), started: make(chan struct{}, 1)}
	w, err := worker.New(worker.Config{Mirror: m, Queue: queueOf(b, be, target), Every: every, Events: p,
		Websites: func() ([]mirror.Website, error) { return fleet, nil }})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	return p, func() {
		cancel()
		if err := <-done; err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWorkerPeriods runs a worker of 200 websites with nothing new,
// every 8 s, for 10 periods, on each backend, and reports: the CPU of a
// period (the mean of the third to the sixth, their idle time included) ÷
// that of one SyncFleet of the same websites, warm, in the same process
// (goal ≤ 1.2 against a one-shot command: BenchmarkWorkerPeriodCPU); the share of runs that start within Every + 10 s of the website's
// last (goal ≥ 0.99); and the live heap after the last period ÷ after the
// second (goal: flat, 1).
func BenchmarkWorkerPeriods(b *testing.B) {
	const every, rounds = 8 * time.Second, 10
	for _, be := range mirrortest.Backends() {
		b.Run(be.Name, func(b *testing.B) {
			fleet := benchFleet(b)
			for range b.N {
				m, db, target, oneShot := benchMirror(b, be, fleet)
				p, stop := startBenchWorker(b, be, m, target, fleet, every)
				p.waitPeriod(b, 2)
				runtime.GC()
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				heap2 := ms.HeapAlloc
				cpu := processCPU()
				p.waitPeriod(b, 6)
				period := (processCPU() - cpu) / 4
				p.waitPeriod(b, rounds)
				runtime.GC()
				runtime.ReadMemStats(&ms)
				heapLast := ms.HeapAlloc
				stop()
				b.ReportMetric(float64(period)/float64(oneShot), "period/oneshot-cpu")
				b.ReportMetric(onTimeShare(runsOf(b, db), every), "on-time-share")
				b.ReportMetric(float64(heapLast)/float64(heap2), "heap-last/second")
			}
		})
	}
}

// onTimeShare is the share of runs, ordered by website and start, that
// start within every + 10 s of the same website's run before.
func onTimeShare(runs []run, every time.Duration) float64 {
	onTime, pairs := 0, 0
	for i := 1; i < len(runs); i++ {
		if runs[i].site == runs[i-1].site {
			pairs++
			if runs[i].started.Sub(runs[i-1].started) <= every+10*time.Second {
				onTime++
			}
		}
	}
	return float64(onTime) / float64(pairs)
}

// BenchmarkWorkerPunctuality runs a worker of 200 websites whose server
// answers after 50 ms, every minute for 10 periods, on each backend, and
// reports the share of runs that start within Every + 10 s of the
// website's last (goal ≥ 0.99). It takes about 11 minutes a backend.
func BenchmarkWorkerPunctuality(b *testing.B) {
	const every, rounds = time.Minute, 10
	for _, be := range mirrortest.Backends() {
		b.Run(be.Name, func(b *testing.B) {
			fleet := benchFleet(b, ordermsgtest.WithLatency(50*time.Millisecond))
			for range b.N {
				m, db, target, _ := benchMirror(b, be, fleet)
				p, stop := startBenchWorker(b, be, m, target, fleet, every)
				p.waitPeriod(b, rounds)
				stop()
				b.ReportMetric(onTimeShare(runsOf(b, db), every), "on-time-share")
			}
		})
	}
}

// BenchmarkWorkerIdle runs a worker of 200 websites every minute, on each
// backend, and reports the share of one core the process uses in the 20 s
// after its first period, when no run starts (goal ≤ 1%).
func BenchmarkWorkerIdle(b *testing.B) {
	for _, be := range mirrortest.Backends() {
		b.Run(be.Name, func(b *testing.B) {
			fleet := benchFleet(b)
			for range b.N {
				m, _, target, _ := benchMirror(b, be, fleet)
				p, stop := startBenchWorker(b, be, m, target, fleet, time.Minute)
				p.waitPeriod(b, 1)
				for len(p.started) > 0 {
					<-p.started
				}
				from, cpu := time.Now(), processCPU()
				select {
				case <-p.started:
					b.Fatal("a run started within the idle window")
				case <-time.After(20 * time.Second):
				}
				idle := float64(processCPU()-cpu) / float64(time.Since(from))
				stop()
				b.ReportMetric(100*idle, "idle-%core")
			}
		})
	}
}
