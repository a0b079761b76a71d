package ordermsg_test

import (
	"context"
	"errors"
	"fmt"
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
