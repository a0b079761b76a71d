package ordermsg_test

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
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
	seen := seenOf(t, cp)
	lastKey := last.UTC().Format(time.RFC3339)
	if !cp.Mark().Equal(last) || len(seen[lastKey]) != tied {
		t.Errorf("checkpoint %v %v: want the last second %v and its %d ids", cp.Mark(), seen, last, tied)
	}
	for k := range seen {
		slices.Reverse(seen[k]) // as a hand-edited checkpoint might hold them
	}
	b, _ := json.Marshal(map[string]any{"v": 2, "created": last, "seen": seen})
	cp = ordermsg.Checkpoint{}
	if err := json.Unmarshal(b, &cp); err != nil {
		t.Fatal(err)
	}
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
	got := cs.requests.Load()
	// The overlap, walked as a plain All: checking the list costs nothing.
	start := ordermsg.DateOf(before.Mark().UTC().AddDate(0, 0, -5))
	cs.requests.Store(0)
	for _, err := range ordermsg.OrdersResource().AllSince(context.Background(), c, site, start, &ordermsg.ResourceOptions{Count: 20}) {
		if err != nil {
			t.Fatal(err)
		}
	}
	if plain := cs.requests.Load(); got != plain || got > 3 || full < 20 {
		t.Errorf("no-change run made %d requests, a plain walk of the overlap %d (the first run %d); want the same few", got, plain, full)
	}
	wantStart := "date_start=" + start.String()
	if !strings.Contains(cs.queries[0], wantStart) || !strings.Contains(cs.queries[0], "direction=asc") ||
		!strings.Contains(cs.queries[0], "sort=date_created") {
		t.Errorf("query %q: want %s, direction=asc and sort=date_created", cs.queries[0], wantStart)
	}
	if a, b := mustJSON(t, cp), mustJSON(t, before); a != b {
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
	// Each message is held back until the next one shows the order: the
	// newest, listed first, is not yielded, and the checkpoint does not move.
	newest := ds.Websites[0].Messages[len(ds.Websites[0].Messages)-1]
	if len(yielded) != 0 || oe.PrevID != newest.ID || !oe.Created.Before(oe.PrevCreated) {
		t.Errorf("yielded %v, error %+v: want nothing, and the error after the newest message %d", yielded, oe, newest.ID)
	}
	if !cp.IsZero() {
		t.Errorf("checkpoint %+v: want it still zero", cp)
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
		if len(errs) != 1 || !errors.Is(errs[0], ordermsg.ErrInvalidArgument) {
			t.Errorf("%s: got %v, want one error that matches ErrInvalidArgument", name, errs)
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
	var cp ordermsg.Checkpoint
	if err := json.Unmarshal(zero, &cp); err != nil || !cp.IsZero() {
		t.Errorf("{} decodes as %s, %v; want the zero checkpoint", mustJSON(t, cp), err)
	}
	// Version 2: the mark and the ids yielded in the window, by creation
	// time; a record older than the window is forgotten when read.
	v2 := `{"v":2,"created":"2024-03-10T12:05:00Z","seen":{"2024-03-01T00:00:00Z":[1],"2024-03-10T12:04:00Z":[4],"2024-03-10T12:05:00Z":[6,5]}}`
	if err := json.Unmarshal([]byte(v2), &cp); err != nil {
		t.Fatal(err)
	}
	want := `{"v":2,"created":"2024-03-10T12:05:00Z","seen":{"2024-03-10T12:04:00Z":[4],"2024-03-10T12:05:00Z":[5,6]}}`
	if got := mustJSON(t, cp); got != want || !cp.Mark().Equal(time.Date(2024, 3, 10, 12, 5, 0, 0, time.UTC)) {
		t.Errorf("read %s, wrote %s, mark %v; want %s", v2, got, cp.Mark(), want)
	}
	// Version 1 ({"created","ids"}, written for about an hour before any
	// release) is no longer read: it is refused like any other version.
	v1 := `{"created":"2024-03-10T13:05:00+01:00","ids":[9,5]}`
	if err := json.Unmarshal([]byte(v1), &cp); err == nil {
		t.Errorf("%s was read as %s; want an error", v1, mustJSON(t, cp))
	}
	for _, bad := range []string{`{"v":3,"created":"2024-03-10T12:05:00Z"}`, `{"v":2,"ids":[1]}`, `{"v":2,"seen":{"2024-03-10T12:05:00Z":[1]}}`,
		`{"v":2,"created":"2024-03-10T12:05:00Z","seen":{"2024-03-11T12:05:00Z":[1]}}`, `{"v":2,"created":"2024-03-10T12:05:00Z","seen":{"yesterday":[1]}}`} {
		if err := json.Unmarshal([]byte(bad), &cp); err == nil {
			t.Errorf("%s was read as %s; want an error", bad, mustJSON(t, cp))
		}
	}
}

// seenOf is the "seen" of cp's JSON: ids by creation time.
func seenOf(t *testing.T, cp ordermsg.Checkpoint) map[string][]int64 {
	t.Helper()
	var v struct{ Seen map[string][]int64 }
	if err := json.Unmarshal([]byte(mustJSON(t, cp)), &v); err != nil {
		t.Fatal(err)
	}
	return v.Seen
}

// listServer is an orders list endpoint over records of its own, sorted by
// date_created (ties by id) and paged by offset, that misbehaves on demand.
// date_start is read as an inclusive UTC day; everything else is ignored.
type listServer struct {
	mu   sync.Mutex
	recs []listRecord
	// descending lists newest first, whatever the direction asked for.
	descending bool
	// tiesDescending, when set, orders the records of one second by id
	// descending on the pages for which it returns true (a sort without a
	// tiebreak); run counts the lists that asked for page 1.
	tiesDescending func(run, page int) bool
	run            int
	// beforePage, when set, runs before page is answered, without the lock.
	beforePage func(page int)
	// left are the records no longer listed: deleted, or their status
	// changed out of the list's filter.
	left map[int64]bool
	// raw are records sent as these bytes instead of their own JSON, in
	// lists and by id.
	raw map[int64]string
	// hidden are records the list leaves out that are still read by id, as
	// one whose status changed out of the list's filter.
	hidden              map[int64]bool
	inFlight, maxFlight int
	requests            int
}

type listRecord struct {
	id      int64
	created time.Time
}

// remove takes a record out of the list, as a deletion or a change of
// status out of the filter does.
func (ls *listServer) remove(id int64) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if ls.left == nil {
		ls.left = map[int64]bool{}
	}
	ls.left[id] = true
}

// add makes records visible, as if their transactions had just committed.
func (ls *listServer) add(recs ...listRecord) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	ls.recs = append(ls.recs, recs...)
}

