package webhook_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go/mirror/webhook"
)

// TestHungEndpointTimesOutAndRetries: an attempt that gets no answer ends
// with the endpoint's Timeout (the endpoint sees its request cancelled) and
// is retried under the same webhook-id; a redirect is not followed but
// retried too.
func TestHungEndpointTimesOutAndRetries(t *testing.T) {
	rc := newReceiver(t, 0, 1)
	var requests atomic.Int64
	cancelled := make(chan string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch requests.Add(1) {
		case 1:
			io.Copy(io.Discard, r.Body) // then the server sees the client go
			<-r.Context().Done()
			cancelled <- r.Header.Get("webhook-id")
		case 2:
			http.Redirect(w, r, "http://127.0.0.1:1/elsewhere", http.StatusTemporaryRedirect)
		default:
			rc.ServeHTTP(w, r)
		}
	}))
	defer srv.Close()
	changes := &fakeChanges{}
	changes.add(1)
	d, err := webhook.NewDeliverer(changes, []webhook.Endpoint{{URL: srv.URL, Secret: mustSecret(t), Timeout: 100 * time.Millisecond}},
		webhook.WithSchedule(fastSchedule))
	if err != nil {
		t.Fatal(err)
	}
	pg := newPGRiver(t, d)
	if _, err := webhook.Enqueue(context.Background(), pg.client, pg.store, d); err != nil {
		t.Fatal(err)
	}
	waitFor(t, rc.done, "the delivery after a timeout and a redirect")
	id := webhook.DeliveryID(cursorOf(1))
	if got := <-cancelled; got != id {
		t.Errorf("the hung attempt had webhook-id %q, want %q", got, id)
	}
	if _, ok := rc.byID[id]; !ok || requests.Load() != 3 {
		t.Errorf("%d requests, delivered under %v; want 3 requests and %s", requests.Load(), rc.byID, id)
	}
}
