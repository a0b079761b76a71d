package mirror_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// loadDump runs a dump of testdata (a database a released version made) in
// the database at target, in one Exec, through a handle of its own: a
// PostgreSQL dump empties the session's search_path.
func loadDump(t *testing.T, be mirrortest.Backend, target, file string) {
	t.Helper()
	dump, err := os.ReadFile("testdata/" + file)
	if err != nil {
		t.Fatal(err)
	}
	db := be.Open(t, target)
	defer db.Close()
	if _, err := db.Exec(string(dump)); err != nil {
		t.Fatalf("loading %s: %v", file, err)
	}
}

// version is the schema version the database records.
func version(t *testing.T, db *sql.DB) int {
	t.Helper()
	var v int
	if err := db.QueryRow("SELECT max(version) FROM mirror_schema").Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// count is the number of rows of query.
func count(t *testing.T, db *sql.DB, query string) int {
	t.Helper()
	var n int
	if err := db.QueryRow(query).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

// TestUpgradeFromVersion1 opens a database that ordermsg sync --db made
// before this package (testdata/v1_sqlite.sql, made by that release; SQLite
// only, as it was): Open upgrades it in place, keeping its records, and the
// next Sync reads every record again with its includes, counting each one
// updated.
func TestUpgradeFromVersion1(t *testing.T) {
	be := sqliteBackend(t)
	target := be.New(t)
	loadDump(t, be, target, "v1_sqlite.sql")
	// The fake that version read from: seed 25, 7 orders, 9 messages.
	srv := newFake(t, ordermsgtest.Config{Seed: 25, Websites: 1, OrdersPerWebsite: 7, MessagesPerWebsite: 9})
	s := siteOf(t, srv, 0)
	db := be.Open(t, target)
	m := openMirror(t, be, db)
	if v, kept := version(t, db), count(t, db, "SELECT count(*) FROM orders"); v != mirror.SchemaVersion || kept != 7 {
		t.Fatalf("after Open: schema version %d, %d orders kept; want %d and 7", v, kept, mirror.SchemaVersion)
	}
	res := syncSite(t, m, s, nil)
	if res.Orders != (mirror.Counts{Updated: 7}) || res.Messages != (mirror.Counts{Updated: 9}) {
		t.Errorf("the run after the upgrade: %+v; want every kept record updated with its includes", res)
	}
	sameRecords(t, db, s)
	openMirror(t, be, be.Open(t, target))
	if res := syncSite(t, m, s, nil); res != (mirror.Result{}) {
		t.Errorf("a run with nothing new after the upgrade: %+v", res)
	}
}

// TestUpgradeFromVersion2 opens databases that the previous release made
// (testdata/v2_sqlite.sql and v2_postgres.sql: two websites, and in one of
// them a \u0000 nested in an order and in a message, on which that
// release's PostgreSQL views failed): Open upgrades each in place to the
// schema a new database gets, keeping every record; the views answer for
// every website, with U+FFFD where the records hold \u0000; and a run that
// reads every record again finds nothing changed (the stored records'
// digests are worked out from their JSON) and takes the run's base URL as
// the websites' source.
func TestUpgradeFromVersion2(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		loadDump(t, be, target, "v2_"+strings.ToLower(be.Name)+".sql")
		db := be.Open(t, target)
		m := openMirror(t, be, db)
		if v := version(t, db); v != mirror.SchemaVersion {
			t.Fatalf("schema version %d after Open, want %d", v, mirror.SchemaVersion)
		}
		fresh := be.Open(t, be.New(t))
		openMirror(t, be, fresh)
		got, want := schemaOf(t, be, db), schemaOf(t, be, fresh)
		if len(want) < 20 {
			t.Fatalf("the schema's description has %d lines: too few to tell anything", len(want))
		}
		if !slices.Equal(got, want) {
			t.Errorf("the upgraded schema is not a new database's:\n%s", diffLines(got, want))
		}
		if n := count(t, db, "SELECT count(*) FROM orders") + count(t, db, "SELECT count(*) FROM messages"); n != 2*(6+8) {
			t.Errorf("%d records after the upgrade, want 28", n)
		}
		for _, v := range viewNames {
			count(t, db, "SELECT count(*) FROM "+v)
		}
		// Those that held \u0000 in the release's PostgreSQL failed.
		for _, v := range []string{"order_items", "order_item_fields", "order_fields", "order_notes", "message_fields"} {
			if n := count(t, db, "SELECT count(DISTINCT website_id) FROM "+v); n != 2 {
				t.Errorf("view %s answers for %d websites, want 2", v, n)
			}
		}
		for q, want := range map[string]int{
			"SELECT count(*) FROM order_items WHERE order_id = 1001000030 AND title LIKE '\uFFFD%'":                1,
			"SELECT count(*) FROM message_fields WHERE message_id = 1001000028 AND formatted_value LIKE '\uFFFD%'": 1,
		} {
			if n := count(t, db, q); n != want {
				t.Errorf("%s: %d, want %d", q, n, want)
			}
		}

		// The fake the release read from, with the same \u0000.
		srv := newFake(t, ordermsgtest.Config{Seed: 25, Websites: 2, OrdersPerWebsite: 6, MessagesPerWebsite: 8})
		sp, url := newSpoiler(t, srv.Handler)
		sp.files = srv.FilesURL
		sp.set(1001000030, at("title", `\u0000`))
		sp.set(1001000028, at("formatted_value", `\u0000`))
		for i := range 2 {
			s := clientOf(t, url, siteOf(t, srv, i))
			res := syncSite(t, m, s, &mirror.Options{RefreshDays: 1 << 20})
			if res.Orders != (mirror.Counts{Unchanged: 6}) || res.Messages != (mirror.Counts{Unchanged: 8}) {
				t.Errorf("website %d, read again after the upgrade: %+v; want every record unchanged", s.id, res)
			}
			sameRecords(t, db, s)
		}
		if n := count(t, db, "SELECT count(*) FROM website_sources WHERE base_url = '"+url+"'"); n != 2 {
			t.Errorf("%d websites took the run's base URL, want 2", n)
		}
	})
}

