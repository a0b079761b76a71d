package mirror_test

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
)

// TestReconcileSettlesWhatAShiftSkipped: the server deletes an order
// between two pages of a reconcile's listing, so that the orders after it
// move back a place and the first of the next page is on neither page the
// listing reads. Whatever that skipped order is, the reconcile settles it:
// an order of id 0 that the server still has stays live, an order shown
// late is added, and an order that an earlier reconcile marked deleted and
// the server lists again is live again. With a server that deletes an order
// during every listing, the order listed again is live again too.
func TestReconcileSettlesWhatAShiftSkipped(t *testing.T) {
	for _, c := range []struct {
		name string
		test func(t *testing.T, e *exact)
	}{
		{"an order of id 0 that still exists stays live", shiftSkipsIDZero},
		{"an order shown late is added", shiftSkipsLateOrder},
		{"an order listed again is live again", shiftSkipsListedAgain},
		{"an order listed again is live again when every listing shifts", everyListingShifts},
		{"an order of id 0 is left as it is when every listing shifts", everyListingShiftsPastIDZero},
	} {
		t.Run(c.name, func(t *testing.T) {
			mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
				c.test(t, newExact(t, be, target))
			})
		})
	}
}

// shifter is a handler in front of next that deletes an order of the
// first website when a listing of its orders from the beginning (no
// date_start: a reconcile's, not a sync's) asks for page: once, or on
// every such listing.
type shifter struct {
	next    http.Handler
	page    int
	every   bool
	victims []int64 // deleted in turn, one per listing
	deleted atomic.Int64
	delete  func(id int64)
	mu      sync.Mutex
	hide    map[int64]bool // the ids of orders left out of every list
}

// hiding leaves the orders with the given ids out of every list from now
// on.
func (s *shifter) hiding(ids ...int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hide = map[int64]bool{}
	for _, id := range ids {
		s.hide[id] = true
	}
}

// hidden reports whether the order with the given id is left out.
func (s *shifter) hidden(id int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hide[id]
}

func (s *shifter) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if strings.HasSuffix(r.URL.Path, "/orders") && q.Get("page") == fmt.Sprint(s.page) && !q.Has("date_start") {
		if n := s.deleted.Load(); int(n) < len(s.victims) && (s.every || n == 0) && s.deleted.CompareAndSwap(n, n+1) {
			s.delete(s.victims[n])
		}
	}
	if !strings.HasSuffix(r.URL.Path, "/orders") {
		s.next.ServeHTTP(rw, r)
		return
	}
	rec := httptest.NewRecorder()
	s.next.ServeHTTP(rec, r)
	var list struct {
		Data []json.RawMessage `json:"data"`
	}
	body := rec.Body.Bytes()
	json.Unmarshal(body, &list)
	for _, o := range list.Data {
		var head struct {
			ID int64 `json:"id"`
		}
		if json.Unmarshal(o, &head) != nil || !s.hidden(head.ID) {
			continue
		}
		for _, cut := range [][]byte{append(slices.Clone(o), ','), append([]byte{','}, o...), o} {
			if i := bytes.Index(body, cut); i >= 0 {
				body = slices.Concat(body[:i], body[i+len(cut):])
				break
			}
		}
	}
	maps.Copy(rw.Header(), rec.Header())
	rw.Header().Del("Content-Length")
	rw.WriteHeader(rec.Code)
	rw.Write(body)
}

// shiftingFront serves next through a shifter that deletes victims in turn
// when page is asked for, and returns the shifter and a client of the first
// website through it.
func (e *exact) shiftingFront(t *testing.T, next http.Handler, page int, every bool, victims ...int64) (*shifter, site) {
	t.Helper()
	s := &shifter{next: next, page: page, every: every, victims: victims,
		delete: func(id int64) { e.srv.Handler.DeleteOrder(e.s.id, id) }}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return s, clientOf(t, srv.URL, e.s)
}

// ordersByCreation are the first website's orders in the order of a
// listing by date_created, ascending.
func (e *exact) ordersByCreation() []*ordermsg.Order {
	orders := slices.Clone(e.website().Orders)
	slices.SortStableFunc(orders, func(a, b *ordermsg.Order) int {
		return cmp.Or(a.DateCreated.Compare(b.DateCreated.Time), cmp.Compare(a.ID, b.ID))
	})
	return orders
}

// reconcileThrough reconciles the first website through s with pages of
// perPage, one at a time.
func (e *exact) reconcileThrough(t *testing.T, s site, perPage int) mirror.Result {
	t.Helper()
	return syncSite(t, e.m, s, &mirror.Options{Reconcile: true, PageSize: perPage, Concurrency: 1, BaseURLMoved: true})
}

// shiftSkipsIDZero: the server lists an order under id 0, which cannot be
// retrieved; a shift skips it, and it still exists.
func shiftSkipsIDZero(t *testing.T, e *exact) {
	sp := &spoiler{next: e.srv.Handler, spoils: map[int64][]spoil{}, done: map[int64]int{}}
	zero := e.srv.AddOrders(3)[0] // the 31st of 33 orders: the first of page 4 of 10
	sp.set(zero.ID, spoil{fmt.Sprintf(`"id":%d,`, zero.ID), `"id":0,`})
	shift, s := e.shiftingFront(t, sp, 4, false, e.website().Orders[3].ID)
	syncSite(t, e.m, s, &mirror.Options{BaseURLMoved: true})
	if n := count(t, e.db, fmt.Sprintf("SELECT count(*) FROM orders WHERE website_id = %d AND id = 0 AND deleted_at IS NULL", e.s.id)); n != 1 {
		t.Fatalf("the order of id 0 is not mirrored live")
	}
	res := e.reconcileThrough(t, s, 10)
	if shift.deleted.Load() != 1 {
		t.Fatal("the listing did not shift")
	}
	if !e.deletedAt(t, "orders", 0).IsZero() {
		t.Errorf("the order of id 0, which the server still lists, was marked deleted: %+v", res.Orders)
	}
	if res.Orders.Deleted != 0 {
		t.Errorf("reconcile while the list shifted: %+v; want nothing deleted", res.Orders)
	}
}

