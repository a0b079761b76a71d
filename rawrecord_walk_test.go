package ordermsg_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"slices"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// typedRecord is what the tests compare of a decoded record.
type typedRecord interface {
	*ordermsg.Order | *ordermsg.Message
	RawJSON() []byte
}

// rawReads are a service's reads, typed and raw, for the generic tests.
type rawReads[R typedRecord] struct {
	all     func(c *ordermsg.Client, site int64, keep bool, walk ...ordermsg.WalkOption) iter.Seq2[R, error]
	allRaw  func(c *ordermsg.Client, site int64, keep bool, walk ...ordermsg.WalkOption) iter.Seq2[*ordermsg.RawRecord, error]
	sync    func(c *ordermsg.Client, site int64, cp *ordermsg.Checkpoint) iter.Seq2[R, error]
	syncRaw func(c *ordermsg.Client, site int64, cp *ordermsg.Checkpoint) iter.Seq2[*ordermsg.RawRecord, error]
	get     func(c *ordermsg.Client, site, id int64) (R, error)
	getRaw  func(c *ordermsg.Client, site, id int64) (*ordermsg.RawRecord, error)
	name    func(R) (string, int64, time.Time) // object, id, date_created
}

var orderReads = rawReads[*ordermsg.Order]{
	all: func(c *ordermsg.Client, site int64, keep bool, walk ...ordermsg.WalkOption) iter.Seq2[*ordermsg.Order, error] {
		return c.Orders.All(context.Background(), site, &ordermsg.ListOrdersOptions{Count: 7, Includes: ordermsg.AllOrderIncludes(), KeepRawJSON: keep}, walk...)
	},
	allRaw: func(c *ordermsg.Client, site int64, keep bool, walk ...ordermsg.WalkOption) iter.Seq2[*ordermsg.RawRecord, error] {
		return c.Orders.AllRaw(context.Background(), site, &ordermsg.ListOrdersOptions{Count: 7, Includes: ordermsg.AllOrderIncludes(), KeepRawJSON: keep}, walk...)
	},
	sync: func(c *ordermsg.Client, site int64, cp *ordermsg.Checkpoint) iter.Seq2[*ordermsg.Order, error] {
		return c.Orders.Sync(context.Background(), site, cp, &ordermsg.ListOrdersOptions{Count: 7, Includes: ordermsg.AllOrderIncludes(), KeepRawJSON: true})
	},
	syncRaw: func(c *ordermsg.Client, site int64, cp *ordermsg.Checkpoint) iter.Seq2[*ordermsg.RawRecord, error] {
		return c.Orders.SyncRaw(context.Background(), site, cp, &ordermsg.ListOrdersOptions{Count: 7, Includes: ordermsg.AllOrderIncludes()})
	},
	get: func(c *ordermsg.Client, site, id int64) (*ordermsg.Order, error) {
		return c.Orders.Get(context.Background(), site, id, &ordermsg.GetOrderOptions{Includes: ordermsg.AllOrderIncludes(), KeepRawJSON: true})
	},
	getRaw: func(c *ordermsg.Client, site, id int64) (*ordermsg.RawRecord, error) {
		return c.Orders.GetRaw(context.Background(), site, id, &ordermsg.GetOrderOptions{Includes: ordermsg.AllOrderIncludes()})
	},
	name: func(o *ordermsg.Order) (string, int64, time.Time) { return o.Object, o.ID, o.DateCreated.Time },
}

var messageReads = rawReads[*ordermsg.Message]{
	all: func(c *ordermsg.Client, site int64, keep bool, walk ...ordermsg.WalkOption) iter.Seq2[*ordermsg.Message, error] {
		return c.Messages.All(context.Background(), site, &ordermsg.ListMessagesOptions{Count: 7, Includes: ordermsg.AllMessageIncludes(), KeepRawJSON: keep}, walk...)
	},
	allRaw: func(c *ordermsg.Client, site int64, keep bool, walk ...ordermsg.WalkOption) iter.Seq2[*ordermsg.RawRecord, error] {
		return c.Messages.AllRaw(context.Background(), site, &ordermsg.ListMessagesOptions{Count: 7, Includes: ordermsg.AllMessageIncludes(), KeepRawJSON: keep}, walk...)
	},
	sync: func(c *ordermsg.Client, site int64, cp *ordermsg.Checkpoint) iter.Seq2[*ordermsg.Message, error] {
		return c.Messages.Sync(context.Background(), site, cp, &ordermsg.ListMessagesOptions{Count: 7, Includes: ordermsg.AllMessageIncludes(), KeepRawJSON: true})
	},
	syncRaw: func(c *ordermsg.Client, site int64, cp *ordermsg.Checkpoint) iter.Seq2[*ordermsg.RawRecord, error] {
		return c.Messages.SyncRaw(context.Background(), site, cp, &ordermsg.ListMessagesOptions{Count: 7, Includes: ordermsg.AllMessageIncludes()})
	},
	get: func(c *ordermsg.Client, site, id int64) (*ordermsg.Message, error) {
		return c.Messages.Get(context.Background(), site, id, &ordermsg.GetMessageOptions{Includes: ordermsg.AllMessageIncludes(), KeepRawJSON: true})
	},
	getRaw: func(c *ordermsg.Client, site, id int64) (*ordermsg.RawRecord, error) {
		return c.Messages.GetRaw(context.Background(), site, id, &ordermsg.GetMessageOptions{Includes: ordermsg.AllMessageIncludes()})
	},
	name: func(m *ordermsg.Message) (string, int64, time.Time) { return m.Object, m.ID, m.DateCreated.Time },
}

