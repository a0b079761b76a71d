//go:build unix

package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// fleetWorker starts `ordermsg sync --db target --websites file` against
// the service at url, with extra arguments.
func fleetWorker(t *testing.T, url, target, file string, extra ...string) (*exec.Cmd, *strings.Builder, *strings.Builder) {
	t.Helper()
	cmd := command(t, "", map[string]string{envBaseURL: url}, append([]string{"sync", "--db", target, "--websites", file}, extra...)...)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, &stdout, &stderr
}

// overlaps returns the websites of which mirror_runs, in PostgreSQL, holds
// two runs that overlap in time: one that started while the other ran, or
// at the same instant (the rows told apart by their ctid).
func overlaps(t *testing.T, db *sql.DB) []string {
	t.Helper()
	rows, err := db.Query(`SELECT a.website_id, a.started_at, a.finished_at, b.started_at, b.finished_at
		FROM mirror_runs a JOIN mirror_runs b ON a.website_id = b.website_id AND a.ctid <> b.ctid
		WHERE a.started_at <= b.started_at AND b.started_at < a.finished_at
			AND (a.started_at < b.started_at OR a.ctid < b.ctid)`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id int64
		var a1, a2, b1, b2 time.Time
		if err := rows.Scan(&id, &a1, &a2, &b1, &b2); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("website %d: %v to %v and %v to %v", id, a1, a2, b1, b2))
	}
	return out
}

// TestFleetWorkersShareThroughPostgreSQL runs three worker processes at
// once, each `sync --websites` of the same twelve websites into one
// PostgreSQL database, the service 20 ms away: all exit 0, each prints a
// line for every website, every website is exact, and no website was
// synced by two at once (the runs of each website in mirror_runs do not
// overlap); between them the workers synced every website.
func TestFleetWorkersShareThroughPostgreSQL(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	be := mirrortest.Backends()[1]
	target := be.New(t)
	srv, sites := fakeFleet(t, ordermsgtest.Config{Seed: 27, Websites: 12, OrdersPerWebsite: 40, MessagesPerWebsite: 50}, ordermsgtest.WithLatency(20*time.Millisecond))
	file := websitesFile(t, fileOf(sites))

	type worker struct {
		cmd            *exec.Cmd
		stdout, stderr *strings.Builder
	}
	var workers []worker
	for range 3 {
		cmd, stdout, stderr := fleetWorker(t, srv.URL, target, file, "--count", "20")
		workers = append(workers, worker{cmd, stdout, stderr})
	}
	synced := map[string]int{}
	for i, w := range workers {
		if code := exitCodeOf(t, w.cmd.Wait()); code != exitOK {
			t.Fatalf("worker %d: exit %d\n%s%s", i, code, w.stdout, w.stderr)
		}
		lines, _ := fleetLines(t, w.stdout.String())
		if len(lines) != len(sites) {
			t.Errorf("worker %d printed %d website lines, want %d:\n%s", i, len(lines), len(sites), w.stdout)
		}
		for id, what := range lines {
			if strings.HasPrefix(what, "synced") {
				synced[id]++
			}
		}
	}
	if len(synced) != len(sites) {
		t.Errorf("the workers synced %d of the %d websites: %v", len(synced), len(sites), synced)
	}
	db := be.Open(t, target)
	for _, w := range sites {
		mirrortest.SameRecords(t, db, srv, w.ID, w.APIKey)
	}
	if o := overlaps(t, db); len(o) > 0 {
		t.Errorf("websites synced by two at once:\n%s", strings.Join(o, "\n"))
	}
}

// requestKiller passes requests to the service and, at the at-th, says so
// on hit (once).
type requestKiller struct {
	next http.Handler
	at   int64
	seen atomic.Int64
	hit  chan struct{}
}

func (k *requestKiller) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if k.seen.Add(1) == k.at {
		k.hit <- struct{}{}
	}
	k.next.ServeHTTP(w, r)
}

