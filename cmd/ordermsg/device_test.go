//go:build linux

package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// mknodChar makes a character device in dir, like /dev/null (1, 3) or
// /dev/full (1, 7), or skips the test where that is not permitted.
func mknodChar(t *testing.T, dir, name string, major, minor uint32) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := syscall.Mknod(path, syscall.S_IFCHR|0o666, int(major<<8|minor)); err != nil {
		t.Skipf("mknod: %v", err)
	}
	if err := os.Chmod(path, 0o620); err != nil { // a mode of its own, to see it kept
		t.Fatal(err)
	}
	return path
}

func TestOutputDeviceIsWrittenThrough(t *testing.T) {
	dir := t.TempDir()
	null := mknodChar(t, dir, "null", 1, 3)
	if r := exportTo(t, null, 0o022); r.code != 0 || r.stderr != "wrote 420 orders to "+null+"\n" {
		t.Errorf("-o null: %v", r)
	}

	// A full disk: every write fails with ENOSPC.
	full := mknodChar(t, dir, "full", 1, 7)
	r := exportTo(t, full, 0o022)
	if r.code != exitLocal || !strings.HasPrefix(r.stderr, "error: cannot write "+full+": no space left on device") {
		t.Errorf("-o full: %v", r)
	}
	for _, dev := range []string{null, full} {
		if m := mode(t, dev); m&fs.ModeCharDevice == 0 || m.Perm() != 0o620 {
			t.Errorf("%s was replaced: %v", dev, m)
		}
	}
	if got := entries(t, dir); !slices.Equal(got, []string{"full", "null"}) {
		t.Errorf("left behind: %v", got)
	}
}

// Standard output on a full disk (`> /dev/full`) is a local I/O error.
func TestStdoutWriteErrorExits3(t *testing.T) {
	full := mknodChar(t, t.TempDir(), "full", 1, 7)
	for _, args := range [][]string{exportArgs, {"orders", "list", "--demo"}} {
		f, err := os.OpenFile(full, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		cmd := command(t, "", nil, args...)
		cmd.Stdout = f
		r := runCommand(t, cmd)
		f.Close()
		if r.code != exitLocal || !strings.HasPrefix(r.stderr, "error: writing standard output: ") || !strings.Contains(r.stderr, "no space left on device") {
			t.Errorf("%v: %v", args, r)
		}
	}
}

// waitingForFIFO tells whether a thread of process pid waits in the open of
// a FIFO for the other end (the kernel's wait_for_partner, once fifo_open).
func waitingForFIFO(pid int) bool {
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/wchan", pid))
	for _, task := range tasks {
		if b, err := os.ReadFile(task); err == nil && (string(b) == "wait_for_partner" || string(b) == "fifo_open") {
			return true
		}
	}
	return false
}

// -o a FIFO that nobody reads waits, as a shell redirect does; Ctrl-C ends
// the wait with exit 130 and leaves the FIFO.
func TestInterruptWhileWaitingForAFIFOReader(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	cmd := command(t, dir, nil, append(exportArgs, "-o", fifo)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); !waitingForFIFO(cmd.Process.Pid); {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Skip("cannot see the tool wait for the FIFO in /proc")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGINT)
	if code := exitCodeOf(t, cmd.Wait()); code != 130 || stderr.String() != "interrupted\n" {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
	if mode(t, fifo)&fs.ModeNamedPipe == 0 || !slices.Equal(entries(t, dir), []string{"pipe"}) {
		t.Errorf("the FIFO was replaced: %v", entries(t, dir))
	}
}

// TestWebsitesFileOfAnotherKind: --websites FILE may be a FIFO (a shell's
// <(…)), read once a writer opens it, and the wait for one ends with the
// context (Ctrl-C); a device is refused as not a file, whatever its mode,
// and a byte order mark before the first line is left out.
func TestWebsitesFileOfAnotherKind(t *testing.T) {
	dir := t.TempDir()
	keep := func(string) error { return nil }
	fifo := filepath.Join(dir, "websites.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	go func() {
		if err := os.WriteFile(fifo, []byte("\ufeff# websites\n1001 key-one\n"), 0); err != nil {
			t.Error(err)
		}
	}()
	if sites, err := readWebsites(context.Background(), fifo, keep); err != nil || len(sites) != 1 || sites[0].id != 1001 || sites[0].key != "key-one" {
		t.Errorf("a FIFO, with a byte order mark: %+v, %v", sites, err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := readWebsites(ctx, fifo, keep); !errors.Is(err, context.Canceled) {
		t.Errorf("a FIFO no one writes, the context ended: %v, want context.Canceled", err)
	}
	// The open left waiting ends, and its file is closed.
	if f, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
		f.Close()
	}

	null := mknodChar(t, dir, "null", 1, 3)
	if err := os.Chmod(null, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := readWebsites(context.Background(), null, keep)
	if err == nil || !strings.Contains(err.Error(), "is a device or a socket, not a file") || strings.Contains(err.Error(), "chmod") {
		t.Errorf("a device: %v", err)
	}
}

// TestSyncDBRefusesADevice: --db of a device is a local failure before
// anything is opened: SQLite would write its journal and WAL files beside
// it (null-journal in /dev).
func TestSyncDBRefusesADevice(t *testing.T) {
	dir := t.TempDir()
	null := mknodChar(t, dir, "null", 1, 3)
	_, stderr, code := cli{}.run(context.Background(), "sync", "--db", null, "--demo")
	if code != exitLocal || !strings.Contains(stderr, "is not a file") {
		t.Errorf("sync --db <a device>: exit %d, stderr %q; want 3", code, stderr)
	}
	if got := entries(t, dir); !slices.Equal(got, []string{"null"}) {
		t.Errorf("beside the device: %q", got)
	}
}
