package main

import (
	"errors"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// buildCLI builds the command into a temporary directory.
func buildCLI(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "ordermsg")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestSyncDBSurvivesSIGKILL kills sync --db with SIGKILL six times, each
// time as the server receives a request drawn at random (while the command
// is inserting the previous page, in or between transactions), with records
// added between the runs; then it lets a run finish. The database (SQLite
// and PostgreSQL) must hold every record of the server exactly once, with
// the server's JSON.
func TestSyncDBSurvivesSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	bin := buildCLI(t)
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		syncSurvivesSIGKILL(t, bin, be, target)
	})
}

func syncSurvivesSIGKILL(t *testing.T, bin string, be mirrortest.Backend, db string) {
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 11, Websites: 1, OrdersPerWebsite: 2500, MessagesPerWebsite: 3000}))
	defer srv.Close()
	// The command talks to the same data through a server that counts its
	// requests and says when the chosen one arrives.
	var requests, killAt atomic.Int64
	hit := make(chan struct{}, 1)
	counting := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if requests.Add(1) == killAt.Load() {
			hit <- struct{}{}
		}
		srv.Handler.ServeHTTP(w, r)
	}))
	defer counting.Close()

	env := append(os.Environ(),
		envBaseURL+"="+counting.URL, envAPIKey+"="+srv.APIKey, envWebsiteID+"="+strconv.FormatInt(srv.WebsiteID, 10))
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 12))
	run := func() (*exec.Cmd, chan error) {
		cmd := exec.Command(bin, "sync", "--db", db, "--count", "25", "--concurrency", "1")
		cmd.Env = env
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		return cmd, done
	}
	// A full sync makes about 220 requests; six runs killed within their
	// first 30 never finish it.
	for i := range 6 {
		requests.Store(0)
		killAt.Store(int64(1 + rng.IntN(30)))
		cmd, done := run()
		select {
		case <-hit:
			cmd.Process.Kill() // SIGKILL
		case err := <-done:
			t.Fatalf("run %d ended (%v) before its request %d", i, err, killAt.Load())
		}
		err := <-done
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
			t.Fatalf("run %d: %v, want killed by SIGKILL", i, err)
		}
		t.Logf("run %d killed at request %d", i, killAt.Load())
		srv.AddOrders(1 + i)
		srv.AddMessages(2)
	}
	killAt.Store(0)
	if _, done := run(); <-done != nil {
		t.Fatal("the last run failed")
	}
	sameRecords(t, srv, be, db)
}