func (ls *listServer) set(f func(ls *listServer)) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	f(ls)
}

func (ls *listServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if id, ok := strings.CutPrefix(r.URL.Path, "/websites/1/orders/"); ok {
		ls.serveOne(w, id)
		return
	}
	q := r.URL.Query()
	page, _ := strconv.Atoi(q.Get("page"))
	page = max(page, 1)
	ls.mu.Lock()
	ls.requests++
	ls.inFlight++
	ls.maxFlight = max(ls.maxFlight, ls.inFlight)
	if page == 1 {
		ls.run++
	}
	ls.mu.Unlock()
	if ls.beforePage != nil {
		ls.beforePage(page)
	}
	ls.mu.Lock()
	defer ls.mu.Unlock()
	defer func() { ls.inFlight-- }()
	count, _ := strconv.Atoi(q.Get("count"))
	if count == 0 {
		count = 10
	}
	start, _ := time.Parse(time.DateOnly, q.Get("date_start"))
	var sel []listRecord
	for _, x := range ls.recs {
		if !x.created.Before(start) && !ls.left[x.id] && !ls.hidden[x.id] {
			sel = append(sel, x)
		}
	}
	tiesDesc := ls.tiesDescending != nil && ls.tiesDescending(ls.run, page)
	slices.SortFunc(sel, func(a, b listRecord) int {
		if c := a.created.Compare(b.created); c != 0 {
			if ls.descending {
				return -c
			}
			return c
		}
		if tiesDesc {
			return cmp.Compare(b.id, a.id)
		}
		return cmp.Compare(a.id, b.id)
	})
	lo, hi := min((page-1)*count, len(sel)), min(page*count, len(sel))
	w.Header().Set("X-Page", strconv.Itoa(page))
	data := []any{}
	for _, x := range sel[lo:hi] {
		if raw, ok := ls.raw[x.id]; ok {
			data = append(data, json.RawMessage(raw))
			continue
		}
		data = append(data, map[string]any{"object": "order", "id": x.id, "date_created": x.created.Format(time.RFC3339)})
	}
	json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "meta": map[string]any{"pagination": map[string]any{
		"total": len(sel), "count": len(data), "per_page": count, "current_page": page, "total_pages": max(1, (len(sel)+count-1)/count)}}})
}

