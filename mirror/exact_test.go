package mirror_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// TestStaysExactOverTime is the mirror's table of what keeps it exact as
// the service changes and its data gets unusual: each case runs against
// SQLite and PostgreSQL, on a mirror of a fake's website already synced
// once.
func TestStaysExactOverTime(t *testing.T) {
	for _, c := range []struct {
		name string
		test func(t *testing.T, e *exact)
	}{
		{"deleted records get deleted_at and leave the views", deletedRecords},
		{"a record listed again is live again", listedAgain},
		{"a change of any age is seen by a reconcile", lateChange},
		{"records shown late are added by a reconcile", lateRecords},
		{"a reconcile confirms what a shifting list skipped", shiftedListing},
		{"nothing changed writes nothing", nothingChangedWritesNothing},
		{"re-signed file links are no change", reSignedLinksAreNoChange},
		{"an older read never overwrites a newer one", olderReadNeverWins},
		{"an older read never overwrites a newer one that found no change", olderChangeNeverWins},
		{"NUL characters are stored, and every view answers", nulCharacters},
		{"values a database cannot hold leave every view answering", unholdableValues},
		{"a record the SDK refuses is kept as sent and the website goes on", refusedRecords},
		{"a record dated in the future or undated is kept as refused and the website goes on", unplaceableRecords},
		{"the messages are mirrored when the orders fail", messagesAfterFailedOrders},
		{"a run cancelled after its orders failed says both", cancelledAfterOrdersFailed},
		{"a reconcile completes with records of ids that are not positive", nonPositiveIDs},
		{"a reconcile counts each record once", reconcileCountsOnce},
		{"a refused record of id 0 is kept by its id", refusedRecordOfIDZero},
		{"a record nested deeper than SQLite reads fails no view", deepRecord},
		{"one source per website", oneSourcePerWebsite},
		{"records a run takes for new that the table holds are compared, not written twice", heldTakenForNew},
	} {
		t.Run(c.name, func(t *testing.T) {
			mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
				c.test(t, newExact(t, be, target))
			})
		})
	}
}

// exact is a mirror of the first of two websites of a fake, synced once;
// the second website is mirrored in the same database.
type exact struct {
	be     mirrortest.Backend
	target string
	srv    *ordermsgtest.Server
	s      site // the first website
	other  site // the second
	db     *sql.DB
	m      *mirror.Mirror
}

func newExact(t *testing.T, be mirrortest.Backend, target string) *exact {
	srv, s, db, m := mirrorOf(t, be, target, ordermsgtest.Config{Seed: 25, Websites: 2, OrdersPerWebsite: 30, MessagesPerWebsite: 40})
	e := &exact{be: be, target: target, srv: srv, s: s, other: siteOf(t, srv, 1), db: db, m: m}
	syncSite(t, m, s, &mirror.Options{PageSize: 7})
	syncSite(t, m, e.other, nil)
	return e
}

// website is the fake's first website, to read while no request is served.
func (e *exact) website() *ordermsgtest.Website {
	var w *ordermsgtest.Website
	e.srv.Handler.Snapshot(func(ds *ordermsgtest.Dataset) { w = ds.Websites[0] })
	return w
}

// reconcile is a Sync of the first website with Reconcile.
var reconcile = &mirror.Options{Reconcile: true, PageSize: 7}

// deletedAt reads the deleted_at of a record: the zero time for NULL.
func (e *exact) deletedAt(t *testing.T, table string, id int64) time.Time {
	t.Helper()
	var v any
	if err := e.db.QueryRow(fmt.Sprintf("SELECT deleted_at FROM %s WHERE id = %d", table, id)).Scan(&v); err != nil {
		t.Fatalf("%s %d: %v", table, id, err)
	}
	switch v := v.(type) {
	case nil:
		return time.Time{}
	case time.Time: // timestamptz
		return v
	case string: // SQLite: RFC 3339 text
		at, err := time.Parse(time.RFC3339, v)
		if err != nil {
			t.Fatalf("%s %d: deleted_at %q: %v", table, id, v, err)
		}
		return at
	}
	t.Fatalf("%s %d: deleted_at of type %T", table, id, v)
	return time.Time{}
}

// writes installs triggers that count every row the mirror inserts,
// updates or deletes in its tables, and returns the count so far.
func (e *exact) writes(t *testing.T) func() int {
	t.Helper()
	tables := []string{"orders", "messages", "sync_state", "refused_records", "website_sources"}
	script := "CREATE TABLE test_writes (n INTEGER NOT NULL); INSERT INTO test_writes VALUES (0);"
	if e.be.Backend == mirror.PostgreSQL {
		script += `CREATE FUNCTION test_count_write() RETURNS trigger LANGUAGE plpgsql AS
			$$ BEGIN UPDATE test_writes SET n = n + 1; RETURN NULL; END $$;`
		for _, table := range tables {
			script += fmt.Sprintf("CREATE TRIGGER test_%s AFTER INSERT OR UPDATE OR DELETE ON %s FOR EACH ROW EXECUTE FUNCTION test_count_write();", table, table)
		}
	} else {
		for _, table := range tables {
			for _, op := range []string{"INSERT", "UPDATE", "DELETE"} {
				script += fmt.Sprintf("CREATE TRIGGER test_%s_%s AFTER %s ON %s BEGIN UPDATE test_writes SET n = n + 1; END;", table, op, op, table)
			}
		}
	}
	if _, err := e.db.Exec(script); err != nil {
		t.Fatal(err)
	}
	return func() int { return count(t, e.db, "SELECT n FROM test_writes") }
}

