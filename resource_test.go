package ordermsg_test

import (
	"context"
	"errors"
	"iter"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// sentRequest is what a test compares of a request: its method, path,
// query and headers.
type sentRequest struct {
	method, path, query string
	header              http.Header
}

// requestLog is a transport that records the requests it carries.
type requestLog struct {
	mu   sync.Mutex
	sent []sentRequest
}

func (l *requestLog) RoundTrip(req *http.Request) (*http.Response, error) {
	l.mu.Lock()
	l.sent = append(l.sent, sentRequest{req.Method, req.URL.Path, req.URL.RawQuery, req.Header.Clone()})
	l.mu.Unlock()
	return http.DefaultTransport.RoundTrip(req)
}

// take returns the requests recorded since the last take.
func (l *requestLog) take() []sentRequest {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.sent
	l.sent = nil
	return out
}

// resourceFake starts the fake with orders and messages over several pages
// and a client whose requests log records.
func resourceFake(t *testing.T) (*ordermsgtest.Server, *ordermsg.Client, *requestLog) {
	t.Helper()
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{
		Seed: 3, Websites: 1, OrdersPerWebsite: 23, MessagesPerWebsite: 17,
	}))
	t.Cleanup(srv.Close)
	log := &requestLog{}
	c, err := srv.Client(ordermsg.WithHTTPClient(&http.Client{Transport: log}))
	if err != nil {
		t.Fatal(err)
	}
	return srv, c, log
}

// sameRequests fails unless the two calls sent the same requests, in any
// order (a walk with WithConcurrency sends some at once).
func sameRequests(t *testing.T, call string, service, resource []sentRequest) {
	t.Helper()
	for _, sent := range [][]sentRequest{service, resource} {
		slices.SortFunc(sent, func(a, b sentRequest) int { return strings.Compare(a.path+"?"+a.query, b.path+"?"+b.query) })
	}
	if len(service) == 0 {
		t.Fatalf("%s: the service's call sent no request", call)
	}
	if len(service) != len(resource) {
		t.Fatalf("%s: the service sent %d requests, the resource %d", call, len(service), len(resource))
	}
	for i := range service {
		s, r := service[i], resource[i]
		if s.method != r.method || s.path != r.path || s.query != r.query {
			t.Errorf("%s, request %d: the service sent %s %s?%s, the resource %s %s?%s", call, i, s.method, s.path, s.query, r.method, r.path, r.query)
		}
		for name := range s.header {
			if !slices.Equal(s.header.Values(name), r.header.Values(name)) {
				t.Errorf("%s, request %d: header %s: the service sent %q, the resource %q", call, i, name, s.header.Values(name), r.header.Values(name))
			}
		}
		if len(s.header) != len(r.header) {
			t.Errorf("%s, request %d: the service sent %d headers, the resource %d", call, i, len(s.header), len(r.header))
		}
	}
}

// recordOrError is a record's bytes as sent, or an error's text.
type recordOrError struct {
	raw string
	err string
}

// results walks seq to its end.
func results[T any](seq iter.Seq2[*T, error], raw func(*T) []byte) []recordOrError {
	var out []recordOrError
	for v, err := range seq {
		if err != nil {
			out = append(out, recordOrError{err: err.Error()})
			continue
		}
		out = append(out, recordOrError{raw: string(raw(v))})
	}
	return out
}

