package ordermsgtest_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/jarcoal/httpmock"
	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// A loopback server: point any client at srv.URL with srv.APIKey.
func ExampleNewServer() {
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 1, Websites: 1, OrdersPerWebsite: 30}))
	defer srv.Close()

	c, _ := srv.Client()
	page, err := c.Orders.List(context.Background(), srv.WebsiteID, &ordermsg.ListOrdersOptions{Count: 10})
	if err != nil {
		panic(err)
	}
	fmt.Println(len(page.Data), "of", page.Meta.Pagination.Total, "orders on page 1 of", page.Meta.Pagination.TotalPages)
	// Output: 10 of 30 orders on page 1 of 3
}

// The fake as an http.Handler, mounted under a path prefix of your own server.
func ExampleNewHandler() {
	ds := ordermsgtest.Generate(ordermsgtest.Config{Seed: 1, Websites: 1, OrdersPerWebsite: 5})
	mux := http.NewServeMux()
	mux.Handle("/api/", http.StripPrefix("/api", ordermsgtest.NewHandler(ds)))
	srv := httptest.NewServer(mux)
	defer srv.Close()

	w := ds.Websites[0]
	c, _ := ordermsg.NewClient(srv.URL+"/api", w.APIKey)
	o, err := c.Orders.Get(context.Background(), w.ID, w.Orders[0].ID, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(o.ID == w.Orders[0].ID, o.Status)
	// Output: true new
}

// The fake behind an httpmock transport: no port, no network.
func ExampleHandler_Register() {
	ds := ordermsgtest.Generate(ordermsgtest.Config{Seed: 1, Websites: 1, OrdersPerWebsite: 12, MessagesPerWebsite: 20})
	mt := httpmock.NewMockTransport()
	ordermsgtest.NewHandler(ds).Register(mt, "https://api.example.com")

	w := ds.Websites[0]
	c, _ := ordermsg.NewClient("https://api.example.com", w.APIKey, ordermsg.WithHTTPClient(&http.Client{Transport: mt}))
	n := 0
	for _, err := range c.Messages.All(context.Background(), w.ID, &ordermsg.ListMessagesOptions{Count: 6}) {
		if err != nil {
			panic(err)
		}
		n++
	}
	fmt.Println(n, "messages in", mt.GetTotalCallCount(), "requests")
	// Output: 20 messages in 4 requests
}

// Handler.Client is the same in one line: a client of the first website's
// account, whose requests the handler answers through httpmock.
func ExampleHandler_Client() {
	h := ordermsgtest.NewHandler(ordermsgtest.Generate(ordermsgtest.Config{Seed: 1, Websites: 1, OrdersPerWebsite: 12, MessagesPerWebsite: 20}),
		ordermsgtest.WithVersionHeader("Acme-Api-Version", "1")) // the maker's header name, as your code sends it
	c, err := h.Client()
	if err != nil {
		panic(err)
	}
	page, err := c.Orders.List(context.Background(), h.Dataset().Websites[0].ID, &ordermsg.ListOrdersOptions{Count: 5})
	if err != nil {
		panic(err)
	}
	fmt.Println(len(page.Data), "of", page.Meta.Pagination.Total, "orders in", h.Stats().Requests, "request")
	// Output: 5 of 12 orders in 1 request
}
