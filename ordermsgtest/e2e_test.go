package ordermsgtest_test

import (
	"context"
	"errors"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// End-to-end: the SDK against the fake.

func sdk(t *testing.T, srv *ordermsgtest.Server, opts ...ordermsg.Option) *ordermsg.Client {
	t.Helper()
	c, err := srv.Client(opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.CloseIdleConnections)
	return c
}

func TestE2EEveryOrderInclude(t *testing.T) {
	srv := fake(t)
	c := sdk(t, srv)
	w := srv.Handler.Dataset().Website(srv.WebsiteID)
	o := find(t, w.Orders, func(o *ordermsg.Order) bool {
		return len(o.Shipments) > 0 && len(o.Notes) > 0 && o.PromoCode.IsExpanded() && o.User.IsExpanded() &&
			o.Portal.IsExpanded() && o.Items[0].IsVersadoc() && len(o.PaymentTransactions) > 0
	})
	checks := map[ordermsg.OrderInclude]func(*ordermsg.Order) bool{
		ordermsg.OrderIncludeAdditionalInformation:    func(g *ordermsg.Order) bool { return g.AdditionalInformation != nil },
		ordermsg.OrderIncludeBillingAddress:           func(g *ordermsg.Order) bool { return g.BillingAddress.Fields.Get("f1") != nil },
		ordermsg.OrderIncludeItemsAttributes:          func(g *ordermsg.Order) bool { return g.Items[0].Attributes.IsNull() },
		ordermsg.OrderIncludeItemsPortal:              func(g *ordermsg.Order) bool { return g.Items[0].Portal.IsExpanded() },
		ordermsg.OrderIncludeItemsPrintReadyFiles:     func(g *ordermsg.Order) bool { return len(g.Items[0].PrintReadyFiles) == 2 },
		ordermsg.OrderIncludeMessage:                  func(g *ordermsg.Order) bool { return g.Message.Expanded.Order.ID == o.ID },
		ordermsg.OrderIncludeNotes:                    func(g *ordermsg.Order) bool { return len(g.Notes) == len(o.Notes) },
		ordermsg.OrderIncludePaymentTransactions:      func(g *ordermsg.Order) bool { return g.PaymentTransactions[0].Amount == g.AmountPaid },
		ordermsg.OrderIncludePortal:                   func(g *ordermsg.Order) bool { return g.Portal.Expanded.Title != "" },
		ordermsg.OrderIncludePromoCode:                func(g *ordermsg.Order) bool { return g.PromoCode.Expanded.PromoCode.PromoCode != "" },
		ordermsg.OrderIncludeShipmentsShippingAddress: func(g *ordermsg.Order) bool { return g.Shipments[0].ShippingAddress != nil },
		ordermsg.OrderIncludeShipmentsShippingCarrier: func(g *ordermsg.Order) bool { return g.Shipments[0].ShippingCarrier != nil },
		ordermsg.OrderIncludeShipmentsShippingMethod:  func(g *ordermsg.Order) bool { return g.Shipments[0].ShippingMethod != nil },
		ordermsg.OrderIncludeUser:                     func(g *ordermsg.Order) bool { return g.User.Expanded.Username != "" },
	}
	if len(checks) != len(ordermsg.AllOrderIncludes()) {
		t.Fatalf("%d checks for %d includes", len(checks), len(ordermsg.AllOrderIncludes()))
	}
	for inc, ok := range checks {
		got, err := c.Orders.Get(context.Background(), srv.WebsiteID, o.ID, &ordermsg.GetOrderOptions{Includes: []ordermsg.OrderInclude{inc}})
		if err != nil || !ok(got) {
			t.Errorf("include %s: %v", inc, err)
		}
		page, err := c.Orders.List(context.Background(), srv.WebsiteID, &ordermsg.ListOrdersOptions{Count: 5, Includes: []ordermsg.OrderInclude{inc}})
		if err != nil || len(page.Data) != 5 {
			t.Errorf("list with include %s: %v", inc, err)
		}
	}
}

func TestE2EEveryMessageInclude(t *testing.T) {
	srv := fake(t)
	c := sdk(t, srv)
	w := srv.Handler.Dataset().Website(srv.WebsiteID)
	m := find(t, w.Messages, func(m *ordermsg.Message) bool {
		return m.File.IsExpanded() && m.Order.IsExpanded() && m.User.IsExpanded() && m.Portal.IsExpanded()
	})
	checks := map[ordermsg.MessageInclude]func(*ordermsg.Message) bool{
		ordermsg.MessageIncludeFile:           func(g *ordermsg.Message) bool { return g.File.Expanded.URL != "" },
		ordermsg.MessageIncludeForm:           func(g *ordermsg.Message) bool { return g.Form.Expanded.Title == "Checkout" },
		ordermsg.MessageIncludeFormSubmission: func(g *ordermsg.Message) bool { return g.FormSubmission.Fields.Get("f4") != nil },
		ordermsg.MessageIncludeOrder: func(g *ordermsg.Message) bool {
			return g.Order.Expanded.Items == nil && !g.Order.Expanded.User.IsExpanded()
		},
		ordermsg.MessageIncludeOrderItems:          func(g *ordermsg.Message) bool { return len(g.Order.Expanded.Items) > 0 },
		ordermsg.MessageIncludePaymentTransactions: func(g *ordermsg.Message) bool { return g.PaymentTransactions != nil },
		ordermsg.MessageIncludePortal:              func(g *ordermsg.Message) bool { return g.Portal.IsExpanded() },
		ordermsg.MessageIncludeUser:                func(g *ordermsg.Message) bool { return g.User.Expanded.ID == m.User.ID },
	}
	if len(checks) != len(ordermsg.AllMessageIncludes()) {
		t.Fatalf("%d checks for %d includes", len(checks), len(ordermsg.AllMessageIncludes()))
	}
	for inc, ok := range checks {
		got, err := c.Messages.Get(context.Background(), srv.WebsiteID, m.ID, &ordermsg.GetMessageOptions{Includes: []ordermsg.MessageInclude{inc}})
		if err != nil || !ok(got) {
			t.Errorf("include %s: %v", inc, err)
		}
	}
}

// walkIDs walks the orders opts select and returns their ids in order.
func walkOrders(t *testing.T, c *ordermsg.Client, websiteID int64, opts *ordermsg.ListOrdersOptions) []*ordermsg.Order {
	t.Helper()
	var out []*ordermsg.Order
	for o, err := range c.Orders.All(context.Background(), websiteID, opts, ordermsg.WithConcurrency(4)) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, o)
	}
	return out
}