func TestResourceCallsSendWhatTheServiceSends(t *testing.T) {
	srv, c, log := resourceFake(t)
	ctx, site := context.Background(), srv.WebsiteID
	orders, messages := ordermsg.OrdersResource(), ordermsg.MessagesResource()
	since := mustDate(t, "2020-01-01")

	type pair struct {
		name              string
		service, resource func() []recordOrError
	}
	one := func(raw []byte, err error) []recordOrError {
		if err != nil {
			return []recordOrError{{err: err.Error()}}
		}
		return []recordOrError{{raw: string(raw)}}
	}
	firstOrder, err := c.Orders.List(ctx, site, nil)
	if err != nil {
		t.Fatal(err)
	}
	orderID := firstOrder.Data[0].ID
	firstMessage, err := c.Messages.List(ctx, site, nil)
	if err != nil {
		t.Fatal(err)
	}
	messageID := firstMessage.Data[0].ID
	pairs := []pair{
		{"Orders.Get",
			func() []recordOrError {
				return one(rawOrNil(c.Orders.Get(ctx, site, orderID, &ordermsg.GetOrderOptions{Includes: []ordermsg.OrderInclude{ordermsg.OrderIncludeItemsPortal, ordermsg.OrderIncludeNotes}, KeepRawJSON: true})))
			},
			func() []recordOrError {
				return one(rawOrNil(orders.Get(ctx, c, site, orderID, &ordermsg.ResourceOptions{Includes: []string{"items.portal", "notes"}, KeepRawJSON: true})))
			}},
		{"Orders.List",
			func() []recordOrError {
				return one(pageRaw(c.Orders.List(ctx, site, &ordermsg.ListOrdersOptions{Page: 2, Count: 4, DateStart: since, DateEnd: mustDate(t, "2030-01-01"),
					Direction: ordermsg.DirectionDesc, Sort: "id", Search: "a", Status: ordermsg.OrderStatusNew, Includes: []ordermsg.OrderInclude{ordermsg.OrderIncludeUser}, KeepRawJSON: true})))
			},
			func() []recordOrError {
				return one(pageRaw(orders.List(ctx, c, site, &ordermsg.ResourceOptions{Page: 2, Count: 4, DateStart: since, DateEnd: mustDate(t, "2030-01-01"),
					Direction: ordermsg.DirectionDesc, Sort: "id", Search: "a", Filter: "new", Includes: []string{"user"}, KeepRawJSON: true})))
			}},
		{"Orders.All",
			func() []recordOrError {
				return results(c.Orders.All(ctx, site, &ordermsg.ListOrdersOptions{Count: 5, Status: ordermsg.OrderStatusNew, KeepRawJSON: true}), (*ordermsg.Order).RawJSON)
			},
			func() []recordOrError {
				return results(orders.All(ctx, c, site, &ordermsg.ResourceOptions{Count: 5, Filter: "new", KeepRawJSON: true}), (*ordermsg.Order).RawJSON)
			}},
		{"Orders.Sync",
			func() []recordOrError {
				var cp ordermsg.Checkpoint
				return results(c.Orders.Sync(ctx, site, &cp, &ordermsg.ListOrdersOptions{Count: 5, KeepRawJSON: true}), (*ordermsg.Order).RawJSON)
			},
			func() []recordOrError {
				var cp ordermsg.Checkpoint
				return results(orders.Sync(ctx, c, site, &cp, &ordermsg.ResourceOptions{Count: 5, KeepRawJSON: true}), (*ordermsg.Order).RawJSON)
			}},
		{"Orders.GetRaw",
			func() []recordOrError { return one(rawOrNil(c.Orders.GetRaw(ctx, site, orderID, nil))) },
			func() []recordOrError { return one(rawOrNil(orders.Raw().Get(ctx, c, site, orderID, nil))) }},
		{"Orders.AllRaw",
			func() []recordOrError {
				return results(c.Orders.AllRaw(ctx, site, &ordermsg.ListOrdersOptions{Count: 6}, ordermsg.WithConcurrency(3)), (*ordermsg.RawRecord).RawJSON)
			},
			func() []recordOrError {
				return results(orders.Raw().All(ctx, c, site, &ordermsg.ResourceOptions{Count: 6}, ordermsg.WithConcurrency(3)), (*ordermsg.RawRecord).RawJSON)
			}},
		{"Orders.SyncRaw",
			func() []recordOrError {
				var cp ordermsg.Checkpoint
				return results(c.Orders.SyncRaw(ctx, site, &cp, &ordermsg.ListOrdersOptions{Count: 5}), (*ordermsg.RawRecord).RawJSON)
			},
			func() []recordOrError {
				var cp ordermsg.Checkpoint
				return results(orders.Raw().Sync(ctx, c, site, &cp, &ordermsg.ResourceOptions{Count: 5}), (*ordermsg.RawRecord).RawJSON)
			}},
		{"Messages.Get",
			func() []recordOrError {
				return one(rawOrNil(c.Messages.Get(ctx, site, messageID, &ordermsg.GetMessageOptions{Includes: []ordermsg.MessageInclude{ordermsg.MessageIncludeFile}, KeepRawJSON: true})))
			},
			func() []recordOrError {
				return one(rawOrNil(messages.Get(ctx, c, site, messageID, &ordermsg.ResourceOptions{Includes: []string{"file"}, KeepRawJSON: true})))
			}},
		{"Messages.All",
			func() []recordOrError {
				return results(c.Messages.All(ctx, site, &ordermsg.ListMessagesOptions{Count: 4, MessageType: ordermsg.MessageTypeOnlineOrder, KeepRawJSON: true}), (*ordermsg.Message).RawJSON)
			},
			func() []recordOrError {
				return results(messages.All(ctx, c, site, &ordermsg.ResourceOptions{Count: 4, Filter: "online_order", KeepRawJSON: true}), (*ordermsg.Message).RawJSON)
			}},
		{"Messages.SyncRaw",
			func() []recordOrError {
				var cp ordermsg.Checkpoint
				return results(c.Messages.SyncRaw(ctx, site, &cp, &ordermsg.ListMessagesOptions{Count: 4}), (*ordermsg.RawRecord).RawJSON)
			},
			func() []recordOrError {
				var cp ordermsg.Checkpoint
				return results(messages.Raw().Sync(ctx, c, site, &cp, &ordermsg.ResourceOptions{Count: 4}), (*ordermsg.RawRecord).RawJSON)
			}},
	}
	log.take()
	for _, p := range pairs {
		want := p.service()
		wantSent := log.take()
		got := p.resource()
		sameRequests(t, p.name, wantSent, log.take())
		if len(want) == 0 || !slices.Equal(want, got) {
			t.Errorf("%s: the service gave %d results, the resource %d, or other ones", p.name, len(want), len(got))
		}
		for _, r := range want {
			if r.err != "" {
				t.Errorf("%s: %s", p.name, r.err)
			}
		}
	}
}

