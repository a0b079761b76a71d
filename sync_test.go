package ordermsg_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// dayReadings are the readings of the date filters a sync must be right
// under: inclusive or exclusive bounds, days starting at UTC-12 to UTC+14.
var dayReadings = func() []ordermsgtest.DayBounds {
	var out []ordermsgtest.DayBounds
	for _, excl := range []bool{false, true} {
		for _, off := range []time.Duration{-12 * time.Hour, -5 * time.Hour, 0, 5*time.Hour + 30*time.Minute, 14 * time.Hour} {
			out = append(out, ordermsgtest.DayBounds{Exclusive: excl, Offset: off})
		}
	}
	return out
}()

func smallSite() *ordermsgtest.Dataset {
	return ordermsgtest.Generate(ordermsgtest.Config{Seed: 7, Websites: 1, OrdersPerWebsite: 30, MessagesPerWebsite: 45})
}

// syncCase is one resource's view of the server, for the generic test.
type syncCase[T any] struct {
	sync func(c *ordermsg.Client, site int64, cp *ordermsg.Checkpoint) iter.Seq2[*T, error]
	add  func(s *ordermsgtest.Server, n int)
	ids  func(w *ordermsgtest.Website) []int64
	key  func(*T) (time.Time, int64)
}

var ordersCase = syncCase[ordermsg.Order]{
	sync: func(c *ordermsg.Client, site int64, cp *ordermsg.Checkpoint) iter.Seq2[*ordermsg.Order, error] {
		return c.Orders.Sync(context.Background(), site, cp, &ordermsg.ListOrdersOptions{Count: 7})
	},
	add: func(s *ordermsgtest.Server, n int) { s.AddOrders(n) },
	ids: func(w *ordermsgtest.Website) []int64 {
		var ids []int64
		for _, o := range w.Orders {
			ids = append(ids, o.ID)
		}
		return ids
	},
	key: func(o *ordermsg.Order) (time.Time, int64) { return o.DateCreated.Time, o.ID },
}

var messagesCase = syncCase[ordermsg.Message]{
	sync: func(c *ordermsg.Client, site int64, cp *ordermsg.Checkpoint) iter.Seq2[*ordermsg.Message, error] {
		return c.Messages.Sync(context.Background(), site, cp, &ordermsg.ListMessagesOptions{Count: 7})
	},
	add: func(s *ordermsgtest.Server, n int) { s.AddMessages(n); s.AddOrders(1) },
	ids: func(w *ordermsgtest.Website) []int64 {
		var ids []int64
		for _, m := range w.Messages {
			ids = append(ids, m.ID)
		}
		return ids
	},
	key: func(m *ordermsg.Message) (time.Time, int64) { return m.DateCreated.Time, m.ID },
}

// runResumedSyncs syncs in runs that each stop after k records, saving the
// checkpoint as JSON between runs; records are added between runs and
// during them. It checks that every record came exactly once, in ascending
// creation order.
func runResumedSyncs[T any](t *testing.T, sc syncCase[T], days ordermsgtest.DayBounds, k int) {
	srv := ordermsgtest.NewServer(smallSite(), ordermsgtest.WithDayBounds(days))
	defer srv.Close()
	c, err := srv.Client()
	if err != nil {
		t.Fatal(err)
	}
	var saved []byte // the checkpoint as the caller stores it
	seen := map[int64]int{}
	var order []time.Time
	for run := 0; ; run++ {
		if run > 200 {
			t.Fatal("sync never caught up")
		}
		var cp ordermsg.Checkpoint
		if saved != nil {
			if err := json.Unmarshal(saved, &cp); err != nil {
				t.Fatal(err)
			}
		}
		n := 0
		for rec, err := range sc.sync(c, srv.WebsiteID, &cp) {
			if err != nil {
				t.Fatalf("run %d: %v", run, err)
			}
			ts, id := sc.key(rec)
			seen[id]++
			order = append(order, ts)
			n++
			if n == 2 && run%3 == 0 && run < 12 {
				sc.add(srv, 4) // during the run
			}
			if n == k {
				break
			}
		}
		if saved, err = json.Marshal(cp); err != nil {
			t.Fatal(err)
		}
		if n == 0 && run >= 6 {
			break
		}
		if run < 6 && run%2 == 1 {
			sc.add(srv, 5) // between runs
		}
	}
	var want []int64
	srv.Handler.Snapshot(func(ds *ordermsgtest.Dataset) { want = sc.ids(ds.Websites[0]) })
	for _, id := range want {
		if seen[id] != 1 {
			t.Errorf("record %d yielded %d times", id, seen[id])
		}
	}
	if len(seen) != len(want) {
		t.Errorf("yielded %d distinct records, the server has %d", len(seen), len(want))
	}
	if !slices.IsSortedFunc(order, time.Time.Compare) {
		t.Error("records were not yielded in ascending creation order")
	}
}