// serveOne answers a request for one order by id: 404 once it has left.
func (ls *listServer) serveOne(w http.ResponseWriter, id string) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	for _, x := range ls.recs {
		if strconv.FormatInt(x.id, 10) == id && !ls.left[x.id] {
			if raw, ok := ls.raw[x.id]; ok {
				io.WriteString(w, raw)
				return
			}
			json.NewEncoder(w).Encode(map[string]any{"object": "order", "id": x.id, "date_created": x.created.Format(time.RFC3339)})
			return
		}
	}
	http.Error(w, `{"message":"not found"}`, http.StatusNotFound)
}

func (ls *listServer) client(t *testing.T) *ordermsg.Client {
	t.Helper()
	hs := httptest.NewServer(ls)
	t.Cleanup(hs.Close)
	c, err := ordermsg.NewClient(hs.URL, "key", ordermsg.WithAllowHTTP(),
		ordermsg.WithHTTPClient(&http.Client{Transport: answeredTransport{http.DefaultTransport}}))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// answeredTransport lets a request that its caller cancels reach the end of
// its answer before RoundTrip returns, so that the listServer's handler, and
// the change its beforePage hook makes, is over by the time a walk that
// cancelled the request has returned. A walk cancels the page it fetched
// ahead when it stops; without this, a loaded machine could run that page's
// hook during the next listing, where it made a second change between the
// same two pages: a leave and a join there keep the total as it was, which
// no client can see (RELIABILITY.md). That is the one way found for the
// property test's single CI failure ("order yielded after a newer one", on a
// loaded machine; 2,000 runs here did not repeat it).
type answeredTransport struct{ next http.RoundTripper }

func (a answeredTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := a.next.RoundTrip(r.WithContext(context.WithoutCancel(r.Context())))
	if err == nil && r.Context().Err() != nil {
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return nil, r.Context().Err()
	}
	return resp, err
}

// listBase is the creation time of the listServer tests' first records.
var listBase = time.Date(2024, 3, 10, 12, 0, 0, 0, time.UTC)

// minutes are records 1 to n, created a minute apart after listBase.
func minutes(n int) []listRecord {
	var out []listRecord
	for i := 1; i <= n; i++ {
		out = append(out, listRecord{int64(i), listBase.Add(time.Duration(i) * time.Minute)})
	}
	return out
}

// syncIDs runs one Sync of orders (website 1, pages of count) to its end
// and returns the ids yielded and the error that ended it.
func syncIDs(c *ordermsg.Client, cp *ordermsg.Checkpoint, count int) ([]int64, error) {
	var got []int64
	for o, err := range c.Orders.Sync(context.Background(), 1, cp, &ordermsg.ListOrdersOptions{Count: count}) {
		if err != nil {
			return got, err
		}
		got = append(got, o.ID)
	}
	return got, nil
}

// A server that lists newest first when asked for ascending: nothing is
// yielded and the checkpoint does not move, so the run after the server is
// fixed yields every record. Before each record was held back until the
// next one, the newest was yielded first and moved the checkpoint past the
// others, which were lost.
func TestSyncDescendingListYieldsNothing(t *testing.T) {
	for _, count := range []int{10, 1} { // pages of one each look ascending alone
		t.Run(fmt.Sprintf("count=%d", count), func(t *testing.T) {
			ls := &listServer{}
			ls.add(minutes(3)...)
			c := ls.client(t)
			var cp ordermsg.Checkpoint
			if got, err := syncIDs(c, &cp, count); err != nil || !slices.Equal(got, []int64{1, 2, 3}) {
				t.Fatalf("first run: %v, %v", got, err)
			}
			before := mustJSON(t, cp)
			ls.add(minutes(5)[3:]...)
			ls.set(func(ls *listServer) { ls.descending = true })
			got, err := syncIDs(c, &cp, count)
			var oe *ordermsg.OrderingError
			if len(got) != 0 || !errors.As(err, &oe) || !errors.Is(err, ordermsg.ErrNotAscending) || oe.PrevID != 5 || oe.ID != 4 {
				t.Errorf("descending run: yielded %v, err %v; want nothing and an *OrderingError after 5", got, err)
			}
			if after := mustJSON(t, cp); after != before {
				t.Errorf("descending run moved the checkpoint from %s to %s", before, after)
			}
			ls.set(func(ls *listServer) { ls.descending = false })
			if got, err := syncIDs(c, &cp, count); err != nil || !slices.Equal(got, []int64{4, 5}) {
				t.Errorf("run after the fix: %v, %v; want [4 5]", got, err)
			}
		})
	}
}

// mustJSON is cp as the caller stores it.
func mustJSON(t *testing.T, cp ordermsg.Checkpoint) string {
	t.Helper()
	b, err := json.Marshal(cp)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Sync fetches its pages one at a time (it takes no walk options, so no
// WithConcurrency can ask for more): with pages fetched at once, a record appearing during the walk shifted
// the pages answered after it but not those answered before, and the
// record pushed across the boundary was on neither page, never yielded.
// One page at a time, a shift only repeats a record, which is dropped.
func TestSyncFetchesPagesOneAtATime(t *testing.T) {
	ls := &listServer{}
	ls.add(minutes(30)...)
	var once sync.Once
	ls.beforePage = func(page int) {
		if page == 3 {
			// Appears at the head of the list during the walk.
			once.Do(func() { ls.add(listRecord{99, listBase.Add(30 * time.Second)}) })
		}
	}
	c := ls.client(t)
	var cp ordermsg.Checkpoint
	seen := map[int64]int{}
	for run := range 2 {
		got, err := syncIDs(c, &cp, 5)
		if err != nil {
			t.Fatalf("run %d: %v", run, err)
		}
		for _, id := range got {
			seen[id]++
		}
	}
	for id := int64(1); id <= 30; id++ {
		if seen[id] != 1 {
			t.Errorf("order %d yielded %d times", id, seen[id])
		}
	}
	ls.set(func(ls *listServer) {
		if ls.maxFlight != 1 {
			t.Errorf("%d requests were in flight at once; want 1", ls.maxFlight)
		}
	})
}

// A record the server shows late, created before the mark but inside the
// overlap that the next run lists again, is yielded by that run: the
// checkpoint remembers which records of the overlap it yielded, rather
// than dropping everything older than the mark.
func TestSyncYieldsALateRecordOfTheOverlap(t *testing.T) {
	ls := &listServer{}
	ls.add(minutes(5)...)
	c := ls.client(t)
	var cp ordermsg.Checkpoint
	if got, err := syncIDs(c, &cp, 3); err != nil || !slices.Equal(got, []int64{1, 2, 3, 4, 5}) {
		t.Fatalf("first run: %v, %v", got, err)
	}
	ls.add(
		listRecord{6, listBase.Add(4*time.Minute + 30*time.Second)}, // committed late
		listRecord{7, listBase.Add(10 * time.Minute)},
		listRecord{8, listBase.Add(-36 * time.Hour)}, // the day before, still in the overlap
		listRecord{9, listBase.Add(5 * time.Minute)}, // the mark's second
	)
	if got, err := syncIDs(c, &cp, 3); err != nil || !slices.Equal(got, []int64{8, 6, 9, 7}) {
		t.Errorf("second run: %v, %v; want [8 6 9 7]: the late ones in the list's order", got, err)
	}
	if got, err := syncIDs(c, &cp, 3); err != nil || len(got) != 0 {
		t.Errorf("third run: %v, %v; want nothing", got, err)
	}
	want := `{"v":2,"resource":"orders","website":1,"created":"2024-03-10T12:10:00Z","seen":{"2024-03-09T00:00:00Z":[8],"2024-03-10T12:01:00Z":[1],` +
		`"2024-03-10T12:02:00Z":[2],"2024-03-10T12:03:00Z":[3],"2024-03-10T12:04:00Z":[4],"2024-03-10T12:04:30Z":[6],"2024-03-10T12:05:00Z":[5,9],"2024-03-10T12:10:00Z":[7]}}`
	if got := mustJSON(t, cp); got != want {
		t.Errorf("checkpoint %s\nwant       %s", got, want)
	}
}

// More than a page of records created in one second, which the server
// orders differently on different pages (a sort without a tiebreak): a
// run can miss some of them, the next run lists them again and yields
// them, none twice.
func TestSyncUnstableTiesMakeARunLateNotLossy(t *testing.T) {
	ls := &listServer{tiesDescending: func(run, page int) bool { return (run+page)%2 == 0 }}
	for i := int64(1); i <= 12; i++ {
		ls.add(listRecord{i, listBase})
	}
	ls.add(listRecord{13, listBase.Add(time.Second)})
	c := ls.client(t)
	var cp ordermsg.Checkpoint
	seen := map[int64]int{}
	var runs [][]int64
	for range 3 {
		got, err := syncIDs(c, &cp, 5)
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, got)
		for _, id := range got {
			seen[id]++
		}
	}
	if len(runs[0]) == 13 {
		t.Fatalf("the first run yielded all of %v: the test's server did not make it miss any", runs[0])
	}
	for id := int64(1); id <= 13; id++ {
		if seen[id] != 1 {
			t.Errorf("order %d yielded %d times in runs %v", id, seen[id], runs)
		}
	}
}

// A property of Sync, over datasets and runs drawn at random: whatever the
// page size, where runs break (the checkpoint saved as JSON and read back),
// records added between and during runs, some sharing a second, some shown
// late with a creation time inside the overlap (before or during a run),
// records leaving the list between and during runs (deleted, or their
// status changed out of the filter), runs ended by the errors such changes
// can cause, every record that never left is yielded exactly once and none
// twice, each run ascending but for the records shown late, and the
// checkpoint remembers no more than the records of its window. During a
// run, one gap between two pages holds either records joining or one
// leaving: both at once, so that the total does not move, is the case
// RELIABILITY.md names as undetectable (TestSyncMaskedShiftIsCaughtByTheNextRun).
func TestSyncPropertyUnionOfRunsIsTheDataset(t *testing.T) {
	for seed := range uint64(40) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) { checkSyncRuns(t, rand.New(rand.NewPCG(seed, 12))) })
	}
}

