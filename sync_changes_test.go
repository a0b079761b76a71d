package ordermsg_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// ordersByCreation returns the website's orders, ascending by creation
// then id, as a sync lists them.
func ordersByCreation(h *ordermsgtest.Handler, site int64) []*ordermsg.Order {
	var out []*ordermsg.Order
	h.Snapshot(func(ds *ordermsgtest.Dataset) { out = slices.Clone(ds.Website(site).Orders) })
	slices.SortFunc(out, func(a, b *ordermsg.Order) int {
		if c := a.DateCreated.Compare(b.DateCreated.Time); c != 0 {
			return c
		}
		return int(a.ID - b.ID)
	})
	return out
}

// Finding 1: an order on a page already read leaves the list (its status
// changes, or it is deleted) before the next page is served. The orders
// after it move back one place, and the first order of page 2 onto page 1,
// already read. Sync sees the total drop and lists again from its
// checkpoint: every order that matched all along is yielded exactly once.
func TestSyncRecordLeavingTheListMidRunLosesNothing(t *testing.T) {
	for _, how := range []string{"status", "delete"} {
		t.Run(how, func(t *testing.T) {
			ds := ordermsgtest.Generate(ordermsgtest.Config{Seed: 11, Websites: 1, OrdersPerWebsite: 60})
			var srv *ordermsgtest.Server
			var leaver int64
			var once sync.Once
			srv = ordermsgtest.NewServer(ds, ordermsgtest.WithBeforeList(func(r ordermsgtest.ListRequest) {
				if r.Resource == "orders" && r.Page == 2 {
					once.Do(func() {
						if how == "status" {
							srv.Handler.SetOrderStatus(r.WebsiteID, leaver, "shipped")
						} else {
							srv.Handler.DeleteOrder(r.WebsiteID, leaver)
						}
					})
				}
			}))
			defer srv.Close()
			all := ordersByCreation(srv.Handler, srv.WebsiteID)
			leaver = all[4].ID // on page 1
			c, _ := srv.Client()
			var cp ordermsg.Checkpoint
			seen := map[int64]int{}
			for run := range 3 {
				for o, err := range c.Orders.Sync(context.Background(), srv.WebsiteID, &cp, &ordermsg.ListOrdersOptions{Status: ordermsg.OrderStatusNew, Count: 10}) {
					if err != nil {
						t.Fatalf("run %d: %v", run, err)
					}
					seen[o.ID]++
				}
			}
			for _, o := range all {
				if o.ID != leaver && seen[o.ID] != 1 {
					t.Errorf("order %d, which matched all along, yielded %d times", o.ID, seen[o.ID])
				}
			}
			if seen[leaver] > 1 {
				t.Errorf("the order that left was yielded %d times", seen[leaver])
			}
		})
	}
}

// Finding 2: a record shown late, created inside the window the checkpoint
// promises to re-read (from midnight UTC two days before the mark's UTC
// date, less 14 hours, up to the mark), is yielded by
// the next run under every reading of date_start; one created just before
// that window is not.
func TestSyncLateRecordWindowHoldsUnderEveryReading(t *testing.T) {
	for _, days := range dayReadings {
		t.Run(fmt.Sprintf("exclusive=%v/offset=%v", days.Exclusive, days.Offset), func(t *testing.T) {
			srv := ordermsgtest.NewServer(smallSite(), ordermsgtest.WithDayBounds(days))
			defer srv.Close()
			c, _ := srv.Client()
			var cp ordermsg.Checkpoint
			if _, err := syncOrderIDs(c, srv.WebsiteID, &cp); err != nil {
				t.Fatal(err)
			}
			mark := cp.Mark().UTC()
			y, m, d := mark.AddDate(0, 0, -2).Date()
			windowStart := time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Add(-14 * time.Hour)
			var want []int64
			for _, at := range []time.Time{windowStart, mark.Add(-40 * time.Hour), mark.Add(-time.Second)} {
				for _, o := range srv.Handler.AddLateOrders(srv.WebsiteID, at, 1) {
					want = append(want, o.ID)
				}
			}
			srv.Handler.AddLateOrders(srv.WebsiteID, windowStart.Add(-time.Second), 1) // before the window
			got, err := syncOrderIDs(c, srv.WebsiteID, &cp)
			if err != nil || !slices.Equal(got, want) {
				t.Errorf("mark %v, window from %v: next run yielded %v, %v; want %v", mark, windowStart, got, err, want)
			}
		})
	}
}

