package ordermsg

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"go.uber.org/goleak"
)

// pageServer serves a list of orders with ids from ids(), page by page,
// through httpmock. Hooks let a test make it lie.
type pageServer struct {
	mu       sync.Mutex
	ids      []int64 // the list, in order
	perPage  int
	requests []int // pages asked for, in arrival order
	inFlight atomic.Int32
	maxBusy  atomic.Int32
	// lie may change the page before it is sent; page is the one asked for.
	lie func(page int, p *Page[Order])
	// before runs first on every request, outside the lock.
	before func(page int)
}

func newPageServer(n, perPage int) *pageServer {
	s := &pageServer{perPage: perPage}
	for i := range n {
		s.ids = append(s.ids, int64(i+1))
	}
	return s
}

func (s *pageServer) respond(r *http.Request) (*http.Response, error) {
	busy := s.inFlight.Add(1)
	defer s.inFlight.Add(-1)
	for {
		old := s.maxBusy.Load()
		if busy <= old || s.maxBusy.CompareAndSwap(old, busy) {
			break
		}
	}
	page, _ := strconv.Atoi(r.URL.Query().Get("page"))
	if s.before != nil {
		s.before(page)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, page)
	perPage := s.perPage
	if c, err := strconv.Atoi(r.URL.Query().Get("count")); err == nil {
		perPage = c
	}
	from := min((page-1)*perPage, len(s.ids))
	to := min(from+perPage, len(s.ids))
	p := &Page[Order]{Object: "list", Data: []*Order{}}
	for _, id := range s.ids[from:to] {
		p.Data = append(p.Data, &Order{Object: "order", ID: id})
	}
	p.Meta.Pagination = Pagination{Total: len(s.ids), Count: to - from, PerPage: perPage, CurrentPage: page,
		TotalPages: (len(s.ids) + perPage - 1) / perPage}
	if s.lie != nil {
		s.lie(page, p)
	}
	body, _ := json.Marshal(p)
	return httpmock.NewBytesResponse(200, body), nil
}

func (s *pageServer) asked() []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]int(nil), s.requests...)
}

func walkClient(t *testing.T, s *pageServer) *Client {
	t.Helper()
	c, mt := newMockClient(t)
	mt.RegisterResponder(http.MethodGet, testBaseURL+"/websites/1/orders", s.respond)
	return c
}

// collect walks and returns the ids yielded and the errors, in order.
func collect(c *Client, opts *ListOrdersOptions, walk ...WalkOption) (ids []int64, errs []error) {
	for o, err := range c.Orders.All(context.Background(), 1, opts, walk...) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		ids = append(ids, o.ID)
	}
	return ids, errs
}

func seq(from, to int64) []int64 {
	var out []int64
	for i := from; i <= to; i++ {
		out = append(out, i)
	}
	return out
}

