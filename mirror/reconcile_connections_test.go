package mirror_test

import (
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// TestReconcileOverDeletedRecordsKeepsItsConnections reconciles a website
// whose server deleted a third of its orders: each deleted order is read
// by id and answered 404, and none of those failed calls makes the
// reconcile's workers dial again (go-retryablehttp closes its client's idle
// connections after every failed call, which the SDK keeps from reaching
// its pool).
func TestReconcileOverDeletedRecordsKeepsItsConnections(t *testing.T) {
	be := sqliteBackend(t)
	srv, s, db, m := mirrorOf(t, be, be.New(t), ordermsgtest.Config{Seed: 5, Websites: 1, OrdersPerWebsite: 60, MessagesPerWebsite: 10})
	var opened atomic.Int64
	front := httptest.NewUnstartedServer(srv.Handler)
	front.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			opened.Add(1)
		}
	}
	front.Start()
	t.Cleanup(front.Close)
	c, err := ordermsg.NewClient(front.URL, s.key)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	s.c, s.url = c, front.URL
	syncSite(t, m, s, nil)

	var gone []int64
	srv.Handler.Snapshot(func(ds *ordermsgtest.Dataset) {
		for i, o := range ds.Websites[0].Orders {
			if i%3 == 0 {
				gone = append(gone, o.ID)
			}
		}
	})
	for _, id := range gone {
		srv.Handler.DeleteOrder(s.id, id)
	}
	deleted := len(gone)
	before := opened.Load()
	const concurrency = 4
	res := syncSite(t, m, s, &mirror.Options{Reconcile: true, AllowMassDelete: true, PageSize: 10, Concurrency: concurrency})
	if res.Orders.Deleted != deleted {
		t.Fatalf("reconcile marked %d orders deleted; want %d", res.Orders.Deleted, deleted)
	}
	// Its passes read concurrency pages or records at a time: a connection
	// each, and the few a finished request's connection, on its way back
	// to the pool, makes the next one open.
	if got := opened.Load() - before; got > 2*concurrency {
		t.Errorf("the reconcile opened %d connections for %d orders read by id and answered 404; want at most %d", got, deleted, 2*concurrency)
	}
	sameRecords(t, db, s)
}