func deletedRecords(t *testing.T, e *exact) {
	w := e.website()
	order, message := w.Orders[3], w.Messages[5]
	if !e.srv.Handler.DeleteOrder(e.s.id, order.ID) || !e.srv.Handler.DeleteMessage(e.s.id, message.ID) {
		t.Fatal("the fake deleted nothing")
	}
	if res := syncSite(t, e.m, e.s, nil); res != (mirror.Result{}) {
		t.Errorf("a run without Reconcile: %+v; want nothing seen", res)
	}
	before := time.Now()
	res := syncSite(t, e.m, e.s, reconcile)
	if res.Orders != (mirror.Counts{Unchanged: 29, Deleted: 1}) || res.Messages != (mirror.Counts{Unchanged: 39, Deleted: 1}) {
		t.Errorf("reconcile after a deletion of each: %+v", res)
	}
	for table, id := range map[string]int64{"orders": order.ID, "messages": message.ID} {
		if at := e.deletedAt(t, table, id); at.Before(before.Add(-time.Second)) || at.After(time.Now().Add(time.Second)) {
			t.Errorf("%s %d: deleted_at %v, want the time of the reconcile", table, id, at)
		}
	}
	if n := count(t, e.db, "SELECT count(*) FROM orders"); n != 60 {
		t.Errorf("%d orders rows, want 60: rows are never removed", n)
	}
	sameRecords(t, e.db, e.s)
	sameRecords(t, e.db, e.other)
	for _, q := range []string{
		fmt.Sprintf("SELECT count(*) FROM order_items WHERE order_id = %d", order.ID),
		fmt.Sprintf("SELECT count(*) FROM order_fields WHERE order_id = %d", order.ID),
		fmt.Sprintf("SELECT count(*) FROM message_fields WHERE message_id = %d", message.ID),
	} {
		if n := count(t, e.db, q); n != 0 {
			t.Errorf("%s: %d rows of a deleted record", q, n)
		}
	}
	if res := syncSite(t, e.m, e.s, reconcile); res.Orders.Deleted+res.Messages.Deleted != 0 {
		t.Errorf("a second reconcile counted deletions again: %+v", res)
	}
}

// restoreOrder puts a deleted order back where it was in the fake's list.
func (e *exact) restoreOrder(o *ordermsg.Order) {
	e.srv.Handler.Snapshot(func(ds *ordermsgtest.Dataset) { // no request is in flight
		w := ds.Websites[0]
		i, _ := slices.BinarySearchFunc(w.Orders, o.ID, func(x *ordermsg.Order, id int64) int { return int(x.ID - id) })
		w.Orders = slices.Insert(w.Orders, i, o)
	})
}

func listedAgain(t *testing.T, e *exact) {
	order := e.website().Orders[10]
	e.srv.Handler.DeleteOrder(e.s.id, order.ID)
	if res := syncSite(t, e.m, e.s, reconcile); res.Orders.Deleted != 1 {
		t.Fatalf("reconcile after a deletion: %+v", res)
	}
	e.restoreOrder(order)
	res := syncSite(t, e.m, e.s, reconcile)
	if res.Orders != (mirror.Counts{Updated: 1, Unchanged: 29}) {
		t.Errorf("reconcile after the order is listed again: %+v; want it updated", res)
	}
	if at := e.deletedAt(t, "orders", order.ID); !at.IsZero() {
		t.Errorf("deleted_at %v after the order is listed again", at)
	}
	sameRecords(t, e.db, e.s)
}

func lateChange(t *testing.T, e *exact) {
	old := e.website().Orders[1] // months before the newest: beyond any refresh window
	e.srv.Handler.SetOrderStatus(e.s.id, old.ID, "refunded")
	if res := syncSite(t, e.m, e.s, &mirror.Options{RefreshDays: 1}); res.Orders.Updated != 0 {
		t.Errorf("RefreshDays 1 saw a change older than its window: %+v", res)
	}
	res := syncSite(t, e.m, e.s, reconcile)
	if res.Orders != (mirror.Counts{Updated: 1, Unchanged: 29}) || res.Messages != (mirror.Counts{Unchanged: 40}) {
		t.Errorf("reconcile after an old order's status changed: %+v", res)
	}
	var status string
	if err := e.db.QueryRow(fmt.Sprintf("SELECT status FROM orders WHERE id = %d", old.ID)).Scan(&status); err != nil || status != "refunded" {
		t.Errorf("status %q, %v", status, err)
	}
	sameRecords(t, e.db, e.s)
}

func lateRecords(t *testing.T, e *exact) {
	w := e.website()
	late := e.srv.Handler.AddLateOrders(e.s.id, w.Orders[2].DateCreated.Add(time.Minute), 3)
	if res := syncSite(t, e.m, e.s, nil); res != (mirror.Result{}) {
		t.Errorf("a run without Reconcile saw orders shown late, long before its checkpoint: %+v", res)
	}
	res := syncSite(t, e.m, e.s, reconcile)
	if res.Orders.New != len(late) || res.Messages.New != len(late) {
		t.Errorf("reconcile after %d orders shown late (each with its message): %+v", len(late), res)
	}
	sameRecords(t, e.db, e.s)
}

// shiftedListing deletes an order while a reconcile lists the orders, after
// it read the first page, where the order is: the orders after it move back
// a place, and the first of the second page is on neither page the walk
// reads. The reconcile sees the total drop, lists again, finds that one
// there without asking for it, and leaves it live; the next reconcile
// finds the deleted one gone.
func shiftedListing(t *testing.T, e *exact) {
	w := e.website()
	victim, skipped := w.Orders[2], w.Orders[7]
	var deleted atomic.Bool
	var asked atomic.Int64
	shifting := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if strings.HasSuffix(r.URL.Path, "/orders") && q.Get("page") == "2" && !q.Has("date_start") && deleted.CompareAndSwap(false, true) {
			e.srv.Handler.DeleteOrder(e.s.id, victim.ID)
		}
		if strings.HasSuffix(r.URL.Path, fmt.Sprintf("/orders/%d", skipped.ID)) {
			asked.Add(1)
		}
		e.srv.Handler.ServeHTTP(rw, r)
	}))
	defer shifting.Close()
	s := clientOf(t, shifting.URL, e.s)
	res, err := e.m.Sync(context.Background(), s.c, s.id, &mirror.Options{Reconcile: true, PageSize: 7, Concurrency: 1, BaseURLMoved: true})
	if err != nil {
		t.Fatal(err)
	}
	if !deleted.Load() || asked.Load() != 0 || res.Orders != (mirror.Counts{Unchanged: 30}) {
		t.Errorf("reconcile while the list shifted: %+v; the skipped order asked for %d times", res, asked.Load())
	}
	if at := e.deletedAt(t, "orders", skipped.ID); !at.IsZero() {
		t.Errorf("the order the shift hid from the listing was marked deleted")
	}
	if res := syncSite(t, e.m, s, reconcile); res.Orders != (mirror.Counts{Unchanged: 29, Deleted: 1}) {
		t.Errorf("the next reconcile: %+v", res)
	}
	sameRecords(t, e.db, s)
}

