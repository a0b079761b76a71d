package ordermsgtest_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// Fixtures written by hand, with httpmock alone: the URL layout, the
// smallest list a walk accepts, and an error. The README's "Testing your
// code" shows the same code.
func Example_handWrittenFixtures() {
	mt := httpmock.NewMockTransport()
	// The URL layout, under the base URL: /websites/{website_id}/orders,
	// /websites/{website_id}/orders/{order_id}, and the same for messages.
	// A list is this envelope: without meta.pagination a walk fails with
	// ordermsg.ErrNoPagination. httpmock matches the URL whatever the query.
	mt.RegisterResponder("GET", "https://api.example.com/websites/1001/orders",
		httpmock.NewStringResponder(200, `{"object": "list",
			"data": [{"object": "order", "id": 7, "currency": "usd", "status": "new"}],
			"meta": {"pagination": {"total": 1, "count": 1, "per_page": 25, "current_page": 1, "total_pages": 1}}}`))
	// An error: any status; the body's "message" is the APIError's Message.
	mt.RegisterResponder("GET", "https://api.example.com/websites/1001/orders/8",
		httpmock.NewStringResponder(404, `{"message": "order 8 not found"}`))

	// No retries in tests: an error fixture, and a URL without a responder,
	// come back at once.
	c, err := ordermsg.NewClient("https://api.example.com", "test-key",
		ordermsg.WithHTTPClient(&http.Client{Transport: mt}),
		ordermsg.WithRetry(ordermsg.RetryPolicy{}))
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	for o, err := range c.Orders.All(ctx, 1001, nil) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(o.ID, o.Currency, o.Status)
	}
	_, err = c.Orders.Get(ctx, 1001, 8, nil)
	fmt.Println(errors.Is(err, ordermsg.ErrNotFound), err)
	_, err = c.Messages.List(ctx, 1001, nil) // no responder: a network error
	fmt.Println(err)
	// Output:
	// 7 usd new
	// true ordermsg: GET https://api.example.com/websites/1001/orders/8: 404 Not Found: order 8 not found
	// ordermsg: GET https://api.example.com/websites/1001/messages: no responder found
}