// syncOrderIDs runs one Sync of the website's orders to its end.
func syncOrderIDs(c *ordermsg.Client, site int64, cp *ordermsg.Checkpoint) ([]int64, error) {
	return orderSyncs["Sync"](c, site, cp, nil)
}

// orderSyncs are Orders.Sync and Orders.SyncRaw, each run to its end,
// giving the ids it yielded and the error that ended it.
var orderSyncs = map[string]func(c *ordermsg.Client, site int64, cp *ordermsg.Checkpoint, opts *ordermsg.ListOrdersOptions) ([]int64, error){
	"Sync": func(c *ordermsg.Client, site int64, cp *ordermsg.Checkpoint, opts *ordermsg.ListOrdersOptions) ([]int64, error) {
		return yieldedIDs(c.Orders.Sync(context.Background(), site, cp, opts), func(o *ordermsg.Order) int64 { return o.ID })
	},
	"SyncRaw": func(c *ordermsg.Client, site int64, cp *ordermsg.Checkpoint, opts *ordermsg.ListOrdersOptions) ([]int64, error) {
		return yieldedIDs(c.Orders.SyncRaw(context.Background(), site, cp, opts), func(r *ordermsg.RawRecord) int64 { return r.ID })
	},
}

// yieldedIDs runs seq to its end.
func yieldedIDs[V any](seq iter.Seq2[V, error], id func(V) int64) ([]int64, error) {
	var got []int64
	for v, err := range seq {
		if err != nil {
			return got, err
		}
		got = append(got, id(v))
	}
	return got, nil
}

// Finding 3: a checkpoint knows the resource and website it was made by; a
// Sync of another refuses it before any request, and leaves it alone. A
// checkpoint stored before it carried an identity takes one on first use.
func TestSyncRefusesACheckpointOfAnotherResourceOrWebsite(t *testing.T) {
	ds := ordermsgtest.Generate(ordermsgtest.Config{Seed: 5, Websites: 2, OrdersPerWebsite: 50})
	var cs countingServer
	hs := httptest.NewServer(cs.wrap(ordermsgtest.NewHandler(ds), nil))
	defer hs.Close()
	c, _ := ordermsg.NewClient(hs.URL, ds.Websites[0].APIKey)
	site := ds.Websites[0].ID
	var cp ordermsg.Checkpoint
	for _, err := range c.Messages.Sync(context.Background(), site, &cp, nil) {
		if err != nil {
			t.Fatal(err)
		}
	}
	before := mustJSON(t, cp)
	if !strings.Contains(before, `"resource":"messages","website":`+fmt.Sprint(site)) {
		t.Fatalf("checkpoint %s does not say what it is for", before)
	}
	cs.requests.Store(0)
	other := ds.Websites[1].ID
	cases := map[string]func(yield func(error)){
		"orders": func(yield func(error)) {
			for o, err := range c.Orders.Sync(context.Background(), site, &cp, nil) {
				if o != nil {
					t.Errorf("yielded order %d", o.ID)
				}
				yield(err)
			}
		},
		"other website": func(yield func(error)) {
			for m, err := range c.Messages.Sync(context.Background(), other, &cp, nil) {
				if m != nil {
					t.Errorf("yielded message %d", m.ID)
				}
				yield(err)
			}
		},
	}
	for name, run := range cases {
		var errs []error
		run(func(err error) { errs = append(errs, err) })
		var me *ordermsg.CheckpointMismatchError
		if len(errs) != 1 || !errors.As(errs[0], &me) || !errors.Is(errs[0], ordermsg.ErrCheckpointMismatch) ||
			me.CheckpointResource != "messages" || me.CheckpointWebsite != site {
			t.Errorf("%s: got %v, want one *CheckpointMismatchError", name, errs)
		}
	}
	if n := cs.requests.Load(); n != 0 {
		t.Errorf("%d requests sent; want none", n)
	}
	if after := mustJSON(t, cp); after != before {
		t.Errorf("checkpoint changed from %s to %s", before, after)
	}
	// As stored by the code before identities: adopted on first use.
	var old ordermsg.Checkpoint
	if err := json.Unmarshal([]byte(`{"v":2,"created":"2024-01-03T00:00:00Z"}`), &old); err != nil {
		t.Fatal(err)
	}
	for _, err := range c.Orders.Sync(context.Background(), site, &old, nil) {
		if err != nil {
			t.Fatal(err)
		}
	}
	if got := mustJSON(t, old); !strings.Contains(got, `"resource":"orders","website":`+fmt.Sprint(site)) {
		t.Errorf("checkpoint after its first use: %s", got)
	}
}

