package ordermsgtest_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

func TestAddOrdersWhileServing(t *testing.T) {
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 2, Websites: 2, OrdersPerWebsite: 20, MessagesPerWebsite: 30}))
	defer srv.Close()
	c := sdk(t, srv)
	w := srv.Handler.Dataset().Website(srv.WebsiteID)
	last := w.Orders[len(w.Orders)-1]
	lastMessage := w.Messages[len(w.Messages)-1]
	before := len(w.Orders)

	// Readers list and get while records are added (run under -race).
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				if _, err := c.Orders.List(ctx, srv.WebsiteID, &ordermsg.ListOrdersOptions{Count: 100, Direction: ordermsg.DirectionAsc}); err != nil && ctx.Err() == nil {
					t.Error(err)
				}
			}
		}()
	}
	var added []*ordermsg.Order
	var addedMessages []*ordermsg.Message
	for range 10 {
		added = append(added, srv.AddOrders(3)...)
		addedMessages = append(addedMessages, srv.AddMessages(2)...)
	}
	cancel()
	wg.Wait()

	if len(added) != 30 || len(addedMessages) != 20 {
		t.Fatalf("added %d orders and %d messages, want 30 and 20", len(added), len(addedMessages))
	}
	ties := 0
	prev := last
	for _, o := range added {
		if o.ID <= prev.ID || o.DateCreated.Before(prev.DateCreated.Time) || o.DateCreated.Before(lastMessage.DateCreated.Time) {
			t.Errorf("order %d (%v) does not come after order %d (%v)", o.ID, o.DateCreated, prev.ID, prev.DateCreated)
		}
		if o.DateCreated.Equal(prev.DateCreated.Time) {
			ties++
		}
		prev = o
	}
	if ties == 0 {
		t.Error("no new order shares a timestamp with the one before")
	}

	page, err := c.Orders.List(context.Background(), srv.WebsiteID, &ordermsg.ListOrdersOptions{Count: 100, Direction: ordermsg.DirectionAsc})
	if err != nil {
		t.Fatal(err)
	}
	if page.Meta.Pagination.Total != before+30 {
		t.Errorf("list total %d, want %d", page.Meta.Pagination.Total, before+30)
	}
	for i, o := range page.Data[before:] {
		if o.ID != added[i].ID {
			t.Fatalf("listed order %d at position %d, want %d", o.ID, before+i, added[i].ID)
		}
	}
	got, err := c.Orders.Get(context.Background(), srv.WebsiteID, added[29].ID, &ordermsg.GetOrderOptions{Includes: []ordermsg.OrderInclude{ordermsg.OrderIncludeMessage}})
	if err != nil || got.Message.Expanded == nil || got.Message.Expanded.Order.ID != added[29].ID {
		t.Fatalf("get of a new order: %v, %+v", err, got)
	}
	m, err := c.Messages.Get(context.Background(), srv.WebsiteID, addedMessages[19].ID, nil)
	if err != nil || m.MessageType != ordermsg.MessageTypeGeneralContact {
		t.Fatalf("get of a new message: %v, %+v", err, m)
	}
	other := srv.Handler.Dataset().Websites[1]
	if len(other.Orders) != 20 {
		t.Errorf("the other website has %d orders, want its 20", len(other.Orders))
	}
	if srv.Handler.AddOrders(999, 1) != nil {
		t.Error("AddOrders on an unknown website added something")
	}
}

func TestAddOrdersToAHandMadeDataset(t *testing.T) {
	ds := ordermsgtest.Generate(ordermsgtest.Config{Seed: 2, Websites: 1, OrdersPerWebsite: 3})
	w := ds.Websites[0]
	hand := &ordermsgtest.Dataset{Websites: []*ordermsgtest.Website{{ID: w.ID, APIKey: w.APIKey, Orders: w.Orders, Messages: w.Messages}}}
	srv := ordermsgtest.NewServer(hand)
	defer srv.Close()
	added := srv.AddOrders(2)
	c := sdk(t, srv)
	for _, o := range added {
		if o.ID <= w.Messages[len(w.Messages)-1].ID {
			t.Errorf("new order id %d is not above the existing ones", o.ID)
		}
		if _, err := c.Orders.Get(context.Background(), srv.WebsiteID, o.ID, nil); err != nil {
			t.Errorf("get new order %d: %v", o.ID, err)
		}
	}
}

// WithClock dates added records at the clock's second (or with the newest
// record, when that is later), so that a Sync from now sees them; without it
// they follow the generated timeline, which lies years before.
func TestWithClockDatesAddedRecordsNow(t *testing.T) {
	now := time.Now().UTC().Truncate(time.Second).Add(500 * time.Millisecond)
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 4, Websites: 1, OrdersPerWebsite: 5, MessagesPerWebsite: 5}),
		ordermsgtest.WithClock(func() time.Time { return now }))
	defer srv.Close()
	for _, o := range srv.AddOrders(2) {
		if want := now.Truncate(time.Second); !o.DateCreated.Equal(want) {
			t.Errorf("order %d created %v, want %v", o.ID, o.DateCreated.Time, want)
		}
	}
	if m := srv.AddMessages(1)[0]; !m.DateCreated.Equal(now.Truncate(time.Second)) {
		t.Errorf("message %d created %v, want %v", m.ID, m.DateCreated.Time, now.Truncate(time.Second))
	}
	cp := ordermsg.NewCheckpointAt(now.Add(-time.Minute))
	var got int
	for _, err := range sdk(t, srv).Orders.Sync(context.Background(), srv.WebsiteID, cp, nil) {
		if err != nil {
			t.Fatal(err)
		}
		got++
	}
	if got != 2 {
		t.Errorf("Sync from a minute before the clock yielded %d orders, want the 2 added", got)
	}

	plain := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 4, Websites: 1, OrdersPerWebsite: 5, MessagesPerWebsite: 5}))
	defer plain.Close()
	if o := plain.AddOrders(1)[0]; !o.DateCreated.Before(now.AddDate(-1, 0, 0)) {
		t.Errorf("without a clock, order %d created %v: want the generated timeline", o.ID, o.DateCreated.Time)
	}
}
