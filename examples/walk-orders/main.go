// Command walk-orders walks every order of a website and prints a short
// report: how many there are, their totals per currency, how many there are
// per status and per type, and the first and last creation dates.
//
//	go run ./examples/walk-orders
//
// With ORDERMSG_BASE_URL, ORDERMSG_API_KEY and ORDERMSG_WEBSITE_ID set it
// reads that service, with the version header ORDERMSG_VERSION_HEADER holds
// ("Acme-Api-Version: 1"); without them it starts the built-in fake.
package main

import (
	"context"
	"fmt"
	"maps"
	"os"
	"os/signal"
	"slices"
	"time"

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

// report is what the walk adds up.
type report struct {
	count       int
	totals      map[string]int64 // pricing.total by currency
	byStatus    map[ordermsg.OrderStatus]int
	byType      map[ordermsg.OrderType]int
	first, last time.Time
}

func newReport() *report {
	return &report{totals: map[string]int64{}, byStatus: map[ordermsg.OrderStatus]int{}, byType: map[ordermsg.OrderType]int{}}
}

func (r *report) add(o *ordermsg.Order) {
	r.count++
	r.totals[o.Currency] += o.Pricing.Total
	r.byStatus[o.Status]++
	r.byType[o.OrderType]++
	if t := o.DateCreated.Time; r.first.IsZero() || t.Before(r.first) {
		r.first = t
	}
	if t := o.DateCreated.Time; t.After(r.last) {
		r.last = t
	}
}

func run(ctx context.Context) error {
	c, websiteID, closeFn, err := exampleenv.Connect()
	if err != nil {
		return err
	}
	defer closeFn()
	r := newReport()
	opts := &ordermsg.ListOrdersOptions{Count: 100, Direction: ordermsg.DirectionAsc}
	for o, err := range c.Orders.All(ctx, websiteID, opts, ordermsg.WithConcurrency(4)) {
		if err != nil {
			return fmt.Errorf("after %d orders: %w", r.count, err)
		}
		r.add(o)
	}
	r.print()
	return nil
}

func (r *report) print() {
	fmt.Printf("orders: %d\n", r.count)
	if r.count == 0 {
		return
	}
	fmt.Printf("first:  %s\nlast:   %s\n", r.first.Format(time.RFC3339), r.last.Format(time.RFC3339))
	fmt.Println("totals by currency (amounts as the API sends them; it does not say their unit):")
	for _, cur := range slices.Sorted(maps.Keys(r.totals)) {
		fmt.Printf("  %-4s %d\n", cur, r.totals[cur])
	}
	fmt.Println("orders by status:")
	for _, s := range slices.Sorted(maps.Keys(r.byStatus)) {
		fmt.Printf("  %-10s %d\n", s, r.byStatus[s])
	}
	fmt.Println("orders by type:")
	for _, t := range slices.Sorted(maps.Keys(r.byType)) {
		fmt.Printf("  %-10s %d\n", t, r.byType[t])
	}
}
