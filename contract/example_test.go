package contract_test

import (
	"context"
	"fmt"
	"net/http"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/contract"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// Check every exchange of an SDK client with the fake against openapi.yaml.
func ExampleChecker_Transport() {
	ctx := context.Background()
	doc := ordermsgtest.OpenAPIDocument()
	srv := ordermsgtest.NewServer(nil)
	defer srv.Close()
	checker, err := contract.Load(ctx, doc, srv.URL)
	if err != nil {
		panic(err)
	}
	report := &contract.Report{}
	c, err := srv.Client(ordermsg.WithHTTPClient(&http.Client{Transport: checker.Transport(http.DefaultTransport, report)}))
	if err != nil {
		panic(err)
	}
	page, err := c.Orders.List(ctx, srv.WebsiteID, &ordermsg.ListOrdersOptions{
		Count: 3, Includes: []ordermsg.OrderInclude{ordermsg.OrderIncludeUser, ordermsg.OrderIncludeMessage},
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(len(page.Data), "orders,", len(report.Violations()), "violations:", report.Operations())
	// Output: 3 orders, 0 violations: map[listOrders 200:1]
}
