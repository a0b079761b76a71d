package ordermsg_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/ordermsg/ordermsg-go"
)

// syncOrders runs one incremental sync: it loads the checkpoint from path
// (none yet: from the beginning), handles the orders created since, and
// stores the checkpoint again. A crash before the store repeats the orders
// handled since the last store on the next run; store after every order, or
// in the same transaction as what handling them writes, to repeat nothing.
func syncOrders(ctx context.Context, c *ordermsg.Client, websiteID int64, path string) (int, error) {
	var cp ordermsg.Checkpoint
	switch b, err := os.ReadFile(path); {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return 0, err
	default:
		if err := json.Unmarshal(b, &cp); err != nil {
			return 0, fmt.Errorf("%s: %w", path, err)
		}
	}
	n := 0
	var syncErr error
	for o, err := range c.Orders.Sync(ctx, websiteID, &cp, nil) {
		if err != nil {
			syncErr = err // cp still covers every order handled
			break
		}
		_ = o // handle the order here
		n++
	}
	b, err := json.Marshal(cp)
	if err != nil {
		return n, err
	}
	tmp := path + ".tmp" // write, then rename: the file is never half-written
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return n, err
	}
	return n, errors.Join(syncErr, os.Rename(tmp, path))
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
