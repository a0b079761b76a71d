//go:build unix

package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// firstOrderFilePath is where files download puts the first print-ready
// file of w, relative to DIR.
func firstOrderFilePath(t *testing.T, w *ordermsgtest.Website) string {
	t.Helper()
	for _, o := range w.Orders {
		for _, it := range o.Items {
			var names []string
			var ids []int64
			for _, p := range it.PrintReadyFiles {
				if p.File != nil {
					names, ids = append(names, p.File.Filename), append(ids, p.File.ID)
				}
			}
			if len(names) > 0 {
				return filepath.Join("orders", fmt.Sprint(o.ID), fmt.Sprint(it.ID), uniqueNames(names, ids)[0])
			}
		}
	}
	t.Fatal("the dataset has no print-ready file")
	return ""
}

func TestFilesDownloadWritesNothingThroughLinksPlantedInDir(t *testing.T) {
	srv, env := smallService(t)
	w := srv.Handler.Dataset().Website(srv.WebsiteID)
	root := t.TempDir()
	out, outside := filepath.Join(root, "out"), filepath.Join(root, "outside")
	if err := os.MkdirAll(filepath.Join(outside, "msgs"), 0o777); err != nil {
		t.Fatal(err)
	}
	// A dangling link at an order file's place, and DIR/messages a link to a
	// directory outside DIR.
	planted := firstOrderFilePath(t, w)
	if err := os.MkdirAll(filepath.Dir(filepath.Join(out, planted)), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "victim.pdf"), filepath.Join(out, planted)); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "msgs"), filepath.Join(out, "messages")); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := cli{env: env}.run(context.Background(), "files", "download", "-o", out)
	if got := regularFiles(t, outside); len(got) != 0 {
		t.Errorf("written outside DIR: %v", got)
	}
	failed := 1 + messageFiles(w)
	want := fmt.Sprintf("files: %d downloaded, 0 skipped, %d failed", len(datasetFiles(w))-failed, failed)
	if code != exitFailure || !strings.Contains(stderr, want) {
		t.Fatalf("exit %d, want %d and %q in:\n%s", code, exitFailure, want, stderr)
	}
	if !strings.Contains(stderr, planted+": refused: a symlink is in the file's place") ||
		!strings.Contains(stderr, "refused: messages is a symlink, not a directory") {
		t.Errorf("the refusals are not reported:\n%s", stderr)
	}
	for _, link := range []string{planted, "messages"} {
		if fi, err := os.Lstat(filepath.Join(out, link)); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("the link at %s was replaced", link)
		}
	}
}

func TestFilesDownloadSymlinkLoopAtAFilesPlaceFailsThatFile(t *testing.T) {
	srv, env := smallService(t)
	w := srv.Handler.Dataset().Website(srv.WebsiteID)
	out := t.TempDir()
	planted := filepath.Join(out, firstOrderFilePath(t, w))
	if err := os.MkdirAll(filepath.Dir(planted), 0o777); err != nil {
		t.Fatal(err)
	}
	loop := filepath.Join(filepath.Dir(planted), "loop")
	if err := os.Symlink("loop", planted); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Base(planted), loop); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := cli{env: env}.run(context.Background(), "files", "download", "-o", out, "--from", "orders")
	orderFiles := len(datasetFiles(w)) - messageFiles(w)
	want := fmt.Sprintf("files: %d downloaded, 0 skipped, 1 failed", orderFiles-1)
	if code != exitFailure || !strings.Contains(stderr, want) || !strings.Contains(stderr, "a symlink is in the file's place") {
		t.Fatalf("exit %d, want %d and %q in:\n%s", code, exitFailure, want, stderr)
	}
}

func TestFilesDownloadFIFOAtAFilesPlaceFailsThatFilePromptly(t *testing.T) {
	srv, env := smallService(t)
	w := srv.Handler.Dataset().Website(srv.WebsiteID)
	out := t.TempDir()
	rel := firstOrderFilePath(t, w)
	fifo := filepath.Join(out, rel)
	if err := os.MkdirAll(filepath.Dir(fifo), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	type result struct {
		stderr string
		code   int
	}
	done := make(chan result, 1)
	go func() {
		_, stderr, code := cli{env: env}.run(context.Background(), "files", "download", "-o", out, "--from", "orders")
		done <- result{stderr, code}
	}()
	var r result
	select {
	case r = <-done:
	case <-time.After(10 * time.Second):
		// A writer waits in the FIFO's open: a reader that comes and goes
		// lets it go, so that the test ends.
		if f, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
		t.Fatalf("files download blocked on a FIFO in DIR: %+v", <-done)
	}
	if r.code != exitFailure || !strings.Contains(r.stderr, rel+": refused: a FIFO is in the file's place") ||
		!strings.Contains(r.stderr, " 1 failed") {
		t.Fatalf("exit %d, want %d and the FIFO reported:\n%s", r.code, exitFailure, r.stderr)
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatal("the FIFO was replaced")
	}
}
