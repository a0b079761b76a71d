package webhook_test

import (
	"context"
	"sync"
	"testing"

	"github.com/ordermsg/ordermsg-go/mirror/webhook"
)

// TestEnqueueConcurrentOnce: several workers enqueueing at once, as each
// does after its sync, enqueue every change exactly once between them.
func TestEnqueueConcurrentOnce(t *testing.T) {
	const n = 2500
	changes := &fakeChanges{}
	changes.add(n)
	d, err := webhook.NewDeliverer(changes, []webhook.Endpoint{{URL: "https://hooks.test/in", Secret: mustSecret(t)}})
	if err != nil {
		t.Fatal(err)
	}
	pg := newPGRiver(t, d)
	if err := pg.client.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var wg sync.WaitGroup
	counts := make([]int, 4)
	for i := range counts {
		wg.Go(func() {
			got, err := webhook.Enqueue(ctx, pg.client, pg.store, d)
			if err != nil {
				t.Error(err)
			}
			counts[i] = got
		})
	}
	wg.Wait()
	total := 0
	for _, c := range counts {
		total += c
	}
	var rows, distinct int
	err = pg.pool.QueryRow(ctx, `SELECT count(*), count(DISTINCT args->>'cursor') FROM river_job WHERE kind = $1`, webhook.Kind).Scan(&rows, &distinct)
	if err != nil {
		t.Fatal(err)
	}
	if total != n || rows != n || distinct != n {
		t.Errorf("Enqueue counts %v (total %d), %d jobs for %d cursors; want %d of each", counts, total, rows, distinct, n)
	}
}
