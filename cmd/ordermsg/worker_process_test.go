//go:build unix

package main

import (
	"context"
	"database/sql"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// workerRuns counts the runs of each website in mirror_runs by status,
// those that started after since; none before a worker made the table.
func workerRuns(t *testing.T, db *sql.DB, status string, since time.Time) map[int64]int {
	t.Helper()
	rows, err := db.Query("SELECT website_id, count(*) FROM mirror_runs WHERE status = $1 AND started_at > $2 GROUP BY website_id", status, since)
	if err != nil && strings.Contains(err.Error(), "does not exist") {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := map[int64]int{}
	for rows.Next() {
		var id int64
		var c int
		if err := rows.Scan(&id, &c); err != nil {
			t.Fatal(err)
		}
		n[id] = c
	}
	return n
}

// waitUntil polls cond until it holds, or fails the test after within,
// saying what did not happen.
func waitUntil(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v", what, within)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// requestTrap passes requests to the service until it is armed; then it
// holds the next request for a website's orders until the client goes,
// and says on trapped which client sent it (its address) and for which
// website (the path).
type requestTrap struct {
	next    http.Handler
	armed   atomic.Bool
	trapped chan *http.Request
}

func (tr *requestTrap) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasSuffix(r.URL.Path, "/orders") && tr.armed.CompareAndSwap(true, false) {
		tr.trapped <- r
		<-r.Context().Done()
		return
	}
	tr.next.ServeHTTP(w, r)
}

// processOfClient returns which of pids has the loopback TCP connection
// whose local address is addr (Linux: /proc/net/tcp and each process's
// descriptors).
func processOfClient(t *testing.T, addr string, pids []int) int {
	t.Helper()
	_, portText, _ := net.SplitHostPort(addr)
	port, _ := strconv.Atoi(portText)
	table, err := os.ReadFile("/proc/net/tcp")
	if err != nil {
		t.Skipf("finds a connection's process through /proc: %v", err)
	}
	inode := ""
	for _, line := range strings.Split(string(table), "\n")[1:] {
		f := strings.Fields(line)
		if len(f) > 9 && strings.EqualFold(f[1], fmt.Sprintf("0100007F:%04X", port)) {
			inode = f[9]
		}
	}
	for _, pid := range pids {
		fds, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
		for _, fd := range fds {
			if link, _ := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, fd.Name())); inode != "" && link == "socket:["+inode+"]" {
				return pid
			}
		}
	}
	t.Fatalf("no worker has the connection from %s", addr)
	return 0
}

