package worker_test

import (
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/mirror/worker"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// With ReconcileEvery, each website is reconciled on that period beside
// its runs of new records: an order the server deleted gets deleted_at,
// which no run of new records would see, and the website ends exact.
func TestWorkerReconcilesOnItsOwnPeriod(t *testing.T) {
	t.Parallel() // each has a database and a fake of its own, and mostly waits for periods
	be := mirrortest.Backends()[0]
	target := be.New(t)
	f := newFleet(t, 1)
	site := f.sites[0]
	_, db, stop := startWorker(t, be, target, worker.Config{
		Websites:       func() ([]mirror.Website, error) { return f.sites, nil },
		Every:          time.Second,
		ReconcileEvery: 2 * time.Second,
	})
	waitFor(t, db, time.Minute, "an ok run", func(runs []run) bool { return countRuns(runs, "ok")[site.ID] > 0 })
	var gone int64
	f.srv.Handler.Snapshot(func(ds *ordermsgtest.Dataset) { gone = ds.Websites[0].Orders[3].ID })
	if !f.srv.Handler.DeleteOrder(site.ID, gone) {
		t.Fatalf("the fake did not delete order %d", gone)
	}
	waitUntil(t, time.Minute, "the deleted order marked deleted", func() bool {
		var n int
		if err := db.QueryRow("SELECT count(*) FROM orders WHERE website_id = ? AND id = ? AND deleted_at IS NOT NULL", site.ID, gone).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n == 1
	})
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	mirrortest.SameRecords(t, db, f.srv, site.ID, f.keys[site.ID])
}
