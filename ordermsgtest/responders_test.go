package ordermsgtest_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

const mockBase = "https://api.example.com"

// mockClient returns a client whose requests go to mt, without retries.
func mockClient(t *testing.T, mt *httpmock.MockTransport) *ordermsg.Client {
	t.Helper()
	c, err := ordermsg.NewClient(mockBase, "test-key", ordermsg.WithHTTPClient(&http.Client{Transport: mt}), ordermsg.WithRetry(ordermsg.RetryPolicy{}))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// respond calls responder for a GET of url and returns the status and body.
func respond(t *testing.T, responder httpmock.Responder, url string) (int, http.Header, []byte) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	resp, err := responder(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.ContentLength != int64(len(body)) {
		t.Errorf("Content-Length %d for %d bytes", resp.ContentLength, len(body))
	}
	return resp.StatusCode, resp.Header, body
}

// sameJSON reports whether a and b are the same JSON value.
func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var va, vb any
	if err := json.Unmarshal(a, &va); err != nil {
		t.Fatalf("%v: %s", err, a)
	}
	if err := json.Unmarshal(b, &vb); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	return reflect.DeepEqual(va, vb)
}

func specFixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// ListResponder pages through the records for real: page and count as
// asked, every pagination member filled in, a page past the end empty, and
// the fake's 400 for a page or count out of bounds.
func TestListResponderPaginates(t *testing.T) {
	records := make([]json.RawMessage, 45)
	for i := range records {
		records[i] = json.RawMessage(fmt.Sprintf(`{"object":"order","id":%d}`, i+1))
	}
	r := ordermsgtest.ListResponder(records)
	for _, tc := range []struct {
		query      string
		ids        []int
		pagination pages
	}{
		{"", seq(1, 25), pages{45, 25, 25, 1, 2}},
		{"?page=2", seq(26, 45), pages{45, 20, 25, 2, 2}},
		{"?count=10&page=5", seq(41, 45), pages{45, 5, 10, 5, 5}},
		{"?count=100", seq(1, 45), pages{45, 45, 100, 1, 1}},
		{"?count=10&page=6", nil, pages{45, 0, 10, 6, 5}},
		{"?count=500", seq(1, 45), pages{45, 45, 500, 1, 1}},
		{"?count=9223372036854775807&page=1", seq(1, 45), pages{45, 45, 9223372036854775807, 1, 1}},
		{"?page=9223372036854775807", nil, pages{45, 0, 25, 9223372036854775807, 2}},
	} {
		status, header, body := respond(t, r, mockBase+"/websites/1/orders"+tc.query)
		var page struct {
			Object string `json:"object"`
			Data   []struct {
				ID int `json:"id"`
			} `json:"data"`
			Meta struct {
				Pagination ordermsg.Pagination `json:"pagination"`
			} `json:"meta"`
		}
		if err := json.Unmarshal(body, &page); err != nil || status != 200 || header.Get("Content-Type") != "application/json" {
			t.Fatalf("%q: %d %v %s", tc.query, status, err, body)
		}
		var ids []int
		for _, d := range page.Data {
			ids = append(ids, d.ID)
		}
		if page.Object != "list" || page.Data == nil || !slices.Equal(ids, tc.ids) || pagesOf(page.Meta.Pagination) != tc.pagination {
			t.Errorf("%q: %s", tc.query, body)
		}
	}
	for _, query := range []string{"?page=0", "?page=x", "?count=0", "?count=1.5", "?count=-1", "?count=99999999999999999999"} {
		status, _, body := respond(t, r, mockBase+"/websites/1/orders"+query)
		if status != 400 || !strings.Contains(string(body), `"object":"error"`) {
			t.Errorf("%q: %d %s", query, status, body)
		}
	}
}

// pages is a Pagination without its Unknown members, to compare.
type pages struct{ Total, Count, PerPage, CurrentPage, TotalPages int }

func pagesOf(p ordermsg.Pagination) pages {
	return pages{p.Total, p.Count, p.PerPage, p.CurrentPage, p.TotalPages}
}

func seq(from, to int) []int {
	var out []int
	for i := from; i <= to; i++ {
		out = append(out, i)
	}
	return out
}