// writeFileAtomically replaces the file at path with text, mode 0600.
func writeFileAtomically(t *testing.T, path, text string) {
	t.Helper()
	tmp := filepath.Join(filepath.Dir(path), "next.txt")
	if err := os.WriteFile(tmp, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// TestWorkersShareAFleetUntilStopped runs three `sync --every 2s` workers
// on one PostgreSQL database, with five websites, one of them with a key
// the service refuses, and orders added while they run. One worker is
// killed with SIGKILL in the middle of a website's run (its request held
// by the service): River takes its job back, and the website, like every
// other, is synced again by the others within --every plus one minute. A website added to FILE is synced without a
// restart. The other two stop on SIGTERM with exit 0 within 30 s.
// Afterwards every good website is exact, the runs of a website never
// overlap, each good website has several ok runs, the refused one only
// failed runs, and no key shows in the workers' output or in any table.
func TestWorkersShareAFleetUntilStopped(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command and runs for a minute")
	}
	be := mirrortest.Backends()[1]
	target := be.New(t)
	srv, all := fakeFleet(t, ordermsgtest.Config{Seed: 37, Websites: 6, OrdersPerWebsite: 40, MessagesPerWebsite: 30}, ordermsgtest.WithLatency(20*time.Millisecond))
	trap := &requestTrap{next: srv.Handler, trapped: make(chan *http.Request, 1)}
	front := httptest.NewServer(trap)
	defer front.Close()
	good, refused, added := all[:4], all[4], all[5]
	const refusedKey = "refused-key-0b5e1d7a"
	text := fileOf(good) + fmt.Sprintf("%d %s\n", refused.ID, refusedKey)
	file := websitesFile(t, text)
	db := be.Open(t, target)
	const every = 2 * time.Second

	type proc struct {
		cmd            *exec.Cmd
		stdout, stderr *strings.Builder
		done           chan error
	}
	procs := map[int]*proc{}
	var pids []int
	for range 3 {
		cmd, stdout, stderr := fleetWorker(t, front.URL, target, file, "--every", every.String(), "--count", "10")
		p := &proc{cmd, stdout, stderr, make(chan error, 1)}
		go func() { p.done <- cmd.Wait() }()
		procs[cmd.Process.Pid] = p
		pids = append(pids, cmd.Process.Pid)
		t.Cleanup(func() { cmd.Process.Kill() })
	}
	var zero time.Time
	waitUntil(t, time.Minute, "an ok run of each good website", func() bool {
		ok := workerRuns(t, db, "ok", zero)
		for _, w := range good {
			if ok[w.ID] == 0 {
				return false
			}
		}
		return true
	})
	for _, w := range good {
		srv.Handler.AddOrders(w.ID, 3)
		srv.Handler.AddMessages(w.ID, 2)
	}

	// The victim is killed in the middle of a website's run: its job stays
	// running in River's table until River takes it back as stuck.
	trap.armed.Store(true)
	held := <-trap.trapped
	victim := processOfClient(t, held.RemoteAddr, pids)
	procs[victim].cmd.Process.Kill()
	killed := time.Now()
	if err := <-procs[victim].done; err == nil {
		t.Fatalf("the killed worker exited 0:\n%s", procs[victim].stderr)
	}
	var heldSite int64
	fmt.Sscanf(held.URL.Path, "/websites/%d/orders", &heldSite)
	t.Logf("killed worker %d in a run of website %d", victim, heldSite)
	writeFileAtomically(t, file, text+fmt.Sprintf("%d %s\n", added.ID, added.APIKey))
	// A website the killed worker was syncing waits for River's rescue.
	waitUntil(t, every+time.Minute, "two ok runs of each good website after the kill, and one of the added one", func() bool {
		ok := workerRuns(t, db, "ok", killed)
		for _, w := range append(good, added) {
			if ok[w.ID] == 0 || w != added && ok[w.ID] < 2 {
				return false
			}
		}
		return true
	})

	t.Logf("website %d, whose run was killed, synced again %v after", heldSite, time.Since(killed).Round(time.Second))
	for pid, p := range procs {
		if pid != victim {
			p.cmd.Process.Signal(syscall.SIGTERM)
		}
	}
	for i, p := range procs {
		if i == victim {
			continue
		}
		select {
		case err := <-p.done:
			if code := exitCodeOf(t, err); code != exitOK {
				t.Errorf("worker %d after SIGTERM: exit %d\n%s", i, code, p.stderr)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("worker %d still runs 30 s after SIGTERM", i)
		}
	}

	for _, w := range append(good, added) {
		mirrortest.SameRecords(t, db, srv, w.ID, w.APIKey)
	}
	if o := overlaps(t, db); len(o) > 0 {
		t.Errorf("runs of a website that overlap:\n%s", strings.Join(o, "\n"))
	}
	ok, failed := workerRuns(t, db, "ok", zero), workerRuns(t, db, "failed", zero)
	for _, w := range good {
		if ok[w.ID] < 3 {
			t.Errorf("website %d: %d ok runs, want several", w.ID, ok[w.ID])
		}
	}
	if ok[refused.ID] != 0 || failed[refused.ID] == 0 {
		t.Errorf("the refused website: %d ok runs and %d failed, want failed ones only", ok[refused.ID], failed[refused.ID])
	}

	var tables string
	err := db.QueryRowContext(context.Background(), `SELECT coalesce((SELECT string_agg(coalesce(error, ''), ' ') FROM mirror_runs), '') ||
		coalesce((SELECT string_agg(CAST(args AS TEXT) || CAST(metadata AS TEXT) || coalesce(CAST(errors AS TEXT), ''), ' ') FROM river_job), '')`).Scan(&tables)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range append([]string{refusedKey}, added.APIKey, good[0].APIKey) {
		if strings.Contains(tables, key) {
			t.Errorf("a table holds the key %s", key)
		}
		for pid, p := range procs {
			if strings.Contains(p.stdout.String()+p.stderr.String(), key) {
				t.Errorf("worker %d printed the key %s", pid, key)
			}
		}
	}
}