// Finding 4: decoding a checkpoint is all or nothing, and says what is
// wrong.
func TestCheckpointDecodingIsAllOrNothing(t *testing.T) {
	const good = `{"v":2,"resource":"orders","website":3,"created":"2024-03-10T12:05:00Z","seen":{"2024-03-10T12:05:00Z":[5]}}`
	bad := map[string]string{
		`{"v":2,"created":"2024-03-10T12:05:00Z","covered_before":"2024-03-11T00:00:00Z"}`: "covered_before 2024-03-11T00:00:00Z is after the mark",
		`{"v":2,"created":"2024-03-10T12:05:00Z","seen":{"2024-03-11T12:05:00Z":[1]}}`:     "after the mark",
		`{"v":2,"created":"2024-03-10T12:05:00Z","seen":{"yesterday":[1]}}`:                `"yesterday" is not an RFC 3339 time`,
		`null`: "null is not a checkpoint",
		`{"v":3,"created":"2024-03-10T12:05:00Z"}`:     "version 3",
		`{"v":2,"ids":[1]}`:                            `unknown field "ids"`,
		`{"created":"2024-03-10T12:05:00Z","ids":[5]}`: `unknown field "ids"`,
		`{"v":2} {}`: "data after",
		`{"v":2,"seen":{"2024-03-10T12:05:00Z":[1]}}`:             "without a mark",
		`{"created":"2024-03-10T12:05:00Z","seen":{}}`:            `without "v":2`,
		`{"v":2,"resource":"invoices","website":1}`:               `resource "invoices"`,
		`{"v":2,"resource":"orders"}`:                             "without a positive website id",
		`{"v":2,"website":4}`:                                     "website 4 without a resource",
		`{"v":2,"created":"2024-03-10T12:05:00Z","seen":{"x":1}}`: "invalid checkpoint",
		// Names match exactly and a member comes once, as in every decode
		// of the SDK (encoding/json v1 took any case and kept the last).
		`{"v":2,"created":"2024-03-10T12:05:00Z","created":"2030-01-01T00:00:00Z"}`: "duplicate",
		`{"V":2,"Created":"2024-03-10T12:05:00Z"}`:                                  `unknown field "V"`,
	}
	for in, want := range bad {
		var cp ordermsg.Checkpoint
		if err := json.Unmarshal([]byte(good), &cp); err != nil {
			t.Fatal(err)
		}
		err := cp.UnmarshalJSON([]byte(in))
		if !errors.Is(err, ordermsg.ErrInvalidCheckpoint) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v; want ErrInvalidCheckpoint saying %q", in, err, want)
		}
		if got := mustJSON(t, cp); got != good {
			t.Errorf("%s: refused, yet the checkpoint became %s", in, got)
		}
	}
}

// Finding 4: a server whose date filter starts later than any reading of
// date_start (here six days late) does not list the records the checkpoint
// remembers at its mark: records created after the mark but before the
// filter's start would never be listed. Sync reads the newest remembered
// record by id, finds it, and stops with an *OverlapError instead of
// yielding what comes after the gap.
func TestSyncOverlapThatMissesTheCheckpointIsAnError(t *testing.T) {
	for name, sync := range orderSyncs {
		t.Run(name, func(t *testing.T) {
			srv := ordermsgtest.NewServer(smallSite(), ordermsgtest.WithDayBounds(ordermsgtest.DayBounds{Offset: -6 * 24 * time.Hour}))
			defer srv.Close()
			c, _ := srv.Client()
			var cp ordermsg.Checkpoint
			if _, err := sync(c, srv.WebsiteID, &cp, nil); err != nil { // no date_start: the whole history
				t.Fatal(err)
			}
			before := mustJSON(t, cp)
			srv.AddOrders(40) // up to days later: some before the server's start, some after
			got, err := sync(c, srv.WebsiteID, &cp, nil)
			var oe *ordermsg.OverlapError
			if len(got) != 0 || !errors.As(err, &oe) || !errors.Is(err, ordermsg.ErrOverlapMissing) || !oe.Created.Equal(cp.Mark()) {
				t.Fatalf("yielded %v, err %v; want nothing and an *OverlapError", got, err)
			}
			if after := mustJSON(t, cp); after != before {
				t.Errorf("checkpoint moved from %s to %s", before, after)
			}
		})
	}
}

