package webhook

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/riverqueue/river"
)

// enqueueBatch is how many changes one transaction of Enqueue takes.
const enqueueBatch = 1000

// Enqueue inserts a delivery job for every change after each endpoint's
// stored cursor, and moves the cursor past them in the same transaction:
// a change is enqueued once, even when several workers enqueue at once
// (they take turns on the cursor) or one is killed in between. It returns
// how many jobs it inserted. Call it after each sync: it only inserts
// jobs, and River's queues deliver them, so syncing never waits on an
// endpoint.
func Enqueue[TTx any](ctx context.Context, client *river.Client[TTx], store Store[TTx], d *Deliverer) (int, error) {
	total := 0
	for _, name := range slices.Sorted(maps.Keys(d.endpoints)) {
		for {
			n, err := enqueueBatchOf(ctx, client, store, d, d.endpoints[name])
			total += n
			if err != nil {
				return total, fmt.Errorf("webhook: enqueue for endpoint %s: %w", name, err)
			}
			if n < enqueueBatch {
				break
			}
		}
	}
	return total, nil
}

// enqueueBatchOf enqueues up to enqueueBatch changes for e in one
// transaction.
func enqueueBatchOf[TTx any](ctx context.Context, client *river.Client[TTx], store Store[TTx], d *Deliverer, e endpoint) (n int, err error) {
	tx, err := store.Begin(ctx)
	if err != nil {
		return 0, err
	}
	defer func() {
		if err != nil {
			store.Rollback(ctx, tx)
		}
	}()
	cursor, err := store.LockCursor(ctx, tx, e.name())
	if err != nil {
		return 0, err
	}
	cursors, err := d.changes.After(ctx, cursor, enqueueBatch)
	if err != nil || len(cursors) == 0 {
		if err == nil {
			err = store.Rollback(ctx, tx)
		}
		return 0, err
	}
	opts := &river.InsertOpts{Queue: e.Queue(), MaxAttempts: d.schedule.Attempts()}
	params := make([]river.InsertManyParams, len(cursors))
	for i, c := range cursors {
		params[i] = river.InsertManyParams{Args: DeliveryArgs{Endpoint: e.name(), Cursor: c, ID: DeliveryID(c)}, InsertOpts: opts}
	}
	if _, err = client.InsertManyFastTx(ctx, tx, params); err != nil {
		return 0, err
	}
	if err = store.SetCursor(ctx, tx, e.name(), cursors[len(cursors)-1]); err != nil {
		return 0, err
	}
	if err = store.Commit(ctx, tx); err != nil {
		return 0, err
	}
	return len(cursors), nil
}