func nothingChangedWritesNothing(t *testing.T, e *exact) {
	writes := e.writes(t)
	for _, opts := range []*mirror.Options{nil, {RefreshDays: 1 << 20}, reconcile} {
		res := syncSite(t, e.m, e.s, opts)
		if res.Orders.New+res.Orders.Updated+res.Orders.Deleted+res.Messages.New+res.Messages.Updated+res.Messages.Deleted != 0 {
			t.Errorf("%+v on an unchanged server: %+v", opts, res)
		}
		if n := writes(); n != 0 {
			t.Errorf("%+v on an unchanged server wrote %d rows", opts, n)
		}
	}
}

func reSignedLinksAreNoChange(t *testing.T, e *exact) {
	var linked int
	for _, o := range e.website().Orders {
		for _, it := range o.Items {
			for _, p := range it.PrintReadyFiles {
				if p.File != nil {
					linked++
				}
			}
		}
	}
	if linked == 0 {
		t.Fatal("no order of the fake has a file link: the test proves nothing")
	}
	for run := range 2 {
		res := syncSite(t, e.m, e.s, &mirror.Options{RefreshDays: 100000})
		if res.Orders != (mirror.Counts{Unchanged: 30}) || res.Messages != (mirror.Counts{Unchanged: 40}) {
			t.Errorf("refresh %d of every record on an unchanged server: %+v", run, res)
		}
	}
}

// olderReadNeverWins: run A reads an order, then waits (its next page is
// held) while the order changes and run B starts; A then writes what it
// read. Runs of a website's table take turns (PostgreSQL: an advisory
// lock; SQLite: a lease), so B waits for A and reads after it: the change
// stays.
func olderReadNeverWins(t *testing.T, e *exact) {
	order := e.website().Orders[15]
	twoRuns(t, e, func() { e.srv.Handler.SetOrderStatus(e.s.id, order.ID, "shipped") }, func(ra, rb mirror.Result) {
		var status string
		if err := e.db.QueryRow(fmt.Sprintf("SELECT status FROM orders WHERE id = %d", order.ID)).Scan(&status); err != nil || status != "shipped" {
			t.Errorf("status %q after the two runs (%v); want the later read's, shipped", status, err)
		}
		if n := ra.Orders.Updated + rb.Orders.Updated; n != 1 {
			t.Errorf("the change counted updated %d times: A %+v, B %+v", n, ra, rb)
		}
	})
}

// olderChangeNeverWins: the order changes before run A reads it and
// changes back before run B does, which finds it as stored and writes
// nothing; A's read, the older, must not be written after B's.
func olderChangeNeverWins(t *testing.T, e *exact) {
	order := e.website().Orders[15]
	id, was := order.ID, order.Status // order is the fake's, which changes
	if was == "shipped" {
		t.Fatal("the order is shipped already: the test proves nothing")
	}
	e.srv.Handler.SetOrderStatus(e.s.id, id, "shipped") // A reads it so
	twoRuns(t, e, func() { e.srv.Handler.SetOrderStatus(e.s.id, id, was) }, func(ra, rb mirror.Result) {
		var status string
		if err := e.db.QueryRow(fmt.Sprintf("SELECT status FROM orders WHERE id = %d", id)).Scan(&status); err != nil || status != string(was) {
			t.Errorf("status %q after the two runs (%v); want the later read's, %s", status, err, was)
		}
	})
}

// twoRuns runs A, a refresh of every order held after its second page of
// ten, then (after change) B, a refresh of every order too, and lets A go
// once B has ended or waits for A; check is given their results, and the
// mirror must then be exact.
func twoRuns(t *testing.T, e *exact, change func(), check func(a, b mirror.Result)) {
	hold, held := make(chan struct{}), make(chan struct{})
	gate := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		// The refresh of every record lists from the beginning, without
		// date_start.
		q := r.URL.Query()
		if strings.HasSuffix(r.URL.Path, "/orders") && !q.Has("date_start") && q.Get("page") == "3" {
			close(held)
			<-hold
		}
		e.srv.Handler.ServeHTTP(rw, r)
	}))
	defer gate.Close()
	a := clientOf(t, gate.URL, e.s)
	type result struct {
		res mirror.Result
		err error
	}
	bWaits := make(chan struct{})
	var once sync.Once
	mirror.OnLeaseWait(t, func() { once.Do(func() { close(bWaits) }) })
	doneA := make(chan result, 1)
	go func() {
		// Pages of 10 from the start of the refresh: the order is on
		// the second page, the third is held.
		res, err := e.m.Sync(context.Background(), a.c, a.id, &mirror.Options{RefreshDays: 1 << 20, PageSize: 10, Concurrency: 1, BaseURLMoved: true})
		doneA <- result{res, err}
	}()
	<-held
	change()
	doneB := make(chan result, 1)
	go func() {
		res, err := e.m.Sync(context.Background(), e.s.c, e.s.id, &mirror.Options{RefreshDays: 1 << 20, BaseURLMoved: true})
		doneB <- result{res, err}
	}()
	// Let A go once B has ended, or waits for A's lock (PostgreSQL) or
	// lease (SQLite).
	for waiting := false; !waiting; {
		select {
		case b := <-doneB:
			doneB <- b
			waiting = true
		case <-bWaits:
			waiting = true
		default:
			waiting = e.be.Backend == mirror.PostgreSQL && count(t, e.db, `SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`) > 0
			time.Sleep(time.Millisecond)
		}
	}
	close(hold)
	ra, rb := <-doneA, <-doneB
	if ra.err != nil || rb.err != nil {
		t.Fatalf("run A: %v; run B: %v", ra.err, rb.err)
	}
	check(ra.res, rb.res)
	sameRecords(t, e.db, e.s)
}

