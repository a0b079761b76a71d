package mirror_test

import (
	"context"
	"database/sql"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// Example mirrors a website into a SQLite file, then asks it the questions
// of the README: revenue by currency and items sold by SKU. With PostgreSQL,
// open the database with the pgx driver and pass mirror.PostgreSQL; the
// queries are the same.
func Example() {
	// The fake of the service stands in for the real one here.
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 1, Websites: 1, OrdersPerWebsite: 40, MessagesPerWebsite: 50}))
	defer srv.Close()
	c, err := ordermsg.NewClient(srv.URL, srv.APIKey)
	if err != nil {
		log.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "mirror-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	db, err := sql.Open("sqlite", filepath.Join(dir, "shop.db")) // import _ "modernc.org/sqlite"
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()

	ctx := context.Background()
	m, err := mirror.Open(ctx, db, mirror.SQLite)
	if err != nil {
		log.Fatal(err)
	}
	res, err := m.Sync(ctx, c, srv.WebsiteID, &mirror.Options{RefreshDays: 7})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("orders: %d new; messages: %d new\n", res.Orders.New, res.Messages.New)

	rows, err := db.QueryContext(ctx, `
		SELECT currency, count(*), sum(total) FROM orders
		WHERE website_id = ? GROUP BY currency ORDER BY currency`, srv.WebsiteID)
	if err != nil {
		log.Fatal(err)
	}
	for rows.Next() {
		var currency string
		var orders, total int64
		if err := rows.Scan(&currency, &orders, &total); err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: %d orders, total %d\n", currency, orders, total)
	}
	rows.Close()

	var sku string
	var sold int64
	err = db.QueryRowContext(ctx, `
		SELECT sku, sum(quantity) AS sold FROM order_items
		GROUP BY sku ORDER BY sold DESC, sku LIMIT 1`).Scan(&sku, &sold)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("best seller: %s, %d sold\n", sku, sold)
	// Output:
	// orders: 40 new; messages: 50 new
	// eur: 6 orders, total 92764
	// gbp: 10 orders, total 185104
	// usd: 24 orders, total 765919
	// best seller: STK-RND, 54 sold
}

// ExampleMirror_SyncFleet mirrors three websites, each owned by its own
// account, into one SQLite file, two at a time; then asks mirror_runs how
// each run went. Workers on several machines share the same call's work
// through a PostgreSQL database.
func ExampleMirror_SyncFleet() {
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 1, Websites: 3, OrdersPerWebsite: 10, MessagesPerWebsite: 12}))
	defer srv.Close()
	// A client per website, with its account's key.
	var websites []mirror.Website
	for _, w := range srv.Handler.Dataset().Websites {
		c, err := ordermsg.NewClient(srv.URL, w.APIKey)
		if err != nil {
			log.Fatal(err)
		}
		websites = append(websites, mirror.Website{ID: w.ID, Client: c})
	}
	dir, err := os.MkdirTemp("", "mirror-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	db, err := sql.Open("sqlite", filepath.Join(dir, "fleet.db"))
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()

	ctx := context.Background()
	m, err := mirror.Open(ctx, db, mirror.SQLite)
	if err != nil {
		log.Fatal(err)
	}
	res, err := m.SyncFleet(ctx, slices.Values(websites), &mirror.FleetOptions{
		Parallel: 2,
		Done: func(r mirror.WebsiteResult) {
			if r.Err != nil {
				log.Printf("website %d: %v", r.WebsiteID, r.Err) // the others go on
			}
		},
	})
	if err != nil {
		log.Fatal(err) // a *mirror.FleetError when websites failed
	}
	fmt.Printf("%d synced: %d orders and %d messages new\n", res.Synced, res.Orders.New, res.Messages.New)

	var ok int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM mirror_runs WHERE status = 'ok'").Scan(&ok); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("mirror_runs: %d runs ok\n", ok)
	// Output:
	// 3 synced: 30 orders and 36 messages new
	// mirror_runs: 3 runs ok
}

// ExampleMirror_WebsiteStates syncs a website twice, the second time with a
// key the service refuses, and reads its state: what a monitor checks.
func ExampleMirror_WebsiteStates() {
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 1, Websites: 1, OrdersPerWebsite: 3, MessagesPerWebsite: 2}))
	defer srv.Close()
	dir, err := os.MkdirTemp("", "mirror-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	db, err := sql.Open("sqlite", filepath.Join(dir, "shop.db"))
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	m, err := mirror.Open(ctx, db, mirror.SQLite)
	if err != nil {
		log.Fatal(err)
	}
	for _, key := range []string{srv.APIKey, "omk_revoked_key"} {
		c, err := ordermsg.NewClient(srv.URL, key)
		if err != nil {
			log.Fatal(err)
		}
		// The second run fails (401), and its row in mirror_runs says
		// so; Secrets are masked there should a server quote them.
		m.Sync(ctx, c, srv.WebsiteID, &mirror.Options{Secrets: []string{key}})
	}

	states, err := m.WebsiteStates(ctx)
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range states {
		fmt.Printf("website %d: last run %s, %d consecutive failures, last success %s ago\n",
			s.WebsiteID, s.LastStatus, s.ConsecutiveFailures, time.Since(s.LastSuccess).Round(time.Hour))
	}
	// Output:
	// website 1001: last run failed, 1 consecutive failures, last success 0s ago
}