func rawOrNil[T interface{ RawJSON() []byte }](v T, err error) ([]byte, error) {
	if err != nil {
		return nil, err
	}
	return v.RawJSON(), nil
}

func pageRaw[T any](p *ordermsg.Page[T], err error) ([]byte, error) {
	if err != nil {
		return nil, err
	}
	return p.RawJSON(), nil
}

// The walk in date_created order asks for what Sync's listing asks for:
// ascending by date_created from the date, page after page.
func TestResourceAllSinceListsAscendingByCreation(t *testing.T) {
	srv, c, log := resourceFake(t)
	ctx := context.Background()
	since := mustDate(t, "2021-03-04")
	var resp ordermsg.Response
	n := 0
	for _, err := range ordermsg.OrdersResource().Raw().AllSince(ctx, c, srv.WebsiteID, since, &ordermsg.ResourceOptions{Count: 7, Response: &resp}) {
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("the options' Response holds status %d, not the page's", resp.StatusCode)
		}
		n++
	}
	sent := log.take()
	if len(sent) < 2 {
		t.Fatalf("%d requests for %d orders at 7 a page: want one per page", len(sent), n)
	}
	for i, r := range sent {
		want := "count=7&date_start=2021-03-04&direction=asc&page=" + itoa(i+1) + "&sort=date_created"
		if r.path != "/websites/"+itoa(int(srv.WebsiteID))+"/orders" || r.query != want {
			t.Errorf("request %d: %s?%s, want the orders' list with %s", i, r.path, r.query, want)
		}
	}

	// A zero date lists every record, in the same order.
	for _, err := range ordermsg.MessagesResource().AllSince(ctx, c, srv.WebsiteID, ordermsg.Date{}, nil) {
		if err != nil {
			t.Fatal(err)
		}
	}
	if r := log.take()[0]; r.query != "direction=asc&page=1&sort=date_created" {
		t.Errorf("AllSince from a zero date sent %s", r.query)
	}
}