// The overlap check does not mistake a record that left the list for a
// moved date filter: the newest order remembered is deleted, or leaves the
// status filter, and the next run goes on, at the cost of one request.
func TestSyncOverlapCheckAllowsARememberedRecordToLeave(t *testing.T) {
	for name, sync := range orderSyncs {
		for _, how := range []string{"delete", "status"} {
			t.Run(name+"/"+how, func(t *testing.T) {
				ds := smallSite()
				var cs countingServer
				h := ordermsgtest.NewHandler(ds)
				hs := httptest.NewServer(cs.wrap(h, nil))
				defer hs.Close()
				c, _ := ordermsg.NewClient(hs.URL, ds.Websites[0].APIKey)
				site := ds.Websites[0].ID
				opts := &ordermsg.ListOrdersOptions{Status: ordermsg.OrderStatusNew, Count: 100}
				var cp ordermsg.Checkpoint
				if _, err := sync(c, site, &cp, opts); err != nil {
					t.Fatal(err)
				}
				all := ordersByCreation(h, site)
				newest := all[len(all)-1].ID
				if how == "delete" {
					h.DeleteOrder(site, newest)
				} else {
					h.SetOrderStatus(site, newest, "shipped")
				}
				cs.requests.Store(0)
				if got, err := sync(c, site, &cp, opts); err != nil || len(got) != 0 {
					t.Fatalf("got %v, %v; want nothing new and no error", got, err)
				}
				if n := cs.requests.Load(); n != 2 {
					t.Errorf("%d requests; want 2: the overlap's page and the remembered order by id", n)
				}
			})
		}
	}
}

// Starting from a given time is one call: NewCheckpointAt.
func TestNewCheckpointAtSkipsTheHistory(t *testing.T) {
	srv := ordermsgtest.NewServer(smallSite())
	defer srv.Close()
	c, _ := srv.Client()
	all := ordersByCreation(srv.Handler, srv.WebsiteID)
	start := all[20].DateCreated.Time
	var want []int64
	for _, o := range all {
		if !o.DateCreated.Before(start) {
			want = append(want, o.ID)
		}
	}
	cp := ordermsg.NewCheckpointAt(start)
	got, err := syncOrderIDs(c, srv.WebsiteID, cp)
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("from %v: %v, %v; want %v", start, got, err, want)
	}
	if z := ordermsg.NewCheckpointAt(time.Time{}); !z.IsZero() || mustJSON(t, *z) != "{}" {
		t.Errorf("NewCheckpointAt(zero) = %s; want the zero checkpoint", mustJSON(t, *z))
	}
}

// The case the API cannot show: between two pages, one record already read
// leaves the list and another joins at its end, so the total does not move.
// The run misses the record that moved back onto the page already read; the
// next run, whose overlap starts days before the mark, lists it again and
// yields it, since it is inside the checkpoint's window.
func TestSyncMaskedShiftIsCaughtByTheNextRun(t *testing.T) {
	ls := &listServer{}
	ls.add(minutes(30)...)
	var once sync.Once
	ls.beforePage = func(page int) {
		if page == 2 {
			once.Do(func() {
				ls.remove(5)
				ls.add(listRecord{31, listBase.Add(31 * time.Minute)})
			})
		}
	}
	c := ls.client(t)
	var cp ordermsg.Checkpoint
	first, err := syncIDs(c, &cp, 10)
	if err != nil || slices.Contains(first, 11) {
		t.Fatalf("first run: %v, %v; want a run that misses order 11 (the test's premise)", first, err)
	}
	if got, err := syncIDs(c, &cp, 10); err != nil || !slices.Equal(got, []int64{11}) {
		t.Errorf("next run: %v, %v; want [11]", got, err)
	}
}

// A list that shifts in every listing: Sync lists again from its checkpoint
// up to four times, then yields a *ListShiftedError. Nothing is lost: the
// next run, on a quiet server, yields every record that never left, and
// none twice.
func TestSyncGivesUpOnAListThatKeepsShifting(t *testing.T) {
	ls := &listServer{}
	ls.add(minutes(40)...)
	var mu sync.Mutex
	next, busy := int64(1), true
	ls.beforePage = func(page int) {
		mu.Lock()
		defer mu.Unlock()
		if busy && page == 2 {
			ls.remove(next) // a record of page 1 leaves before every page 2
			next++
		}
	}
	c := ls.client(t)
	var cp ordermsg.Checkpoint
	seen := map[int64]int{}
	got, err := syncIDs(c, &cp, 10)
	var se *ordermsg.ListShiftedError
	if !errors.As(err, &se) || !errors.Is(err, ordermsg.ErrListShifted) || se.Listings != 4 || se.After != se.Before-1 {
		t.Fatalf("first run: %v, %v; want a *ListShiftedError after 4 listings", got, err)
	}
	for _, id := range got {
		seen[id]++
	}
	mu.Lock()
	busy = false
	left := next - 1
	mu.Unlock()
	got, err = syncIDs(c, &cp, 10)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range got {
		seen[id]++
	}
	for id := int64(1); id <= 40; id++ {
		if seen[id] > 1 || (id > left && seen[id] != 1) { // those up to left have left the list
			t.Errorf("order %d yielded %d times", id, seen[id])
		}
	}
}

