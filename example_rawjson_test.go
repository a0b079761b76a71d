package ordermsg_test

import (
	"bytes"
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

// AllRaw walks the orders as All does, but checks each one without decoding
// it: for a program that stores or forwards records, such as an export to
// JSON Lines, at a fraction of the cost. Member reads a top-level member as
// sent.
func ExampleOrdersService_AllRaw() {
	srv, c := fakeService()
	defer srv.Close()

	var lines bytes.Buffer
	n := 0
	for o, err := range c.Orders.AllRaw(context.Background(), srv.WebsiteID, &ordermsg.ListOrdersOptions{Count: 10}) {
		if err != nil {
			panic(err)
		}
		lines.Write(o.RawJSON()) // exactly as sent
		lines.WriteByte('\n')
		if n++; n == 1 {
			var status string
			if err := json.Unmarshal(o.Member("status"), &status); err != nil {
				panic(err)
			}
			fmt.Println(o.Object, o.ID > 0, status != "", !o.DateCreated.IsZero())
		}
	}
	fmt.Println(n, "orders,", bytes.Count(lines.Bytes(), []byte("\n")), "lines")
	// Output:
	// order true true true
	// 40 orders, 40 lines
}
