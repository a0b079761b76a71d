package ordermsg_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/ordermsg/ordermsg-go"
)

// KeepRawJSON keeps each record exactly as the server sent it, for a program
// that stores or forwards what it read: RawJSON gives it back member for
// member, including members this SDK does not model. It costs nothing when
// it is not asked for.
func ExampleOrder_RawJSON() {
	srv, c := fakeService()
	defer srv.Close()
	ctx := context.Background()

	page, err := c.Orders.List(ctx, srv.WebsiteID, &ordermsg.ListOrdersOptions{Count: 2, KeepRawJSON: true})
	if err != nil {
		panic(err)
	}
	for _, o := range page.Data {
		var asSent map[string]any
		if err := json.Unmarshal(o.RawJSON(), &asSent); err != nil {
			panic(err)
		}
		fmt.Println(asSent["object"], asSent["id"] == float64(o.ID))
	}

	o, err := c.Orders.Get(ctx, srv.WebsiteID, page.Data[0].ID, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(o.RawJSON() == nil) // not asked for
	// Output:
	// order true
	// order true
	// true
}