func TestE2EPagingToTheEnd(t *testing.T) {
	srv := fake(t)
	c := sdk(t, srv)
	w := srv.Handler.Dataset().Website(srv.WebsiteID)
	for _, count := range []int{0, 7, 100} {
		got := walkOrders(t, c, srv.WebsiteID, &ordermsg.ListOrdersOptions{Count: count, Direction: ordermsg.DirectionAsc})
		if len(got) != len(w.Orders) {
			t.Fatalf("count %d: walked %d of %d", count, len(got), len(w.Orders))
		}
		for i := range got {
			if got[i].ID != w.Orders[i].ID {
				t.Fatalf("count %d: record %d is %d, want %d", count, i, got[i].ID, w.Orders[i].ID)
			}
		}
	}
	var messages int
	for _, err := range c.Messages.All(context.Background(), srv.WebsiteID, &ordermsg.ListMessagesOptions{Count: 100}) {
		if err != nil {
			t.Fatal(err)
		}
		messages++
	}
	if messages != len(w.Messages) {
		t.Errorf("walked %d of %d messages", messages, len(w.Messages))
	}
}

func TestE2EFilters(t *testing.T) {
	srv := fake(t)
	c := sdk(t, srv)
	w := srv.Handler.Dataset().Website(srv.WebsiteID)
	ctx := context.Background()

	// Default order: newest first. direction=asc reverses it; sort=id agrees.
	desc := walkOrders(t, c, srv.WebsiteID, &ordermsg.ListOrdersOptions{Count: 100})
	byID := walkOrders(t, c, srv.WebsiteID, &ordermsg.ListOrdersOptions{Count: 100, Sort: "id", Direction: ordermsg.DirectionAsc})
	if desc[0].ID != w.Orders[len(w.Orders)-1].ID || byID[0].ID != w.Orders[0].ID {
		t.Errorf("order: newest first %d, by id asc %d", desc[0].ID, byID[0].ID)
	}
	if !slices.IsSortedFunc(desc, func(a, b *ordermsg.Order) int { return b.DateCreated.Compare(a.DateCreated.Time) }) {
		t.Error("default order is not newest first")
	}

	// Dates are inclusive on both ends.
	first := w.Orders[10].DateCreated.Time
	last := w.Orders[40].DateCreated.Time
	window := walkOrders(t, c, srv.WebsiteID, &ordermsg.ListOrdersOptions{
		DateStart: ordermsg.DateOf(first), DateEnd: ordermsg.DateOf(last), Count: 100,
	})
	var want int
	for _, o := range w.Orders {
		d := ordermsg.DateOf(o.DateCreated.Time)
		if d.String() >= ordermsg.DateOf(first).String() && d.String() <= ordermsg.DateOf(last).String() {
			want++
		}
	}
	if len(window) != want || want < 31 {
		t.Errorf("date window: %d orders, want %d", len(window), want)
	}

	// status: the observed value keeps all, another keeps none.
	if p, err := c.Orders.List(ctx, srv.WebsiteID, &ordermsg.ListOrdersOptions{Status: ordermsg.OrderStatusNew}); err != nil || p.Meta.Pagination.Total != len(w.Orders) {
		t.Errorf("status new: %v %v", p, err)
	}
	if p, err := c.Orders.List(ctx, srv.WebsiteID, &ordermsg.ListOrdersOptions{Status: "cancelled"}); err != nil || p.Meta.Pagination.Total != 0 {
		t.Errorf("status cancelled: %v %v", p, err)
	}

	// message_type.
	for _, mt := range []ordermsg.MessageType{ordermsg.MessageTypeOnlineOrder, ordermsg.MessageTypeEventManagement, ordermsg.MessageTypeGeneralContact} {
		want := 0
		for _, m := range w.Messages {
			if m.MessageType == mt {
				want++
			}
		}
		p, err := c.Messages.List(ctx, srv.WebsiteID, &ordermsg.ListMessagesOptions{MessageType: mt, Count: 100})
		if err != nil || p.Meta.Pagination.Total != want || want == 0 {
			t.Errorf("message_type %s: total %v, want %d (%v)", mt, p.Meta.Pagination.Total, want, err)
		}
		for _, m := range p.Data {
			if m.MessageType != mt {
				t.Errorf("message_type %s let %s through", mt, m.MessageType)
			}
		}
	}

	// search: a username, case-insensitively.
	target := find(t, w.Orders, func(o *ordermsg.Order) bool { return o.User.IsExpanded() })
	name := strings.ToUpper(target.User.Expanded.Username)
	found := walkOrders(t, c, srv.WebsiteID, &ordermsg.ListOrdersOptions{Search: name, Count: 100})
	if !slices.ContainsFunc(found, func(o *ordermsg.Order) bool { return o.ID == target.ID }) {
		t.Errorf("search %q did not find order %d", name, target.ID)
	}
	if len(found) >= len(w.Orders) {
		t.Errorf("search %q matched everything", name)
	}
}