func nulCharacters(t *testing.T, e *exact) {
	sp, url := newSpoiler(t, e.srv.Handler)
	w := e.website()
	promoted, nested := e.srv.AddOrders(1)[0], w.Messages[4]
	var noted *ordermsg.Order // an old order with items and notes
	for _, o := range w.Orders {
		if len(o.Notes) > 0 && len(o.Items) > 0 && noted == nil {
			noted = o
		}
	}
	// Promoted fields of a new order, an item title and a note of an old
	// one, and a form field's value and a member name of an old message,
	// both read again.
	sp.set(promoted.ID, spoil{`"status":"new"`, `"status":"\u0000new"`}, at("currency", `x\u0000`))
	sp.set(noted.ID, at("title", `\u0000`), at("note", `a\u0000b`), at("formatted_value", `\u0000\u0000`))
	sp.set(nested.ID, at("formatted_value", `\u0000`), at("label", `\\u0000`)) // a backslash, then u0000
	s := clientOf(t, url, e.s)
	res := syncSite(t, e.m, s, &mirror.Options{RefreshDays: 100000, BaseURLMoved: true})
	if res.Orders.New != 1 || res.Orders.Updated != 1 || res.Messages.New != 1 || res.Messages.Updated != 1 || res.Orders.Refused+res.Messages.Refused != 0 {
		t.Errorf("a run that met NUL characters: %+v", res)
	}
	sameRecords(t, e.db, s)
	var raw string
	if err := e.db.QueryRow(fmt.Sprintf("SELECT CAST(json AS TEXT) FROM orders WHERE id = %d", promoted.ID)).Scan(&raw); err != nil ||
		!strings.Contains(raw, `"status":"\u0000new"`) {
		t.Errorf("the json column does not keep the record as sent: %.200s, %v", raw, err)
	}
	var status, currency string
	if err := e.db.QueryRow(fmt.Sprintf("SELECT status, currency FROM orders WHERE id = %d", promoted.ID)).Scan(&status, &currency); err != nil ||
		status != "\uFFFDnew" || !strings.HasPrefix(currency, "x\uFFFD") {
		t.Errorf("promoted columns %q, %q (%v); want each NUL as U+FFFD", status, currency, err)
	}
	for _, site := range []int64{e.s.id, e.other.id} {
		for _, v := range viewNames {
			count(t, e.db, fmt.Sprintf("SELECT count(*) FROM %s WHERE website_id = %d", v, site))
		}
	}
	for q, want := range map[string]int{
		fmt.Sprintf("SELECT count(*) FROM order_items WHERE order_id = %d AND substr(title, 1, 1) = '\uFFFD'", noted.ID):                 1,
		fmt.Sprintf("SELECT count(*) FROM order_notes WHERE order_id = %d AND substr(note, 1, 3) = 'a\uFFFDb'", noted.ID):                1,
		fmt.Sprintf("SELECT count(*) FROM message_fields WHERE message_id = %d AND substr(formatted_value, 1, 1) = '\uFFFD'", nested.ID): 1,
		fmt.Sprintf("SELECT count(*) FROM message_fields WHERE message_id = %d AND substr(label, 1, 6) = '%s'", nested.ID, `\u0000`):     1,
		fmt.Sprintf("SELECT count(*) FROM orders WHERE website_id = %d AND nul_free_json IS NOT NULL", e.s.id):                           2,
		fmt.Sprintf("SELECT count(*) FROM messages WHERE website_id = %d AND nul_free_json IS NOT NULL", e.s.id):                         1,
	} {
		if n := count(t, e.db, q); n != want {
			t.Errorf("%s: %d, want %d", q, n, want)
		}
	}
	for _, id := range []int64{promoted.ID, noted.ID, nested.ID} {
		if sp.times(id) == 0 {
			t.Errorf("record %d was never spoiled", id)
		}
	}
}

// unholdableValues: numbers and times that the SDK reads but PostgreSQL's
// double precision and timestamptz cannot hold (1E-400, the year 0000, an
// offset of 20 hours) are in the records; the views still answer, with the
// number (NUMERIC in PostgreSQL), and NULL for a time the database cannot
// hold.
func unholdableValues(t *testing.T, e *exact) {
	sp, url := newSpoiler(t, e.srv.Handler)
	var item, shipped, filed *ordermsg.Order
	for _, o := range e.website().Orders {
		for _, it := range o.Items {
			if len(it.PrintReadyFiles) > 0 && it.PrintReadyFiles[0].File != nil && filed == nil {
				filed = o
			}
		}
		if len(o.Shipments) > 0 && shipped == nil && o != filed {
			shipped = o
		}
		if len(o.Items) > 0 && item == nil && o != filed && o != shipped {
			item = o
		}
	}
	sp.set(item.ID, spoil{`"tax_percentage":`, `"tax_percentage":1E-400,"x":`})
	sp.set(shipped.ID, spoil{`"date_shipped":"`, `"date_shipped":"0000-01-01T00:00:00+00:00","x":"`})
	sp.set(filed.ID, spoil{`"expires":"`, `"expires":"2024-01-01T00:00:00+20:00","x":"`})
	s := clientOf(t, url, e.s)
	res := syncSite(t, e.m, s, &mirror.Options{RefreshDays: 1 << 20, BaseURLMoved: true})
	if res.Orders.Updated != 3 || res.Orders.Refused != 0 {
		t.Errorf("a run that read them: %+v", res)
	}
	for _, v := range viewNames {
		count(t, e.db, "SELECT count(*) FROM "+v)
	}
	if n := count(t, e.db, fmt.Sprintf("SELECT count(*) FROM order_items WHERE order_id = %d AND tax_percentage < 1e-300", item.ID)); n == 0 {
		t.Error("the view has no item with the tax_percentage 1E-400")
	}
	// SQLite holds the year 0000 (as UTC text), neither an offset of 20
	// hours.
	shippedAt, expires := "date_shipped = '0000-01-01T00:00:00Z'", "expires IS NULL"
	if e.be.Backend == mirror.PostgreSQL {
		shippedAt = "date_shipped IS NULL"
	}
	if n := count(t, e.db, fmt.Sprintf("SELECT count(*) FROM order_shipments WHERE order_id = %d AND %s", shipped.ID, shippedAt)); n == 0 {
		t.Errorf("no shipment with %s", shippedAt)
	}
	if n := count(t, e.db, fmt.Sprintf("SELECT count(*) FROM print_ready_files WHERE order_id = %d AND %s", filed.ID, expires)); n == 0 {
		t.Errorf("no print-ready file with %s", expires)
	}
	for _, id := range []int64{item.ID, shipped.ID, filed.ID} {
		if sp.times(id) == 0 {
			t.Errorf("order %d was never spoiled", id)
		}
	}
}

