package mirror

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// The columns a record fills are read from its members as sent (a
// RawRecord's), and must be what the SDK's decode of the record gives:
// typedOrderColumns and typedMessageColumns are the columns of a decoded
// record, the oracle.
func typedOrderColumns(o *ordermsg.Order) []any {
	ref := func(id int64) any {
		if id == 0 {
			return nil
		}
		return id
	}
	var promo any
	if p := o.PromoCode.Expanded; p != nil {
		promo = nulFree(p.PromoCode.PromoCode)
	}
	return []any{o.DateCreated.Time, nulFree(string(o.Status)), nulFree(string(o.OrderType)), nulFree(o.Currency), o.Pricing.Total,
		o.AmountPaid, ref(o.Message.ID), ref(o.User.ID), ref(o.Portal.ID), ref(o.PromoCode.ID), promo}
}

func typedMessageColumns(m *ordermsg.Message) []any {
	ref := func(id int64) any {
		if id == 0 {
			return nil
		}
		return id
	}
	return []any{m.DateCreated.Time, nulFree(string(m.MessageType)), ref(m.Order.ID), ref(m.Form.ID), ref(m.User.ID), ref(m.Portal.ID), ref(m.File.ID)}
}

// oddOrders and oddMessages are records whose members take every form the
// SDK decodes: null, absent, escaped names and strings, NULs, references as
// 0, null, a number and an object (whose id may be null), nested objects
// null or without the member read.
var oddOrders = []string{
	`{"object":"order","id":1,"date_created":"2024-05-02T11:00:00+00:00","status":null,"currency":"usd","pricing":null,"amount_paid":null,"message":0,"user":null,"portal":4,"promo_code":null}`,
	`{"object":"order","id":2,"date_created":"2024-05-02T11:00:01-05:00","st\u0061tus":"ne\u0000w","order_type":"e\"com","pricing":{"t\u006ftal":7},"message":12,"user":{"object":"website_user","id":null},"portal":{"id":9,"title":"p"},"promo_code":{"id":3,"promo_code":null}}`,
	`{"object":"order","id":3,"date_created":null,"pricing":{"total":null},"user":{"id":5},"promo_code":{"id":null,"promo_code":{"promo_code":"SP\u0000RING","extra":[1,{"promo_code":"no"}]}}}`,
	`{"object":"order","id":4,"promo_code":{"promo_code":{"object":"promo_code"}},"portal":0,"message":null}`,
	`{"object":"order","id":5,"promo_code":7,"pricing":{},"amount_paid":-12}`,
}

var oddMessages = []string{
	`{"object":"message","id":1,"date_created":"2024-05-02T11:00:00+00:00","message_type":null,"order":0,"form":null,"user":0,"portal":3,"file":null}`,
	`{"object":"message","id":2,"message_type":"online\u0000order","order":{"object":"order","id":8,"user":4},"form":{"id":null},"user":{"id":6},"portal":{"id":0},"file":{"object":"file","id":11,"url":"u"}}`,
	`{"object":"message","id":3,"m\u0065ssage_type":"general_contact","file":0}`,
}

// servePages answers every list of orders and of messages with one page of
// the given records, and every retrieve with 404.
func servePages(t *testing.T, orders, messages []string) *ordermsg.Client {
	t.Helper()
	page := func(records []string) string {
		return fmt.Sprintf(`{"object":"list","data":[%s],"meta":{"pagination":{"total":%d,"count":%[2]d,"per_page":100,"current_page":1,"total_pages":1}}}`,
			strings.Join(records, ","), len(records))
	}
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasSuffix(r.URL.Path, "/orders"):
			fmt.Fprint(w, page(orders))
		case strings.HasSuffix(r.URL.Path, "/messages"):
			fmt.Fprint(w, page(messages))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(hs.Close)
	c, err := ordermsg.NewClient(hs.URL, "key", ordermsg.WithAllowHTTP())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestColumnsAreWhatTheSDKDecodes reads the fake's records with every
// include, and records of every odd form, both as RawRecords, which the
// mirror's columns are read from, and decoded: each record's columns are
// those of its decode.
func TestColumnsAreWhatTheSDKDecodes(t *testing.T) {
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 5, Websites: 1, OrdersPerWebsite: 60, MessagesPerWebsite: 80}))
	defer srv.Close()
	fake, err := srv.Client()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, c := range []struct {
		name   string
		client *ordermsg.Client
		site   int64
	}{{"fake", fake, srv.WebsiteID}, {"odd", servePages(t, oddOrders, oddMessages), 1}} {
		t.Run(c.name, func(t *testing.T) {
			var want [][]any
			for o, err := range c.client.Orders.All(ctx, c.site, &ordermsg.ListOrdersOptions{Includes: OrderIncludes()}) {
				if err != nil {
					t.Fatal(err)
				}
				want = append(want, typedOrderColumns(o))
			}
			sameColumns(t, ordersTable, c.client.Orders.AllRaw(ctx, c.site, &ordermsg.ListOrdersOptions{Includes: OrderIncludes()}), want)
			want = nil
			for m, err := range c.client.Messages.All(ctx, c.site, &ordermsg.ListMessagesOptions{Includes: MessageIncludes()}) {
				if err != nil {
					t.Fatal(err)
				}
				want = append(want, typedMessageColumns(m))
			}
			sameColumns(t, messagesTable, c.client.Messages.AllRaw(ctx, c.site, &ordermsg.ListMessagesOptions{Includes: MessageIncludes()}), want)
		})
	}
}

func sameColumns(t *testing.T, table *table, records func(func(*ordermsg.RawRecord, error) bool), want [][]any) {
	t.Helper()
	i := 0
	for r, err := range records {
		if err != nil {
			t.Fatal(err)
		}
		var got []any
		for _, f := range table.fields {
			got = append(got, f.value(r))
		}
		if i >= len(want) || !reflect.DeepEqual(got, want[i]) {
			t.Errorf("%s %d: columns %#v\nwant %#v\nrecord %s", table.name, r.ID, got, want[min(i, len(want)-1)], r.RawJSON())
		}
		i++
	}
	if i != len(want) || i == 0 {
		t.Errorf("%s: %d records read raw, %d decoded", table.name, i, len(want))
	}
}
