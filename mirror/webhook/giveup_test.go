package webhook_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go/mirror/webhook"
)

// TestGiveUpCountedAndKept: a change whose every attempt fails is given up
// after the schedule's attempts: the GivenUp event is told once, and the
// database keeps the trace that CountGivenUp counts.
func TestGiveUpCountedAndKept(t *testing.T) {
	var requests atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		w.WriteHeader(http.StatusBadGateway)
	}))
	defer srv.Close()
	changes := &fakeChanges{}
	changes.add(1)
	schedule := webhook.Schedule{First: time.Millisecond, Max: time.Millisecond, GiveUpAfter: 3 * time.Millisecond}
	givenUp := make(chan string, 2)
	d, err := webhook.NewDeliverer(changes, []webhook.Endpoint{{URL: srv.URL, Secret: mustSecret(t)}},
		webhook.WithSchedule(schedule),
		webhook.WithEvents(webhook.Events{GivenUp: func(_, cursor string, _ error) { givenUp <- cursor }}))
	if err != nil {
		t.Fatal(err)
	}
	pg := newPGRiver(t, d)
	ctx := context.Background()
	if _, err := webhook.Enqueue(ctx, pg.client, pg.store, d); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			if n, err := pg.store.CountGivenUp(ctx); err != nil || n == 1 {
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	waitFor(t, done, "the given-up delivery in the database")
	if got := <-givenUp; got != cursorOf(1) {
		t.Errorf("GivenUp told of %q, want %q", got, cursorOf(1))
	}
	if len(givenUp) != 0 {
		t.Error("GivenUp was told twice")
	}
	if got, want := requests.Load(), int64(schedule.Attempts()); got != want {
		t.Errorf("%d attempts, want %d", got, want)
	}
}

// TestGoneChangeGivenUp: a change that is no longer kept is given up at
// its first attempt, not retried for days.
func TestGoneChangeGivenUp(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		t.Error("a change that is gone was posted")
	}))
	defer srv.Close()
	changes := &goneLines{fakeChanges: &fakeChanges{}}
	changes.add(1)
	givenUp := make(chan string, 1)
	d, err := webhook.NewDeliverer(changes, []webhook.Endpoint{{URL: srv.URL, Secret: mustSecret(t)}},
		webhook.WithEvents(webhook.Events{GivenUp: func(_, cursor string, _ error) { givenUp <- cursor }}))
	if err != nil {
		t.Fatal(err)
	}
	pg := newPGRiver(t, d)
	if _, err := webhook.Enqueue(context.Background(), pg.client, pg.store, d); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { <-givenUp; close(done) }()
	waitFor(t, done, "the gone change given up")
}

// goneLines lists changes whose lines are no longer kept.
type goneLines struct{ *fakeChanges }

func (goneLines) Line(context.Context, string) ([]byte, error) { return nil, webhook.ErrNoChange }
