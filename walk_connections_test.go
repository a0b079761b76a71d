package ordermsg_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// connCountingServer serves ds on loopback and counts the connections the
// clients open to it.
func connCountingServer(tb testing.TB, ds *ordermsgtest.Dataset, opts ...ordermsgtest.Option) (*httptest.Server, *atomic.Int64) {
	tb.Helper()
	var opened atomic.Int64
	srv := httptest.NewUnstartedServer(ordermsgtest.NewHandler(ds, opts...))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			opened.Add(1)
		}
	}
	srv.Start()
	tb.Cleanup(srv.Close)
	return srv, &opened
}

// TestWalkReusesConnections walks 200 pages with WithConcurrency(32): the
// client keeps as many idle connections as the walk has pages in flight, so
// it opens about 32 connections, not a new one for most pages (with 16 idle
// connections per host it opened up to 70).
func TestWalkReusesConnections(t *testing.T) {
	ds := ordermsgtest.Generate(ordermsgtest.Config{Seed: 3, Websites: 1, OrdersPerWebsite: 1000})
	srv, opened := connCountingServer(t, ds)
	c, err := ordermsg.NewClient(srv.URL, ds.Websites[0].APIKey)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	n := 0
	for _, err := range c.Orders.All(context.Background(), ds.Websites[0].ID, &ordermsg.ListOrdersOptions{Count: 5}, ordermsg.WithConcurrency(32)) {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != 1000 {
		t.Fatalf("walked %d records", n)
	}
	// 32 in flight, plus the first page's own, plus a few opened while a
	// finished request's connection was on its way back to the pool.
	if got := opened.Load(); got > 40 {
		t.Errorf("opened %d connections for 200 pages at concurrency 32", got)
	}
	t.Logf("opened %d connections", opened.Load())
}