func TestSyncExactlyOnceUnderEveryDayReading(t *testing.T) {
	for _, days := range dayReadings {
		for _, k := range []int{1, 3, 10} {
			name := fmt.Sprintf("exclusive=%v/offset=%v/k=%d", days.Exclusive, days.Offset, k)
			t.Run("orders/"+name, func(t *testing.T) { runResumedSyncs(t, ordersCase, days, k) })
			t.Run("messages/"+name, func(t *testing.T) { runResumedSyncs(t, messagesCase, days, k) })
		}
	}
}

func TestSyncTiesAreToldApartByID(t *testing.T) {
	srv := ordermsgtest.NewServer(smallSite())
	defer srv.Close()
	c, _ := srv.Client()
	var cp ordermsg.Checkpoint
	for _, err := range c.Orders.Sync(context.Background(), srv.WebsiteID, &cp, nil) {
		if err != nil {
			t.Fatal(err)
		}
	}
	// New orders, a third of them in the same second as the one before:
	// enough that some share the checkpoint's second.
	added := srv.AddOrders(40)
	ties := 0
	for i := 1; i < len(added); i++ {
		if added[i].DateCreated.Equal(added[i-1].DateCreated.Time) {
			ties++
		}
	}
	if ties == 0 {
		t.Fatal("the fake added no orders sharing a timestamp")
	}
	var got []int64
	for _, stop := range []int{3, 5, 1000} { // stop inside groups of ties
		n := 0
		for o, err := range c.Orders.Sync(context.Background(), srv.WebsiteID, &cp, nil) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, o.ID)
			if n++; n == stop {
				break
			}
		}
	}
	var want []int64
	for _, o := range added {
		want = append(want, o.ID)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("synced %v\nwant     %v", got, want)
	}
	last := added[len(added)-1].DateCreated.Time
	tied := 0
	for _, o := range added {
		if o.DateCreated.Equal(last) {
			tied++
		}
	}
	if !cp.Created.Equal(last) || len(cp.IDs) != tied {
		t.Errorf("checkpoint %v %v: want the last second %v and its %d ids", cp.Created, cp.IDs, last, tied)
	}
	slices.Reverse(cp.IDs) // as a hand-edited checkpoint might hold them
	for o, err := range c.Orders.Sync(context.Background(), srv.WebsiteID, &cp, nil) {
		t.Errorf("nothing is new, yet Sync yielded %v, %v", o, err)
	}
}

// countingServer serves h, counts the requests and keeps their queries.
type countingServer struct {
	requests atomic.Int64
	mu       sync.Mutex
	queries  []string
}

func (cs *countingServer) wrap(h http.Handler, rewrite func(r *http.Request)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cs.requests.Add(1)
		cs.mu.Lock()
		cs.queries = append(cs.queries, r.URL.RawQuery)
		cs.mu.Unlock()
		if rewrite != nil {
			rewrite(r)
		}
		h.ServeHTTP(w, r)
	})
}

func TestSyncNoChangeRunReadsOnlyTheOverlap(t *testing.T) {
	ds := ordermsgtest.Generate(ordermsgtest.Config{Seed: 3, Websites: 1, OrdersPerWebsite: 400, MessagesPerWebsite: 400})
	var cs countingServer
	hs := httptest.NewServer(cs.wrap(ordermsgtest.NewHandler(ds), nil))
	defer hs.Close()
	c, err := ordermsg.NewClient(hs.URL, ds.Websites[0].APIKey)
	if err != nil {
		t.Fatal(err)
	}
	site := ds.Websites[0].ID
	var cp ordermsg.Checkpoint
	for _, err := range c.Orders.Sync(context.Background(), site, &cp, &ordermsg.ListOrdersOptions{Count: 20}) {
		if err != nil {
			t.Fatal(err)
		}
	}
	full := cs.requests.Load()
	before := cp
	cs.requests.Store(0)
	cs.queries = nil
	for o, err := range c.Orders.Sync(context.Background(), site, &cp, &ordermsg.ListOrdersOptions{Count: 20}) {
		t.Fatalf("a run with nothing new yielded %v, %v", o, err)
	}
	if got := cs.requests.Load(); got != 1 || full < 20 {
		t.Errorf("no-change run made %d requests (the first run %d); want 1: the overlap fits a page", got, full)
	}
	wantStart := "date_start=" + ordermsg.DateOf(before.Created.UTC().AddDate(0, 0, -2)).String()
	if !strings.Contains(cs.queries[0], wantStart) || !strings.Contains(cs.queries[0], "direction=asc") ||
		!strings.Contains(cs.queries[0], "sort=date_created") {
		t.Errorf("query %q: want %s, direction=asc and sort=date_created", cs.queries[0], wantStart)
	}
	if !slices.Equal(cp.IDs, before.IDs) || !cp.Created.Equal(before.Created) {
		t.Errorf("a run with nothing new moved the checkpoint from %v to %v", before, cp)
	}
}

