package main

import (
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

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

// TestSyncDBSurvivesSIGKILL kills sync --db at random moments, several
// times, with records added between the runs, then lets a run finish: the
// database must hold every record of the server exactly once, with the
// server's JSON.
func TestSyncDBSurvivesSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	bin := buildCLI(t)
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 11, Websites: 1, OrdersPerWebsite: 2500, MessagesPerWebsite: 3000}),
		ordermsgtest.WithLatency(5*time.Millisecond)) // a full run takes about two seconds
	defer srv.Close()
	db := filepath.Join(t.TempDir(), "shop.db")
	env := append(os.Environ(),
		envBaseURL+"="+srv.URL, envAPIKey+"="+srv.APIKey, envWebsiteID+"="+strconv.FormatInt(srv.WebsiteID, 10))
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 12))
	run := func() *exec.Cmd {
		cmd := exec.Command(bin, "sync", "--db", db, "--count", "25", "--concurrency", "1")
		cmd.Env = env
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd
	}
	killed := 0
	for i := range 6 {
		cmd := run()
		delay := time.Duration(30+rng.IntN(500)) * time.Millisecond
		time.Sleep(delay) // where to kill it: any moment is right
		cmd.Process.Signal(syscall.SIGKILL)
		err := cmd.Wait()
		var exit *exec.ExitError
		if errors.As(err, &exit) && exit.Sys().(syscall.WaitStatus).Signal() == syscall.SIGKILL {
			killed++
		} else if err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
		t.Logf("run %d killed after %v", i, delay)
		srv.AddOrders(1 + i)
		srv.AddMessages(2)
	}
	if killed < 3 {
		t.Fatalf("only %d of 6 runs were killed before they ended", killed)
	}
	cmd := run()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the last run: %v", err)
	}
	sameRecords(t, srv, db)
}
