package worker_test

import (
	"context"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/mirror/worker"
)

// countChanges counts the changes m keeps.
func countChanges(t *testing.T, m *mirror.Mirror) int {
	t.Helper()
	n := 0
	for _, err := range m.Changes(context.Background(), "", nil) {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	return n
}

// TestWorkerPrunesOldChanges syncs a website once, then runs a worker with
// KeepChanges, on each backend: its prune job removes the changes recorded
// longer ago than KeepChanges, the first sync's every one.
func TestWorkerPrunesOldChanges(t *testing.T) {
	t.Parallel() // each has a database and a fake of its own, and mostly waits for periods
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		f := newFleet(t, 1)
		m, err := mirror.Open(context.Background(), be.Open(t, target), be.Backend)
		if err != nil {
			t.Fatal(err)
		}
		site := f.sites[0]
		if _, err := m.Sync(context.Background(), site.Client, site.ID, nil); err != nil {
			t.Fatal(err)
		}
		if countChanges(t, m) == 0 {
			t.Fatal("the first sync recorded no change")
		}
		_, db, _ := startWorker(t, be, target, worker.Config{
			Websites:    func() ([]mirror.Website, error) { return f.sites, nil },
			Every:       time.Hour,
			KeepChanges: time.Millisecond,
		})
		waitFor(t, db, time.Minute, "the changes older than KeepChanges removed", func([]run) bool { return countChanges(t, m) == 0 })
	})
}