func TestSyncStopsWhenTheServerIsNotAscending(t *testing.T) {
	ds := smallSite()
	var cs countingServer
	descending := func(r *http.Request) {
		q := r.URL.Query()
		q.Set("direction", "desc") // the server ignores what it is asked
		r.URL.RawQuery = q.Encode()
	}
	hs := httptest.NewServer(cs.wrap(ordermsgtest.NewHandler(ds), descending))
	defer hs.Close()
	c, _ := ordermsg.NewClient(hs.URL, ds.Websites[0].APIKey)
	var cp ordermsg.Checkpoint
	var yielded []int64
	var err error
	for m, e := range c.Messages.Sync(context.Background(), ds.Websites[0].ID, &cp, nil) {
		if e != nil {
			err = e
			break
		}
		yielded = append(yielded, m.ID)
	}
	var oe *ordermsg.OrderingError
	if !errors.Is(err, ordermsg.ErrNotAscending) || !errors.As(err, &oe) {
		t.Fatalf("err = %v, want an *OrderingError matching ErrNotAscending", err)
	}
	newest := ds.Websites[0].Messages[len(ds.Websites[0].Messages)-1]
	if len(yielded) != 1 || yielded[0] != newest.ID || oe.PrevID != newest.ID || !oe.Created.Before(oe.PrevCreated) {
		t.Errorf("yielded %v, error %+v: want only the first listed, newest message %d", yielded, oe, newest.ID)
	}
	if !cp.Created.Equal(newest.DateCreated.Time) || !slices.Equal(cp.IDs, []int64{newest.ID}) {
		t.Errorf("checkpoint %+v: want it at the one message yielded", cp)
	}
}

func TestSyncRecordWithoutCreationTime(t *testing.T) {
	ds := smallSite()
	ds.Websites[0].Orders[3].DateCreated = ordermsg.Timestamp{}
	srv := ordermsgtest.NewServer(ds)
	defer srv.Close()
	c, _ := srv.Client()
	var cp ordermsg.Checkpoint
	n := 0
	var err error
	for _, e := range c.Orders.Sync(context.Background(), srv.WebsiteID, &cp, nil) {
		if err = e; e != nil {
			break
		}
		n++
	}
	if !errors.Is(err, ordermsg.ErrNoCreationTime) {
		t.Fatalf("after %d orders: err = %v, want ErrNoCreationTime", n, err)
	}
}

func TestSyncRefusesBadArgumentsBeforeAnyRequest(t *testing.T) {
	var cs countingServer
	ds := smallSite()
	hs := httptest.NewServer(cs.wrap(ordermsgtest.NewHandler(ds), nil))
	defer hs.Close()
	c, _ := ordermsg.NewClient(hs.URL, ds.Websites[0].APIKey)
	site := ds.Websites[0].ID
	var cp ordermsg.Checkpoint
	cases := map[string]iter.Seq2[*ordermsg.Order, error]{
		"nil checkpoint": c.Orders.Sync(context.Background(), site, nil, nil),
		"direction":      c.Orders.Sync(context.Background(), site, &cp, &ordermsg.ListOrdersOptions{Direction: ordermsg.DirectionDesc}),
		"sort":           c.Orders.Sync(context.Background(), site, &cp, &ordermsg.ListOrdersOptions{Sort: "id"}),
		"page":           c.Orders.Sync(context.Background(), site, &cp, &ordermsg.ListOrdersOptions{Page: 2}),
		"date_start":     c.Orders.Sync(context.Background(), site, &cp, &ordermsg.ListOrdersOptions{DateStart: ordermsg.NewDate(2024, 1, 1)}),
		"date_end":       c.Orders.Sync(context.Background(), site, &cp, &ordermsg.ListOrdersOptions{DateEnd: ordermsg.NewDate(2024, 1, 1)}),
		"website":        c.Orders.Sync(context.Background(), 0, &cp, nil),
		"count":          c.Orders.Sync(context.Background(), site, &cp, &ordermsg.ListOrdersOptions{Count: -1}),
	}
	for name, seq := range cases {
		var errs []error
		for o, err := range seq {
			if o != nil {
				t.Errorf("%s: yielded a record", name)
			}
			errs = append(errs, err)
		}
		if len(errs) != 1 || errs[0] == nil {
			t.Errorf("%s: got %v, want one error", name, errs)
		}
	}
	if got := cs.requests.Load(); got != 0 {
		t.Errorf("%d requests were sent; want none", got)
	}
	if !cp.IsZero() {
		t.Errorf("checkpoint moved: %+v", cp)
	}
}

func TestCheckpointJSON(t *testing.T) {
	zero, err := json.Marshal(ordermsg.Checkpoint{})
	if err != nil || string(zero) != "{}" {
		t.Errorf("zero checkpoint encodes as %s, %v; want {}", zero, err)
	}
	cp := ordermsg.Checkpoint{Created: time.Date(2024, 3, 1, 23, 30, 0, 0, time.FixedZone("", 2*3600)), IDs: []int64{5, 9}}
	b, _ := json.Marshal(cp)
	var back ordermsg.Checkpoint
	if err := json.Unmarshal(b, &back); err != nil || !back.Created.Equal(cp.Created) || !slices.Equal(back.IDs, cp.IDs) || back.IsZero() {
		t.Errorf("round trip of %s gave %+v, %v", b, back, err)
	}
}