func equalIDs(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestWalkYieldsEveryRecordInOrder(t *testing.T) {
	defer goleak.VerifyNone(t)
	for _, n := range []int{1, 3, 8} {
		s := newPageServer(103, 10)
		ids, errs := collect(walkClient(t, s), &ListOrdersOptions{Count: 10}, WithConcurrency(n))
		if len(errs) != 0 || !equalIDs(ids, seq(1, 103)) {
			t.Fatalf("concurrency %d: %d ids, errors %v", n, len(ids), errs)
		}
		if got := s.asked(); len(got) != 11 {
			t.Errorf("concurrency %d: asked for %v, want 11 pages once each", n, got)
		}
		if busy := s.maxBusy.Load(); busy > int32(n) {
			t.Errorf("concurrency %d: %d requests at once", n, busy)
		}
	}
}

func TestWalkStartsAtPageAndLeavesOptionsAlone(t *testing.T) {
	s := newPageServer(50, 10)
	opts := &ListOrdersOptions{Page: 3, Count: 10, Search: "x"}
	before := *opts
	ids, errs := collect(walkClient(t, s), opts)
	if len(errs) != 0 || !equalIDs(ids, seq(21, 50)) {
		t.Fatalf("ids %v errs %v", ids, errs)
	}
	if opts.Page != before.Page || opts.Count != before.Count || opts.Search != before.Search {
		t.Errorf("options changed: %+v", opts)
	}
}

func TestWalkBreakStopsAtOnceAndLeavesNothingRunning(t *testing.T) {
	defer goleak.VerifyNone(t)
	for _, n := range []int{1, 4} {
		s := newPageServer(1000, 10)
		c := walkClient(t, s)
		count := 0
		for _, err := range c.Orders.All(context.Background(), 1, nil, WithConcurrency(n)) {
			if err != nil {
				t.Fatal(err)
			}
			count++
			break
		}
		if count != 1 {
			t.Fatalf("yielded %d", count)
		}
		// The first page, plus at most the read-ahead window started
		// before the break.
		if got := s.asked(); len(got) > 1+n {
			t.Errorf("concurrency %d: asked for %v after a break on the first record", n, got)
		}
	}
}

func TestWalkErrorOnPage3Of5IsYieldedOnceAndEnds(t *testing.T) {
	defer goleak.VerifyNone(t)
	for _, n := range []int{1, 4} {
		s := newPageServer(50, 10)
		c, mt := newMockClient(t, WithRetry(RetryPolicy{}))
		mt.RegisterResponder(http.MethodGet, testBaseURL+"/websites/1/orders", func(r *http.Request) (*http.Response, error) {
			if r.URL.Query().Get("page") == "3" {
				return httpmock.NewStringResponse(500, `{"message":"page 3 broke"}`), nil
			}
			return s.respond(r)
		})
		ids, errs := collect(c, nil, WithConcurrency(n))
		if !equalIDs(ids, seq(1, 20)) || len(errs) != 1 || !errors.Is(errs[0], ErrServer) {
			t.Fatalf("concurrency %d: ids %v errs %v", n, ids, errs)
		}
	}
}

// loopbackWalkClient serves s from a loopback HTTP server.
func loopbackWalkClient(t *testing.T, s *pageServer) *Client {
	t.Helper()
	c, _ := newLoopbackClient(t, func(w http.ResponseWriter, r *http.Request) {
		resp, _ := s.respond(r)
		w.WriteHeader(resp.StatusCode)
		io.Copy(w, resp.Body)
	})
	return c
}

// An empty page while fewer records than total have arrived: the records
// still missing would be lost if the walk ended there.
func TestWalkEmptyPageBeforeTheLastIsAnError(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t) }) // after the servers' own cleanups
	s := newPageServer(25, 10)
	s.lie = func(_ int, p *Page[Order]) { // claims far more than it has
		p.Meta.Pagination.Total, p.Meta.Pagination.TotalPages = 500, 50
	}
	for _, n := range []int{1, 8} {
		ids, errs := collect(loopbackWalkClient(t, s), nil, WithConcurrency(n))
		if !equalIDs(ids, seq(1, 25)) || len(errs) != 1 || !errors.Is(errs[0], ErrEmptyPage) ||
			!strings.Contains(errs[0].Error(), "after 25 of 500 records") {
			t.Fatalf("concurrency %d: ids %v errs %v", n, ids, errs)
		}
	}
	// A walk from page 2 counts the records of page 1 as arrived.
	ids, errs := collect(walkClient(t, s), &ListOrdersOptions{Page: 2})
	if !equalIDs(ids, seq(11, 25)) || len(errs) != 1 || !strings.Contains(errs[0].Error(), "after 25 of 500 records") {
		t.Fatalf("from page 2: ids %v errs %v", ids, errs)
	}
}