// A walk through ListResponder yields every record once, in order, at any
// page size and concurrency, from typed values as from raw JSON.
func TestListResponderServesAWalk(t *testing.T) {
	w := ordermsgtest.Generate(small).Websites[0]
	messages := w.ListedMessages()
	for _, count := range []int{1, 7, 25, 100} {
		mt := httpmock.NewMockTransport()
		mt.RegisterResponder("GET", fmt.Sprintf("%s/websites/%d/messages", mockBase, w.ID), ordermsgtest.ListResponder(messages))
		var got []int64
		for m, err := range mockClient(t, mt).Messages.All(context.Background(), w.ID, &ordermsg.ListMessagesOptions{Count: count}, ordermsg.WithConcurrency(4)) {
			if err != nil {
				t.Fatalf("count %d: %v", count, err)
			}
			got = append(got, m.ID)
		}
		want := make([]int64, len(messages))
		for i, m := range messages {
			want[i] = m.ID
		}
		if pages := (len(messages) + count - 1) / count; !slices.Equal(got, want) || mt.GetTotalCallCount() != pages {
			t.Errorf("count %d: %d records in %d requests; want %d in %d", count, len(got), mt.GetTotalCallCount(), len(want), pages)
		}
	}
	// No records: one empty page, and the walk ends quietly.
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder("GET", mockBase+"/websites/1/orders", ordermsgtest.ListResponder[*ordermsg.Order](nil))
	for _, err := range mockClient(t, mt).Orders.All(context.Background(), 1, nil) {
		t.Fatalf("yielded from an empty list: %v", err)
	}
}

// PageResponder serves the records as page 1 of 1 (none for no record),
// its pagination filled in, whatever the request asks for.
func TestPageResponder(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want pages
	}{
		{0, pages{0, 0, ordermsgtest.DefaultCount, 1, 0}},
		{3, pages{3, 3, ordermsgtest.DefaultCount, 1, 1}},
		{40, pages{40, 40, 40, 1, 1}},
	} {
		records := make([]*ordermsg.Order, tc.n)
		for i := range records {
			records[i] = &ordermsg.Order{Object: ordermsg.ObjectOrder, ID: int64(i + 1)}
		}
		mt := httpmock.NewMockTransport()
		mt.RegisterResponder("GET", mockBase+"/websites/1/orders", ordermsgtest.PageResponder(records))
		c := mockClient(t, mt)
		page, err := c.Orders.List(context.Background(), 1, &ordermsg.ListOrdersOptions{Count: 2, Page: 1})
		if err != nil || len(page.Data) != tc.n || pagesOf(page.Meta.Pagination) != tc.want || page.HasNextPage() {
			t.Fatalf("%d records: %v, %+v", tc.n, err, page)
		}
		n := 0
		for _, err := range c.Orders.All(context.Background(), 1, nil) {
			if err != nil {
				t.Fatal(err)
			}
			n++
		}
		if n != tc.n || mt.GetTotalCallCount() != 2 {
			t.Errorf("%d records: walked %d in %d requests", tc.n, n, mt.GetTotalCallCount()-1)
		}
	}
}

// RecordResponder encodes the record at each request, so that a test may
// change it in between; the SDK reads back what was given.
func TestRecordResponderEncodesAtEachRequest(t *testing.T) {
	o := &ordermsg.Order{Object: ordermsg.ObjectOrder, ID: 7, Status: ordermsg.OrderStatusNew}
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder("GET", mockBase+"/websites/1/orders/7", ordermsgtest.RecordResponder(o))
	c := mockClient(t, mt)
	for _, status := range []ordermsg.OrderStatus{"new", "shipped"} {
		o.Status = status
		got, err := c.Orders.Get(context.Background(), 1, 7, nil)
		if err != nil || got.ID != 7 || got.Status != status {
			t.Errorf("got %+v, %v; want status %s", got, err, status)
		}
	}
}

