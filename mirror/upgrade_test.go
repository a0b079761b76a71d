package mirror_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// execScript runs the statements of a script, split at semicolons.
func execScript(t *testing.T, db *sql.DB, script string) {
	t.Helper()
	for stmt := range strings.SplitSeq(script, ";") {
		if strings.TrimSpace(stripComments(stmt)) == "" {
			continue
		}
		if _, err := db.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
}

func stripComments(s string) string {
	var out []string
	for line := range strings.SplitSeq(s, "\n") {
		if i := strings.Index(line, "--"); i >= 0 {
			line = line[:i]
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// TestUpgradeFromVersion1 opens a database made by ordermsg sync --db before
// this package (testdata/schema_v1.sql, with records and a checkpoint as it
// wrote them): Open upgrades it in place, keeping its records, and the next
// Sync reads every record again with its includes.
func TestUpgradeFromVersion1(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		srv := newFake(t, ordermsgtest.Config{Seed: 8, Websites: 1, OrdersPerWebsite: 12, MessagesPerWebsite: 15})
		s := siteOf(t, srv, 0)
		db := be.Open(t, target)
		schema, err := os.ReadFile("testdata/schema_v1.sql")
		if err != nil {
			t.Fatal(err)
		}
		execScript(t, db, string(schema))
		// Version 1 kept the bare list records and a checkpoint.
		page, err := s.c.Orders.List(context.Background(), s.id, &ordermsg.ListOrdersOptions{Count: 5, Direction: ordermsg.DirectionAsc, KeepRawJSON: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range page.Data {
			if _, err := db.Exec(fmt.Sprintf(`INSERT INTO orders (id, website_id, date_created, status, order_type, currency, total, amount_paid, json)
				VALUES (%d, %d, '%s', 'new', 'ecommerce', '%s', %d, %d, '%s')`, o.ID, s.id, o.DateCreated.UTC().Format("2006-01-02T15:04:05Z"),
				o.Currency, o.Pricing.Total, o.AmountPaid, strings.ReplaceAll(string(o.RawJSON()), "'", "''"))); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := db.Exec(fmt.Sprintf(`INSERT INTO sync_state (resource, website_id, checkpoint) VALUES ('orders', %d, '{"created":"%s","ids":[%d]}')`,
			s.id, page.Data[4].DateCreated.UTC().Format("2006-01-02T15:04:05Z"), page.Data[4].ID)); err != nil {
			t.Fatal(err)
		}

		m := openMirror(t, be, db)
		var version, kept int
		db.QueryRow("SELECT version FROM mirror_schema").Scan(&version)
		db.QueryRow(fmt.Sprintf("SELECT count(*) FROM orders WHERE website_id = %d", s.id)).Scan(&kept)
		if version != mirror.SchemaVersion || kept != 5 {
			t.Fatalf("after Open: schema version %d, %d orders kept; want %d and 5", version, kept, mirror.SchemaVersion)
		}
		res := syncSite(t, m, s, nil)
		if res.Orders != (mirror.Counts{New: 7, Updated: 5}) || res.Messages.New != 15 {
			t.Errorf("the run after the upgrade: %+v; want the 5 kept orders updated with their includes", res)
		}
		sameRecords(t, db, s)
		// Opening again changes nothing.
		openMirror(t, be, be.Open(t, target))
		if res := syncSite(t, m, s, nil); res != (mirror.Result{}) {
			t.Errorf("a run with nothing new after the upgrade: %+v", res)
		}
	})
}

// TestRefusesASchemaItCannotUse: a newer version's database, and one with
// tables of the mirror's names that are not a mirror's, are refused and left
// as they were.
func TestRefusesASchemaItCannotUse(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		db := be.Open(t, target)
		openMirror(t, be, db)
		if _, err := db.Exec(fmt.Sprintf("UPDATE mirror_schema SET version = %d", mirror.SchemaVersion+1)); err != nil {
			t.Fatal(err)
		}
		_, err := mirror.Open(context.Background(), db, be.Backend)
		if !errors.Is(err, mirror.ErrSchema) || !errors.Is(err, mirror.ErrDatabase) || !strings.Contains(err.Error(), "upgrade ordermsg") {
			t.Errorf("a newer version's database: %v", err)
		}

		other := be.Open(t, be.New(t))
		if _, err := other.Exec("CREATE TABLE orders (id INTEGER PRIMARY KEY, customer TEXT)"); err != nil {
			t.Fatal(err)
		}
		_, err = mirror.Open(context.Background(), other, be.Backend)
		if !errors.Is(err, mirror.ErrSchema) || !strings.Contains(err.Error(), "use another database") {
			t.Errorf("a database of other tables: %v", err)
		}
		var n int
		if err := other.QueryRow("SELECT count(*) FROM orders").Scan(&n); err != nil {
			t.Errorf("the other database's table: %v", err)
		}
		if _, err := other.Exec("SELECT customer FROM orders"); err != nil {
			t.Errorf("the other database was changed: %v", err)
		}
	})
}

// TestRefusesAnEmptySchemaTable: a mirror_schema without a row says nothing
// of the other tables, so Open refuses the database and leaves it as it was.
func TestRefusesAnEmptySchemaTable(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		db := be.Open(t, target)
		openMirror(t, be, db)
		if _, err := db.Exec("DELETE FROM mirror_schema"); err != nil {
			t.Fatal(err)
		}
		_, err := mirror.Open(context.Background(), db, be.Backend)
		if !errors.Is(err, mirror.ErrSchema) || !errors.Is(err, mirror.ErrDatabase) || !strings.Contains(err.Error(), "holds no version") {
			t.Errorf("Open of a database whose mirror_schema is empty: %v, want ErrSchema", err)
		}
		var n int
		if err := db.QueryRow("SELECT count(*) FROM mirror_schema").Scan(&n); err != nil || n != 0 {
			t.Errorf("mirror_schema was changed: %d rows, %v", n, err)
		}
	})
}
