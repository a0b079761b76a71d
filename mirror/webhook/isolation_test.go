package webhook_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/ordermsg/ordermsg-go/mirror/webhook"
)

// TestDeadEndpointDelaysOnlyItsOwn: while an endpoint holds every request
// it gets without answering, another endpoint of the same worker gets all
// its deliveries; the held one never has more requests than its Concurrency.
func TestDeadEndpointDelaysOnlyItsOwn(t *testing.T) {
	const n = 30
	release := make(chan struct{})
	var once sync.Once
	held := make(chan struct{}, n)
	dead := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		held <- struct{}{}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer dead.Close()
	defer once.Do(func() { close(release) })
	rc := newReceiver(t, 0, n)
	live := httptest.NewServer(rc)
	defer live.Close()

	changes := &fakeChanges{}
	changes.add(n)
	d, err := webhook.NewDeliverer(changes, []webhook.Endpoint{
		{Name: "dead", URL: dead.URL, Secret: mustSecret(t), Concurrency: 2},
		{Name: "live", URL: live.URL, Secret: mustSecret(t), Concurrency: 2},
	}, webhook.WithSchedule(fastSchedule))
	if err != nil {
		t.Fatal(err)
	}
	pg := newPGRiver(t, d)
	if got, err := webhook.Enqueue(context.Background(), pg.client, pg.store, d); err != nil || got != 2*n {
		t.Fatalf("Enqueue = %d, %v; want %d", got, err, 2*n)
	}
	waitFor(t, rc.done, "the live endpoint's deliveries")
	if len(held) > 2 {
		t.Errorf("the dead endpoint holds %d requests, more than its Concurrency, 2", len(held))
	}
	once.Do(func() { close(release) })
}