// ErrorResponder gives any status with the fake's error body; the SDK
// matches the status's sentinel and reads the message.
func TestErrorResponder(t *testing.T) {
	for _, tc := range []struct {
		status   int
		sentinel error
	}{{400, ordermsg.ErrBadRequest}, {401, ordermsg.ErrUnauthorized}, {403, ordermsg.ErrForbidden}, {404, ordermsg.ErrNotFound},
		{429, ordermsg.ErrRateLimited}, {500, ordermsg.ErrServer}, {503, ordermsg.ErrServer}, {418, nil}} {
		mt := httpmock.NewMockTransport()
		mt.RegisterResponder("GET", mockBase+"/websites/1/messages/2", ordermsgtest.ErrorResponder(tc.status, "it went wrong"))
		_, err := mockClient(t, mt).Messages.Get(context.Background(), 1, 2, nil)
		var apiErr *ordermsg.APIError
		if !errors.As(err, &apiErr) || apiErr.StatusCode != tc.status || apiErr.Message != "it went wrong" ||
			(tc.sentinel != nil && !errors.Is(err, tc.sentinel)) || mt.GetTotalCallCount() != 1 {
			t.Errorf("%d: %v after %d requests", tc.status, err, mt.GetTotalCallCount())
		}
	}
}

// A responder made with a fixture that no response holds panics when it is
// made, saying which and why, rather than serve it (200 null, data:[null],
// a 200 error) or fail each request with an error that the client retries.
func TestRespondersRefuseBadFixturesWhenMade(t *testing.T) {
	order := &ordermsg.Order{Object: ordermsg.ObjectOrder, ID: 1}
	for _, tc := range []struct {
		name  string
		make  func() httpmock.Responder
		panic string
	}{
		{"nil order", func() httpmock.Responder { return ordermsgtest.RecordResponder((*ordermsg.Order)(nil)) },
			"ordermsgtest: RecordResponder: the record is a nil *ordermsg.Order"},
		{"nil message", func() httpmock.Responder { return ordermsgtest.RecordResponder((*ordermsg.Message)(nil)) },
			"ordermsgtest: RecordResponder: the record is a nil *ordermsg.Message"},
		{"nil raw", func() httpmock.Responder { return ordermsgtest.RecordResponder(json.RawMessage(nil)) },
			"ordermsgtest: RecordResponder: the record is not a JSON object"},
		{"raw null", func() httpmock.Responder { return ordermsgtest.RecordResponder(json.RawMessage(" null")) },
			"ordermsgtest: RecordResponder: the record is not a JSON object"},
		{"raw array", func() httpmock.Responder { return ordermsgtest.RecordResponder(json.RawMessage(`[{"id":1}]`)) },
			"ordermsgtest: RecordResponder: the record is not a JSON object"},
		{"invalid raw", func() httpmock.Responder { return ordermsgtest.RecordResponder(json.RawMessage(`{"id":`)) },
			"ordermsgtest: RecordResponder: the record is not a JSON object"},
		{"nil in a page", func() httpmock.Responder { return ordermsgtest.PageResponder([]*ordermsg.Order{order, nil}) },
			"ordermsgtest: PageResponder: records[1] is a nil *ordermsg.Order"},
		{"nil in a list", func() httpmock.Responder { return ordermsgtest.ListResponder([]*ordermsg.Message{nil}) },
			"ordermsgtest: ListResponder: records[0] is a nil *ordermsg.Message"},
		{"invalid raw in a list", func() httpmock.Responder {
			return ordermsgtest.ListResponder([]json.RawMessage{json.RawMessage(`{"id":1}`), json.RawMessage(`{"id":2,}`)})
		}, "ordermsgtest: ListResponder: records[1] is not a JSON object"},
		{"string in a page", func() httpmock.Responder {
			return ordermsgtest.PageResponder([]json.RawMessage{json.RawMessage(`"order"`)})
		},
			"ordermsgtest: PageResponder: records[0] is not a JSON object"},
		{"status 200", func() httpmock.Responder { return ordermsgtest.ErrorResponder(200, "fine") },
			"ordermsgtest: ErrorResponder: status 200 is not an error's: want 400 to 599"},
		{"status 99", func() httpmock.Responder { return ordermsgtest.ErrorResponder(99, "odd") },
			"ordermsgtest: ErrorResponder: status 99 is not an error's: want 400 to 599"},
		{"status 600", func() httpmock.Responder { return ordermsgtest.ErrorResponder(600, "odd") },
			"ordermsgtest: ErrorResponder: status 600 is not an error's: want 400 to 599"},
		{"status 399", func() httpmock.Responder { return ordermsgtest.ErrorResponder(399, "odd") },
			"ordermsgtest: ErrorResponder: status 399 is not an error's: want 400 to 599"},
	} {
		func() {
			defer func() {
				if got := recover(); got != tc.panic {
					t.Errorf("%s: panic %v, want %q", tc.name, got, tc.panic)
				}
			}()
			tc.make()
		}()
	}
	// The bounds and fixtures that responses hold are taken.
	ordermsgtest.ErrorResponder(400, "bad")
	ordermsgtest.ErrorResponder(599, "odd")
	ordermsgtest.RecordResponder(json.RawMessage(" \n{}"))
	ordermsgtest.PageResponder([]*ordermsg.Order(nil))
	ordermsgtest.ListResponder([]json.RawMessage{})
}

