package mirror_test

import (
	"testing"

	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

func TestSyncEveryRecordWithItsIncludes(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		srv, s, db, m := mirrorOf(t, be, target, ordermsgtest.Config{Seed: 3, Websites: 1, OrdersPerWebsite: 30, MessagesPerWebsite: 45})
		res := syncSite(t, m, s, &mirror.Options{PageSize: 7})
		if res.Orders != (mirror.Counts{New: 30}) || res.Messages != (mirror.Counts{New: 45}) {
			t.Errorf("first run: %+v", res)
		}
		sameRecords(t, db, s)
		if res := syncSite(t, m, s, nil); res != (mirror.Result{}) {
			t.Errorf("a run with nothing new: %+v", res)
		}
		srv.AddOrders(4)
		srv.AddMessages(3)
		res = syncSite(t, openMirror(t, be, be.Open(t, target)), s, &mirror.Options{PageSize: 2})
		if res.Orders != (mirror.Counts{New: 4}) || res.Messages != (mirror.Counts{New: 7}) {
			t.Errorf("after 4 new orders and 3 new messages: %+v", res)
		}
		sameRecords(t, db, s)
	})
}
