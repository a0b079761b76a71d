package ordermsg_test

import (
	"context"
	"fmt"

	"github.com/ordermsg/ordermsg-go"
)

// Code that handles orders and messages alike holds them as Resources: here
// each resource's records, as sent, oldest first.
func ExampleResource() {
	srv, c := fakeService()
	defer srv.Close()
	ctx := context.Background()

	for _, r := range []ordermsg.Resource[ordermsg.RawRecord]{ordermsg.OrdersResource().Raw(), ordermsg.MessagesResource().Raw()} {
		n := 0
		for _, err := range r.AllSince(ctx, c, srv.WebsiteID, ordermsg.Date{}, &ordermsg.ResourceOptions{Count: 20}) {
			if err != nil {
				fmt.Println(err)
				return
			}
			n++
		}
		fmt.Println(r.Name(), n)
	}
	// Output:
	// orders 40
	// messages 50
}

// A Resource's calls take the options that both resources share; Filter is
// an order's status or a message's type.
func ExampleResource_Get() {
	srv, c := fakeService()
	defer srv.Close()
	ctx := context.Background()

	page, err := ordermsg.MessagesResource().List(ctx, c, srv.WebsiteID, &ordermsg.ResourceOptions{Count: 1, Filter: "online_order"})
	if err != nil {
		fmt.Println(err)
		return
	}
	m, err := ordermsg.MessagesResource().Get(ctx, c, srv.WebsiteID, page.Data[0].ID, &ordermsg.ResourceOptions{Includes: []string{"file"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.MessageType)
	// Output: online_order
}