// RateLimitResponder's Retry-After is in whole seconds, rounded up, and
// absent for no wait.
func TestRateLimitResponderRetryAfter(t *testing.T) {
	for _, tc := range []struct {
		wait time.Duration
		want string
	}{{30 * time.Second, "30"}, {1500 * time.Millisecond, "2"}, {time.Millisecond, "1"}, {0, ""}, {-time.Second, ""}} {
		status, header, body := respond(t, ordermsgtest.RateLimitResponder(tc.wait), mockBase+"/websites/1/orders")
		if status != 429 || header.Get("Retry-After") != tc.want || !strings.Contains(string(body), `"status":429`) {
			t.Errorf("%v: %d, Retry-After %q, %s", tc.wait, status, header.Get("Retry-After"), body)
		}
	}
}

// The spec's records, written by hand from its tables, field by field,
// served as raw JSON by RecordResponder and ListResponder: the SDK reads
// each convention as the spec states it (0 or null for an absent
// reference, file null for a failed print-ready file, attributes null on a
// versadoc item, the user of a message's expanded order as an id), and
// encodes back the same JSON.
func TestSpecFixturesThroughTheResponders(t *testing.T) {
	ctx := context.Background()
	mt := httpmock.NewMockTransport()
	c := mockClient(t, mt)
	orderJSON, messageJSON, plainJSON := specFixture(t, "spec_order_retrieved.json"), specFixture(t, "spec_message_retrieved.json"), specFixture(t, "spec_message_retrieved_plain.json")
	mt.RegisterResponder("GET", mockBase+"/websites/1/orders/8101", ordermsgtest.RecordResponder(json.RawMessage(orderJSON)))
	mt.RegisterResponder("GET", mockBase+"/websites/1/messages/8902", ordermsgtest.RecordResponder(json.RawMessage(messageJSON)))
	mt.RegisterResponder("GET", mockBase+"/websites/1/messages/8952", ordermsgtest.RecordResponder(json.RawMessage(plainJSON)))
	var listedOrders, listedMessages []json.RawMessage
	for name, dst := range map[string]*[]json.RawMessage{"spec_orders_listed.json": &listedOrders, "spec_messages_listed.json": &listedMessages} {
		if err := json.Unmarshal(specFixture(t, name), dst); err != nil {
			t.Fatal(err)
		}
	}
	mt.RegisterResponder("GET", mockBase+"/websites/1/orders", ordermsgtest.ListResponder(listedOrders))
	mt.RegisterResponder("GET", mockBase+"/websites/1/messages", ordermsgtest.ListResponder(listedMessages))

	encodesBack := func(name string, v any, want []byte) {
		t.Helper()
		got, err := json.Marshal(v)
		if err != nil || !sameJSON(t, got, want) {
			t.Errorf("%s does not encode back to its JSON (%v):\n%s", name, err, got)
		}
	}

	o, err := c.Orders.Get(ctx, 1, 8101, &ordermsg.GetOrderOptions{Includes: ordermsg.AllOrderIncludes()})
	if err != nil {
		t.Fatal(err)
	}
	encodesBack("the retrieved order", o, orderJSON)
	item, versadoc := o.Items[0], o.Items[1]
	prf := versadoc.PrintReadyFiles
	switch {
	case item.IsVersadoc() || item.Attributes.Value == nil || item.Attributes.Value.Fields.Get("f40").PriceModifier == nil:
		t.Errorf("the order item and its attributes: %+v", item)
	case !versadoc.IsVersadoc() || !versadoc.Attributes.IsNull() || versadoc.VersadocOrderForm == nil || versadoc.Shipment != 0 || versadoc.TaxClass != 0:
		t.Errorf("the versadoc item: attributes null %v, %+v", versadoc.Attributes.IsNull(), versadoc)
	case len(prf) != 2 || prf[0].File == nil || prf[1].File != nil || prf[1].Status != ordermsg.PrintReadyFileStatusFailure:
		t.Errorf("print-ready files: %+v", prf)
	case !o.Message.IsExpanded() || o.Message.Expanded.User.ID != 8501 || o.Message.Expanded.User.IsExpanded():
		t.Errorf("the order's message: %+v", o.Message)
	case !o.PromoCode.IsExpanded() || o.PromoCode.Expanded.PromoCode.PromoCode != "SCHOOL20" || !o.User.IsExpanded() || !o.Portal.IsExpanded():
		t.Errorf("the order's references: %v %v %v", o.PromoCode, o.User, o.Portal)
	}

	m, err := c.Messages.Get(ctx, 1, 8902, &ordermsg.GetMessageOptions{Includes: ordermsg.AllMessageIncludes()})
	if err != nil {
		t.Fatal(err)
	}
	encodesBack("the retrieved message", m, messageJSON)
	switch inner := m.Order.Expanded; {
	case !m.File.IsNull() || !m.Form.IsExpanded() || !m.User.IsExpanded() || m.Portal.ID != 0 || m.Portal.IsNull():
		t.Errorf("the message's references: file %v, form %v, user %v, portal %v", m.File, m.Form, m.User, m.Portal)
	case inner == nil || inner.User.IsExpanded() || inner.User.ID != m.User.ID || !inner.PromoCode.IsNull() || len(inner.Items) != 1 || inner.Message.ID != m.ID:
		t.Errorf("the message's expanded order: %+v", inner)
	case m.PaymentTransactions == nil || len(m.PaymentTransactions) != 0:
		t.Errorf("an included empty list: %#v", m.PaymentTransactions)
	}

	plain, err := c.Messages.Get(ctx, 1, 8952, nil)
	if err != nil {
		t.Fatal(err)
	}
	encodesBack("the plain retrieved message", plain, plainJSON)
	for name, r := range map[string]interface{ IsNull() bool }{"user": plain.User, "file": plain.File, "order": plain.Order, "portal": plain.Portal} {
		if r.IsNull() {
			t.Errorf("a retrieved message's absent %s is 0, not null", name)
		}
	}
	if plain.User.ID != 0 || plain.File.ID != 0 || plain.Order.ID != 0 || plain.Form.ID != 73 {
		t.Errorf("the plain message's ids: %+v", plain)
	}

	var orders []*ordermsg.Order
	for o, err := range c.Orders.All(ctx, 1, &ordermsg.ListOrdersOptions{Count: 1, Includes: []ordermsg.OrderInclude{ordermsg.OrderIncludeUser}}) {
		if err != nil {
			t.Fatal(err)
		}
		orders = append(orders, o)
	}
	if len(orders) != 2 || !orders[0].User.IsNull() || !orders[0].PromoCode.IsNull() || orders[0].Message.ID != 8132 || orders[0].Portal.IsNull() ||
		!orders[1].User.IsExpanded() || orders[1].PromoCode.ID != 8803 || orders[0].Items != nil {
		t.Errorf("the listed orders: %+v", orders)
	}
	var messages []*ordermsg.Message
	for m, err := range c.Messages.All(ctx, 1, &ordermsg.ListMessagesOptions{Count: 1, Includes: []ordermsg.MessageInclude{ordermsg.MessageIncludeUser}}) {
		if err != nil {
			t.Fatal(err)
		}
		messages = append(messages, m)
	}
	if len(messages) != 2 || !messages[0].User.IsNull() || messages[0].File.ID != 8944 || messages[0].Order.IsNull() || !messages[1].User.IsExpanded() {
		t.Errorf("the listed messages: %+v", messages)
	}
	for i, raw := range listedOrders {
		encodesBack(fmt.Sprintf("listed order %d", i), orders[i], raw)
	}
	for i, raw := range listedMessages {
		encodesBack(fmt.Sprintf("listed message %d", i), messages[i], raw)
	}
}