func refusedRecords(t *testing.T, e *exact) {
	sp, url := newSpoiler(t, e.srv.Handler)
	w := e.website()
	old, added := w.Orders[5], e.srv.AddOrders(3)
	sp.set(added[1].ID, at("title", `\ud800`))
	sp.set(old.ID, at("title", `\ud800`))
	s := clientOf(t, url, e.s)
	res := syncSite(t, e.m, s, &mirror.Options{BaseURLMoved: true})
	if res.Orders != (mirror.Counts{New: 2, Refused: 1}) || res.Messages.New != 3 {
		t.Errorf("a run that met an order it cannot decode: %+v; want the others mirrored", res)
	}
	if !strings.HasSuffix(res.Orders.String(), ", 1 refused") {
		t.Errorf("Counts.String: %q", res.Orders)
	}
	var raw []byte
	var page, index int
	var reason string
	if err := e.db.QueryRow(fmt.Sprintf("SELECT raw, page, index_on_page, reason FROM refused_records WHERE resource = 'orders' AND id = %d", added[1].ID)).Scan(&raw, &page, &index, &reason); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), `"title":"\ud800`) || !strings.HasPrefix(string(raw), fmt.Sprintf(`{"object":"order","id":%d,`, added[1].ID)) ||
		page < 1 || !strings.Contains(reason, fmt.Sprint(added[1].ID)) {
		t.Errorf("refused: page %d, index %d, reason %q, raw %.100s", page, index, reason, raw)
	}
	// The next runs go on past it.
	e.srv.AddOrders(2)
	if res := syncSite(t, e.m, s, nil); res.Orders != (mirror.Counts{New: 2}) {
		t.Errorf("the run after: %+v; want the 2 new orders", res)
	}
	// A reconcile meets both refused records again; the old one keeps its
	// row, as read before.
	if res := syncSite(t, e.m, s, reconcile); res.Orders.Refused != 2 || res.Orders.Deleted != 0 || res.Orders.Updated != 0 {
		t.Errorf("reconcile with two orders it cannot decode: %+v", res)
	}
	if n := count(t, e.db, "SELECT count(*) FROM refused_records"); n != 2 {
		t.Errorf("%d refused records stored, want 2", n)
	}
	// The old order, mirrored before, keeps its row live as last read;
	// its refusal is what tells it apart (refused.go).
	trusted := fmt.Sprintf(`SELECT count(*) FROM orders o LEFT JOIN refused_records r
		ON r.website_id = o.website_id AND r.resource = 'orders' AND r.id = o.id
		WHERE o.deleted_at IS NULL AND r.id IS NULL AND o.id = %d`, old.ID)
	if n := count(t, e.db, fmt.Sprintf("SELECT count(*) FROM orders WHERE deleted_at IS NULL AND id = %d", old.ID)); n != 1 || count(t, e.db, trusted) != 0 {
		t.Errorf("the order mirrored before it was refused: %d live rows (want 1, as last read), not told apart by its refusal", n)
	}
	// Once they decode, they are mirrored and forgotten as refused.
	sp.set(added[1].ID)
	sp.set(old.ID)
	if res := syncSite(t, e.m, s, reconcile); res.Orders.New != 1 || res.Orders.Refused != 0 {
		t.Errorf("reconcile once they decode: %+v", res)
	}
	if n := count(t, e.db, "SELECT count(*) FROM refused_records"); n != 0 {
		t.Errorf("%d refused records stored once they decode", n)
	}
	sameRecords(t, e.db, s)

	// A record whose id cannot be read either: later runs meet it again
	// (the checkpoint cannot pass it), and it stays one row, by the digest
	// of its bytes, its file links aside; a reconcile that no longer meets
	// it forgets it.
	nameless := e.srv.AddOrders(1)[0]
	sp.set(nameless.ID, spoil{fmt.Sprintf(`"id":%d,`, nameless.ID), `"id":"\ud800",`})
	for run := range 2 {
		if res := syncSite(t, e.m, s, nil); res.Orders.Refused != 1 {
			t.Errorf("run %d with an order whose id cannot be read: %+v", run, res)
		}
	}
	if n := count(t, e.db, "SELECT count(*) FROM refused_records WHERE id IS NULL"); n != 1 {
		t.Errorf("%d rows for the order whose id cannot be read, want 1", n)
	}
	// Bytes that are not UTF-8, which no text column holds.
	unreadable := e.srv.AddOrders(1)[0]
	sp.set(unreadable.ID, at("title", "\xff"))
	if res := syncSite(t, e.m, s, nil); res.Orders.Refused != 2 {
		t.Errorf("a run that met an order with bytes that are not UTF-8: %+v", res)
	}
	var stored []byte
	if err := e.db.QueryRow(fmt.Sprintf("SELECT raw FROM refused_records WHERE id = %d", unreadable.ID)).Scan(&stored); err != nil ||
		!bytes.Contains(stored, []byte("\"title\":\"\xff")) {
		t.Errorf("refused bytes %.80q, %v; want them as sent", stored, err)
	}
	sp.set(nameless.ID)
	sp.set(unreadable.ID)
	syncSite(t, e.m, s, reconcile)
	if n := count(t, e.db, "SELECT count(*) FROM refused_records"); n != 0 {
		t.Errorf("%d refused records stored after a reconcile that met none", n)
	}
	sameRecords(t, e.db, s)
}

