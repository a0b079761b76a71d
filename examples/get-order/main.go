// Command get-order fetches one order with every include and prints the main
// facts of it. The order id is the first argument; without one it takes the
// newest order of the website.
//
//	go run ./examples/get-order [ORDER_ID]
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// Environment variables that name a real service. With none of them set, the
// program runs against the built-in fake of package ordermsgtest.
const (
	envBaseURL   = "ORDERMSG_BASE_URL"
	envAPIKey    = "ORDERMSG_API_KEY"
	envWebsiteID = "ORDERMSG_WEBSITE_ID"
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

// connect returns a client and the website to read: the service the
// environment names, or the fake service when none of the variables is set
// (it says so on stderr). close releases the client or the fake.
func connect(getenv func(string) string) (c *ordermsg.Client, websiteID int64, close func(), err error) {
	vars := []struct{ name, value string }{
		{envBaseURL, getenv(envBaseURL)}, {envAPIKey, getenv(envAPIKey)}, {envWebsiteID, getenv(envWebsiteID)},
	}
	var missing []string // in the order of vars, so the message is stable
	for _, v := range vars {
		if v.value == "" {
			missing = append(missing, v.name)
		}
	}
	if len(missing) == len(vars) {
		srv := ordermsgtest.NewServer(nil)
		if c, err = srv.Client(); err != nil {
			srv.Close()
			return nil, 0, nil, err
		}
		fmt.Fprintf(os.Stderr, "no %s, %s or %s set: using the built-in fake service at %s\n", envBaseURL, envAPIKey, envWebsiteID, srv.URL)
		return c, srv.WebsiteID, srv.Close, nil
	}
	if len(missing) > 0 {
		return nil, 0, nil, fmt.Errorf("set %s too, or none of the three to use the fake service", strings.Join(missing, " and "))
	}
	if websiteID, err = strconv.ParseInt(vars[2].value, 10, 64); err != nil || websiteID <= 0 {
		return nil, 0, nil, fmt.Errorf("%s=%q: want a positive integer", envWebsiteID, vars[2].value)
	}
	if c, err = ordermsg.NewClient(vars[0].value, vars[1].value); err != nil {
		return nil, 0, nil, err
	}
	return c, websiteID, c.CloseIdleConnections, nil
}

func run(ctx context.Context) error {
	c, websiteID, closeFn, err := connect(os.Getenv)
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
