package ordermsg_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

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

// TestFailedCallsKeepTheConnections makes calls one after another, some
// answered 404 and one 503 past its retries: a failed call closes no idle
// connection (go-retryablehttp would close them all), so one TCP
// connection serves every call.
func TestFailedCallsKeepTheConnections(t *testing.T) {
	ds := ordermsgtest.Generate(ordermsgtest.Config{Seed: 3, Websites: 1, OrdersPerWebsite: 5})
	site := ds.Websites[0]
	const unavailable = 999_999_999 // an order whose every read is answered 503
	fake := ordermsgtest.NewHandler(ds)
	var opened atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/orders/"+strconv.Itoa(unavailable)) {
			http.Error(w, `{"message":"unavailable"}`, http.StatusServiceUnavailable)
			return
		}
		fake.ServeHTTP(w, r)
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			opened.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	c, err := ordermsg.NewClient(srv.URL, site.APIKey, ordermsg.WithRetry(ordermsg.RetryPolicy{MaxRetries: 2, MinWait: time.Millisecond, MaxWait: time.Millisecond}))
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	ctx := context.Background()
	existing := site.Orders[0].ID
	for i, id := range []int64{existing, 1, 2, existing, 3, unavailable, 4, 5, existing} {
		_, err := c.Orders.Get(ctx, site.ID, id, nil)
		switch {
		case id == existing && err != nil:
			t.Fatalf("call %d, order %d: %v", i, id, err)
		case id == unavailable && !errors.Is(err, ordermsg.ErrServer):
			t.Fatalf("call %d, order %d: %v; want a 503", i, id, err)
		case id != existing && id != unavailable && !errors.Is(err, ordermsg.ErrNotFound):
			t.Fatalf("call %d, order %d: %v; want a 404", i, id, err)
		}
	}
	if got := opened.Load(); got != 1 {
		t.Errorf("opened %d connections for calls one after another, 5 of them 404 and one 503; want 1", got)
	}
}