func oneSourcePerWebsite(t *testing.T, e *exact) {
	writes := e.writes(t)
	staging := httptest.NewServer(e.srv.Handler)
	defer staging.Close()
	s := clientOf(t, staging.URL+"/", e.s)
	e.srv.AddOrders(2)
	res, err := e.m.Sync(context.Background(), s.c, s.id, nil)
	var se *mirror.SourceError
	if !errors.As(err, &se) || !errors.Is(err, mirror.ErrOtherSource) || errors.Is(err, mirror.ErrDatabase) ||
		!strings.Contains(err.Error(), e.srv.URL) || !strings.Contains(err.Error(), staging.URL) {
		t.Fatalf("a run from another base URL: %v", err)
	}
	if res != (mirror.Result{}) || writes() != 0 {
		t.Errorf("a refused run: %+v, %d rows written", res, writes())
	}
	// The other website is not concerned.
	syncSite(t, e.m, e.other, nil)
	res = syncSite(t, e.m, s, &mirror.Options{BaseURLMoved: true})
	if res.Orders.New != 2 {
		t.Errorf("the run that says the service moved: %+v", res)
	}
	if n := count(t, e.db, fmt.Sprintf("SELECT count(*) FROM website_sources WHERE website_id = %d AND base_url = '%s'", e.s.id, staging.URL)); n != 1 {
		t.Errorf("the website's source is not the new base URL")
	}
	if _, err := e.m.Sync(context.Background(), e.s.c, e.s.id, nil); !errors.Is(err, mirror.ErrOtherSource) {
		t.Errorf("a run from the first base URL once the service moved: %v", err)
	}
}

// heldTakenForNew: with its checkpoints gone, a run reads every record as
// new, among them records added and changed on the server: a batch written
// as new rows (PostgreSQL's COPY; SQLite's INSERTs of 50 rows, then of one)
// holds records the table holds, so it is written as the others, read
// first: the new ones added, the changed one rewritten, the rest left as
// they are, and every count right. 60 orders are added, so that a 50-row
// INSERT meets held records beside new ones.
func heldTakenForNew(t *testing.T, e *exact) {
	w := e.website()
	e.srv.Handler.SetOrderStatus(e.s.id, w.Orders[3].ID, "shipped")
	added := e.srv.AddOrders(60)
	if _, err := e.db.Exec(fmt.Sprintf("DELETE FROM sync_state WHERE website_id = %d", e.s.id)); err != nil {
		t.Fatal(err)
	}
	res := syncSite(t, e.m, e.s, &mirror.Options{PageSize: 7})
	w = e.website()
	if want := (mirror.Counts{New: len(added), Updated: 1, Unchanged: len(w.Orders) - len(added) - 1}); res.Orders != want {
		t.Errorf("orders: %+v; want %+v", res.Orders, want)
	}
	if res.Messages.Updated != 0 || res.Messages.New != len(added) || res.Messages.New+res.Messages.Unchanged != len(w.Messages) {
		t.Errorf("messages: %+v; %d on the server, %d added", res.Messages, len(w.Messages), len(added))
	}
	sameRecords(t, e.db, e.s)
}

// unplaceableRecords: a record dated in the future, or without
// date_created, decodes, but Sync cannot place it in creation order: the
// SDK yields it as a *RecordDecodeError with neither index nor offset. It
// is kept as refused, every other record is mirrored, and the next runs go
// on past it.
func unplaceableRecords(t *testing.T, e *exact) {
	sp, url := newSpoiler(t, e.srv.Handler)
	s := clientOf(t, url, e.s)
	before := e.srv.AddOrders(1)[0]
	future := e.srv.Handler.AddLateOrders(e.s.id, time.Now().Add(10*24*time.Hour), 1)[0]
	undated := e.srv.AddOrders(1)[0]
	sp.set(undated.ID, spoil{`"date_created":"`, `"date_created_":"`})
	res, err := e.m.Sync(context.Background(), s.c, s.id, &mirror.Options{BaseURLMoved: true})
	if err != nil {
		t.Fatalf("a run that met an order dated in the future and one without date_created: %v (%+v)", err, res)
	}
	if res.Orders.Refused != 2 || res.Orders.New != 1 || res.Messages.New != 2 || res.Messages.Refused != 1 {
		t.Errorf("%+v; want the order before mirrored, two orders and one message refused", res)
	}
	for _, id := range []int64{future.ID, undated.ID} {
		var index, offset int
		var reason string
		if err := e.db.QueryRow(fmt.Sprintf("SELECT index_on_page, byte_offset, reason FROM refused_records WHERE resource = 'orders' AND id = %d", id)).Scan(&index, &offset, &reason); err != nil {
			t.Errorf("order %d not kept as refused: %v", id, err)
			continue
		}
		if index != -1 || offset != -1 || reason == "" {
			t.Errorf("order %d refused with index %d, offset %d, reason %q", id, index, offset, reason)
		}
	}
	if n := count(t, e.db, fmt.Sprintf("SELECT count(*) FROM orders WHERE id = %d", before.ID)); n != 1 {
		t.Errorf("the order before them is not mirrored")
	}
	after := e.srv.AddOrders(1)[0]
	if res := syncSite(t, e.m, s, nil); res.Orders.New != 1 || res.Orders.Refused != 2 {
		t.Errorf("the run after: %+v; want the new order, and the two refused again", res)
	}
	if n := count(t, e.db, fmt.Sprintf("SELECT count(*) FROM orders WHERE id = %d", after.ID)); n != 1 {
		t.Errorf("the order after them is not mirrored")
	}
	// A reconcile, which lists them, keeps them as refused alike.
	for run := range 2 {
		if res := syncSite(t, e.m, s, reconcile); res.Orders.Deleted != 0 || res.Orders.New != 0 || res.Orders.Refused != 2 || res.Messages.Refused != 1 {
			t.Errorf("reconcile %d: %+v; want none new, none deleted, the two orders and the message refused once", run, res)
		}
		if n := count(t, e.db, fmt.Sprintf("SELECT count(*) FROM orders WHERE id IN (%d, %d)", future.ID, undated.ID)); n != 0 {
			t.Errorf("reconcile %d: %d of the refused orders mirrored", run, n)
		}
		if n := count(t, e.db, "SELECT count(*) FROM refused_records WHERE resource = 'orders'"); n != 2 {
			t.Errorf("reconcile %d: %d orders kept as refused, want 2", run, n)
		}
	}
}