// The fake's records as fixtures (Website.ListedOrders, RetrievedOrder, …)
// have the members of the spec's, written by hand above, wherever both show
// the same thing: the record, its order items of either kind, its
// shipments, the message inside an order and the order inside a message.
func TestRenderedViewsHaveTheSpecsMembers(t *testing.T) {
	w := ordermsgtest.Generate(ordermsgtest.Config{Seed: 3, Websites: 1, OrdersPerWebsite: 200, MessagesPerWebsite: 200}).Websites[0]
	var spec, fake map[string]any
	decode := func(b []byte, v any) {
		t.Helper()
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatal(err)
		}
	}
	encode := func(v any) []byte {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	sameMembers := func(what string, a, b any) {
		t.Helper()
		if ka, kb := members(a), members(b); !slices.Equal(ka, kb) {
			t.Errorf("%s: the spec's fixture has %v, the fake's %v", what, ka, kb)
		}
	}

	// An order with an item of each kind and a shipment, retrieved with
	// every include.
	full := find(t, w.Orders, func(o *ordermsg.Order) bool {
		return len(o.Items) > 1 && o.Items[0].IsVersadoc() && len(o.Shipments) > 0
	})
	decode(specFixture(t, "spec_order_retrieved.json"), &spec)
	decode(encode(w.RetrievedOrder(full.ID, ordermsg.AllOrderIncludes()...)), &fake)
	sameMembers("a retrieved order", spec, fake)
	sameMembers("an order item", item(spec, "items", 0), item(fake, "items", 1))
	sameMembers("a versadoc order item", item(spec, "items", 1), item(fake, "items", 0))
	sameMembers("a shipment", item(spec, "shipments", 0), item(fake, "shipments", 0))
	sameMembers("the message inside an order", spec["message"], fake["message"])

	// A message with an order, retrieved with every include.
	withOrder := find(t, w.Messages, func(m *ordermsg.Message) bool { return m.Order.ID != 0 })
	decode(specFixture(t, "spec_message_retrieved.json"), &spec)
	decode(encode(w.RetrievedMessage(withOrder.ID, ordermsg.AllMessageIncludes()...)), &fake)
	sameMembers("a retrieved message", spec, fake)
	sameMembers("the order inside a message", spec["order"], fake["order"])
	sameMembers("an item of the order inside a message", item(spec["order"].(map[string]any), "items", 0), item(fake["order"].(map[string]any), "items", 0))
	decode(specFixture(t, "spec_message_retrieved_plain.json"), &spec)
	decode(encode(w.RetrievedMessage(withOrder.ID)), &fake)
	sameMembers("a retrieved message without includes", spec, fake)

	// Listed with include user.
	var specList, fakeList []any
	decode(specFixture(t, "spec_orders_listed.json"), &specList)
	decode(encode(w.ListedOrders(ordermsg.OrderIncludeUser)), &fakeList)
	sameMembers("a listed order", specList[0], fakeList[0])
	decode(specFixture(t, "spec_messages_listed.json"), &specList)
	decode(encode(w.ListedMessages(ordermsg.MessageIncludeUser)), &fakeList)
	sameMembers("a listed message", specList[0], fakeList[0])
}

