//go:build unix

package main

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// TestSyncDBSurvivesSIGKILL kills sync --db with SIGKILL seven times, each
// time as the server receives a request drawn at random over a whole run:
// once at the start (the first or second request, as the orders and the
// messages, read at once, begin), three times in their new records, once in
// the refresh pass of a run with --refresh-days, after an order's status
// changed, and twice in a run with --reconcile: in its listing, and at its
// first retrieve of a record the listing did not show. Records are added, and some deleted, between the runs. Then a run
// with --reconcile goes to the end. The database (SQLite and PostgreSQL)
// must hold every live record of the server exactly once, with the
// server's JSON, and no record the server deleted as live.
func TestSyncDBSurvivesSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	bin := binary(t)
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		syncSurvivesSIGKILL(t, bin, be, target)
	})
}

// killPoint is the request of a run at which it is killed: the at-th
// request of a phase, one of "new" (the list requests of the new records of
// either resource: their date_start is the one of the resource's first
// request in the run), "refresh" (those of the refresh or reconcile pass of
// either, whose date_start is another) and "retrieve" (the retrieves of one
// record, which a reconcile sends for those it did not find listed).
type killPoint struct {
	phase string
	at    int
}

// killer is the handler in front of the fake: it counts the requests of
// the phase of its kill point and says when the chosen one arrives.
type killer struct {
	next http.Handler
	hit  chan struct{}

	mu    sync.Mutex
	point killPoint
	seen  int
	first map[string]string // resource: date_start of its first list request
}

// arm sets the kill point of the next run; the zero one kills nothing.
func (k *killer) arm(p killPoint) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.point, k.seen, k.first = p, 0, map[string]string{}
}

func (k *killer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	k.mu.Lock()
	resource := path.Base(r.URL.Path)
	if _, err := strconv.ParseInt(resource, 10, 64); err == nil && k.point.phase == "retrieve" {
		if k.seen++; k.seen == k.point.at {
			k.hit <- struct{}{}
		}
	}
	if resource == "orders" || resource == "messages" {
		start := r.URL.Query().Get("date_start")
		first, ok := k.first[resource]
		if !ok {
			k.first[resource], first = start, start
		}
		if k.point.phase == "new" && start == first || k.point.phase == "refresh" && start != first {
			if k.seen++; k.seen == k.point.at {
				k.hit <- struct{}{}
			}
		}
	}
	k.mu.Unlock()
	k.next.ServeHTTP(w, r)
}

func syncSurvivesSIGKILL(t *testing.T, bin string, be mirrortest.Backend, db string) {
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 11, Websites: 1, OrdersPerWebsite: 2500, MessagesPerWebsite: 3000}))
	defer srv.Close()
	// The command talks to the same data through the killer.
	k := &killer{next: srv.Handler, hit: make(chan struct{}, 1)}
	k.arm(killPoint{})
	counting := httptest.NewServer(k)
	defer counting.Close()

	env := append(os.Environ(),
		envBaseURL+"="+counting.URL, envAPIKey+"="+srv.APIKey, envWebsiteID+"="+strconv.FormatInt(srv.WebsiteID, 10))
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 12))
	run := func(extra ...string) (*exec.Cmd, chan error) {
		cmd := exec.Command(bin, append([]string{"sync", "--db", db, "--count", "25", "--concurrency", "1"}, extra...)...)
		cmd.Env = env
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		return cmd, done
	}
	// A full sync lists 100 pages of orders and 120 of messages, both at
	// once, and a run goes at most at-1 pages further than the one before
	// (the first page of each resource lists again the overlap of its
	// checkpoint): four runs killed within their first 2, 45, 45 and 45
	// pages never finish the 220. The refresh pass of 20 days lists 13
	// pages, of the orders and of the messages; a reconcile's listing, after
	// a run to the end, lists every page of both, over 220, then retrieves
	// each mirrored record it did not find listed, those deleted since.
	points := []killPoint{
		{"new", 1 + rng.IntN(2)},
		{"new", 1 + rng.IntN(45)},
		{"new", 1 + rng.IntN(45)},
		{"new", 1 + rng.IntN(45)},
		{"refresh", 1 + rng.IntN(11)},
		{"reconcile", 1 + rng.IntN(220)},
		{"retrieve", 1},
	}
	var changed *ordermsg.Order
	var gone []int64
	for i, p := range points {
		var extra []string
		switch p.phase {
		case "reconcile":
			// A run to the end first, so that both resources have a
			// checkpoint: the new records are then listed from a
			// date_start, which the reconcile's listing has not.
			k.arm(killPoint{})
			if _, done := run(); <-done != nil {
				t.Fatalf("run %d, before the reconcile, failed", i)
			}
			p.phase = "refresh" // the same requests
			extra = []string{"--reconcile"}
		case "retrieve":
			extra = []string{"--reconcile"}
		case "refresh":
			extra = []string{"--refresh-days", "20"}
			// Statuses change and nothing says so: only the refresh
			// pass sees it. No request is in flight.
			srv.Handler.Snapshot(func(ds *ordermsgtest.Dataset) {
				orders := ds.Websites[0].Orders
				changed = orders[len(orders)-2]
			})
			changed.Status = "shipped"
		}
		k.arm(p)
		cmd, done := run(extra...)
		select {
		case <-k.hit:
			cmd.Process.Kill() // SIGKILL
		case err := <-done:
			k.mu.Lock()
			t.Fatalf("run %d ended (%v) before its %s request %d, after %d", i, err, p.phase, p.at, k.seen)
		}
		err := <-done
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
			t.Fatalf("run %d: %v, want killed by SIGKILL", i, err)
		}
		t.Logf("run %d killed at %s request %d", i, p.phase, p.at)
		srv.AddOrders(1 + i)
		srv.AddMessages(2)
		// Records leave the server: from the history, and among the
		// newest, which the next run's checkpoint remembers.
		srv.Handler.Snapshot(func(ds *ordermsgtest.Dataset) {
			w := ds.Websites[0]
			gone = append(gone, w.Orders[rng.IntN(len(w.Orders))].ID, w.Orders[len(w.Orders)-1].ID)
			gone = append(gone, w.Messages[rng.IntN(len(w.Messages))].ID)
		})
		for _, id := range gone[len(gone)-3:] {
			srv.Handler.DeleteOrder(srv.WebsiteID, id)
			srv.Handler.DeleteMessage(srv.WebsiteID, id)
		}
	}
	k.arm(killPoint{})
	if _, done := run("--reconcile"); <-done != nil {
		t.Fatal("the last run failed")
	}
	sameRecords(t, srv, be, db)
	live := be.Open(t, db)
	for _, id := range gone {
		var n int
		q := fmt.Sprintf("SELECT (SELECT count(*) FROM orders WHERE id = %d AND deleted_at IS NULL) + (SELECT count(*) FROM messages WHERE id = %d AND deleted_at IS NULL)", id, id)
		if err := live.QueryRow(q).Scan(&n); err != nil || n != 0 {
			t.Errorf("record %d, deleted on the server, is live in the mirror (%v)", id, err)
		}
	}
}
