package ordermsg_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// fakeService starts the in-process fake with a small dataset, so that the
// examples run anywhere; against the real service, use its URL and your key.
func fakeService() (*ordermsgtest.Server, *ordermsg.Client) {
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{
		Seed: 1, Websites: 1, OrdersPerWebsite: 40, MessagesPerWebsite: 50,
	}))
	c, err := ordermsg.NewClient(srv.URL, srv.APIKey)
	if err != nil {
		panic(err)
	}
	return srv, c
}

func ExampleNewClient() {
	c, err := ordermsg.NewClient("https://api.example.com", "my-api-key",
		ordermsg.WithRetry(ordermsg.RetryPolicy{MaxRetries: 4, MinWait: 200 * time.Millisecond, MaxWait: 10 * time.Second}),
		ordermsg.WithUserAgent("my-app/1.2"),
	)
	if err != nil {
		panic(err)
	}
	fmt.Println(c) // never shows the key

	_, err = ordermsg.NewClient("http://api.example.com", "my-api-key")
	fmt.Println(err != nil) // plain http to a remote host is refused
	// Output:
	// ordermsg.Client{BaseURL: "https://api.example.com", APIKey: [redacted]}
	// true
}

func ExampleOrdersService_Get() {
	srv, c := fakeService()
	defer srv.Close()
	ctx := context.Background()
	orderID := srv.Handler.Dataset().Websites[0].Orders[0].ID

	o, err := c.Orders.Get(ctx, srv.WebsiteID, orderID, &ordermsg.GetOrderOptions{
		Includes: []ordermsg.OrderInclude{ordermsg.OrderIncludeMessage, ordermsg.OrderIncludeItemsAttributes},
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(o.Status, o.Message.IsExpanded(), o.Message.Expanded.MessageType, len(o.Items) > 0)

	_, err = c.Orders.Get(ctx, srv.WebsiteID, 1, nil)
	fmt.Println(errors.Is(err, ordermsg.ErrNotFound))
	// Output:
	// new true online_order true
	// true
}

func ExampleOrdersService_List() {
	srv, c := fakeService()
	defer srv.Close()

	page, err := c.Orders.List(context.Background(), srv.WebsiteID, &ordermsg.ListOrdersOptions{Page: 2, Count: 15})
	if err != nil {
		panic(err)
	}
	pg := page.Meta.Pagination
	fmt.Printf("page %d of %d: %d orders; next page %d\n", pg.CurrentPage, pg.TotalPages, len(page.Data), page.NextPage())
	// Output: page 2 of 3: 15 orders; next page 3
}

func ExampleOrdersService_All() {
	srv, c := fakeService()
	defer srv.Close()

	totals := map[string]int64{}
	n := 0
	opts := &ordermsg.ListOrdersOptions{Count: 10, Direction: ordermsg.DirectionAsc}
	for o, err := range c.Orders.All(context.Background(), srv.WebsiteID, opts, ordermsg.WithConcurrency(4)) {
		if err != nil {
			panic(err)
		}
		n++
		totals[o.Currency] += o.Pricing.Total
	}
	fmt.Println(n, "orders,", len(totals) > 0)
	// Output: 40 orders, true
}

func ExampleMessagesService_Get() {
	srv, c := fakeService()
	defer srv.Close()
	messageID := srv.Handler.Dataset().Websites[0].Messages[0].ID

	m, err := c.Messages.Get(context.Background(), srv.WebsiteID, messageID, &ordermsg.GetMessageOptions{
		Includes: []ordermsg.MessageInclude{ordermsg.MessageIncludeFormSubmission, ordermsg.MessageIncludeOrder},
	})
	if err != nil {
		panic(err)
	}
	email := m.FormSubmission.Fields.Get("f4")
	fmt.Println(m.MessageType, email.FieldType, m.Order.Expanded.ID == m.Order.ID)
	// Output: online_order email true
}

func ExampleMessagesService_List() {
	srv, c := fakeService()
	defer srv.Close()

	page, err := c.Messages.List(context.Background(), srv.WebsiteID, &ordermsg.ListMessagesOptions{
		MessageType: ordermsg.MessageTypeOnlineOrder,
		Includes:    []ordermsg.MessageInclude{ordermsg.MessageIncludeUser},
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(page.Meta.Pagination.Total, "online_order messages")
	// Output: 40 online_order messages
}

func ExampleMessagesService_All() {
	srv, c := fakeService()
	defer srv.Close()

	byType := map[ordermsg.MessageType]int{}
	for m, err := range c.Messages.All(context.Background(), srv.WebsiteID, nil) {
		if err != nil {
			panic(err)
		}
		byType[m.MessageType]++
	}
	fmt.Println(byType[ordermsg.MessageTypeOnlineOrder], byType[ordermsg.MessageTypeEventManagement]+byType[ordermsg.MessageTypeGeneralContact])
	// Output: 40 10
}

func ExampleClient_Get() {
	srv, c := fakeService()
	defer srv.Close()

	var raw map[string]any
	path := fmt.Sprintf("/websites/%d/orders", srv.WebsiteID)
	if err := c.Get(context.Background(), path, map[string][]string{"count": {"1"}}, &raw); err != nil {
		panic(err)
	}
	fmt.Println(raw["object"])
	// Output: list
}

// Read the response behind a call: a request id, a rate limit, anything
// the API's documentation does not describe. Here the service in front of
// the fake sets X-Request-Id.
func ExampleResponse() {
	ds := ordermsgtest.Generate(ordermsgtest.Config{Seed: 1, Websites: 1, OrdersPerWebsite: 40, MessagesPerWebsite: 50})
	fake := ordermsgtest.NewHandler(ds)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Request-Id", "req-42")
		fake.ServeHTTP(w, r)
	}))
	defer srv.Close()
	c, err := ordermsg.NewClient(srv.URL, ds.Websites[0].APIKey)
	if err != nil {
		panic(err)
	}

	var resp ordermsg.Response
	page, err := c.Orders.List(context.Background(), ds.Websites[0].ID, &ordermsg.ListOrdersOptions{Count: 5, Response: &resp})
	if err != nil {
		panic(err)
	}
	fmt.Println(resp.StatusCode, resp.Header.Get("X-Request-Id"), len(page.Data))
	// Output: 200 req-42 5
}

// Go past a record that cannot be decoded, here one with a lone UTF-16
// surrogate in a string, instead of failing its whole page: it comes as a
// *RecordDecodeError that names it and keeps its bytes, and the walk goes
// on.
func ExampleWithSkipUndecodable() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"object":"list","data":[`+
			`{"object":"order","id":1,"date_created":"2024-03-10T12:00:00+00:00"},`+
			`{"object":"order","id":2,"date_created":"2024-03-10T12:01:00+00:00","status":"\ud800"},`+
			`{"object":"order","id":3,"date_created":"2024-03-10T12:02:00+00:00"}],`+
			`"meta":{"pagination":{"total":3,"count":3,"per_page":25,"current_page":1,"total_pages":1}}}`)
	}))
	defer srv.Close()
	c, err := ordermsg.NewClient(srv.URL, "my-api-key")
	if err != nil {
		panic(err)
	}

	for o, err := range c.Orders.All(context.Background(), 7, nil, ordermsg.WithSkipUndecodable()) {
		var bad *ordermsg.RecordDecodeError
		switch {
		case errors.As(err, &bad):
			fmt.Printf("order %d cannot be decoded; its %d bytes are kept\n", bad.ID, len(bad.Raw))
		case err != nil:
			panic(err)
		default:
			fmt.Println("order", o.ID)
		}
	}
	// Output:
	// order 1
	// order 2 cannot be decoded; its 86 bytes are kept
	// order 3
}