// shiftSkipsLateOrder: an order shown late, created long before the
// checkpoint, is the one a shift skips.
func shiftSkipsLateOrder(t *testing.T, e *exact) {
	orders := e.ordersByCreation()
	i := 1
	for ; i < len(orders)-1 && !orders[i+1].DateCreated.After(orders[i].DateCreated.Time); i++ {
	}
	if i >= len(orders)-1 {
		t.Fatal("no two orders of the fake are created at different times")
	}
	// Created with orders[i], after it by id: the first order of page 2 of
	// i+1 orders a page.
	late := e.srv.Handler.AddLateOrders(e.s.id, orders[i].DateCreated.Time, 1)[0]
	shift, s := e.shiftingFront(t, e.srv.Handler, 2, false, orders[0].ID)
	res := e.reconcileThrough(t, s, i+1)
	if shift.deleted.Load() != 1 {
		t.Fatal("the listing did not shift")
	}
	if n := count(t, e.db, fmt.Sprintf("SELECT count(*) FROM orders WHERE id = %d AND deleted_at IS NULL", late.ID)); n != 1 {
		t.Errorf("the order shown late that the shift skipped is not mirrored: %+v", res.Orders)
	}
	if res.Orders.New != 1 {
		t.Errorf("reconcile while the list shifted: %+v; want the late order new", res.Orders)
	}
	syncSite(t, e.m, s, reconcile)
	sameRecords(t, e.db, s)
}

// deletedThenRestored has an earlier reconcile mark the order at position i
// of the listing deleted, then puts it back on the server; it returns it.
func (e *exact) deletedThenRestored(t *testing.T, i int) *ordermsg.Order {
	t.Helper()
	order := e.ordersByCreation()[i]
	e.srv.Handler.DeleteOrder(e.s.id, order.ID)
	if res := syncSite(t, e.m, e.s, reconcile); res.Orders.Deleted != 1 {
		t.Fatalf("reconcile after a deletion: %+v", res)
	}
	e.restoreOrder(order)
	return order
}

// shiftSkipsListedAgain: an order that an earlier reconcile marked
// deleted, listed again, is the one a shift skips.
func shiftSkipsListedAgain(t *testing.T, e *exact) {
	again := e.deletedThenRestored(t, 7) // the first of page 2 of 7
	shift, s := e.shiftingFront(t, e.srv.Handler, 2, false, e.ordersByCreation()[2].ID)
	res := e.reconcileThrough(t, s, 7)
	if shift.deleted.Load() != 1 {
		t.Fatal("the listing did not shift")
	}
	if at := e.deletedAt(t, "orders", again.ID); !at.IsZero() {
		t.Errorf("the order listed again, which the shift skipped, stays deleted (%v): %+v", at, res.Orders)
	}
	syncSite(t, e.m, s, reconcile)
	sameRecords(t, e.db, s)
}

// everyListingShifts: the server deletes an order during every listing, so
// that no listing can be trusted to show every order it has, and a shift
// skips, in each, the order that an earlier reconcile marked deleted and
// that the server has again (the front hides it from every listing). Its
// retrieve finds it: it is live again.
func everyListingShifts(t *testing.T, e *exact) {
	orders := e.ordersByCreation()
	again := e.deletedThenRestored(t, 20)
	shift, s := e.shiftingFront(t, e.srv.Handler, 2, true, orders[0].ID, orders[1].ID, orders[2].ID, orders[3].ID)
	shift.hiding(again.ID)
	res := e.reconcileThrough(t, s, 7)
	if n := shift.deleted.Load(); n != 3 {
		t.Fatalf("the listing shifted %d times; want each of the reconcile's 3 listings to", n)
	}
	if at := e.deletedAt(t, "orders", again.ID); !at.IsZero() {
		t.Errorf("the order listed again, which the shifts skipped, stays deleted (%v): %+v", at, res.Orders)
	}
	if res.Orders.Deleted != 0 {
		t.Errorf("reconcile of a listing that kept shifting: %+v; want nothing deleted from its absence", res.Orders)
	}
}

// everyListingShiftsPastIDZero: the server deletes an order during every
// listing, and none shows the order of id 0 (the front hides it), which
// cannot be asked for by id: nothing tells whether it still exists, and it
// is left live, not marked deleted from its absence.
func everyListingShiftsPastIDZero(t *testing.T, e *exact) {
	sp := &spoiler{next: e.srv.Handler, spoils: map[int64][]spoil{}, done: map[int64]int{}}
	zero := e.srv.AddOrders(1)[0]
	sp.set(zero.ID, spoil{fmt.Sprintf(`"id":%d,`, zero.ID), `"id":0,`})
	orders := e.ordersByCreation()
	shift, s := e.shiftingFront(t, sp, 2, true, orders[0].ID, orders[1].ID, orders[2].ID, orders[3].ID)
	syncSite(t, e.m, s, &mirror.Options{BaseURLMoved: true})
	shift.hiding(0)
	res := e.reconcileThrough(t, s, 7)

	if n := shift.deleted.Load(); n != 3 {
		t.Fatalf("the listing shifted %d times; want each of the reconcile's 3 listings to", n)
	}
	if !e.deletedAt(t, "orders", 0).IsZero() || res.Orders.Deleted != 0 {
		t.Errorf("the order of id 0, which no shifting listing showed, was marked deleted: %+v", res.Orders)
	}
}