// An empty page after every record of total has arrived (a server whose
// total_pages overstates) is not a gap: the walk ends quietly.
func TestWalkEmptyPageAfterTotalRecordsEndsQuietly(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t) }) // after the servers' own cleanups
	s := newPageServer(25, 10)
	s.lie = func(_ int, p *Page[Order]) { p.Meta.Pagination.TotalPages = 50 } // total stays 25
	for _, n := range []int{1, 8} {
		ids, errs := collect(loopbackWalkClient(t, s), nil, WithConcurrency(n))
		if !equalIDs(ids, seq(1, 25)) || len(errs) != 0 {
			t.Fatalf("concurrency %d: ids %v errs %v", n, ids, errs)
		}
	}
	if ids, errs := collect(walkClient(t, s), &ListOrdersOptions{Page: 3}); !equalIDs(ids, seq(21, 25)) || len(errs) != 0 {
		t.Fatalf("from page 3: ids %v errs %v", ids, errs)
	}
}

// A per_page too large to multiply by the pages before the start does not
// overflow into a false ErrEmptyPage: the records before the start count as
// at most total.
func TestWalkHugePerPageFromALaterPage(t *testing.T) {
	s := newPageServer(25, 10)
	s.lie = func(_ int, p *Page[Order]) {
		p.Meta.Pagination.TotalPages, p.Meta.Pagination.PerPage = 50, math.MaxInt/2+1
	}
	if ids, errs := collect(walkClient(t, s), &ListOrdersOptions{Page: 3}); !equalIDs(ids, seq(21, 25)) || len(errs) != 0 {
		t.Fatalf("from page 3: ids %v errs %v", ids, errs)
	}
}

// A page without meta says so, rather than "got current_page 0".
func TestWalkPageWithoutPaginationMetadata(t *testing.T) {
	c, mt := newMockClient(t)
	mt.RegisterResponder(http.MethodGet, testBaseURL+"/websites/1/orders",
		httpmock.NewStringResponder(200, `{"object":"list","data":[{"object":"order","id":1}]}`))
	ids, errs := collect(c, nil)
	if len(ids) != 0 || len(errs) != 1 || !errors.Is(errs[0], ErrNoPagination) ||
		!strings.Contains(errs[0].Error(), "no pagination metadata") || strings.Contains(errs[0].Error(), "got current_page") {
		t.Fatalf("ids %v errs %v", ids, errs)
	}
}

func TestWalkEmptyLastPageEndsQuietly(t *testing.T) {
	s := newPageServer(0, 10)
	s.lie = func(_ int, p *Page[Order]) { p.Meta.Pagination.TotalPages = 0 }
	if ids, errs := collect(walkClient(t, s), nil); len(ids) != 0 || len(errs) != 0 {
		t.Fatalf("ids %v errs %v", ids, errs)
	}
	s.lie = func(_ int, p *Page[Order]) { p.Meta.Pagination.TotalPages = 1 }
	if ids, errs := collect(walkClient(t, s), nil); len(ids) != 0 || len(errs) != 0 {
		t.Fatalf("ids %v errs %v", ids, errs)
	}
}

// onPage returns a lie that changes only the given page.
func onPage(page int, lie func(p *Page[Order])) func(int, *Page[Order]) {
	return func(asked int, p *Page[Order]) {
		if asked == page {
			lie(p)
		}
	}
}

func TestWalkRefusesARecordOfAnotherKind(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t) }) // after the servers' own cleanups
	s := newPageServer(30, 10)
	s.lie = onPage(2, func(p *Page[Order]) { p.Data[4].Object = "message" })
	c := loopbackWalkClient(t, s)
	ids, errs := collect(c, nil)
	var decodeErr *DecodeError
	if !equalIDs(ids, seq(1, 10)) || len(errs) != 1 || !errors.As(errs[0], &decodeErr) || !strings.Contains(errs[0].Error(), `data[4]: object is "message"`) {
		t.Fatalf("ids %v errs %v", ids, errs)
	}
	if p, err := c.Orders.List(context.Background(), 1, &ListOrdersOptions{Page: 2}); p != nil || !errors.As(err, &decodeErr) {
		t.Fatalf("List: %v, %v", p, err)
	}
}