// Fixtures made from the fake's data: records as the API shows them (the
// spec's conventions applied), served a page at a time by ListResponder,
// which reads page and count and fills in the pagination.
func ExampleListResponder() {
	ds := ordermsgtest.Generate(ordermsgtest.Config{Seed: 1, Websites: 1, OrdersPerWebsite: 45})
	w := ds.Websites[0]
	orders := w.ListedOrders(ordermsg.OrderIncludeUser) // newest first, with include user
	first := w.RetrievedOrder(orders[0].ID, ordermsg.OrderIncludeMessage)

	mt := httpmock.NewMockTransport()
	base := fmt.Sprintf("https://api.example.com/websites/%d", w.ID)
	mt.RegisterResponder("GET", base+"/orders", ordermsgtest.ListResponder(orders))
	mt.RegisterResponder("GET", fmt.Sprintf("%s/orders/%d", base, first.ID), ordermsgtest.RecordResponder(first))

	c, err := ordermsg.NewClient("https://api.example.com", "test-key",
		ordermsg.WithHTTPClient(&http.Client{Transport: mt}),
		ordermsg.WithRetry(ordermsg.RetryPolicy{})) // no retries in tests
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	n := 0
	for _, err := range c.Orders.All(ctx, w.ID, &ordermsg.ListOrdersOptions{Count: 20}) {
		if err != nil {
			log.Fatal(err)
		}
		n++
	}
	fmt.Println(n, "orders in", mt.GetTotalCallCount(), "pages")
	o, err := c.Orders.Get(ctx, w.ID, first.ID, &ordermsg.GetOrderOptions{Includes: []ordermsg.OrderInclude{ordermsg.OrderIncludeMessage}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(o.Message.IsExpanded(), o.Message.Expanded.MessageType)
	// Output:
	// 45 orders in 3 pages
	// true online_order
}

// An error fixture answers at once when the client does not retry:
// ordermsg.WithRetry(ordermsg.RetryPolicy{}) turns retrying off. By default
// a client retries a 429, a 5xx (but 501) and a network error (httpmock's
// answer to a URL without a responder) three times, with waits that add up
// to 1 to 1.75 seconds.
func ExampleErrorResponder() {
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder("GET", "https://api.example.com/websites/1001/messages",
		ordermsgtest.ErrorResponder(503, "down for maintenance"))

	c, err := ordermsg.NewClient("https://api.example.com", "test-key",
		ordermsg.WithHTTPClient(&http.Client{Transport: mt}),
		ordermsg.WithRetry(ordermsg.RetryPolicy{})) // no retries: the error comes back at once
	if err != nil {
		log.Fatal(err)
	}
	_, err = c.Messages.List(context.Background(), 1001, nil)
	fmt.Println(errors.Is(err, ordermsg.ErrServer), mt.GetTotalCallCount(), "request")
	fmt.Println(err)
	// Output:
	// true 1 request
	// ordermsg: GET https://api.example.com/websites/1001/messages: 503 Service Unavailable: down for maintenance
}

// A 429 with Retry-After: without retries, the call returns the
// *ordermsg.APIError with the wait the server asked for.
func ExampleRateLimitResponder() {
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder("GET", "https://api.example.com/websites/1001/orders/7",
		ordermsgtest.RateLimitResponder(30*time.Second))

	c, err := ordermsg.NewClient("https://api.example.com", "test-key",
		ordermsg.WithHTTPClient(&http.Client{Transport: mt}), ordermsg.WithRetry(ordermsg.RetryPolicy{}))
	if err != nil {
		log.Fatal(err)
	}
	_, err = c.Orders.Get(context.Background(), 1001, 7, nil)
	var apiErr *ordermsg.APIError
	if errors.As(err, &apiErr) {
		fmt.Println(apiErr.StatusCode, apiErr.RetryAfter, errors.Is(err, ordermsg.ErrRateLimited))
	}
	// Output: 429 30s true
}

// Your own values as fixtures: a record and a page of them, the page's
// pagination filled in. A value made by hand sets its Object.
func ExampleRecordResponder() {
	order := &ordermsg.Order{Object: ordermsg.ObjectOrder, ID: 7, Currency: "eur", Status: ordermsg.OrderStatusNew,
		Pricing: ordermsg.OrderPricing{Object: "order_pricing", Subtotal: 1000, Tax: 200, Total: 1200}}
	messages := []*ordermsg.Message{
		{Object: ordermsg.ObjectMessage, ID: 21, MessageType: ordermsg.MessageTypeGeneralContact},
		{Object: ordermsg.ObjectMessage, ID: 20, MessageType: ordermsg.MessageTypeOnlineOrder, Order: ordermsg.NewRef[ordermsg.Order](7)},
	}
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder("GET", "https://api.example.com/websites/1001/orders/7", ordermsgtest.RecordResponder(order))
	mt.RegisterResponder("GET", "https://api.example.com/websites/1001/messages", ordermsgtest.PageResponder(messages))

	c, err := ordermsg.NewClient("https://api.example.com", "test-key",
		ordermsg.WithHTTPClient(&http.Client{Transport: mt}), ordermsg.WithRetry(ordermsg.RetryPolicy{}))
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	o, err := c.Orders.Get(ctx, 1001, 7, nil)
	if err != nil {
		log.Fatal(err)
	}
	page, err := c.Messages.List(ctx, 1001, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(o.ID, o.Pricing.Total, o.Currency)
	fmt.Println(len(page.Data), page.Data[1].Order.ID, page.Meta.Pagination.TotalPages, page.HasNextPage())
	// Output:
	// 7 1200 eur
	// 2 7 1 false
}