// messagesAfterFailedOrders: a run whose orders fail (the server refuses
// their list) still mirrors the messages, and returns the orders' error.
func messagesAfterFailedOrders(t *testing.T, e *exact) {
	gate := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/orders") {
			rw.Header().Set("Content-Type", "application/json")
			rw.WriteHeader(http.StatusBadRequest)
			rw.Write([]byte(`{"error":"no orders today"}`))
			return
		}
		e.srv.Handler.ServeHTTP(rw, r)
	}))
	defer gate.Close()
	s := clientOf(t, gate.URL, e.s)
	e.srv.AddOrders(2) // each with its message
	res, err := e.m.Sync(context.Background(), s.c, s.id, &mirror.Options{BaseURLMoved: true})
	var apiErr *ordermsg.APIError
	if !errors.As(err, &apiErr) || errors.Is(err, mirror.ErrDatabase) {
		t.Errorf("a run whose orders failed: %v; want the orders' error", err)
	}
	if res.Orders.New != 0 || res.Messages.New != 2 {
		t.Errorf("a run whose orders failed: %+v; want the 2 new messages mirrored", res)
	}
	// An error of the whole website, which the messages would meet too, is
	// reported once.
	bad, err := ordermsg.NewClient(e.srv.URL, "not the key")
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.m.Sync(context.Background(), bad, e.s.id, &mirror.Options{BaseURLMoved: true})
	if !errors.Is(err, ordermsg.ErrUnauthorized) || strings.Contains(err.Error(), "messages") {
		t.Errorf("a run with a key the server refuses: %v; want the orders' 401 alone", err)
	}
}

// cancelledAfterOrdersFailed: a run whose orders fail (400) and which is
// cancelled while it reads the messages, once the orders' pass has ended,
// returns both: the orders' error, and the cancellation, which errors.Is
// matches.
func cancelledAfterOrdersFailed(t *testing.T, e *exact) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The orders' pass has ended when it has asked for its page and no
	// longer holds the table: its advisory lock (PostgreSQL; the messages'
	// is the one left) or its lease (SQLite). Before it asks, it may not
	// hold the table yet (its connection is still being made).
	held := `SELECT count(*) FROM mirror_leases WHERE resource = 'orders'`
	if e.be.Backend == mirror.PostgreSQL {
		held = `SELECT count(*) - 1 FROM pg_locks WHERE locktype = 'advisory' AND granted
			AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`
	}
	var ordersAsked atomic.Bool
	ordersEnded := func() bool {
		if !ordersAsked.Load() {
			return false
		}
		var n int
		if err := e.db.QueryRow(held).Scan(&n); err != nil {
			t.Error(err)
			return true
		}
		return n == 0
	}
	gate := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasSuffix(r.URL.Path, "/orders"):
			ordersAsked.Store(true)
			rw.Header().Set("Content-Type", "application/json")
			rw.WriteHeader(http.StatusBadRequest)
			rw.Write([]byte(`{"error":"no orders today"}`))
			return
		case strings.HasSuffix(r.URL.Path, "/messages") && r.URL.Query().Get("page") == "2":
			for deadline := time.Now().Add(10 * time.Second); !ordersEnded() && time.Now().Before(deadline); {
				time.Sleep(time.Millisecond)
			}
			cancel()
		}
		e.srv.Handler.ServeHTTP(rw, r)
	}))
	defer gate.Close()
	s := clientOf(t, gate.URL, e.s)
	e.srv.AddMessages(12)
	_, err := e.m.Sync(ctx, s.c, s.id, &mirror.Options{BaseURLMoved: true, PageSize: 5})
	var apiErr *ordermsg.APIError
	if !errors.Is(err, context.Canceled) || !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusBadRequest {
		t.Errorf("a run cancelled after its orders failed: %v; want the orders' 400 and the cancellation", err)
	}
}

// nonPositiveIDs: the server lists records whose id is 0 or negative, which
// the API cannot be asked for by id (the SDK refuses such an id before
// sending). They are mirrored; once the server no longer lists them, a
// reconcile takes them as gone instead of failing on the retrieve.
func nonPositiveIDs(t *testing.T, e *exact) {
	sp, url := newSpoiler(t, e.srv.Handler)
	s := clientOf(t, url, e.s)
	// An order after them, for the checkpoint to remember: the SDK's Sync
	// retrieves the newest record its checkpoint remembers when a list no
	// longer shows it, which it cannot for an id that is not positive (a
	// matter of the SDK, not of the mirror).
	added := e.srv.AddOrders(3)
	negative, zero := added[0], added[1]
	sp.set(negative.ID, spoil{fmt.Sprintf(`"id":%d,`, negative.ID), fmt.Sprintf(`"id":%d,`, -negative.ID)})
	sp.set(zero.ID, spoil{fmt.Sprintf(`"id":%d,`, zero.ID), `"id":0,`})
	syncSite(t, e.m, s, &mirror.Options{BaseURLMoved: true})
	if n := count(t, e.db, fmt.Sprintf("SELECT count(*) FROM orders WHERE id IN (%d, 0)", -negative.ID)); n != 2 {
		t.Fatalf("%d of the orders of ids that are not positive mirrored, want 2", n)
	}
	if res := syncSite(t, e.m, s, reconcile); res.Orders.Deleted != 0 {
		t.Errorf("a reconcile while the server lists them: %+v", res)
	}
	e.srv.Handler.DeleteOrder(e.s.id, negative.ID)
	e.srv.Handler.DeleteOrder(e.s.id, zero.ID)
	res, err := e.m.Sync(context.Background(), s.c, s.id, reconcile)
	if err != nil {
		t.Fatalf("a reconcile once the server no longer lists them: %v", err)
	}
	if res.Orders.Deleted != 2 {
		t.Errorf("a reconcile once the server no longer lists them: %+v; want the two deleted", res)
	}
	for _, id := range []int64{-negative.ID, 0} {
		if e.deletedAt(t, "orders", id).IsZero() {
			t.Errorf("order %d: no deleted_at", id)
		}
	}
}

