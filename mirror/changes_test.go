package mirror_test

import (
	"context"
	"database/sql"
	"errors"
	"maps"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// recordKey names a record of the mirror.
type recordKey struct {
	site     int64
	resource string
	id       int64
}

// storedRecord is a row of orders or messages: its JSON and whether it is
// deleted.
type storedRecord struct {
	json    string
	deleted bool
}

// tablesOf reads every row of orders and messages.
func tablesOf(t testing.TB, db *sql.DB) map[recordKey]storedRecord {
	t.Helper()
	out := map[recordKey]storedRecord{}
	for _, table := range []string{"orders", "messages"} {
		rows, err := db.Query("SELECT website_id, id, CAST(json AS TEXT), deleted_at IS NOT NULL FROM " + table)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			k := recordKey{resource: table}
			var r storedRecord
			if err := rows.Scan(&k.site, &k.id, &r.json, &r.deleted); err != nil {
				t.Fatal(err)
			}
			out[k] = r
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows.Close()
	}
	return out
}

// changesOf reads every change after cursor, checking that the cursors
// grow.
func changesOf(t testing.TB, m *mirror.Mirror, after string, f *mirror.ChangeFilter) []mirror.Change {
	t.Helper()
	var out []mirror.Change
	for c, err := range m.Changes(context.Background(), after, f) {
		if err != nil {
			t.Fatalf("Changes after %q: %v", after, err)
		}
		if len(out) > 0 && c.Cursor <= out[len(out)-1].Cursor {
			t.Fatalf("cursor %q after %q", c.Cursor, out[len(out)-1].Cursor)
		}
		out = append(out, c)
	}
	return out
}

// tableChange is what a change says of a record: its kind and JSON.
type tableChange struct {
	kind mirror.ChangeKind
	json string
}

// differenceOf is the change of each record that differs between the
// tables before and after.
func differenceOf(before, after map[recordKey]storedRecord) map[recordKey]tableChange {
	out := map[recordKey]tableChange{}
	for k, a := range after {
		b, ok := before[k]
		switch {
		case !ok:
			out[k] = tableChange{mirror.ChangeNew, a.json}
		case a.deleted && !b.deleted:
			out[k] = tableChange{mirror.ChangeDeleted, ""}
		case !a.deleted && (b.deleted || a.json != b.json):
			out[k] = tableChange{mirror.ChangeUpdated, a.json}
		}
	}
	return out
}

// byRecord is the changes by record, failing on a record changed twice.
func byRecord(t testing.TB, changes []mirror.Change) map[recordKey]tableChange {
	t.Helper()
	out := map[recordKey]tableChange{}
	for _, c := range changes {
		k := recordKey{c.WebsiteID, c.Resource, c.ID}
		if _, ok := out[k]; ok {
			t.Errorf("%v changed twice", k)
		}
		out[k] = tableChange{c.Kind, string(c.Record)}
	}
	return out
}

// TestChangesAreTheDifferenceOfTheTables: a first sync records one new
// change per record, with its stored JSON; statuses changed, records
// deleted and added, then a reconcile, record exactly the difference of the
// tables; a run with nothing changed records nothing.
func TestChangesAreTheDifferenceOfTheTables(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		srv, s, db, m := mirrorOf(t, be, target, ordermsgtest.Config{Seed: 7, Websites: 1, OrdersPerWebsite: 30, MessagesPerWebsite: 40})
		syncSite(t, m, s, nil)
		first := changesOf(t, m, "", nil)
		tables := tablesOf(t, db)
		if got, want := byRecord(t, first), differenceOf(nil, tables); !maps.Equal(got, want) {
			t.Fatalf("first sync: %d changes, want %d new ones with the stored JSON", len(got), len(want))
		}
		var orders, messages []int64
		srv.Handler.Snapshot(func(ds *ordermsgtest.Dataset) {
			for _, o := range ds.Websites[0].Orders[:4] {
				orders = append(orders, o.ID)
			}
			for _, msg := range ds.Websites[0].Messages[len(ds.Websites[0].Messages)-3:] {
				messages = append(messages, msg.ID)
			}
		})
		srv.Handler.SetOrderStatus(s.id, orders[0], ordermsg.OrderStatus("cancelled"))
		srv.Handler.SetOrderStatus(s.id, orders[1], ordermsg.OrderStatus("completed"))
		srv.Handler.DeleteOrder(s.id, orders[2])
		srv.Handler.SetMessageType(s.id, messages[0], ordermsg.MessageTypeGeneralContact)
		srv.Handler.DeleteMessage(s.id, messages[1])
		srv.AddOrders(2)
		srv.AddMessages(1)
		syncSite(t, m, s, &mirror.Options{Reconcile: true})
		after := tablesOf(t, db)
		second := changesOf(t, m, first[len(first)-1].Cursor, nil)
		if got, want := byRecord(t, second), differenceOf(tables, after); !maps.Equal(got, want) {
			t.Errorf("after a reconcile: changes\n%v\nwant the difference of the tables\n%v", got, want)
		}
		// Each version stays as it was recorded: the new changes of the
		// records since updated still hold the JSON they were first
		// stored with.
		for i, c := range changesOf(t, m, "", nil)[:len(first)] {
			if c.Cursor != first[i].Cursor || string(c.Record) != string(first[i].Record) {
				t.Errorf("change %d, %s %d: after the reconcile %.80q, first read %.80q", i, c.Resource, c.ID, c.Record, first[i].Record)
			}
		}
		syncSite(t, m, s, &mirror.Options{Reconcile: true})
		if again := changesOf(t, m, second[len(second)-1].Cursor, nil); len(again) != 0 {
			t.Errorf("a run with nothing changed recorded %d changes", len(again))
		}
		orderChanges := changesOf(t, m, "", &mirror.ChangeFilter{WebsiteID: s.id, Resource: "orders"})
		if n := len(orderChanges); n != 30+2+2+1 {
			t.Errorf("%d changes of the orders, want 35", n)
		}
	})
}