func TestE2EErrors(t *testing.T) {
	srv := fake(t)
	ctx := context.Background()
	other := srv.Handler.Dataset().Websites[1]

	wrongKey, _ := ordermsg.NewClient(srv.URL, "omk_test_wrong", ordermsg.WithRetry(ordermsg.RetryPolicy{}))
	if _, err := wrongKey.Orders.List(ctx, srv.WebsiteID, nil); !errors.Is(err, ordermsg.ErrUnauthorized) {
		t.Errorf("wrong key: %v", err)
	}
	c := sdk(t, srv)
	if _, err := c.Orders.List(ctx, other.ID, nil); !errors.Is(err, ordermsg.ErrForbidden) {
		t.Errorf("another account's website: %v", err)
	}
	if _, err := c.Orders.Get(ctx, srv.WebsiteID, 1, nil); !errors.Is(err, ordermsg.ErrNotFound) {
		t.Errorf("unknown order: %v", err)
	}
	if _, err := c.Messages.Get(ctx, srv.WebsiteID, 1, nil); !errors.Is(err, ordermsg.ErrNotFound) {
		t.Errorf("unknown message: %v", err)
	}
	if _, err := c.Orders.List(ctx, 999, nil); !errors.Is(err, ordermsg.ErrNotFound) {
		t.Errorf("unknown website: %v", err)
	}
	if _, err := c.Orders.Get(ctx, srv.WebsiteID, srv.Handler.Dataset().Website(srv.WebsiteID).Orders[0].ID,
		&ordermsg.GetOrderOptions{Includes: []ordermsg.OrderInclude{"bogus"}}); !errors.Is(err, ordermsg.ErrBadRequest) {
		t.Errorf("unknown include: %v", err)
	}
	if _, err := c.Orders.List(ctx, srv.WebsiteID, &ordermsg.ListOrdersOptions{Count: ordermsgtest.MaxCount + 1}); !errors.Is(err, ordermsg.ErrBadRequest) {
		t.Errorf("count above the maximum: %v", err)
	}
	if _, err := c.Orders.List(ctx, srv.WebsiteID, &ordermsg.ListOrdersOptions{Direction: "sideways"}); !errors.Is(err, ordermsg.ErrBadRequest) {
		t.Errorf("bad direction: %v", err)
	}
	if _, err := c.Messages.List(ctx, srv.WebsiteID, &ordermsg.ListMessagesOptions{Sort: "colour"}); !errors.Is(err, ordermsg.ErrBadRequest) {
		t.Errorf("bad sort: %v", err)
	}
	// Parameters the SDK would refuse, sent raw.
	for _, q := range []url.Values{{"date_start": {"yesterday"}}, {"count": {"-1"}}, {"page": {"0"}}, {"date_end": {"2024-13-01"}}} {
		var v any
		err := c.Get(ctx, "/websites/"+strconv.FormatInt(srv.WebsiteID, 10)+"/orders", q, &v)
		var apiErr *ordermsg.APIError
		if !errors.As(err, &apiErr) || apiErr.StatusCode != 400 || apiErr.Message == "Bad Request" {
			t.Errorf("%v: %v", q, err)
		}
	}
	versionless := sdk(t, srv, ordermsg.WithVersionHeader("Service-Api-Version", "2"))
	_, err := versionless.Orders.List(ctx, srv.WebsiteID, nil)
	var apiErr *ordermsg.APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 400 || !strings.Contains(apiErr.Message, "Service-Api-Version") {
		t.Errorf("wrong version: %v", err)
	}
}