// A record with an id that is not positive (the spec says nothing of the
// range) is yielded like any other, and the checkpoint that remembers it
// reads back: were its JSON refused, every later Sync of the website would
// fail on the checkpoint it wrote itself.
func TestCheckpointReadsBackWhatSyncWrote(t *testing.T) {
	ds := smallSite()
	ds.Websites[0].Orders[len(ds.Websites[0].Orders)-1].ID = 0
	srv := ordermsgtest.NewServer(ds)
	defer srv.Close()
	c, _ := srv.Client()
	var cp ordermsg.Checkpoint
	n := 0
	for _, err := range c.Orders.Sync(context.Background(), srv.WebsiteID, &cp, nil) {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != 30 {
		t.Fatalf("first run yielded %d orders, want 30", n)
	}
	var again ordermsg.Checkpoint
	if err := json.Unmarshal([]byte(mustJSON(t, cp)), &again); err != nil {
		t.Fatalf("the checkpoint Sync wrote does not read back: %v", err)
	}
	for o, err := range c.Orders.Sync(context.Background(), srv.WebsiteID, &again, nil) {
		if err != nil {
			t.Fatal(err)
		}
		t.Errorf("second run yielded order %d again", o.ID)
	}
}

// A record dated far after the client's clock would move the mark there,
// and every record created until that date would then count as yielded:
// Sync stops before it with ErrFutureRecord, yields what came before (but
// the record held back until the next one showed the order ascending), and
// leaves the mark before it, so that the next run yields the rest.
func TestSyncRefusesARecordDatedInTheFuture(t *testing.T) {
	ds := smallSite()
	orders := ds.Websites[0].Orders
	last := orders[len(orders)-1]
	normal := last.DateCreated
	last.DateCreated = ordermsg.Timestamp{Time: time.Date(2099, 1, 1, 0, 0, 0, 0, time.UTC)}
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
	if !errors.Is(err, ordermsg.ErrFutureRecord) || !strings.Contains(err.Error(), fmt.Sprintf("order %d was created at 2099-01-01", last.ID)) {
		t.Fatalf("err = %v; want ErrFutureRecord naming order %d", err, last.ID)
	}
	if n != 28 || !cp.Mark().Before(normal.Time) {
		t.Fatalf("yielded %d orders (want 28), mark %s", n, cp.Mark())
	}
	last.DateCreated = normal // the server's data mended
	var got []int64
	for o, err := range c.Orders.Sync(context.Background(), srv.WebsiteID, &cp, nil) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, o.ID)
	}
	if want := []int64{orders[28].ID, last.ID}; !slices.Equal(got, want) {
		t.Errorf("second run yielded %v, want %v", got, want)
	}
}

// With WithSkipUndecodable, Sync yields a record it cannot decode as a
// *RecordDecodeError in its place and goes on. One whose id and
// date_created can be read counts as yielded: the next run does not yield
// it again. One whose date_created cannot be read cannot be placed: it is
// yielded after the record before it, and again by the next run, which
// lists it again from the window. Without the option, the page fails.
func TestSyncSkipUndecodableGoesOnAndRemembersWhatItCan(t *testing.T) {
	ls := &listServer{}
	ls.add(minutes(10)...)
	ls.raw = map[int64]string{
		4: `{"object":"order","id":4,"date_created":"` + listBase.Add(4*time.Minute).Format(time.RFC3339) + `","status":"lone \ud800 surrogate"}`,
		7: `{"object":"order","id":7,"date_created":7}`,
	}
	c := ls.client(t)
	opts := &ordermsg.ListOrdersOptions{Count: 4}
	run := func(cp *ordermsg.Checkpoint, walk ...ordermsg.WalkOption) (got []string, err error) {
		for o, err := range c.Orders.Sync(context.Background(), 1, cp, opts, walk...) {
			var bad *ordermsg.RecordDecodeError
			switch {
			case errors.As(err, &bad):
				got = append(got, fmt.Sprintf("bad %d", bad.ID))
			case err != nil:
				return got, err
			default:
				got = append(got, fmt.Sprint(o.ID))
			}
		}
		return got, nil
	}
	var strict ordermsg.Checkpoint
	var de *ordermsg.DecodeError
	if got, err := run(&strict); len(got) != 0 || !errors.As(err, &de) {
		t.Fatalf("strict: %v, %v; want nothing and a *DecodeError", got, err)
	}
	var cp ordermsg.Checkpoint
	got, err := run(&cp, ordermsg.WithSkipUndecodable())
	if want := "[1 2 3 bad 4 5 6 bad 7 8 9 10]"; err != nil || fmt.Sprint(got) != want {
		t.Fatalf("first run: %v, %v; want %s", got, err, want)
	}
	got, err = run(&cp, ordermsg.WithSkipUndecodable())
	if want := "[bad 7]"; err != nil || fmt.Sprint(got) != want {
		t.Fatalf("second run: %v, %v; want %s", got, err, want)
	}
}

