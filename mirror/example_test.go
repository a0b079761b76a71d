package mirror_test

import (
	"context"
	"database/sql"
	"fmt"
	"log"
	"os"
	"path/filepath"

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
