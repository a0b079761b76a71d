package mirror_test

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
	"testing"

	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// TestFiltersUseAnIndex asks each database for the plan of the filters the
// issue names, each with website_id: every one must read through the index
// made for it (on website_id too where it leads), never scan the table. In
// PostgreSQL sequential scans are turned off for the session, so that a small
// table shows the index the planner would use on a large one.
func TestFiltersUseAnIndex(t *testing.T) {
	cases := []struct {
		name, query, index string
		byWebsite          bool // the index condition holds website_id
	}{
		{"orders by date", "SELECT id FROM orders WHERE website_id = {site} AND date_created >= '2100-01-01'", "orders_website_id_date_created", true},
		{"orders by status", "SELECT id FROM orders WHERE website_id = {site} AND status = 'refunded'", "orders_website_id_status", true},
		{"orders by currency", "SELECT id FROM orders WHERE website_id = {site} AND currency = 'chf'", "orders_website_id_currency", true},
		{"orders by currency and date", "SELECT id FROM orders WHERE website_id = {site} AND currency = 'chf' AND date_created >= '2100-01-01'", "orders_website_id_currency", true},
		{"orders of a message", "SELECT id FROM orders WHERE website_id = {site} AND message_id = 7", "orders_message_id", false},
		{"messages by date", "SELECT id FROM messages WHERE website_id = {site} AND date_created >= '2100-01-01'", "messages_website_id_date_created", true},
		{"messages by type", "SELECT id FROM messages WHERE website_id = {site} AND message_type = 'none'", "messages_website_id_message_type", true},
		{"messages of an order", "SELECT id FROM messages WHERE website_id = {site} AND order_id = 7", "messages_order_id", false},
	}
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		// A mirror of a few hundred records, analyzed, so that the planner
		// of PostgreSQL weighs the indexes by what they select; the values
		// of the filters select few rows or none, as on a large table.
		_, s, db, m := mirrorOf(t, be, target, ordermsgtest.Config{Seed: 4, Websites: 1, OrdersPerWebsite: 300, MessagesPerWebsite: 300})
		syncSite(t, m, s, nil)
		site := strconv.FormatInt(s.id, 10)
		ctx := context.Background()
		conn, err := db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		explain := "EXPLAIN QUERY PLAN "
		if be.Name == "PostgreSQL" {
			explain = "EXPLAIN "
			for _, stmt := range []string{"ANALYZE orders", "ANALYZE messages", "SET enable_seqscan = off"} {
				if _, err := conn.ExecContext(ctx, stmt); err != nil {
					t.Fatal(err)
				}
			}
		}
		for _, c := range cases {
			plan := planOf(t, conn, explain+strings.ReplaceAll(c.query, "{site}", site))
			if !strings.Contains(plan, c.index) {
				t.Errorf("%s: the plan does not use %s:\n%s", c.name, c.index, plan)
			}
			for _, scan := range []string{"Seq Scan", "SCAN orders", "SCAN messages"} {
				if strings.Contains(plan, scan) {
					t.Errorf("%s: the plan scans the table:\n%s", c.name, plan)
				}
			}
			// SQLite shows (website_id=? AND ...), PostgreSQL
			// Index Cond: ((website_id = N) AND ...).
			if c.byWebsite && !strings.Contains(plan, "(website_id=?") && !strings.Contains(plan, "((website_id = "+site+") AND") {
				t.Errorf("%s: the index does not serve website_id:\n%s", c.name, plan)
			}
		}
	})
}

// planOf returns the plan of an EXPLAIN, its text columns joined.
func planOf(t *testing.T, conn *sql.Conn, explain string) string {
	t.Helper()
	var lines []string
	for _, vals := range rowValues(t, conn, explain) {
		for _, v := range vals {
			switch v := v.(type) {
			case string:
				lines = append(lines, v)
			case []byte:
				lines = append(lines, string(v))
			}
		}
	}
	return strings.Join(lines, "\n")
}
