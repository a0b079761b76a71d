package ordermsg_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/ordermsg/ordermsg-go"
)

// syncOrders runs one incremental sync: it loads the checkpoint from path
// (none yet: from the beginning), handles the orders created since, and
// saves the checkpoint after each page's worth of orders handled, and at
// the end. A crash repeats at most the page in hand on the next run, so
// handling an order must be idempotent (keyed by its id); save in the same
// transaction as what handling writes to repeat nothing.
func syncOrders(ctx context.Context, c *ordermsg.Client, websiteID int64, path string) (int, error) {
	cp, err := ordermsg.LoadCheckpoint(path)
	if errors.Is(err, fs.ErrNotExist) {
		cp, err = new(ordermsg.Checkpoint), nil // first run: from the beginning
	}
	if err != nil {
		return 0, err
	}
	const perPage = 25
	n := 0
	var syncErr error
	for o, err := range c.Orders.Sync(ctx, websiteID, cp, &ordermsg.ListOrdersOptions{Count: perPage}) {
		if err != nil {
			syncErr = err // cp still covers every order handled
			break
		}
		_ = o // handle the order here (cp covers it already: save after)
		if n++; n%perPage == 0 {
			if err := cp.Save(path); err != nil {
				return n, err
			}
		}
	}
	return n, errors.Join(syncErr, cp.Save(path))
}

// Sync the orders created since the last run, keeping the checkpoint in a
// file.
func ExampleOrdersService_Sync() {
	srv, c := fakeService()
	defer srv.Close()
	dir, err := os.MkdirTemp("", "ordermsg-sync-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	state := filepath.Join(dir, "orders.checkpoint.json")
	ctx := context.Background()

	n, err := syncOrders(ctx, c, srv.WebsiteID, state) // first run: every order
	fmt.Println(n, err)
	n, err = syncOrders(ctx, c, srv.WebsiteID, state) // nothing new
	fmt.Println(n, err)
	srv.AddOrders(3)
	n, err = syncOrders(ctx, c, srv.WebsiteID, state) // only the new ones
	fmt.Println(n, err)
	// Output:
	// 40 <nil>
	// 0 <nil>
	// 3 <nil>
}

// Sync messages the same way; the loop body runs with cp already covering
// the message, so saving cp there never repeats or skips one.
func ExampleMessagesService_Sync() {
	srv, c := fakeService()
	defer srv.Close()
	var cp ordermsg.Checkpoint // zero: from the beginning
	n := 0
	for _, err := range c.Messages.Sync(context.Background(), srv.WebsiteID, &cp, &ordermsg.ListMessagesOptions{Count: 100}) {
		if err != nil {
			panic(err)
		}
		n++
	}
	fmt.Println(n, !cp.IsZero())
	// Output: 50 true
}

// Start an hourly job from now, skipping the history: the first run yields
// only what is created from now on.
func ExampleNewCheckpointAt() {
	srv, c := fakeService()
	defer srv.Close()
	ctx := context.Background()
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC) // time.Now() in a real job; after every order of the fake
	cp := ordermsg.NewCheckpointAt(now)

	n := 0
	for _, err := range c.Orders.Sync(ctx, srv.WebsiteID, cp, nil) {
		if err != nil {
			panic(err)
		}
		n++
	}
	fmt.Println("history skipped:", n)
	fmt.Println(cp.Mark())
	// Output:
	// history skipped: 0
	// 2025-01-01 00:00:00 +0000 UTC
}

// Load the checkpoint a previous run saved, or start from now when there is
// none.
func ExampleLoadCheckpoint() {
	dir, err := os.MkdirTemp("", "ordermsg-checkpoint-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "orders.json")

	cp, err := ordermsg.LoadCheckpoint(path)
	if errors.Is(err, fs.ErrNotExist) {
		cp, err = ordermsg.NewCheckpointAt(time.Date(2024, 3, 10, 12, 0, 0, 0, time.UTC)), nil // time.Now() in a real job
	}
	if err != nil {
		panic(err)
	}
	fmt.Println(cp.Mark())
	// Output: 2024-03-10 12:00:00 +0000 UTC
}

// Save the checkpoint after a run (or after each record): the file is
// replaced whole, never left half-written.
func ExampleCheckpoint_Save() {
	srv, c := fakeService()
	defer srv.Close()
	dir, err := os.MkdirTemp("", "ordermsg-checkpoint-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "messages.json")

	var cp ordermsg.Checkpoint
	for _, err := range c.Messages.Sync(context.Background(), srv.WebsiteID, &cp, nil) {
		if err != nil {
			panic(err)
		}
	}
	if err := cp.Save(path); err != nil {
		panic(err)
	}
	again, err := ordermsg.LoadCheckpoint(path)
	fmt.Println(again.Mark().Equal(cp.Mark()), err)
	// Output: true <nil>
}
