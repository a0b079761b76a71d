package mirror_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// TestFollowerMissesNothingWithWritersAtOnce: workers, each with its own
// database handle, sync websites at once, in rounds, while a follower reads
// from the start: the follower's changes are, cursor for cursor, those of a
// full read once the workers are done.
func TestFollowerMissesNothingWithWritersAtOnce(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		const workers, rounds = 4, 6
		srv := newFake(t, ordermsgtest.Config{Seed: 9, Websites: workers, OrdersPerWebsite: 20})
		follower := openMirror(t, be, be.Open(t, target))
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		followed := make(chan mirror.Change, 1024)
		followErr := make(chan error, 1)
		go func() {
			defer close(followed)
			for c, err := range follower.FollowChanges(ctx, "", nil) {
				if err != nil {
					followErr <- err
					return
				}
				followed <- c
			}
		}()
		var wg sync.WaitGroup
		for i := range workers {
			s := siteOf(t, srv, i)
			m := openMirror(t, be, be.Open(t, target))
			wg.Go(func() {
				for range rounds {
					if _, err := m.Sync(context.Background(), s.c, s.id, &mirror.Options{PageSize: 5}); err != nil {
						t.Errorf("Sync of website %d: %v", s.id, err)
						return
					}
					srv.Handler.AddOrders(s.id, 3)
				}
			})
		}
		wg.Wait()
		want := changesOf(t, follower, "", nil)
		var got []mirror.Change
		timeout := time.After(time.Minute)
		for len(got) < len(want) {
			select {
			case c, ok := <-followed:
				if !ok {
					t.Fatalf("the follower ended after %d of %d changes: %v", len(got), len(want), <-followErr)
				}
				got = append(got, c)
			case <-timeout:
				t.Fatalf("the follower printed %d of %d changes in a minute", len(got), len(want))
			}
		}
		cancel()
		for c := range followed {
			got = append(got, c)
		}
		cursors := func(cs []mirror.Change) []string {
			out := make([]string, len(cs))
			for i, c := range cs {
				out[i] = c.Cursor
			}
			return out
		}
		if !slices.Equal(cursors(got), cursors(want)) {
			t.Errorf("the follower read %d changes, a full read %d; not the same cursors", len(got), len(want))
		}
		if n := workers * (20 + 20 + (rounds-1)*3*2); len(want) != n {
			t.Errorf("%d changes, want %d", len(want), n)
		}
	})
}

// TestChangesWaitForAnEarlierTransaction: in PostgreSQL, a change of a
// transaction still in flight holds back the changes of every later
// transaction, committed or not, so that the cursor of one read never
// passes a change that commits after it.
func TestChangesWaitForAnEarlierTransaction(t *testing.T) {
	be := postgresBackend(t)
	_, s, db, m := mirrorOf(t, be, be.New(t), ordermsgtest.Config{Seed: 10, Websites: 1, OrdersPerWebsite: 3})
	early, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer early.Rollback()
	if _, err := early.Exec(`INSERT INTO mirror_changes (website_id, resource, id, change, recorded_at) VALUES (1, 'orders', 1, 'deleted', now())`); err != nil {
		t.Fatal(err)
	}
	syncSite(t, m, s, nil)
	// Changes waits for the changes committed before it to be readable:
	// cut short, it has read none of them.
	short, cancelShort := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancelShort()
	for c, err := range m.Changes(short, "", nil) {
		if err == nil {
			t.Fatalf("read %+v while an earlier transaction is in flight", c)
		}
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Changes cut short: %v", err)
		}
	}
	if err := early.Commit(); err != nil {
		t.Fatal(err)
	}
	// Followed, not read once: a transaction of another database of the
	// cluster may hold the feed back for a moment too.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var got []mirror.Change
	for c, err := range m.FollowChanges(ctx, "", nil) {
		if err != nil {
			t.Fatal(err)
		}
		if got = append(got, c); len(got) == 7 {
			break
		}
	}
	if len(got) != 7 || got[0].WebsiteID != 1 || got[0].Kind != mirror.ChangeDeleted {
		t.Errorf("after the earlier commit: %d changes; want 7, the earlier transaction's first", len(got))
	}
}