// A checkpoint whose mark is more than a day ahead of the clock is refused
// before any request: every record created until then would count as
// yielded. A mark minutes ahead, ordinary clock skew, is taken.
func TestSyncRefusesACheckpointFromTheFuture(t *testing.T) {
	ls := &listServer{}
	ls.add(minutes(3)...)
	c := ls.client(t)
	ahead := time.Now().Add(48 * time.Hour)
	got, err := syncIDs(c, ordermsg.NewCheckpointAt(ahead), 10)
	if len(got) != 0 || !errors.Is(err, ordermsg.ErrFutureCheckpoint) ||
		!strings.Contains(err.Error(), ahead.UTC().Format(time.RFC3339)) {
		t.Fatalf("%v, %v; want ErrFutureCheckpoint naming the mark", got, err)
	}
	ls.mu.Lock()
	requests := ls.requests
	ls.mu.Unlock()
	if requests != 0 {
		t.Errorf("%d requests before the refusal", requests)
	}
	if _, err := syncIDs(c, ordermsg.NewCheckpointAt(time.Now().Add(10*time.Minute)), 10); err != nil {
		t.Errorf("a mark ten minutes ahead: %v", err)
	}
}

// A masked leave on the page boundary where the newest record the
// checkpoint remembers stands: between two pages, a record already read
// leaves and another joins, so the total does not move, and the remembered
// record moves onto the page already read. The listing misses it, yet the
// server's date filter is right: Sync lists again instead of crying
// ErrOverlapMissing, and across the runs every record that stayed is
// yielded exactly once.
func TestSyncMaskedLeaveAtTheOverlapIsAShiftNotAnError(t *testing.T) {
	ls := &listServer{}
	ls.add(minutes(31)...)
	c := ls.client(t)
	var cp ordermsg.Checkpoint
	seen := map[int64]int{}
	first, err := syncIDs(c, &cp, 10)
	if err != nil || len(first) != 31 {
		t.Fatalf("first run: %v, %v", first, err)
	}
	for _, id := range first {
		seen[id]++
	}
	ls.add(listRecord{32, listBase.Add(32 * time.Minute)}, listRecord{33, listBase.Add(33 * time.Minute)})
	var once sync.Once
	ls.beforePage = func(page int) {
		if page == 4 { // records 31 to 33, with 31 the newest remembered
			once.Do(func() {
				ls.remove(5)
				ls.add(listRecord{34, listBase.Add(34 * time.Minute)})
			})
		}
	}
	second, err := syncIDs(c, &cp, 10)
	if err != nil {
		t.Fatalf("second run: %v, %v; want no error", second, err)
	}
	for _, id := range second {
		seen[id]++
	}
	for id := int64(1); id <= 34; id++ { // 5 was yielded by the first run, before it left
		if seen[id] != 1 {
			t.Errorf("order %d yielded %d times", id, seen[id])
		}
	}
}

// The newest record the checkpoint remembers leaves the list (its status
// changed) and can no longer be decoded when read by id: whether it still
// belongs in the list cannot be told, so the overlap check lets the run go
// on rather than stall the website on a *DecodeError run after run.
func TestSyncOverlapCheckGoesOnWhenTheRememberedRecordCannotBeRead(t *testing.T) {
	ls := &listServer{}
	ls.add(minutes(5)...)
	c := ls.client(t)
	var cp ordermsg.Checkpoint
	if got, err := syncIDs(c, &cp, 10); err != nil || len(got) != 5 {
		t.Fatalf("first run: %v, %v", got, err)
	}
	ls.set(func(ls *listServer) {
		ls.raw = map[int64]string{5: `{"object":"order","id":5,"date_created":"` + listBase.Add(5*time.Minute).Format(time.RFC3339) + `","currency":"\ud800"}`}
		ls.hidden = map[int64]bool{5: true}
		ls.recs = append(ls.recs, listRecord{6, listBase.Add(6 * time.Minute)})
	})
	yieldsOrder6ThenNothing(t, c, &cp, "order 5 left")
}

