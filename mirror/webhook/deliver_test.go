package webhook_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/ordermsg/ordermsg-go/mirror/webhook"
)

// receiver is an endpoint that fails its first failFirst requests with 500,
// then verifies each signature and keeps each body by webhook-id, as a
// receiver that deduplicates does.
type receiver struct {
	t         testing.TB
	failFirst int64
	want      int

	requests atomic.Int64
	mu       sync.Mutex
	failedID []string
	byID     map[string]string
	done     chan struct{}
}

func newReceiver(t testing.TB, failFirst int64, want int) *receiver {
	return &receiver{t: t, failFirst: failFirst, want: want, byID: map[string]string{}, done: make(chan struct{})}
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		rc.t.Errorf("reading a delivery: %v", err)
		return
	}
	id := r.Header.Get("webhook-id")
	if rc.requests.Add(1) <= rc.failFirst {
		rc.mu.Lock()
		rc.failedID = append(rc.failedID, id)
		rc.mu.Unlock()
		w.WriteHeader(http.StatusInternalServerError)
		return
	}
	if err := verifySW(testSecret, r.Header, body); err != nil {
		rc.t.Errorf("delivery %s: %v", id, err)
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if prev, seen := rc.byID[id]; seen {
		if prev != string(body) {
			rc.t.Errorf("delivery %s came again with another body", id)
		}
		return
	}
	rc.byID[id] = string(body)
	if len(rc.byID) == rc.want {
		close(rc.done)
	}
}

func mustSecret(t testing.TB) webhook.Secret {
	t.Helper()
	s, err := webhook.ParseSecret(testSecret)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestDeliveryRetriedUntilVerified: an endpoint that answers 500 three
// times gets every change, each signed as Standard Webhooks says (checked
// by the test's own verifier), under the same webhook-id on every attempt;
// River's jobs hold neither the secret nor the body; a second Enqueue
// enqueues nothing again.
func TestDeliveryRetriedUntilVerified(t *testing.T) {
	const n = 20
	rc := newReceiver(t, 3, n)
	srv := httptest.NewServer(rc)
	defer srv.Close()
	changes := &fakeChanges{}
	changes.add(n)
	var retries atomic.Int64
	d, err := webhook.NewDeliverer(changes, []webhook.Endpoint{{URL: srv.URL, Secret: mustSecret(t)}},
		webhook.WithSchedule(fastSchedule),
		webhook.WithEvents(webhook.Events{Retrying: func(string, string, int, error) { retries.Add(1) }}))
	if err != nil {
		t.Fatal(err)
	}
	pg := newPGRiver(t, d)
	ctx := context.Background()
	if got, err := webhook.Enqueue(ctx, pg.client, pg.store, d); err != nil || got != n {
		t.Fatalf("Enqueue = %d, %v; want %d", got, err, n)
	}
	waitFor(t, rc.done, "every change delivered")

	rc.mu.Lock()
	defer rc.mu.Unlock()
	for i := 1; i <= n; i++ {
		line, _ := changes.Line(ctx, cursorOf(i))
		id := webhook.DeliveryID(cursorOf(i))
		if rc.byID[id] != string(line) {
			t.Errorf("change %d: delivered %q under %s, want %q", i, rc.byID[id], id, line)
		}
	}
	if len(rc.failedID) != 3 || retries.Load() != 3 {
		t.Fatalf("%d failed requests, %d retries told; want 3 and 3", len(rc.failedID), retries.Load())
	}
	for _, id := range rc.failedID {
		if _, ok := rc.byID[id]; !ok {
			t.Errorf("delivery %s failed, and its retry came under another webhook-id", id)
		}
	}
	var jobs string
	if err := pg.pool.QueryRow(ctx, `SELECT string_agg(args::text || errors::text, ' ') FROM river_job`).Scan(&jobs); err != nil {
		t.Fatal(err)
	}
	for _, leak := range []string{strings.TrimPrefix(testSecret, "whsec_"), `"record"`} {
		if strings.Contains(jobs, leak) {
			t.Errorf("River's jobs hold %s: %s", leak, jobs)
		}
	}
	if again, err := webhook.Enqueue(ctx, pg.client, pg.store, d); err != nil || again != 0 {
		t.Errorf("a second Enqueue with nothing new = %d, %v; want 0", again, err)
	}
	changes.add(1)
	if more, err := webhook.Enqueue(ctx, pg.client, pg.store, d); err != nil || more != 1 {
		t.Errorf("Enqueue after one more change = %d, %v; want 1", more, err)
	}
}