// reconcileCountsOnce: a reconcile reads the new records, then lists every
// record, the new ones again: each record is counted once in the run, new
// or refused ones too.
func reconcileCountsOnce(t *testing.T, e *exact) {
	sp, url := newSpoiler(t, e.srv.Handler)
	s := clientOf(t, url, e.s)
	old := len(e.website().Orders)
	added := e.srv.AddOrders(3)
	sp.set(added[1].ID, at("title", `\ud800`))
	nameless := e.srv.AddOrders(1)[0]
	sp.set(nameless.ID, spoil{fmt.Sprintf(`"id":%d,`, nameless.ID), `"id":"\ud800",`})
	res := syncSite(t, e.m, s, &mirror.Options{Reconcile: true, PageSize: 7, BaseURLMoved: true})
	if want := (mirror.Counts{New: 2, Unchanged: old, Refused: 2}); res.Orders != want {
		t.Errorf("orders: %+v; want %+v, each of the %d orders counted once", res.Orders, want, old+4)
	}
	if n := res.Messages.New + res.Messages.Updated + res.Messages.Unchanged + res.Messages.Refused; n != len(e.website().Messages) || res.Messages.New != 4 {
		t.Errorf("messages: %+v; want each of the %d counted once, 4 new", res.Messages, len(e.website().Messages))
	}
}

// refusedRecordOfIDZero: an order of id 0, mirrored, that the SDK then
// refuses is kept in refused_records under its id, 0, not as a record
// whose id cannot be read: the documented LEFT JOIN then hides its stale
// row, and a reconcile counts it refused once.
func refusedRecordOfIDZero(t *testing.T, e *exact) {
	sp, url := newSpoiler(t, e.srv.Handler)
	s := clientOf(t, url, e.s)
	added := e.srv.AddOrders(2)
	zero := added[0]
	idZero := spoil{fmt.Sprintf(`"id":%d,`, zero.ID), `"id":0,`}
	sp.set(zero.ID, idZero)
	syncSite(t, e.m, s, &mirror.Options{BaseURLMoved: true})
	sp.set(zero.ID, idZero, at("title", `\ud800`))
	res := syncSite(t, e.m, s, reconcile)
	if res.Orders.Refused != 1 || res.Orders.Deleted != 0 {
		t.Errorf("a reconcile of an order of id 0 the SDK refuses: %+v; want it refused once, nothing deleted", res.Orders)
	}
	if n := count(t, e.db, fmt.Sprintf("SELECT count(*) FROM refused_records WHERE website_id = %d AND resource = 'orders' AND id = 0", s.id)); n != 1 {
		t.Errorf("%d rows of refused_records hold order 0 by its id; want 1", n)
	}
	trusted := fmt.Sprintf(`SELECT count(*) FROM orders o LEFT JOIN refused_records r
	  ON r.website_id = o.website_id AND r.resource = 'orders' AND r.id = o.id
	WHERE o.deleted_at IS NULL AND r.id IS NULL AND o.website_id = %d AND o.id = 0`, s.id)
	if n := count(t, e.db, trusted); n != 0 {
		t.Errorf("the documented LEFT JOIN keeps the stale row of order 0")
	}
}

// deepRecord: an order whose unknown member nests 1,200 levels deep, past
// the 1,000 that SQLite's JSON functions read, is mirrored as sent, and
// every view answers, for its website and the other one in the database.
func deepRecord(t *testing.T, e *exact) {
	sp, url := newSpoiler(t, e.srv.Handler)
	s := clientOf(t, url, e.s)
	deep := e.srv.AddOrders(1)[0]
	member := `"deep":` + strings.Repeat("[", 1200) + strings.Repeat("]", 1200) + `,`
	sp.set(deep.ID, spoil{fmt.Sprintf(`"id":%d,`, deep.ID), fmt.Sprintf(`"id":%d,`, deep.ID) + member})
	if res := syncSite(t, e.m, s, &mirror.Options{BaseURLMoved: true}); res.Orders.New != 1 || res.Orders.Refused != 0 {
		t.Fatalf("a run that met the deep order: %+v", res.Orders)
	}
	var raw string
	if err := e.db.QueryRow(fmt.Sprintf("SELECT CAST(json AS TEXT) FROM orders WHERE id = %d", deep.ID)).Scan(&raw); err != nil || !strings.Contains(raw, member) {
		t.Errorf("the json column does not keep the deep order as sent (%v)", err)
	}
	for _, site := range []int64{e.s.id, e.other.id} {
		for _, v := range viewNames {
			count(t, e.db, fmt.Sprintf("SELECT count(*) FROM %s WHERE website_id = %d", v, site))
		}
	}
	if n := count(t, e.db, fmt.Sprintf("SELECT count(*) FROM order_items WHERE order_id = %d", deep.ID)); n != len(deep.Items) {
		t.Errorf("order_items has %d items of the deep order; want its %d", n, len(deep.Items))
	}
	sameRecords(t, e.db, s)
}
