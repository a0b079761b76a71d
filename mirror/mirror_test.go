package mirror_test

import (
	"net/http"
	"net/http/httptest"
	"path"
	"slices"
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
// its own: the fake holds back the first list of each resource until the
// other has been asked for (a Sync that read them in turn, in either order,
// would wait there until the deadline). On a pool without room for both
// tables (and, in SQLite, their leases' renewals), it takes them in turn:
// no list of orders comes after one of messages, and both are exact.
func TestSyncReadsOrdersAndMessagesAtOnce(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		srv, s, db, m := mirrorOf(t, be, target, ordermsgtest.Config{Seed: 4, Websites: 1, OrdersPerWebsite: 12, MessagesPerWebsite: 15})
		asked := map[string]chan struct{}{"orders": make(chan struct{}), "messages": make(chan struct{})}
		var once sync.Map
		var waitedAlone atomic.Bool
		gate := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			resource, other := path.Base(r.URL.Path), map[string]string{"orders": "messages", "messages": "orders"}[path.Base(r.URL.Path)]
			if other != "" {
				if _, done := once.LoadOrStore(resource, true); !done {
					close(asked[resource])
				}
				if r.URL.Query().Get("page") == "1" {
					select {
					case <-asked[other]:
					case <-time.After(10 * time.Second): // a deadline, for the test to fail rather than hang
						waitedAlone.Store(true)
					}
				}
			}
			srv.Handler.ServeHTTP(w, r)
		}))
		defer gate.Close()
		at := clientOf(t, gate.URL, s)
		res := syncSite(t, m, at, &mirror.Options{PageSize: 5})
		if waitedAlone.Load() {
			t.Error("a resource was read alone: its first page waited for a list of the other in vain")
		}
		if res.Orders.New != 12 || res.Messages.New != 15 {
			t.Errorf("%+v; want 12 orders and 15 messages", res)
		}
		sameRecords(t, db, at)

		var mu sync.Mutex
		var seen []string
		order := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			seen = append(seen, path.Base(r.URL.Path))
			mu.Unlock()
			srv.Handler.ServeHTTP(w, r)
		}))
		defer order.Close()
		small := be.Open(t, target)
		small.SetMaxOpenConns(map[mirror.Backend]int{mirror.PostgreSQL: 1, mirror.SQLite: 3}[be.Backend])
		srv.AddOrders(3)
		in := clientOf(t, order.URL, s)
		res = syncSite(t, openMirror(t, be, small), in, &mirror.Options{PageSize: 2, BaseURLMoved: true})
		if res.Orders.New != 3 || res.Messages.New != 3 {
			t.Errorf("on a pool without room for both: %+v; want 3 orders and their 3 messages", res)
		}
		if i := slices.Index(seen, "messages"); i < 0 || slices.Contains(seen[i:], "orders") {
			t.Errorf("on a pool without room for both, the lists were %v; want the orders', then the messages'", seen)
		}
		sameRecords(t, db, in)
	})
}