// The newest record the checkpoint remembers has an id that is not
// positive, which the API cannot be asked for, and leaves the list: the
// overlap check cannot read it, so it lets the run go on instead of failing
// every run on the SDK's own refusal to ask for such an id.
func TestSyncOverlapCheckGoesOnWhenTheRememberedIDIsNotPositive(t *testing.T) {
	ls := &listServer{}
	ls.add(listRecord{-4, listBase.Add(time.Minute)}, listRecord{0, listBase.Add(2 * time.Minute)})
	c := ls.client(t)
	var cp ordermsg.Checkpoint
	if got, err := syncIDs(c, &cp, 10); err != nil || !slices.Equal(got, []int64{-4, 0}) {
		t.Fatalf("first run: %v, %v", got, err)
	}
	ls.set(func(ls *listServer) {
		ls.hidden = map[int64]bool{0: true}
		ls.recs = append(ls.recs, listRecord{6, listBase.Add(6 * time.Minute)})
	})
	yieldsOrder6ThenNothing(t, c, &cp, "order 0 left")
}

// yieldsOrder6ThenNothing checks the two runs after what happened: the
// first yields order 6, added meanwhile, the second nothing.
func yieldsOrder6ThenNothing(t *testing.T, c *ordermsg.Client, cp *ordermsg.Checkpoint, what string) {
	t.Helper()
	for run := range 2 {
		if got, err := syncIDs(c, cp, 10); err != nil || !slices.Equal(got, []int64{6}[:1-run]) {
			t.Fatalf("run %d after %s: %v, %v; want [6] then nothing", run+2, what, got, err)
		}
	}
}

// In Sync, Response is the response of the page the record came from, also
// for the last record of a page, which Sync holds back until the next page
// shows the order ascending.
func TestSyncResponseIsThePageOfTheRecord(t *testing.T) {
	ls := &listServer{}
	ls.add(minutes(7)...)
	c := ls.client(t)
	var resp ordermsg.Response
	var cp ordermsg.Checkpoint
	pageOf := map[int64]string{}
	for o, err := range c.Orders.Sync(context.Background(), 1, &cp, &ordermsg.ListOrdersOptions{Count: 3, Response: &resp}) {
		if err != nil {
			t.Fatal(err)
		}
		pageOf[o.ID] = resp.Header.Get("X-Page")
	}
	if got := fmt.Sprint(pageOf); got != "map[1:1 2:1 3:1 4:2 5:2 6:2 7:3]" {
		t.Errorf("pages by Response: %s", got)
	}
}

// A record that cannot be decoded nor placed (no date_created that can be
// read) is yielded once by a Sync that lists twice: the second listing,
// after a record left a page already read, meets it again.
func TestSyncYieldsAnUnplacedRecordOncePerRun(t *testing.T) {
	ls := &listServer{}
	ls.add(minutes(30)...)
	ls.raw = map[int64]string{1: `{"object":"order","id":1,"date_created":7}`}
	var once sync.Once
	ls.beforePage = func(page int) {
		if page == 2 {
			once.Do(func() { ls.remove(3) })
		}
	}
	c := ls.client(t)
	var cp ordermsg.Checkpoint
	bad := 0
	for _, err := range c.Orders.Sync(context.Background(), 1, &cp, &ordermsg.ListOrdersOptions{Count: 10}, ordermsg.WithSkipUndecodable()) {
		var rde *ordermsg.RecordDecodeError
		switch {
		case errors.As(err, &rde):
			bad++
		case err != nil:
			t.Fatal(err)
		}
	}
	ls.mu.Lock()
	listings := ls.run
	ls.mu.Unlock()
	if bad != 1 || listings != 2 {
		t.Errorf("the unplaced record was yielded %d times in a run of %d listings; want once in 2", bad, listings)
	}
}

