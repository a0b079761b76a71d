//go:build linux

package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
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