// members returns the sorted member names of a JSON object.
func members(v any) []string {
	m, _ := v.(map[string]any)
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

// item returns element i of the array member name of record.
func item(record map[string]any, name string, i int) any {
	if a, ok := record[name].([]any); ok && i < len(a) {
		return a[i]
	}
	return nil
}

// The fake's records as fixtures are what the fake itself serves: the
// views of Website (newest first, with the includes given) against its
// list and retrieve responses, file links aside (the handler signs them
// for its own origin; the views keep the dataset's).
func TestRenderedViewsAreWhatTheFakeServes(t *testing.T) {
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(small))
	defer srv.Close()
	w := srv.Handler.Dataset().Websites[0]
	c, err := srv.Client()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	viewsAreServed(t, "orders", w.Orders, [][]ordermsg.OrderInclude{nil, {ordermsg.OrderIncludeUser}, ordermsg.AllOrderIncludes()},
		w.ListedOrders, w.RetrievedOrder, func(o *ordermsg.Order) int64 { return o.ID },
		func(inc []ordermsg.OrderInclude) iter.Seq2[*ordermsg.Order, error] {
			return c.Orders.All(ctx, w.ID, &ordermsg.ListOrdersOptions{Count: 100, Includes: inc})
		},
		func(id int64, inc []ordermsg.OrderInclude) (*ordermsg.Order, error) {
			return c.Orders.Get(ctx, w.ID, id, &ordermsg.GetOrderOptions{Includes: inc})
		})
	viewsAreServed(t, "messages", w.Messages, [][]ordermsg.MessageInclude{nil, {ordermsg.MessageIncludeUser}, ordermsg.AllMessageIncludes()},
		w.ListedMessages, w.RetrievedMessage, func(m *ordermsg.Message) int64 { return m.ID },
		func(inc []ordermsg.MessageInclude) iter.Seq2[*ordermsg.Message, error] {
			return c.Messages.All(ctx, w.ID, &ordermsg.ListMessagesOptions{Count: 100, Includes: inc})
		},
		func(id int64, inc []ordermsg.MessageInclude) (*ordermsg.Message, error) {
			return c.Messages.Get(ctx, w.ID, id, &ordermsg.GetMessageOptions{Includes: inc})
		})
	if w.RetrievedOrder(1) != nil || w.RetrievedMessage(1) != nil {
		t.Error("a view of a record the website does not have")
	}
}

