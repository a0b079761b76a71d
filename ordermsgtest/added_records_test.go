package ordermsgtest_test

import (
	"context"
	"errors"
	"testing"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
	"go.uber.org/goleak"
)

func TestAddedRecordsAnswerGet(t *testing.T) {
	running := goleak.IgnoreCurrent()                   // the package's shared server
	t.Cleanup(func() { goleak.VerifyNone(t, running) }) // after the clients' own cleanups
	// The added records are complete ones (copies of another dataset's,
	// renumbered), so that what the fake serves still matches the spec
	// (CI checks every answer of the fake against openapi.yaml).
	donor := ordermsgtest.Generate(ordermsgtest.Config{Seed: 4, Websites: 1, OrdersPerWebsite: 1}).Websites[0]
	order := func() *ordermsg.Order { o := *donor.Orders[0]; o.ID = 777; return &o }
	message := func() *ordermsg.Message { m := *donor.Messages[0]; m.ID = 888; return &m }

	generated := ordermsgtest.Generate(ordermsgtest.Config{Seed: 3, Websites: 1, OrdersPerWebsite: 2})
	w := generated.Websites[0]
	w.Orders = append(w.Orders, order())
	w.Messages = append(w.Messages, message())

	handBuilt := &ordermsgtest.Dataset{Websites: []*ordermsgtest.Website{{
		ID: 5, APIKey: "omk_hand_built",
		Orders:   []*ordermsg.Order{order()},
		Messages: []*ordermsg.Message{message()},
	}}}

	for name, ds := range map[string]*ordermsgtest.Dataset{"generated, then added to": generated, "built by hand": handBuilt} {
		t.Run(name, func(t *testing.T) {
			srv := ordermsgtest.NewServer(ds)
			defer srv.Close()
			c := sdk(t, srv)
			ctx := context.Background()
			if o, err := c.Orders.Get(ctx, srv.WebsiteID, 777, nil); err != nil || o.ID != 777 {
				t.Errorf("order 777: %v, %v", o, err)
			}
			if m, err := c.Messages.Get(ctx, srv.WebsiteID, 888, nil); err != nil || m.ID != 888 {
				t.Errorf("message 888: %v, %v", m, err)
			}
			if _, err := c.Orders.Get(ctx, srv.WebsiteID, 999, nil); !errors.Is(err, ordermsg.ErrNotFound) {
				t.Errorf("order 999: %v, want ErrNotFound", err)
			}
		})
	}
}