// collect returns what seq yields, each record described by describe;
// it fails the test on an error.
func collect[V any](t *testing.T, seq iter.Seq2[V, error], describe func(V) string) []string {
	t.Helper()
	var out []string
	for v, err := range seq {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, describe(v))
	}
	return out
}

// describeTyped and describeRaw write what a reader gets of a record: its
// kind, id, creation time and bytes.
func describeTyped[R typedRecord](reads rawReads[R]) func(R) string {
	return func(r R) string {
		object, id, created := reads.name(r)
		return fmt.Sprintf("%s %d %s %s", object, id, created.Format(time.RFC3339Nano), r.RawJSON())
	}
}

func describeRaw(r *ordermsg.RawRecord) string {
	return fmt.Sprintf("%s %d %s %s", r.Object, r.ID, r.DateCreated.Format(time.RFC3339Nano), r.RawJSON())
}

// The raw reads yield what the typed reads yield with KeepRawJSON, in the
// same order, with the same checkpoints: every record of a fake with every
// include, through AllRaw (one page and three pages at once, KeepRawJSON
// set or not), SyncRaw and GetRaw; and Member gives each top-level member
// as sent.
func TestRawReadsYieldWhatTypedReadsYield(t *testing.T) {
	now := time.Now() // file links signed at one time: the same bytes in every response
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 3, Websites: 1, OrdersPerWebsite: 40, MessagesPerWebsite: 40}),
		ordermsgtest.WithFileLinks(ordermsgtest.FileLinks{Now: func() time.Time { return now }}))
	defer srv.Close()
	c, err := srv.Client()
	if err != nil {
		t.Fatal(err)
	}
	t.Run("orders", func(t *testing.T) { sameRawReads(t, c, srv.WebsiteID, orderReads) })
	t.Run("messages", func(t *testing.T) { sameRawReads(t, c, srv.WebsiteID, messageReads) })
	if enc, err := json.Marshal(ordermsg.RawRecord{ID: 1}); err != nil || string(enc) != "null" {
		t.Errorf("json.Marshal of a RawRecord the SDK did not read: %s, %v", enc, err)
	}
}

func sameRawReads[R typedRecord](t *testing.T, c *ordermsg.Client, site int64, reads rawReads[R]) {
	want := collect(t, reads.all(c, site, true), describeTyped(reads))
	if len(want) != 40 {
		t.Fatalf("%d records", len(want))
	}
	for _, n := range []int{1, 3} {
		for _, keep := range []bool{false, true} {
			if got := collect(t, reads.allRaw(c, site, keep, ordermsg.WithConcurrency(n)), describeRaw); !slices.Equal(got, want) {
				t.Errorf("AllRaw, concurrency %d, KeepRawJSON %v:\n%q\nwant\n%q", n, keep, got, want)
			}
		}
	}

	var typedCP, rawCP ordermsg.Checkpoint
	syncWant := collect(t, reads.sync(c, site, &typedCP), describeTyped(reads))
	if got := collect(t, reads.syncRaw(c, site, &rawCP), describeRaw); !slices.Equal(got, syncWant) {
		t.Errorf("SyncRaw:\n%q\nwant\n%q", got, syncWant)
	}
	if a, b := mustJSON(t, typedCP), mustJSON(t, rawCP); a != b {
		t.Errorf("checkpoints: SyncRaw's %s, Sync's %s", b, a)
	}

	for rec, err := range reads.allRaw(c, site, false) {
		if err != nil {
			t.Fatal(err)
		}
		typed, err := reads.get(c, site, rec.ID)
		if err != nil {
			t.Fatal(err)
		}
		got, err := reads.getRaw(c, site, rec.ID)
		if err != nil || describeRaw(got) != describeTyped(reads)(typed) {
			t.Fatalf("GetRaw: %s, %v\nwant %s", describeRaw(got), err, describeTyped(reads)(typed))
		}
		var members map[string]json.RawMessage
		if err := json.Unmarshal(rec.RawJSON(), &members); err != nil {
			t.Fatal(err)
		}
		for name, value := range members {
			if !bytes.Equal(rec.Member(name), value) {
				t.Errorf("Member(%q) = %s, want %s", name, rec.Member(name), value)
			}
		}
		if enc, err := json.Marshal(*rec); err != nil || !bytes.Equal(enc, rec.RawJSON()) {
			t.Errorf("json.Marshal: %s, %v", enc, err)
		}
		if rec.Member("no_such_member") != nil {
			t.Error("Member of no member is not nil")
		}
	}
}

