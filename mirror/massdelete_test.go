package mirror_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// TestReconcileRefusesAMassDelete: a listing that comes back empty, every
// order answered 404, fails the website's orders with nothing marked
// deleted (the messages are reconciled as usual); AllowMassDelete then
// marks them all. Ten of thirty, not more than ten, go through without it.
func TestReconcileRefusesAMassDelete(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		srv, s, db, m := mirrorOf(t, be, target, ordermsgtest.Config{Seed: 8, Websites: 2, OrdersPerWebsite: 30, MessagesPerWebsite: 20})
		other := siteOf(t, srv, 1)
		syncSite(t, m, s, nil)
		syncSite(t, m, other, nil)
		var ids []int64
		srv.Handler.Snapshot(func(ds *ordermsgtest.Dataset) {
			for _, o := range ds.Websites[1].Orders {
				ids = append(ids, o.ID)
			}
		})
		for _, id := range ids[:10] {
			srv.Handler.DeleteOrder(other.id, id)
		}
		if res := syncSite(t, m, other, &mirror.Options{Reconcile: true}); res.Orders.Deleted != 10 {
			t.Errorf("10 of 30 orders gone: %d marked deleted; want 10 (not more than 10)", res.Orders.Deleted)
		}

		var all []int64
		srv.Handler.Snapshot(func(ds *ordermsgtest.Dataset) {
			for _, o := range ds.Websites[0].Orders {
				all = append(all, o.ID)
			}
		})
		for _, id := range all {
			srv.Handler.DeleteOrder(s.id, id)
		}
		live := fmt.Sprintf("SELECT count(*) FROM orders WHERE website_id = %d AND deleted_at IS NULL", s.id)
		res, err := m.Sync(context.Background(), s.c, s.id, &mirror.Options{Reconcile: true})
		var mass *mirror.MassDeleteError
		if !errors.As(err, &mass) || !errors.Is(err, mirror.ErrMassDelete) || mass.Deleting != len(all) || mass.Live != len(all) || mass.Resource != "orders" {
			t.Fatalf("reconcile of an empty listing: %v; want a *MassDeleteError of %d of %d orders", err, len(all), len(all))
		}
		if !strings.Contains(err.Error(), "AllowMassDelete") || !strings.Contains(err.Error(), fmt.Sprint(len(all))) {
			t.Errorf("the error does not say how many, or what to do: %v", err)
		}
		if n := count(t, db, live); n != len(all) || res.Orders.Deleted != 0 {
			t.Errorf("after the refused reconcile: %d live orders, %d counted deleted; want %d and 0", n, res.Orders.Deleted, len(all))
		}
		if res.Messages.Unchanged == 0 {
			t.Errorf("the messages were not reconciled: %+v", res.Messages)
		}

		res = syncSite(t, m, s, &mirror.Options{Reconcile: true, AllowMassDelete: true})
		if n := count(t, db, live); n != 0 || res.Orders.Deleted != len(all) {
			t.Errorf("with AllowMassDelete: %d live orders, %d marked deleted; want 0 and %d", n, res.Orders.Deleted, len(all))
		}
		sameRecords(t, db, s)
	})
}
