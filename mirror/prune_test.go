package mirror_test

import (
	"context"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// PruneRuns removes the rows of mirror_runs of the runs that finished
// before the given time, and those alone, on each backend.
func TestPruneRuns(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		_, s, db, m := mirrorOf(t, be, target, ordermsgtest.Config{Seed: 40, Websites: 1, OrdersPerWebsite: 3, MessagesPerWebsite: 3})
		syncSite(t, m, s, nil)
		syncSite(t, m, s, nil)
		between := time.Now()
		time.Sleep(10 * time.Millisecond) // the next run finishes strictly after between
		syncSite(t, m, s, nil)
		n, err := m.PruneRuns(context.Background(), between)
		if err != nil || n != 2 {
			t.Fatalf("PruneRuns: %d rows, %v; want the 2 runs before", n, err)
		}
		if rows := runRows(t, db); len(rows) != 1 || !rows[0].finished.After(between) {
			t.Errorf("after PruneRuns, mirror_runs holds %+v, want the last run alone", rows)
		}
		if n, err := m.PruneRuns(context.Background(), between); err != nil || n != 0 {
			t.Errorf("PruneRuns again: %d rows, %v; want none", n, err)
		}
	})
}