// The views keep the dataset's file links, as their documentation says: a
// url on files.example.com and an expires a day after the record's
// creation, long past for generated records; the fake serves its own.
func TestRenderedViewsKeepTheDatasetsFileLinks(t *testing.T) {
	w := ordermsgtest.Generate(small).Websites[0]
	var files []*ordermsg.File
	for _, m := range w.ListedMessages(ordermsg.MessageIncludeFile) {
		if m.File.Expanded != nil {
			files = append(files, m.File.Expanded)
		}
	}
	for _, o := range w.ListedOrders(ordermsg.OrderIncludeItemsPrintReadyFiles) {
		if r := w.RetrievedOrder(o.ID, ordermsg.OrderIncludeItemsPrintReadyFiles); r != nil {
			for _, it := range r.Items {
				for _, prf := range it.PrintReadyFiles {
					if prf.File != nil {
						files = append(files, prf.File)
					}
				}
			}
		}
	}
	if len(files) == 0 {
		t.Fatal("no file in the views")
	}
	for _, f := range files {
		want := fmt.Sprintf("https://files.example.com/%d/%s", f.ID, f.Filename)
		if f.URL != want || f.Expires.Year() != 2024 || !f.Expires.Before(time.Now()) {
			t.Errorf("file %d: url %s, expires %v; want %s, expired in 2024", f.ID, f.URL, f.Expires, want)
		}
	}
}

// viewsAreServed checks the views of one resource (listed, retrieved)
// against what the fake serves (all, get), for each set of includes.
func viewsAreServed[T any, I ~string](t *testing.T, what string, records []*T, includeSets [][]I,
	listed func(...I) []*T, retrieved func(int64, ...I) *T, idOf func(*T) int64,
	all func([]I) iter.Seq2[*T, error], get func(int64, []I) (*T, error)) {
	t.Helper()
	same := func(view string, v, served any) {
		t.Helper()
		a, _ := json.Marshal(v)
		b, _ := json.Marshal(served)
		if !sameJSON(t, withoutLinks(t, a), withoutLinks(t, b)) {
			t.Errorf("%s: the view differs from what the fake serves:\n%s\n%s", view, a, b)
		}
	}
	for _, includes := range includeSets {
		var served []*T
		for r, err := range all(includes) {
			if err != nil {
				t.Fatal(err)
			}
			served = append(served, r)
		}
		same(fmt.Sprintf("the listed %s with %v", what, includes), listed(includes...), served)
		for _, r := range records[:5] {
			got, err := get(idOf(r), includes)
			if err != nil {
				t.Fatal(err)
			}
			same(fmt.Sprintf("%s %d retrieved with %v", what, idOf(r), includes), retrieved(idOf(r), includes...), got)
		}
	}
}

// withoutLinks blanks the url and expires of every file in a JSON value.
func withoutLinks(t *testing.T, b []byte) []byte {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	var blank func(v any)
	blank = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if x["object"] == "file" {
				x["url"], x["expires"] = "", ""
			}
			for _, e := range x {
				blank(e)
			}
		case []any:
			for _, e := range x {
				blank(e)
			}
		}
	}
	blank(v)
	out, _ := json.Marshal(v)
	return out
}

