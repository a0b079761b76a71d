package mirror_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// TestReconcileMatchesTheServer is a property test: rounds of random
// changes on the server (records added, deleted, listed again, statuses
// changed, records shown late, long before the checkpoint), each followed
// by a run, plain or with RefreshDays or Reconcile; after every reconcile
// the mirror's live records are the server's, record for record, and every
// record the server deleted has deleted_at.
func TestReconcileMatchesTheServer(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		rng := rand.New(rand.NewPCG(seed, 25))
		srv, s, db, m := mirrorOf(t, be, target, ordermsgtest.Config{Seed: 7, Websites: 1, OrdersPerWebsite: 40, MessagesPerWebsite: 50})
		syncSite(t, m, s, &mirror.Options{PageSize: 9})
		w := func() (w *ordermsgtest.Website) {
			srv.Handler.Snapshot(func(ds *ordermsgtest.Dataset) { w = ds.Websites[0] })
			return w
		}
		var gone []*ordermsg.Order // deleted orders, to list again
		deleted := map[int64]bool{}
		for round := range 12 {
			for range 1 + rng.IntN(6) {
				orders, messages := w().Orders, w().Messages
				switch rng.IntN(7) {
				case 0:
					srv.AddOrders(1 + rng.IntN(4))
				case 1:
					srv.AddMessages(1 + rng.IntN(4))
				case 2:
					o := orders[rng.IntN(len(orders))]
					srv.Handler.DeleteOrder(s.id, o.ID)
					gone, deleted[o.ID] = append(gone, o), true
				case 3:
					msg := messages[rng.IntN(len(messages))]
					srv.Handler.DeleteMessage(s.id, msg.ID)
					deleted[msg.ID] = true
				case 4:
					o := orders[rng.IntN(len(orders))]
					srv.Handler.SetOrderStatus(s.id, o.ID, ordermsg.OrderStatus([]string{"new", "paid", "shipped", "refunded"}[rng.IntN(4)]))
				case 5:
					at := orders[rng.IntN(len(orders))].DateCreated.Add(time.Duration(rng.IntN(60)) * time.Minute)
					srv.Handler.AddLateOrders(s.id, at, 1+rng.IntN(2))
				case 6:
					if len(gone) > 0 {
						i := rng.IntN(len(gone))
						o := gone[i]
						gone = slices.Delete(gone, i, i+1)
						srv.Handler.Snapshot(func(ds *ordermsgtest.Dataset) { // no request is in flight
							ws := ds.Websites[0]
							j, _ := slices.BinarySearchFunc(ws.Orders, o.ID, func(x *ordermsg.Order, id int64) int { return int(x.ID - id) })
							ws.Orders = slices.Insert(ws.Orders, j, o)
						})
						delete(deleted, o.ID)
					}
				}
			}
			opts := []*mirror.Options{nil, {RefreshDays: 2, PageSize: 8}, {Reconcile: true, PageSize: 6, Concurrency: 1 + rng.IntN(4)}}[rng.IntN(3)]
			if round == 11 {
				opts = &mirror.Options{Reconcile: true}
			}
			syncSite(t, m, s, opts)
			if opts == nil || !opts.Reconcile {
				continue
			}
			sameRecords(t, db, s)
			for id := range deleted {
				live := "SELECT count(*) FROM %s WHERE deleted_at IS NULL AND id = " + itoa(id)
				if count(t, db, fmt.Sprintf(live, "orders"))+count(t, db, fmt.Sprintf(live, "messages")) != 0 {
					t.Fatalf("round %d: record %d, deleted on the server, is live in the mirror", round, id)
				}
			}
			if t.Failed() {
				t.Fatalf("round %d", round)
			}
		}
	})
}