// viewNames are the views the README documents.
var viewNames = []string{"order_items", "order_item_fields", "order_fields", "message_fields", "order_shipments",
	"order_notes", "print_ready_files", "order_payment_transactions", "message_payment_transactions"}

// schemaOf describes the database's schema, one line per column, index,
// constraint and view, sorted.
func schemaOf(t *testing.T, be mirrortest.Backend, db *sql.DB) []string {
	t.Helper()
	queries := []string{
		"SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'",
	}
	if be.Backend == mirror.PostgreSQL {
		queries = []string{
			`SELECT table_name, ordinal_position, column_name, data_type, is_nullable, column_default
				FROM information_schema.columns WHERE table_schema = current_schema()`,
			"SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema()",
			`SELECT tc.table_name, tc.constraint_name, tc.constraint_type FROM information_schema.table_constraints tc
				WHERE tc.table_schema = current_schema() AND tc.constraint_type <> 'CHECK'`,
			"SELECT viewname, definition FROM pg_views WHERE schemaname = current_schema()",
			"SELECT c.relname, a.attname, a.attcompression FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid " +
				"JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND a.attnum > 0 AND c.relkind = 'r'",
		}
	}
	var out []string
	for _, q := range queries {
		out = append(out, rowsOf(t, db, q)...)
	}
	slices.Sort(out)
	return out
}

// diffLines lists the lines of got and want that the other lacks.
func diffLines(got, want []string) string {
	var b strings.Builder
	for _, g := range got {
		if !slices.Contains(want, g) {
			fmt.Fprintf(&b, "  only upgraded: %s\n", g)
		}
	}
	for _, w := range want {
		if !slices.Contains(got, w) {
			fmt.Fprintf(&b, "  only new:      %s\n", w)
		}
	}
	return b.String()
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

// TestUpgradeOfYearZero: a database of schema 2 holds a creation time of
// year 0 ("0000-01-01T00:00:00Z", valid RFC 3339, which the SDK reads),
// which PostgreSQL's timestamptz does not take as text. Step 3 keeps it as
// the same instant, 1 BC in PostgreSQL's notation, which is what a run
// writes for it; SQLite keeps the text.
func TestUpgradeOfYearZero(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		loadDump(t, be, target, "v2_"+strings.ToLower(be.Name)+".sql")
		db := be.Open(t, target)
		const zero = "0000-01-01T00:00:00Z"
		if _, err := db.Exec("UPDATE orders SET date_created = '" + zero + "' WHERE id = 1001000030"); err != nil {
			t.Fatal(err)
		}
		openMirror(t, be, db)
		var want any = zero
		if be.Backend == mirror.PostgreSQL {
			want = time.Date(0, time.January, 1, 0, 0, 0, 0, time.UTC)
		}
		q := "SELECT count(*) FROM orders WHERE id = 1001000030 AND date_created = ?"
		if be.Backend == mirror.PostgreSQL {
			q = strings.Replace(q, "?", "$1", 1)
		}
		var n int
		if err := db.QueryRow(q, want).Scan(&n); err != nil || n != 1 {
			t.Errorf("the order of year 0 after the upgrade: %d rows at %v (%v), want 1", n, want, err)
		}
		if n := count(t, db, "SELECT count(*) FROM orders") + count(t, db, "SELECT count(*) FROM messages"); n != 2*(6+8) {
			t.Errorf("%d records after the upgrade, want 28", n)
		}
	})
}