// Bad input is refused before any request is sent.
func TestResourceRefusesBeforeSending(t *testing.T) {
	srv, c, log := resourceFake(t)
	ctx, site := context.Background(), srv.WebsiteID
	orders := ordermsg.OrdersResource()
	firstErr := func(seq iter.Seq2[*ordermsg.Order, error]) error {
		for _, err := range seq {
			return err
		}
		return nil
	}
	firstErr2 := func(seq iter.Seq2[*ordermsg.RawRecord, error]) error {
		for _, err := range seq {
			return err
		}
		return nil
	}
	var messagesCP ordermsg.Checkpoint
	for _, err := range c.Messages.Sync(ctx, site, &messagesCP, nil) {
		if err != nil {
			t.Fatal(err)
		}
	}
	log.take()
	cases := []struct {
		name string
		err  error
	}{
		{"Get with a list field", second(orders.Get(ctx, c, site, 1, &ordermsg.ResourceOptions{Count: 5}))},
		{"Raw Get with a filter", second(orders.Raw().Get(ctx, c, site, 1, &ordermsg.ResourceOptions{Filter: "new"}))},
		{"Get with a nil client", second(orders.Get(ctx, nil, site, 1, nil))},
		{"List with a nil client", second(orders.List(ctx, nil, site, nil))},
		{"AllSince with a Sort", firstErr(orders.AllSince(ctx, c, site, ordermsg.Date{}, &ordermsg.ResourceOptions{Sort: "id"}))},
		{"AllSince with a DateEnd", firstErr(orders.AllSince(ctx, c, site, ordermsg.Date{}, &ordermsg.ResourceOptions{DateEnd: mustDate(t, "2024-01-01")}))},
		{"Get of a zero Resource", second(ordermsg.Resource[ordermsg.Order]{}.Get(ctx, c, site, 1, nil))},
		{"All of a zero raw Resource", firstErr2(ordermsg.Resource[ordermsg.Message]{}.Raw().All(ctx, c, site, nil))},
		{"Sync with a nil client", firstErr(orders.Sync(ctx, nil, site, new(ordermsg.Checkpoint), nil))},
		{"All with an include with a comma", firstErr(orders.All(ctx, c, site, &ordermsg.ResourceOptions{Includes: []string{"items,notes"}}))},
		{"Sync with a messages checkpoint", firstErr(orders.Sync(ctx, c, site, &messagesCP, nil))},
	}
	for _, tc := range cases {
		if tc.err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
	if sent := log.take(); len(sent) != 0 {
		t.Errorf("%d requests sent, want none: %v", len(sent), sent)
	}
	if err := second(orders.Get(ctx, nil, site, 1, nil)); !errors.Is(err, ordermsg.ErrInvalidArgument) {
		t.Errorf("a nil client gives %v, want ErrInvalidArgument", err)
	}
}

func TestResourceNames(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{ordermsg.OrdersResource().Name(), "orders"},
		{ordermsg.OrdersResource().Raw().Name(), "orders"},
		{ordermsg.MessagesResource().Name(), "messages"},
		{ordermsg.MessagesResource().Raw().Raw().Name(), "messages"},
	} {
		if tc.got != tc.want {
			t.Errorf("Name() = %q, want %q", tc.got, tc.want)
		}
	}
}

// The raw resource's List gives the typed List's page, each record as sent.
func TestResourceRawList(t *testing.T) {
	srv, c, _ := resourceFake(t)
	ctx := context.Background()
	typed, err := c.Messages.List(ctx, srv.WebsiteID, &ordermsg.ListMessagesOptions{Count: 5, Page: 2, KeepRawJSON: true})
	if err != nil {
		t.Fatal(err)
	}
	raw, err := ordermsg.MessagesResource().Raw().List(ctx, c, srv.WebsiteID, &ordermsg.ResourceOptions{Count: 5, Page: 2, KeepRawJSON: true})
	if err != nil {
		t.Fatal(err)
	}
	if raw.Meta.Pagination.Total != typed.Meta.Pagination.Total || raw.Meta.Pagination.CurrentPage != 2 || raw.Object != typed.Object || string(raw.RawJSON()) != string(typed.RawJSON()) {
		t.Fatalf("raw page %+v, typed page %+v", raw.Meta.Pagination, typed.Meta.Pagination)
	}
	if len(raw.Data) != len(typed.Data) || len(raw.Data) == 0 {
		t.Fatalf("raw page holds %d records, typed %d", len(raw.Data), len(typed.Data))
	}
	for i, r := range raw.Data {
		if r.ID != typed.Data[i].ID || string(r.RawJSON()) != string(typed.Data[i].RawJSON()) {
			t.Errorf("record %d: raw %d %s, typed %d %s", i, r.ID, r.RawJSON(), typed.Data[i].ID, typed.Data[i].RawJSON())
		}
	}
}

func mustDate(t *testing.T, s string) ordermsg.Date {
	t.Helper()
	d, err := ordermsg.ParseDate(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// second is the error of a call's two results.
func second[V any](_ V, err error) error { return err }

func itoa(n int) string { return strconv.Itoa(n) }
