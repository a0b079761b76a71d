package mirror_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

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

// A Sync reads the orders and the messages at once, each on a connection of
// its own: the fake holds back the first list of orders until a list of
// messages has been asked for (a Sync that read them in turn would wait
// there until the deadline). On a pool of one connection, it takes them in
// turn, and still mirrors them all.
func TestSyncReadsOrdersAndMessagesAtOnce(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		srv, s, db, m := mirrorOf(t, be, target, ordermsgtest.Config{Seed: 4, Websites: 1, OrdersPerWebsite: 12, MessagesPerWebsite: 15})
		messagesAsked := make(chan struct{})
		var once sync.Once
		var waitedAlone atomic.Bool
		gate := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch {
			case strings.HasSuffix(r.URL.Path, "/messages"):
				once.Do(func() { close(messagesAsked) })
			case strings.HasSuffix(r.URL.Path, "/orders") && r.URL.Query().Get("page") == "1":
				select {
				case <-messagesAsked:
				case <-time.After(10 * time.Second): // a deadline, for the test to fail rather than hang
					waitedAlone.Store(true)
				}
			}
			srv.Handler.ServeHTTP(w, r)
		}))
		defer gate.Close()
		at := clientOf(t, gate.URL, s)
		res := syncSite(t, m, at, &mirror.Options{PageSize: 5})
		if waitedAlone.Load() {
			t.Error("the orders were read alone: no list of messages was asked for while the first page of orders waited")
		}
		if res.Orders.New != 12 || res.Messages.New != 15 {
			t.Errorf("%+v; want 12 orders and 15 messages", res)
		}
		sameRecords(t, db, at)

		one := be.Open(t, target)
		one.SetMaxOpenConns(1)
		srv.AddOrders(3)
		res = syncSite(t, openMirror(t, be, one), s, &mirror.Options{PageSize: 2, BaseURLMoved: true})
		if res.Orders.New != 3 || res.Messages.New != 3 {
			t.Errorf("on a pool of one connection: %+v; want 3 orders and their 3 messages", res)
		}
		sameRecords(t, db, s)
	})
}
