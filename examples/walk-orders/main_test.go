package main

import (
	"context"
	"testing"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

func TestReportAddsUpTheWholeWebsite(t *testing.T) {
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 5, Websites: 1, OrdersPerWebsite: 137}))
	defer srv.Close()
	c, _ := srv.Client()
	r := newReport()
	for o, err := range c.Orders.All(context.Background(), srv.WebsiteID, &ordermsg.ListOrdersOptions{Count: 20}, ordermsg.WithConcurrency(3)) {
		if err != nil {
			t.Fatal(err)
		}
		r.add(o)
	}
	w := srv.Handler.Dataset().Website(srv.WebsiteID)
	want := map[string]int64{}
	for _, o := range w.Orders {
		want[o.Currency] += o.Pricing.Total
	}
	if r.count != 137 || r.byStatus[ordermsg.OrderStatusNew] != 137 || len(r.totals) != len(want) {
		t.Fatalf("report: %+v", r)
	}
	for cur, total := range want {
		if r.totals[cur] != total {
			t.Errorf("%s: %d, want %d", cur, r.totals[cur], total)
		}
	}
	if !r.first.Equal(w.Orders[0].DateCreated.Time) || !r.last.Equal(w.Orders[len(w.Orders)-1].DateCreated.Time) {
		t.Errorf("dates: %v – %v", r.first, r.last)
	}
}