func checkSyncRuns(t *testing.T, rnd *rand.Rand) {
	// The server's hook (on its own goroutine) and the loop below both draw
	// from rnd while a page is read ahead.
	var rndMu sync.Mutex
	intN := func(n int) int {
		rndMu.Lock()
		defer rndMu.Unlock()
		return rnd.IntN(n)
	}
	ls := &listServer{}
	var nextID int64
	newest := listBase
	// A history over ten days, so that the window moves and forgets.
	for range 20 + intN(60) {
		nextID++
		newest = newest.Add(time.Duration(intN(4*3600)) * time.Second)
		ls.add(listRecord{nextID, newest})
	}
	var mu sync.Mutex // newest, nextID, late and left, also used by the server's hook
	late := map[int64]bool{}
	left := map[int64]bool{}
	addSome := func() {
		mu.Lock()
		defer mu.Unlock()
		for range 1 + intN(4) {
			nextID++
			switch intN(3) {
			case 0: // in the same second as the newest
			case 1: // late: created up to a day before the newest
				late[nextID] = true
				ls.add(listRecord{nextID, newest.Add(-time.Duration(intN(24*3600)) * time.Second)})
				continue
			default:
				newest = newest.Add(time.Duration(1+intN(600)) * time.Second)
			}
			ls.add(listRecord{nextID, newest})
		}
	}
	// removeOne takes a record out of the list: one of the newest, which
	// later runs list, or any.
	removeOne := func() {
		mu.Lock()
		defer mu.Unlock()
		id := nextID - int64(intN(int(min(nextID, 40))))
		if intN(2) == 0 { // anywhere: in a run from the beginning, mostly on pages already read
			id = 1 + int64(intN(int(nextID)))
		}
		if !left[id] {
			left[id] = true
			ls.remove(id)
		}
	}
	change := func() {
		if intN(2) == 0 {
			removeOne()
		} else {
			addSome()
		}
	}
	during := intN(2) == 0
	budget := 0 // changes left for the run under way
	ls.beforePage = func(page int) {
		mu.Lock()
		now := during && page > 1 && budget > 0
		if now {
			budget--
		}
		mu.Unlock()
		if now {
			change()
		}
	}
	c := ls.client(t)
	count := 1 + intN(12)
	var saved []byte
	seen := map[int64]int{}
	quiet := 0
	for run := 0; quiet < 2; run++ {
		if run > 300 {
			t.Fatal("sync never caught up")
		}
		mu.Lock()
		if run == 8 {
			during = false
		}
		budget = 1 + intN(6)
		mu.Unlock()
		var cp ordermsg.Checkpoint
		if err := json.Unmarshal(saved, &cp); saved != nil && err != nil {
			t.Fatal(err)
		}
		stop := intN(25) // 0: to the end
		if run == 0 {
			stop = 0 // the whole history, in which a shift is lost for good
		}
		var prev time.Time
		n := 0
		for o, err := range c.Orders.Sync(context.Background(), 1, &cp, &ordermsg.ListOrdersOptions{Count: count}) {
			if err != nil {
				// The list changed during the run in every listing, or a
				// record shown late came after a newer one without the
				// total telling: the run stops, as after a break, and the
				// next run lists what it did not yield.
				mu.Lock()
				shifting := during
				mu.Unlock()
				if !shifting || !(errors.Is(err, ordermsg.ErrNotAscending) || errors.Is(err, ordermsg.ErrPaginationStuck) ||
					errors.Is(err, ordermsg.ErrListShifted)) {
					t.Fatalf("run %d: %v", run, err)
				}
				break
			}
			mu.Lock()
			isLate := late[o.ID]
			mu.Unlock()
			if o.DateCreated.Before(prev) && !isLate {
				t.Errorf("run %d: order %d yielded after a newer one", run, o.ID)
			}
			if !isLate {
				prev = o.DateCreated.Time
			}
			seen[o.ID]++
			if n++; n == stop {
				break
			}
		}
		var err error
		if saved, err = json.Marshal(cp); err != nil {
			t.Fatal(err)
		}
		switch {
		case run < 8 && intN(2) == 0:
			change()
			quiet = 0
		case run >= 8 && n == 0:
			quiet++
		}
	}
	mu.Lock()
	defer mu.Unlock()
	ls.set(func(ls *listServer) {
		kept := 0
		for _, r := range ls.recs {
			switch {
			case seen[r.id] > 1:
				t.Errorf("order %d (created %v) yielded %d times", r.id, r.created, seen[r.id])
			case !left[r.id] && seen[r.id] != 1:
				t.Errorf("order %d (created %v), listed all along, yielded %d times", r.id, r.created, seen[r.id])
			}
			if !left[r.id] {
				kept++
			}
		}
		if len(seen) > len(ls.recs) || len(seen) < kept {
			t.Errorf("%d orders yielded; the server has %d, %d of them never left", len(seen), len(ls.recs), kept)
		}
		var cp ordermsg.Checkpoint
		if err := json.Unmarshal(saved, &cp); err != nil {
			t.Fatal(err)
		}
		inWindow := 0 // what the next run may list again, at most
		for _, r := range ls.recs {
			if !r.created.Before(cp.Mark().Add(-(3*24 + 14) * time.Hour)) {
				inWindow++
			}
		}
		remembered := 0
		for _, ids := range seenOf(t, cp) {
			remembered += len(ids)
		}
		if remembered > inWindow || remembered == 0 {
			t.Errorf("the checkpoint remembers %d orders; the window holds %d", remembered, inWindow)
		}
	})
}