func TestWalkYieldsAnIDTwiceOnOnePageOnce(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t) }) // after the servers' own cleanups
	s := newPageServer(30, 10)
	s.lie = onPage(2, func(p *Page[Order]) { p.Data[5].ID = 12 }) // 11 12 13 14 15 12 17 …
	want := append(seq(1, 15), seq(17, 30)...)
	if ids, errs := collect(loopbackWalkClient(t, s), nil); !equalIDs(ids, want) || len(errs) != 0 {
		t.Fatalf("ids %v errs %v", ids, errs)
	}
}

func TestWalkYieldsRecordsWithoutIDs(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t) }) // after the servers' own cleanups
	s := newPageServer(30, 10)
	s.lie = func(_ int, p *Page[Order]) {
		for _, o := range p.Data {
			o.ID = 0 // marshalled as "id":0; the walk cannot tell these records apart
		}
	}
	ids, errs := collect(loopbackWalkClient(t, s), nil)
	if len(ids) != 30 || len(errs) != 0 {
		t.Fatalf("%d records, errs %v; want all 30 and no error", len(ids), errs)
	}
}

func TestWalkCancelInTheLoopYieldsNothingMore(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t) }) // after the servers' own cleanups
	s := newPageServer(300, 100)
	c := loopbackWalkClient(t, s)
	for _, n := range []int{1, 4} {
		ctx, cancel := context.WithCancel(context.Background())
		var ids []int64
		var errs []error
		for o, err := range c.Orders.All(ctx, 1, nil, WithConcurrency(n)) {
			if err != nil {
				errs = append(errs, err)
				continue
			}
			ids = append(ids, o.ID)
			cancel() // on the first of a page of 100
		}
		cancel()
		if !equalIDs(ids, []int64{1}) || len(errs) != 1 || !errors.Is(errs[0], context.Canceled) {
			t.Fatalf("concurrency %d: ids %v errs %v; want 1 then context.Canceled", n, ids, errs)
		}
	}
	c.CloseIdleConnections()
}

func TestWalkServerThatIgnoresPage(t *testing.T) {
	defer goleak.VerifyNone(t)
	cases := map[string]func(page int, p *Page[Order]){
		// Page 1 forever, and says so.
		"says page 1": func(_ int, p *Page[Order]) {
			p.Data = p.Data[:0]
			for i := range 10 {
				p.Data = append(p.Data, &Order{Object: "order", ID: int64(i + 1)})
			}
			p.Meta.Pagination.CurrentPage = 1
		},
		// Page 1's records forever, while echoing the page asked for.
		"echoes page": func(_ int, p *Page[Order]) {
			p.Data = p.Data[:0]
			for i := range 10 {
				p.Data = append(p.Data, &Order{Object: "order", ID: int64(i + 1)})
			}
		},
	}
	for name, lie := range cases {
		for _, n := range []int{1, 4} {
			s := newPageServer(1000, 10)
			s.lie = lie
			ids, errs := collect(walkClient(t, s), nil, WithConcurrency(n))
			if !equalIDs(ids, seq(1, 10)) || len(errs) != 1 || !errors.Is(errs[0], ErrPaginationStuck) {
				t.Fatalf("%s, concurrency %d: ids %v errs %v", name, n, ids, errs)
			}
			if got := len(s.asked()); got > 2+n {
				t.Errorf("%s, concurrency %d: %d requests before giving up", name, n, got)
			}
		}
	}
}

func TestWalkPageMismatch(t *testing.T) {
	s := newPageServer(100, 10)
	s.lie = func(page int, p *Page[Order]) {
		if page == 2 {
			p.Meta.Pagination.CurrentPage = 7
		}
	}
	ids, errs := collect(walkClient(t, s), nil)
	if !equalIDs(ids, seq(1, 10)) || len(errs) != 1 || !errors.Is(errs[0], ErrPageMismatch) {
		t.Fatalf("ids %v errs %v", ids, errs)
	}
}

