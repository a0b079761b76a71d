package mirror_test

import (
	"context"
	"database/sql"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// exampleMirror is a mirror of a small website of the fake in a SQLite
// file, synced once, and a function that ends the example's resources.
func exampleMirror(orders int) (*mirror.Mirror, *ordermsgtest.Server, *ordermsg.Client, func()) {
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 1, Websites: 1, OrdersPerWebsite: orders}))
	c, err := ordermsg.NewClient(srv.URL, srv.APIKey)
	if err != nil {
		log.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "mirror-example")
	if err != nil {
		log.Fatal(err)
	}
	db, err := sql.Open("sqlite", filepath.Join(dir, "shop.db")) // import _ "modernc.org/sqlite"
	if err != nil {
		log.Fatal(err)
	}
	m, err := mirror.Open(context.Background(), db, mirror.SQLite)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := m.Sync(context.Background(), c, srv.WebsiteID, nil); err != nil {
		log.Fatal(err)
	}
	return m, srv, c, func() { db.Close(); srv.Close(); os.RemoveAll(dir) }
}

// ExampleMirror_Changes reads the changes a sync recorded, then, from the
// cursor of the last one, those of the next sync: a consumer stores that
// cursor, and never misses a change nor sees one twice.
func ExampleMirror_Changes() {
	m, srv, c, done := exampleMirror(2)
	defer done()
	ctx := context.Background()
	var cursor string
	orders := &mirror.ChangeFilter{Resource: "orders"}
	for ch, err := range m.Changes(ctx, "", orders) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(ch.Resource, ch.ID, ch.Kind)
		cursor = ch.Cursor // store it with what you did with the change
	}
	srv.AddOrders(1)
	if _, err := m.Sync(ctx, c, srv.WebsiteID, nil); err != nil {
		log.Fatal(err)
	}
	for ch, err := range m.Changes(ctx, cursor, orders) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("then:", ch.Resource, ch.ID, ch.Kind)
	}
	// Output:
	// orders 1001000020 new
	// orders 1001000031 new
	// then: orders 1001000039 new
}

// ExampleMirror_FollowChanges follows the feed: it yields the changes
// recorded, then each new one soon after its sync commits, until the
// context ends.
func ExampleMirror_FollowChanges() {
	m, srv, c, done := exampleMirror(1)
	defer done()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	go func() {
		srv.AddOrders(1)
		if _, err := m.Sync(ctx, c, srv.WebsiteID, nil); err != nil {
			log.Fatal(err)
		}
	}()
	seen := 0
	for ch, err := range m.FollowChanges(ctx, "", &mirror.ChangeFilter{Resource: "orders"}) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(ch.Resource, ch.Kind)
		if seen++; seen == 2 {
			cancel() // or stop the loop: the follow ends with ctx
		}
	}
	// Output:
	// orders new
	// orders new
}

// ExampleMirror_PruneChanges removes the changes recorded more than 30
// days ago, as sync --keep-changes 720h does.
func ExampleMirror_PruneChanges() {
	m, _, _, done := exampleMirror(1)
	defer done()
	removed, err := m.PruneChanges(context.Background(), time.Now().AddDate(0, 0, -30))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(removed, "removed")
	// Output:
	// 0 removed
}