// A checkpoint is the same for Sync and SyncRaw: runs that take turns at
// using one and the other, each stopping after a few records, with records
// added between and during runs, yield every record exactly once, in
// ascending creation order (runResumedSyncs), under inclusive and exclusive
// date bounds.
func TestSyncRawTakesTurnsWithSync(t *testing.T) {
	type syncFunc = func(c *ordermsg.Client, site int64, cp *ordermsg.Checkpoint) iter.Seq2[*ordermsg.RawRecord, error]
	turns := func(typed, raw syncFunc) syncFunc {
		run := 0
		return func(c *ordermsg.Client, site int64, cp *ordermsg.Checkpoint) iter.Seq2[*ordermsg.RawRecord, error] {
			if run++; run%2 == 0 {
				return typed(c, site, cp)
			}
			return raw(c, site, cp)
		}
	}
	key := func(r *ordermsg.RawRecord) (time.Time, int64) { return r.DateCreated.Time, r.ID }
	orders := syncCase[ordermsg.RawRecord]{
		sync: turns(func(c *ordermsg.Client, site int64, cp *ordermsg.Checkpoint) iter.Seq2[*ordermsg.RawRecord, error] {
			return named(c.Orders.Sync(context.Background(), site, cp, &ordermsg.ListOrdersOptions{Count: 7}))
		}, func(c *ordermsg.Client, site int64, cp *ordermsg.Checkpoint) iter.Seq2[*ordermsg.RawRecord, error] {
			return c.Orders.SyncRaw(context.Background(), site, cp, &ordermsg.ListOrdersOptions{Count: 7})
		}),
		add: ordersCase.add, ids: ordersCase.ids, key: key,
	}
	messages := syncCase[ordermsg.RawRecord]{
		sync: turns(func(c *ordermsg.Client, site int64, cp *ordermsg.Checkpoint) iter.Seq2[*ordermsg.RawRecord, error] {
			return named(c.Messages.Sync(context.Background(), site, cp, &ordermsg.ListMessagesOptions{Count: 7}))
		}, func(c *ordermsg.Client, site int64, cp *ordermsg.Checkpoint) iter.Seq2[*ordermsg.RawRecord, error] {
			return c.Messages.SyncRaw(context.Background(), site, cp, &ordermsg.ListMessagesOptions{Count: 7})
		}),
		add: messagesCase.add, ids: messagesCase.ids, key: key,
	}
	for _, days := range []ordermsgtest.DayBounds{{Exclusive: true, Offset: -12 * time.Hour}, {Offset: 14 * time.Hour}} {
		for _, k := range []int{1, 10} {
			name := fmt.Sprintf("exclusive=%v/offset=%v/k=%d", days.Exclusive, days.Offset, k)
			t.Run("orders/"+name, func(t *testing.T) { runResumedSyncs(t, orders, days, k) })
			t.Run("messages/"+name, func(t *testing.T) { runResumedSyncs(t, messages, days, k) })
		}
	}
}

// named yields the records of a typed Sync as RawRecords that name them:
// their kind, id and creation time, which runResumedSyncs reads.
func named[R *ordermsg.Order | *ordermsg.Message](seq iter.Seq2[R, error]) iter.Seq2[*ordermsg.RawRecord, error] {
	return func(yield func(*ordermsg.RawRecord, error) bool) {
		for r, err := range seq {
			var rec *ordermsg.RawRecord
			switch r := any(r).(type) {
			case *ordermsg.Order:
				rec = &ordermsg.RawRecord{Object: r.Object, ID: r.ID, DateCreated: r.DateCreated}
			case *ordermsg.Message:
				rec = &ordermsg.RawRecord{Object: r.Object, ID: r.ID, DateCreated: r.DateCreated}
			}
			if err != nil {
				rec = nil
			}
			if !yield(rec, err) {
				return
			}
		}
	}
}