func TestWalkDropsRecordsThatShiftOntoTheNextPage(t *testing.T) {
	// Newest first: ids 100 down to 1. Before page 2 is served, three new
	// orders arrive at the head, pushing the tail of page 1 onto page 2.
	s := newPageServer(0, 10)
	for id := int64(100); id >= 1; id-- {
		s.ids = append(s.ids, id)
	}
	var once sync.Once
	s.before = func(page int) {
		if page == 2 {
			once.Do(func() {
				s.mu.Lock()
				s.ids = append([]int64{103, 102, 101}, s.ids...)
				s.mu.Unlock()
			})
		}
	}
	ids, errs := collect(walkClient(t, s), nil)
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	seen := map[int64]int{}
	for _, id := range ids {
		seen[id]++
		if seen[id] > 1 {
			t.Fatalf("id %d yielded twice: %v", id, ids)
		}
	}
	if len(ids) != 100 {
		t.Errorf("yielded %d records, want the 100 that were there when the walk began", len(ids))
	}
}

func TestWalkCallerErrorsAreYieldedOnce(t *testing.T) {
	s := newPageServer(10, 10)
	c := walkClient(t, s)
	for name, walk := range map[string]func() (int, []error){
		"bad website": func() (int, []error) {
			n, errs := 0, []error(nil)
			for _, err := range c.Orders.All(context.Background(), 0, nil) {
				n++
				errs = append(errs, err)
			}
			return n, errs
		},
		"negative count": func() (int, []error) {
			n, errs := 0, []error(nil)
			for _, err := range c.Messages.All(context.Background(), 1, &ListMessagesOptions{Count: -1}) {
				n++
				errs = append(errs, err)
			}
			return n, errs
		},
	} {
		n, errs := walk()
		if n != 1 || errs[0] == nil {
			t.Errorf("%s: %d yields, %v", name, n, errs)
		}
	}
	if len(s.asked()) != 0 {
		t.Errorf("requests sent: %v", s.asked())
	}
}

func TestWalkCancelledContextEndsWithItsError(t *testing.T) {
	defer goleak.VerifyNone(t)
	s := newPageServer(1000, 10)
	c := walkClient(t, s)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var errs []error
	n := 0
	for _, err := range c.Orders.All(ctx, 1, nil, WithConcurrency(4)) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		n++
		if n == 15 {
			cancel()
		}
	}
	if len(errs) != 1 || !errors.Is(errs[0], context.Canceled) || n >= 1000 {
		t.Fatalf("after %d records: %v", n, errs)
	}
}

// TestWalkSlowConsumerGetsEveryPage yields to a consumer that is slow at
// the end of every page, so that the next page has been fetched, and its
// request counted as done, by the time the walk looks for it: the walk must
// still go on to the following pages (an earlier version of the overlapped
// fetching ended there, silently).
func TestWalkSlowConsumerGetsEveryPage(t *testing.T) {
	defer goleak.VerifyNone(t)
	for _, n := range []int{1, 2, 4} {
		s := newPageServer(120, 10)
		var ids []int64
		for o, err := range walkClient(t, s).Orders.All(context.Background(), 1, nil, WithConcurrency(n)) {
			if err != nil {
				t.Fatalf("concurrency %d: %v", n, err)
			}
			ids = append(ids, o.ID)
			if o.ID%10 == 0 {
				time.Sleep(2 * time.Millisecond)
			}
		}
		if !equalIDs(ids, seq(1, 120)) {
			t.Fatalf("concurrency %d: %d ids, want 120", n, len(ids))
		}
		if got := s.asked(); len(got) != 12 {
			t.Errorf("concurrency %d: asked for %v, want 12 pages once each", n, got)
		}
	}
}