// A nil walk option is no option: neither All nor Sync panics on it.
func TestNilWalkOptionIsIgnored(t *testing.T) {
	ls := &listServer{}
	ls.add(minutes(3)...)
	c := ls.client(t)
	var cp ordermsg.Checkpoint
	var none ordermsg.WalkOption
	n := 0
	for _, err := range c.Orders.Sync(context.Background(), 1, &cp, nil, none) {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	for _, err := range c.Orders.All(context.Background(), 1, nil, none) {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != 6 {
		t.Errorf("%d records, want 3 and 3", n)
	}
}

// With WithSkipUndecodable, a record Sync cannot place in creation order
// (no date_created, or dated in the future) does not end the run: it is
// yielded as a *RecordDecodeError after the record before it, the mark
// does not move to it, and the next run meets it again. Without the option
// the run stops at it, as before.
func TestSyncSkipUndecodableTakesUndatedAndFutureRecords(t *testing.T) {
	ls := &listServer{}
	ls.add(minutes(6)...)
	ls.raw = map[int64]string{
		3: `{"object":"order","id":3,"date_created":null}`,
		6: `{"object":"order","id":6,"date_created":"2099-01-01T00:00:00+00:00"}`,
	}
	c := ls.client(t)
	run := func(cp *ordermsg.Checkpoint, walk ...ordermsg.WalkOption) (got []string, err error) {
		for o, err := range c.Orders.Sync(context.Background(), 1, cp, &ordermsg.ListOrdersOptions{Count: 4}, walk...) {
			var bad *ordermsg.RecordDecodeError
			switch {
			case errors.As(err, &bad):
				why := "undated"
				if errors.Is(bad, ordermsg.ErrFutureRecord) {
					why = "future"
				}
				if !errors.Is(bad, ordermsg.ErrNoCreationTime) && why == "undated" || bad.Page == 0 || len(bad.Raw) == 0 {
					t.Errorf("%+v", bad)
				}
				got = append(got, fmt.Sprintf("%s %d", why, bad.ID))
			case err != nil:
				return got, err
			default:
				got = append(got, fmt.Sprint(o.ID))
			}
		}
		return got, nil
	}
	var strict ordermsg.Checkpoint
	if got, err := run(&strict); !errors.Is(err, ordermsg.ErrNoCreationTime) || fmt.Sprint(got) != "[1]" {
		t.Fatalf("strict: %v, %v; want [1] and ErrNoCreationTime", got, err)
	}
	var cp ordermsg.Checkpoint
	for i, want := range []string{"[1 2 undated 3 4 5 future 6]", "[undated 3 future 6]"} {
		got, err := run(&cp, ordermsg.WithSkipUndecodable())
		if err != nil || fmt.Sprint(got) != want {
			t.Fatalf("run %d: %v, %v; want %s", i+1, got, err, want)
		}
	}
	if !cp.Mark().Equal(listBase.Add(5 * time.Minute)) {
		t.Errorf("mark %v; want order 5's", cp.Mark())
	}
}

// A first run started with time.Now(), which has a fraction of a second:
// records created just after it, in the same second, are dated (by the
// API, in whole seconds) before the start itself, and are still yielded,
// each once. The clock is real; a start whose second ends before the
// records are added is tried again.
func TestNewCheckpointAtNowYieldsTheRecordsOfItsSecond(t *testing.T) {
	srv := ordermsgtest.NewServer(smallSite(), ordermsgtest.WithClock(time.Now))
	defer srv.Close()
	c, _ := srv.Client()
	for try := 0; ; try++ {
		start := time.Now()
		if start.Nanosecond() == 0 || start.Nanosecond() > 900_000_000 {
			continue // no fraction to lose, or too little of the second left
		}
		cp := ordermsg.NewCheckpointAt(start)
		added := srv.AddOrders(4)
		sameSecond := 0
		var want []int64
		for _, o := range added {
			want = append(want, o.ID)
			if o.DateCreated.Equal(start.Truncate(time.Second)) {
				sameSecond++
			}
		}
		if sameSecond == 0 && try < 10 {
			continue // the second turned: none of them tells
		}
		if sameSecond == 0 {
			t.Fatal("no record was created in the start's second in 10 tries")
		}
		got, err := syncOrderIDs(c, srv.WebsiteID, cp)
		if err != nil || !slices.Equal(got, want) {
			t.Fatalf("first run from %v (%d records in its second): %v, %v; want %v", start, sameSecond, got, err, want)
		}
		if got, err := syncOrderIDs(c, srv.WebsiteID, cp); err != nil || len(got) != 0 {
			t.Errorf("second run: %v, %v; want nothing again", got, err)
		}
		return
	}
}
