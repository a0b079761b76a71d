package worker_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/mirror/webhook"
	"github.com/ordermsg/ordermsg-go/mirror/worker"
)

// receiver is a webhook endpoint that answers 500 to the first attempt of
// each webhook-id, then 200, and keeps the cursor of each body it took.
type receiver struct {
	mu       sync.Mutex
	attempts map[string]int
	cursors  map[string]bool
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var line struct{ Cursor string }
	if err := json.Unmarshal(body, &line); err != nil || line.Cursor == "" {
		http.Error(w, "not a change", http.StatusBadRequest)
		return
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	id := r.Header.Get("webhook-id")
	if rc.attempts[id]++; rc.attempts[id] == 1 {
		http.Error(w, "try again", http.StatusInternalServerError)
		return
	}
	rc.cursors[line.Cursor] = true
}

func (rc *receiver) received() int {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return len(rc.cursors)
}

// TestWorkerDeliversEveryChange runs a worker with a Deliverer to a
// loopback endpoint that fails each first attempt, on each backend: every
// change of the worker's first sync is delivered, retried once, and
// nothing else is.
func TestWorkerDeliversEveryChange(t *testing.T) {
	t.Parallel() // each has a database and a fake of its own, and mostly waits for periods
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		f := newFleet(t, 1)
		rc := &receiver{attempts: map[string]int{}, cursors: map[string]bool{}}
		endpoint := httptest.NewServer(rc)
		defer endpoint.Close()
		secret, err := webhook.ParseSecret("whsec_dGhpcy1pcy1hLXRlc3Qtc2VjcmV0LW9mLTMyLWJ5dGU=")
		if err != nil {
			t.Fatal(err)
		}
		db := be.Open(t, target)
		m, err := mirror.Open(t.Context(), db, be.Backend)
		if err != nil {
			t.Fatal(err)
		}
		d, err := webhook.NewDeliverer(webhook.FromMirror(m), []webhook.Endpoint{{URL: endpoint.URL, Secret: secret}},
			webhook.WithSchedule(webhook.Schedule{First: 10 * time.Millisecond, Max: 20 * time.Millisecond, GiveUpAfter: time.Hour}))
		if err != nil {
			t.Fatal(err)
		}
		startWorker(t, be, target, worker.Config{
			Websites:  func() ([]mirror.Website, error) { return f.sites, nil },
			Every:     time.Hour,
			Deliverer: d,
		})
		waitFor(t, db, time.Minute, "an ok run of each website", func(runs []run) bool { return len(countRuns(runs, "ok")) == len(f.sites) })
		want := countChanges(t, m)
		waitFor(t, db, time.Minute, "every change delivered", func([]run) bool { return rc.received() >= want })
		rc.mu.Lock()
		defer rc.mu.Unlock()
		if len(rc.cursors) != want {
			t.Errorf("%d changes delivered, want the %d recorded", len(rc.cursors), want)
		}
		for ch, err := range m.Changes(t.Context(), "", nil) {
			if err != nil {
				t.Fatal(err)
			}
			if !rc.cursors[ch.Cursor] || rc.attempts[webhook.DeliveryID(ch.Cursor)] != 2 {
				t.Errorf("change %s: delivered %v in %d attempts, want in 2", ch.Cursor, rc.cursors[ch.Cursor], rc.attempts[webhook.DeliveryID(ch.Cursor)])
			}
		}
	})
}