// TestWalkSendsTheNextRequestBeforeDecoding checks that the default walk asks
// for page 3 once page 2 has been read, before page 2 is decoded: the fetch
// of page 2 (which stands for reading and decoding it) does not end until
// page 3 is asked for. A walk that asked for the next page only once the
// page before was decoded would never ask, and the fetch gives up after 10
// seconds.
func TestWalkSendsTheNextRequestBeforeDecoding(t *testing.T) {
	defer goleak.VerifyNone(t)
	page3 := make(chan struct{})
	fetch := func(ctx context.Context, page int, received func()) (*Page[Order], error) {
		if page == 3 {
			close(page3)
		}
		received()
		if page == 2 {
			select {
			case <-page3:
			case <-time.After(10 * time.Second):
				t.Error("page 3 was not asked for before page 2 was decoded")
			}
		}
		p := &Page[Order]{Object: "list", Data: []*Order{{Object: "order", ID: int64(page)}}}
		p.Meta.Pagination = Pagination{Total: 3, Count: 1, PerPage: 1, CurrentPage: page, TotalPages: 3}
		return p, nil
	}
	var ids []int64
	walk[Order](context.Background(), fetch, 1, walkConfig{concurrency: 1}, nil, func(o *Order, err error) bool {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, o.ID)
		return true
	})
	if !equalIDs(ids, seq(1, 3)) {
		t.Fatalf("ids %v", ids)
	}
}

// TestWalkKeepsAtMostNRequestsOpen: WithConcurrency(n) means at most n
// requests open at the server at once, counted from a request's arrival to
// the end of its body, which the server sends slowly so that a request made
// early would overlap it. Sync's exactness rests on n = 1: each page asked
// for only once the one before has been answered.
func TestWalkKeepsAtMostNRequestsOpen(t *testing.T) {
	defer goleak.VerifyNone(t)
	for _, n := range []int{1, 2, 4} {
		s := newPageServer(40, 5)
		var mu sync.Mutex
		open, peak := 0, 0
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			open++
			peak = max(peak, open)
			mu.Unlock()
			defer func() {
				mu.Lock()
				open--
				mu.Unlock()
			}()
			resp, err := s.respond(r)
			if err != nil {
				t.Error(err)
				return
			}
			body, _ := io.ReadAll(resp.Body)
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
			_, _ = w.Write(body[:1])
			w.(http.Flusher).Flush()
			time.Sleep(20 * time.Millisecond) // the body streams slowly
			_, _ = w.Write(body[1:])
		}))
		c, err := NewClient(srv.URL, "k")
		if err != nil {
			t.Fatal(err)
		}
		ids, errs := collect(c, &ListOrdersOptions{Count: 5}, WithConcurrency(n))
		c.CloseIdleConnections()
		srv.Close()
		if len(errs) != 0 || !equalIDs(ids, seq(1, 40)) {
			t.Fatalf("concurrency %d: ids %v, errors %v", n, ids, errs)
		}
		if peak > n {
			t.Errorf("concurrency %d: %d requests open at once", n, peak)
		}
	}
}

// TestWalkTakesItsOptionsWhenCalled: All reads its options when it is
// called, all of them (the query, the first page, KeepRawJSON), not when the
// loop over it starts.
func TestWalkTakesItsOptionsWhenCalled(t *testing.T) {
	s := newPageServer(30, 10)
	c := walkClient(t, s)
	opts := &ListOrdersOptions{Count: 10}
	seq2 := c.Orders.All(context.Background(), 1, opts)
	opts.Page, opts.Count, opts.KeepRawJSON = 3, 5, true
	var ids []int64
	for o, err := range seq2 {
		if err != nil {
			t.Fatal(err)
		}
		if o.RawJSON() != nil {
			t.Fatal("KeepRawJSON, set after the call, was taken")
		}
		ids = append(ids, o.ID)
	}
	if !equalIDs(ids, seq(1, 30)) {
		t.Fatalf("ids %v, want 1 to 30 from page 1, 10 a page", ids)
	}
}
