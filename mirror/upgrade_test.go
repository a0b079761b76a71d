package mirror_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

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

// releasedVersions are the versions older than SchemaVersion that a
// release made: those of testdata/released_steps.txt.
func releasedVersions(t *testing.T) []int {
	t.Helper()
	released := releasedSteps(t)
	var out []int
	for v := 1; v < mirror.SchemaVersion; v++ {
		prefix := fmt.Sprintf("sqlite/%04d_", v)
		if !slices.ContainsFunc(slices.Collect(maps.Keys(released)), func(name string) bool { return strings.HasPrefix(name, prefix) }) {
			break
		}
		out = append(out, v)
	}
	return out
}

// atVersion makes, in the database at target, the schema of version v: its
// steps 1 to v, as the release that made it ran them, and its version.
func atVersion(t *testing.T, be mirrortest.Backend, target string, v int) {
	t.Helper()
	db := be.Open(t, target)
	files, err := filepath.Glob(filepath.Join("migrations", strings.ToLower(be.Backend.String()), "*.sql"))
	if err != nil || len(files) < v {
		t.Fatalf("%d steps (%v), want at least %d", len(files), err, v)
	}
	for _, f := range files[:v] {
		step, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(string(step)); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
	}
	if _, err := db.Exec(fmt.Sprintf("INSERT INTO mirror_schema (version) VALUES (%d)", v)); err != nil {
		t.Fatal(err)
	}
}

// TestUpgradeFromEachReleasedStep opens a database of each version older
// than SchemaVersion that a release made: Open upgrades it in place to
// exactly the schema a new database gets, and a run then mirrors a website
// into it. TestReleasedStepsNeverChange holds the steps such a database ran
// to the ones released. Until a second release there is no older version.
func TestUpgradeFromEachReleasedStep(t *testing.T) {
	older := releasedVersions(t)
	if len(older) == 0 {
		t.Skipf("no released version is older than SchemaVersion %d (testdata/released_steps.txt): nothing to upgrade from until the second release", mirror.SchemaVersion)
	}
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, _ string) {
		for _, v := range older {
			t.Run(fmt.Sprintf("from %d", v), func(t *testing.T) {
				target := be.New(t)
				atVersion(t, be, target, v)
				db := be.Open(t, target)
				m := openMirror(t, be, db)
				if got := version(t, db); got != mirror.SchemaVersion {
					t.Fatalf("schema version %d after Open, want %d", got, mirror.SchemaVersion)
				}
				fresh := be.Open(t, be.New(t))
				openMirror(t, be, fresh)
				if got, want := schemaOf(t, be, db), schemaOf(t, be, fresh); !slices.Equal(got, want) {
					t.Errorf("the upgraded schema is not a new database's:\n%s", diffLines(got, want))
				}
				srv := newFake(t, ordermsgtest.Config{Seed: 25, Websites: 1, OrdersPerWebsite: 7, MessagesPerWebsite: 9})
				s := siteOf(t, srv, 0)
				if res := syncSite(t, m, s, nil); res.Orders != (mirror.Counts{New: 7}) || res.Messages != (mirror.Counts{New: 9}) {
					t.Errorf("the first run after the upgrade: %+v", res)
				}
				sameRecords(t, db, s)
			})
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