// A responder registered for an exact URL is tried before Register's, so a
// test serves the fake and makes one record fail.
func TestOwnResponderOverridesTheFake(t *testing.T) {
	h := ordermsgtest.NewHandler(ordermsgtest.Generate(small))
	w := h.Dataset().Websites[0]
	mt := httpmock.NewMockTransport()
	h.Register(mt, mockBase)
	failing := w.Orders[3].ID
	mt.RegisterResponder("GET", fmt.Sprintf("%s/websites/%d/orders/%d", mockBase, w.ID, failing), ordermsgtest.ErrorResponder(500, "boom"))
	c, err := ordermsg.NewClient(mockBase, w.APIKey, ordermsg.WithHTTPClient(&http.Client{Transport: mt}), ordermsg.WithRetry(ordermsg.RetryPolicy{}))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := c.Orders.Get(ctx, w.ID, failing, &ordermsg.GetOrderOptions{Includes: []ordermsg.OrderInclude{ordermsg.OrderIncludeUser}}); !errors.Is(err, ordermsg.ErrServer) {
		t.Errorf("the overridden order: %v", err)
	}
	if o, err := c.Orders.Get(ctx, w.ID, w.Orders[4].ID, nil); err != nil || o.ID != w.Orders[4].ID {
		t.Errorf("another order: %v", err)
	}
	if page, err := c.Orders.List(ctx, w.ID, nil); err != nil || len(page.Data) != ordermsgtest.DefaultCount {
		t.Errorf("the list: %v", err)
	}
}

// "Testing your code" (docs/testing.md, which the README's section of that
// name links to) shows the examples' code: each Go block of its "Fixtures
// with httpmock" part is the body of an Example of this package, as it
// runs, its output aside.
func TestReadmeShowsTheTestingExamples(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "docs", "testing.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "\n## Fixtures with httpmock\n")
	section, _, ok2 := strings.Cut(section, "\n## The fake\n")
	if !ok || !ok2 {
		t.Fatal("docs/testing.md has no Fixtures with httpmock part followed by The fake")
	}
	bodies := httpmockExamples(t)
	blocks := strings.Split(section, "```go\n")[1:]
	if len(blocks) != 3 {
		t.Fatalf("%d Go blocks; want the hand-written fixtures, the fake's data and the retry setting", len(blocks))
	}
	for i, b := range blocks {
		code, _, _ := strings.Cut(b, "```")
		found := ""
		for name, body := range bodies {
			if body == code {
				found = name
			}
		}
		if found == "" {
			t.Errorf("Go block %d of the section is no example's body:\n%s", i+1, code)
		} else if !strings.Contains(section, "`"+found+"`") {
			t.Errorf("the section shows %s without naming it", found)
		}
	}
}

// httpmockExamples returns the body of each Example of
// example_httpmock_test.go by its name, unindented, its output aside.
func httpmockExamples(t *testing.T) map[string]string {
	src, err := os.ReadFile("example_httpmock_test.go")
	if err != nil {
		t.Fatal(err)
	}
	bodies := map[string]string{}
	for _, fn := range strings.Split(string(src), "\nfunc ")[1:] {
		name, rest, _ := strings.Cut(fn, "() {\n")
		body, _, _ := strings.Cut(rest, "\t// Output:")
		var lines []string
		for _, line := range strings.Split(strings.TrimRight(body, "\n"), "\n") {
			lines = append(lines, strings.TrimPrefix(line, "\t"))
		}
		bodies[name] = strings.Join(lines, "\n") + "\n"
	}
	return bodies
}

// Every client of the httpmock examples, and so of docs/testing.md's
// "Testing your code" (TestReadmeShowsTheTestingExamples), turns retries off: an
// error fixture, and a URL without a responder (a network error to the
// client), would otherwise come back after three retries and their backoff.
func TestHTTPMockExamplesTurnRetriesOff(t *testing.T) {
	const off = "ordermsg.WithRetry(ordermsg.RetryPolicy{})"
	for name, body := range httpmockExamples(t) {
		if n := strings.Count(body, "ordermsg.NewClient("); n != strings.Count(body, off) {
			t.Errorf("%s: %d clients, %d of them with %s", name, n, strings.Count(body, off), off)
		}
	}
}
