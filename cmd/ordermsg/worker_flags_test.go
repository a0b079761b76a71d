//go:build unix

package main

import (
	"fmt"
	"net"
	"net/http"
	"os"
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

// TestWorkerRereadsFileOnSIGHUP runs a SQLite worker, its --db from
// ORDERMSG_DB, with --metrics and -v (a line per website's run): /healthz
// answers 200 once it runs. FILE
// made readable by others, then naming a website twice, is refused on
// SIGHUP with a clear message, and the worker goes on with the last good
// list; FILE with a website added is read on SIGHUP and the website
// synced. SIGTERM ends it with exit 0.
func TestWorkerRereadsFileOnSIGHUP(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	srv, sites := fakeFleet(t, ordermsgtest.Config{Seed: 39, Websites: 3, OrdersPerWebsite: 5, MessagesPerWebsite: 5})
	file := websitesFile(t, fileOf(sites[:2]))
	free, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := free.Addr().String()
	free.Close()
	db := filepath.Join(t.TempDir(), "m.db")
	cmd := command(t, "", map[string]string{envBaseURL: srv.URL, envDB: db}, "sync", "--websites", file, "--every", "1s", "--metrics", addr, "-v")
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
	synced := func(id int64) int {
		return strings.Count(stderr.String(), fmt.Sprintf("website synced\" website=%d ", id))
	}
	waitUntil(t, time.Minute, "each website synced", func() bool { return synced(sites[0].ID) > 0 && synced(sites[1].ID) > 0 })

	for _, c := range []struct {
		name, text string
		mode       os.FileMode
		says       string
	}{
		{"readable by others", fileOf(sites[:2]), 0o644, "let group or others read or write it"},
		{"a website twice", fileOf(sites[:2]) + fileOf(sites[:1]), 0o600, "lists website"},
	} {
		writeFileAtomically(t, file, c.text)
		if err := os.Chmod(file, c.mode); err != nil {
			t.Fatal(err)
		}
		cmd.Process.Signal(syscall.SIGHUP)
		waitUntil(t, time.Minute, "FILE "+c.name+" refused", func() bool {
			return strings.Contains(stderr.String(), c.says) && strings.Contains(stderr.String(), "the last good one is kept")
		})
		before := synced(sites[0].ID)
		waitUntil(t, time.Minute, "the last good list synced on with FILE "+c.name, func() bool { return synced(sites[0].ID) > before })
	}
	writeFileAtomically(t, file, fileOf(sites))
	cmd.Process.Signal(syscall.SIGHUP)
	waitUntil(t, time.Minute, "the website added synced", func() bool { return synced(sites[2].ID) > 0 })

	cmd.Process.Signal(syscall.SIGTERM)
	if code := exitCodeOf(t, cmd.Wait()); code != exitOK {
		t.Errorf("after SIGTERM: exit %d\n%s", code, stderr.String())
	}
	for _, w := range sites {
		if strings.Contains(stdout.String()+stderr.String(), w.APIKey) {
			t.Errorf("the worker printed the key of website %d", w.ID)
		}
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
