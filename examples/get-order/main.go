// Command get-order fetches one order with every include and prints the main
// facts of it. The order id is the first argument; without one it takes the
// newest order of the website.
//
//	go run ./examples/get-order [ORDER_ID]
//
// With ORDERMSG_BASE_URL, ORDERMSG_API_KEY and ORDERMSG_WEBSITE_ID set it
// reads that service, with the version header ORDERMSG_VERSION_HEADER holds
// ("Acme-Api-Version: 1"); without them it starts the built-in fake.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strconv"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/examples/internal/exampleenv"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context) error {
	c, websiteID, closeFn, err := exampleenv.Connect()
	if err != nil {
		return err
	}
	defer closeFn()
	var id int64
	if len(os.Args) > 1 {
		if id, err = strconv.ParseInt(os.Args[1], 10, 64); err != nil {
			return fmt.Errorf("order id %q is not an integer", os.Args[1])
		}
	} else {
		page, err := c.Orders.List(ctx, websiteID, &ordermsg.ListOrdersOptions{Count: 1})
		if err != nil {
			return err
		}
		if len(page.Data) == 0 {
			return errors.New("the website has no orders")
		}
		id = page.Data[0].ID
	}

	o, err := c.Orders.Get(ctx, websiteID, id, &ordermsg.GetOrderOptions{Includes: ordermsg.AllOrderIncludes()})
	if errors.Is(err, ordermsg.ErrNotFound) {
		return fmt.Errorf("order %d does not exist on website %d", id, websiteID)
	}
	if err != nil {
		return err
	}
	fmt.Printf("order %d (%s, %s), created %s\n", o.ID, o.OrderType, o.Status, o.DateCreated.Format("2006-01-02 15:04"))
	fmt.Printf("total %d %s (subtotal %d, discount %d, shipping %d, tax %d), paid %d\n",
		o.Pricing.Total, o.Currency, o.Pricing.Subtotal, o.Pricing.SubtotalDiscount, o.Pricing.Shipping, o.Pricing.Tax, o.AmountPaid)
	if o.BillingAddress != nil {
		if name := o.BillingAddress.Fields.Get("f1"); name != nil {
			fmt.Printf("billed to %s\n", name.FormattedValue)
		}
	}
	switch {
	case o.User.IsExpanded():
		fmt.Printf("user %s\n", o.User.Expanded.Username)
	case o.User.IsNull():
		fmt.Println("no user (guest order)")
	}
	if o.PromoCode.IsExpanded() {
		fmt.Printf("promo code %s\n", o.PromoCode.Expanded.PromoCode.PromoCode)
	}
	for _, it := range o.Items {
		kind := "item"
		if it.IsVersadoc() {
			kind = "versadoc item"
		}
		fmt.Printf("  %s %s × %d = %d\n", kind, it.Title, it.Quantity, it.Pricing.Subtotal)
		for _, f := range it.PrintReadyFiles {
			fmt.Printf("    print-ready %s: %s\n", f.Tag, f.Status)
		}
	}
	for _, s := range o.Shipments {
		fmt.Printf("  shipped %s by %s, tracking %s\n", s.DateShipped.Format("2006-01-02"), s.ShippingCarrier.Title, s.TrackingNumber)
	}
	if m := o.Message.Expanded; m != nil {
		fmt.Printf("message %d (%s)\n", m.ID, m.MessageTrackingNumber)
	}
	return nil
}
