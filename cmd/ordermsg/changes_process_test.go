//go:build unix

package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// followLines reads the lines of a changes --follow process from r, each
// sent on the channel returned (closed at the end of r); a last line
// without its newline, cut by a kill, is left out.
func followLines(t *testing.T, r io.Reader) <-chan changeLine {
	out := make(chan changeLine, 4096)
	go func() {
		defer close(out)
		br := bufio.NewReader(r)
		for {
			line, err := br.ReadBytes('\n')
			if err != nil {
				return
			}
			for _, l := range parseChanges(t, string(line)) {
				out <- l
			}
		}
	}()
	return out
}

// TestFollowerKilledAndResumedMissesNothing: in PostgreSQL, workers sync
// three websites at once, in rounds, while ordermsg changes --follow runs
// from the start; it is killed with SIGKILL midway and resumed with --after
// the cursor of its last whole line. Its lines, both runs together, are
// cursor for cursor those of a final changes read: nothing missed, nothing
// twice. SIGTERM then ends the follower with exit 0.
func TestFollowerKilledAndResumedMissesNothing(t *testing.T) {
	be := mirrortest.Backends()[1]
	target := be.New(t)
	const websites, rounds = 3, 5
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 11, Websites: websites, OrdersPerWebsite: 15}))
	t.Cleanup(srv.Close)
	// The mirror exists before the follower starts.
	if _, err := mirror.Open(context.Background(), be.Open(t, target), be.Backend); err != nil {
		t.Fatal(err)
	}
	start := func(args ...string) (*exec.Cmd, <-chan changeLine) {
		cmd := command(t, "", nil, append([]string{"changes", "--db", target, "--follow"}, args...)...)
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		return cmd, followLines(t, stdout)
	}
	first, lines := start()
	var wg sync.WaitGroup
	for i := range websites {
		var w *ordermsgtest.Website
		srv.Handler.Snapshot(func(ds *ordermsgtest.Dataset) { w = ds.Websites[i] })
		env := map[string]string{envBaseURL: srv.URL, envAPIKey: w.APIKey, envWebsiteID: fmt.Sprint(w.ID)}
		wg.Go(func() {
			for range rounds {
				if _, stderr, code := (cli{env: env}).run(context.Background(), "sync", "--db", target, "--count", "4"); code != exitOK {
					t.Errorf("sync of website %d: exit %d, %s", w.ID, code, stderr)
					return
				}
				srv.Handler.AddOrders(w.ID, 2)
			}
		})
	}
	var got []changeLine
	timeout := time.After(2 * time.Minute)
	for len(got) < 40 {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("the follower ended after %d lines", len(got))
			}
			got = append(got, l)
		case <-timeout:
			t.Fatalf("the follower printed %d lines in two minutes", len(got))
		}
	}
	first.Process.Signal(syscall.SIGKILL)
	first.Wait()
	for l := range lines { // the whole lines it printed before it died
		got = append(got, l)
	}
	second, lines := start("--after", got[len(got)-1].Cursor)
	wg.Wait()
	want := changesRead(t, target)
	for len(got) < len(want) {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("the resumed follower ended at %d of %d lines", len(got), len(want))
			}
			got = append(got, l)
		case <-timeout:
			t.Fatalf("the followers printed %d of %d lines in two minutes", len(got), len(want))
		}
	}
	second.Process.Signal(syscall.SIGTERM)
	if code := exitCodeOf(t, second.Wait()); code != exitOK {
		t.Errorf("the follower, sent SIGTERM, exited %d, want 0", code)
	}
	for l := range lines {
		got = append(got, l)
	}
	cursors := func(ls []changeLine) []string {
		out := make([]string, len(ls))
		for i, l := range ls {
			out[i] = l.Cursor
		}
		return out
	}
	if !slices.Equal(cursors(got), cursors(want)) {
		t.Errorf("the followers printed %d lines, a final read %d: not the same cursors", len(got), len(want))
	}
}
