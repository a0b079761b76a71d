//go:build unix

package main

import (
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// TestWorkerRefusesBadStarts: --every that is not a duration, below 1s or
// without --websites, and a worker flag without --every, exit 2; so does
// --metrics on an address in use, saying so; a TARGET that cannot be
// reached exits 3 with the reason.
func TestWorkerRefusesBadStarts(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	srv, sites := fakeFleet(t, ordermsgtest.Config{Seed: 38, Websites: 1, OrdersPerWebsite: 5, MessagesPerWebsite: 5})
	file := websitesFile(t, fileOf(sites))
	db := filepath.Join(t.TempDir(), "m.db")
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	env := map[string]string{envBaseURL: srv.URL}
	for _, c := range []struct {
		args []string
		code int
		says string
	}{
		{[]string{"--websites", file, "--every", "soon"}, exitUsage, "want a duration"},
		{[]string{"--websites", file, "--every", "500ms"}, exitUsage, "want at least 1s"},
		{[]string{"--every", "1m"}, exitUsage, "--every goes with --websites"},
		{[]string{"--websites", file, "--keep-runs", "1h"}, exitUsage, "--keep-runs goes with --every"},
		{[]string{"--websites", file, "--every", "1s", "--metrics", busy.Addr().String()}, exitUsage, "address already in use"},
	} {
		r := runTool(t, env, append([]string{"sync", "--db", db}, c.args...)...)
		if r.code != c.code || !strings.Contains(r.stderr, c.says) {
			t.Errorf("%q: %v, want exit %d saying %q", c.args, r, c.code, c.says)
		}
	}
	r := runTool(t, env, "sync", "--db", "postgres://u:secretpw@127.0.0.1:1/x?connect_timeout=5", "--websites", file, "--every", "1m")
	if r.code != exitLocal || !strings.Contains(r.stderr, "127.0.0.1") || strings.Contains(r.stderr, "secretpw") {
		t.Errorf("an unreachable database: %v, want exit 3 with the reason and no password", r)
	}
}

// TestWorkerServesHealthzUntilSIGTERM runs a SQLite worker, its --db from
// ORDERMSG_DB, with --metrics: /healthz answers 200 once it runs, the
// website gets synced, and SIGTERM ends it with exit 0.
func TestWorkerServesHealthzUntilSIGTERM(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	srv, sites := fakeFleet(t, ordermsgtest.Config{Seed: 39, Websites: 2, OrdersPerWebsite: 5, MessagesPerWebsite: 5})
	file := websitesFile(t, fileOf(sites))
	free, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := free.Addr().String()
	free.Close()
	db := filepath.Join(t.TempDir(), "m.db")
	cmd := command(t, "", map[string]string{envBaseURL: srv.URL, envDB: db}, "sync", "--websites", file, "--every", "1s", "--metrics", addr)
	var stdout strings.Builder
	stderr := &lockedBuilder{}
	cmd.Stdout, cmd.Stderr = &stdout, stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	waitUntil(t, time.Minute, "/healthz 200", func() bool {
		resp, err := http.Get("http://" + addr + "/healthz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})
	waitUntil(t, time.Minute, "a line of each website synced", func() bool {
		return strings.Count(stderr.String(), "website synced") >= len(sites)
	})
	cmd.Process.Signal(syscall.SIGTERM)
	if code := exitCodeOf(t, cmd.Wait()); code != exitOK {
		t.Errorf("after SIGTERM: exit %d\n%s", code, stderr.String())
	}
}

// lockedBuilder is a strings.Builder that a process writes while the test
// reads it.
type lockedBuilder struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuilder) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuilder) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