// TestChangesRefuseACursorNotIssued: a malformed cursor, one of another
// database and one never issued are *CursorErrors; after PruneChanges, a
// cursor older than the newest change removed matches ErrCursorExpired, and
// the newest removed reads on.
func TestChangesRefuseACursorNotIssued(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		_, s, _, m := mirrorOf(t, be, target, ordermsgtest.Config{Seed: 8, Websites: 1, OrdersPerWebsite: 5})
		syncSite(t, m, s, nil)
		all := changesOf(t, m, "", nil)
		last := all[len(all)-1].Cursor
		cases := []string{"x", last + "0", "zz" + last[2:], last[:len(last)-4] + "ffff"}
		for _, bad := range cases {
			err := firstError(m.Changes(context.Background(), bad, nil))
			var ce *mirror.CursorError
			if !errors.As(err, &ce) || errors.Is(err, mirror.ErrCursorExpired) {
				t.Errorf("cursor %q: %v, want a *CursorError not expired", bad, err)
			}
		}
		n, err := m.PruneChanges(context.Background(), time.Now().Add(time.Hour))
		if err != nil || n != int64(len(all)) {
			t.Fatalf("PruneChanges: %d, %v; want %d", n, err, len(all))
		}
		if err := firstError(m.Changes(context.Background(), all[0].Cursor, nil)); !errors.Is(err, mirror.ErrCursorExpired) {
			t.Errorf("a cursor older than the changes kept: %v, want ErrCursorExpired", err)
		}
		if got := changesOf(t, m, last, nil); len(got) != 0 {
			t.Errorf("after the newest change removed: %d changes", len(got))
		}
	})
}

// firstError is the first error of seq, nil when none.
func firstError(seq func(func(mirror.Change, error) bool)) error {
	for _, err := range seq {
		if err != nil {
			return err
		}
	}
	return nil
}