// TestFleetWorkerKilled kills a fleet worker with SIGKILL at a request
// drawn at random among those of its run, adds records, and runs the fleet
// again: it exits 0, syncs every website (the one the dead worker held is
// taken: its hold went with its session), and every website is exact.
func TestFleetWorkerKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		srv, sites := fakeFleet(t, ordermsgtest.Config{Seed: 28, Websites: 6, OrdersPerWebsite: 120, MessagesPerWebsite: 150})
		file := websitesFile(t, fileOf(sites))
		// A website lists 13 pages of orders and 16 of messages at --count
		// 10: the run makes about 180 requests.
		seed := uint64(time.Now().UnixNano())
		t.Logf("seed %d", seed)
		k := &requestKiller{next: srv.Handler, at: 10 + rand.New(rand.NewPCG(seed, 28)).Int64N(150), hit: make(chan struct{}, 1)}
		front := httptest.NewServer(k)
		defer front.Close()

		cmd, stdout, stderr := fleetWorker(t, front.URL, target, file, "--count", "10", "--parallel", "2")
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-k.hit:
			cmd.Process.Kill() // SIGKILL
		case err := <-done:
			t.Fatalf("the worker ended (%v) before request %d:\n%s%s", err, k.at, stdout, stderr)
		}
		var exit *exec.ExitError
		if err := <-done; !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
			t.Fatalf("%v, want killed by SIGKILL", err)
		}
		t.Logf("killed at request %d", k.at)
		for _, w := range sites {
			srv.Handler.AddOrders(w.ID, 2)
			srv.Handler.AddMessages(w.ID, 1)
		}
		db := be.Open(t, target)
		if be.Backend == mirrortest.Backends()[1].Backend {
			waitForNoAdvisoryLocks(t, db)
		}

		cmd, stdout, stderr = fleetWorker(t, front.URL, target, file, "--count", "10", "--parallel", "2")
		if code := exitCodeOf(t, cmd.Wait()); code != exitOK {
			t.Fatalf("the run after the kill: exit %d\n%s%s", code, stdout, stderr)
		}
		lines, _ := fleetLines(t, stdout.String())
		for _, w := range sites {
			if what := lines[fmt.Sprint(w.ID)]; !strings.HasPrefix(what, "synced") {
				t.Errorf("website %d after the kill: %q", w.ID, what)
			}
			mirrortest.SameRecords(t, db, srv, w.ID, w.APIKey)
		}
	})
}

// waitForNoAdvisoryLocks waits until PostgreSQL has ended the sessions of
// a killed process, which it does as soon as it reads their closed
// connections: no advisory lock is left in the database.
func waitForNoAdvisoryLocks(t *testing.T, db *sql.DB) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for {
		var n int
		err := db.QueryRowContext(ctx, "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())").Scan(&n)
		if err != nil {
			t.Fatalf("the locks of the killed worker's sessions: %v (%d left)", err, n)
		}
		if n == 0 {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%d advisory locks stay after the worker was killed", n)
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// TestFleetWorkerKilledWhileOthersRun kills one of three workers sharing
// a fleet through PostgreSQL as the service serves the 60th request: the
// other two exit 0, and a run after them leaves every website exact.
func TestFleetWorkerKilledWhileOthersRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	be := mirrortest.Backends()[1]
	target := be.New(t)
	srv, sites := fakeFleet(t, ordermsgtest.Config{Seed: 29, Websites: 9, OrdersPerWebsite: 60, MessagesPerWebsite: 70}, ordermsgtest.WithLatency(5*time.Millisecond))
	file := websitesFile(t, fileOf(sites))
	k := &requestKiller{next: srv.Handler, at: 60, hit: make(chan struct{}, 1)}
	front := httptest.NewServer(k)
	defer front.Close()

	var wg sync.WaitGroup
	victim, vout, verr := fleetWorker(t, front.URL, target, file, "--count", "10")
	for i := range 2 {
		cmd, stdout, stderr := fleetWorker(t, front.URL, target, file, "--count", "10")
		wg.Go(func() {
			if code := exitCodeOf(t, cmd.Wait()); code != exitOK {
				t.Errorf("worker %d: exit %d\n%s%s", i, code, stdout, stderr)
			}
		})
	}
	<-k.hit
	victim.Process.Kill()
	if err := victim.Wait(); err == nil {
		t.Errorf("the victim ended before it was killed:\n%s%s", vout, verr)
	}
	wg.Wait()
	db := be.Open(t, target)
	waitForNoAdvisoryLocks(t, db)
	cmd, stdout, stderr := fleetWorker(t, front.URL, target, file, "--count", "10")
	if code := exitCodeOf(t, cmd.Wait()); code != exitOK {
		t.Fatalf("the run after: exit %d\n%s%s", code, stdout, stderr)
	}
	for _, w := range sites {
		mirrortest.SameRecords(t, db, srv, w.ID, w.APIKey)
	}
	if o := overlaps(t, db); len(o) > 0 {
		t.Errorf("websites synced by two at once:\n%s", strings.Join(o, "\n"))
	}
}
