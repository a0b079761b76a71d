package ordermsgtest_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

func TestDayBounds(t *testing.T) {
	ds := ordermsgtest.Generate(ordermsgtest.Config{Seed: 4, Websites: 1, OrdersPerWebsite: 90})
	orders := ds.Websites[0].Orders
	start := ordermsg.DateOf(orders[20].DateCreated.UTC())
	end := ordermsg.DateOf(orders[20].DateCreated.UTC().AddDate(0, 0, 3))
	for _, b := range []ordermsgtest.DayBounds{
		{}, {Exclusive: true}, {Offset: 14 * time.Hour}, {Offset: -12 * time.Hour}, {Exclusive: true, Offset: 5*time.Hour + 30*time.Minute},
	} {
		t.Run(fmt.Sprintf("%+v", b), func(t *testing.T) {
			srv := ordermsgtest.NewServer(ds, ordermsgtest.WithDayBounds(b))
			defer srv.Close()
			c := sdk(t, srv)
			// The window, worked out independently: day D starts at
			// midnight in the zone of the offset.
			zone := time.FixedZone("", int(b.Offset/time.Second))
			from := time.Date(start.Year, start.Month, start.Day, 0, 0, 0, 0, zone)
			to := time.Date(end.Year, end.Month, end.Day+1, 0, 0, 0, 0, zone)
			if b.Exclusive {
				from, to = from.AddDate(0, 0, 1), to.AddDate(0, 0, -1)
			}
			var want []int64
			for _, o := range orders {
				if !o.DateCreated.Before(from) && o.DateCreated.Before(to) {
					want = append(want, o.ID)
				}
			}
			var got []int64
			for o, err := range c.Orders.All(context.Background(), srv.WebsiteID, &ordermsg.ListOrdersOptions{
				DateStart: start, DateEnd: end, Direction: ordermsg.DirectionAsc, Count: 100,
			}) {
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, o.ID)
			}
			if len(want) == 0 || fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("listed %v\nwant   %v", got, want)
			}
		})
	}
}
