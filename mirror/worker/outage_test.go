package worker_test

import (
	"context"
	"io"
	"net"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/mirror/worker"
)

// dbProxy passes TCP connections to a database server, until cut: then it
// closes those it passes and every new one, until restored.
type dbProxy struct {
	l      net.Listener
	server string
	mu     sync.Mutex
	down   bool
	conns  []net.Conn
}

func newDBProxy(t *testing.T, server string) *dbProxy {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &dbProxy{l: l, server: server}
	t.Cleanup(func() { l.Close(); p.cut() })
	go p.serve()
	return p
}

func (p *dbProxy) serve() {
	for {
		c, err := p.l.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		if p.down {
			p.mu.Unlock()
			c.Close()
			continue
		}
		s, err := net.Dial("tcp", p.server)
		if err != nil {
			p.mu.Unlock()
			c.Close()
			continue
		}
		p.conns = append(p.conns, c, s)
		p.mu.Unlock()
		go func() { io.Copy(s, c); s.Close() }()
		go func() { io.Copy(c, s); c.Close() }()
	}
}

// cut closes every connection, and refuses new ones until restore.
func (p *dbProxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = true
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

func (p *dbProxy) restore() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = false
}

// A PostgreSQL database that goes away while the worker runs makes
// Healthy fail; the worker goes on trying, and once the database is back
// it is healthy again and syncs the websites, which end exact.
func TestWorkerResumesAfterADatabaseOutage(t *testing.T) {
	t.Parallel() // each has a database and a fake of its own, and mostly waits for periods
	be := mirrortest.Backends()[1]
	direct := be.New(t)
	u, err := url.Parse(direct)
	if err != nil {
		t.Fatal(err)
	}
	proxy := newDBProxy(t, u.Host)
	u.Host = proxy.l.Addr().String()
	target := u.String()
	f := newFleet(t, 2)
	w, _, stop := startWorker(t, be, target, worker.Config{
		Websites: func() ([]mirror.Website, error) { return f.sites, nil },
		Every:    time.Second,
	})
	db := be.Open(t, direct)
	waitFor(t, db, time.Minute, "an ok run of each website", func(runs []run) bool {
		ok := countRuns(runs, "ok")
		return ok[f.sites[0].ID] > 0 && ok[f.sites[1].ID] > 0
	})

	proxy.cut()
	healthy := func(want bool) func() bool {
		return func() bool {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			return (w.Healthy(ctx) == nil) == want
		}
	}
	waitUntil(t, time.Minute, "Healthy fails while the database is away", healthy(false))
	for _, s := range f.sites {
		f.srv.Handler.AddOrders(s.ID, 2)
	}
	proxy.restore()
	back := time.Now()
	waitUntil(t, time.Minute, "Healthy once the database is back", healthy(true))
	waitFor(t, db, 2*time.Minute, "two ok runs of each website after the outage", func(runs []run) bool {
		n := map[int64]int{}
		for _, r := range runs {
			if r.status == "ok" && r.started.After(back) {
				n[r.site]++
			}
		}
		return n[f.sites[0].ID] >= 2 && n[f.sites[1].ID] >= 2
	})
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	for id, key := range f.keys {
		mirrortest.SameRecords(t, db, f.srv, id, key)
	}
}

// waitUntil polls cond until it holds, or fails the test after within.
func waitUntil(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v", what, within)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
