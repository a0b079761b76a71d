package mirror_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// rootFile reads name, slash-separated, from the root module's folder, the
// repository's top. A module zip of the mirror, as in a user's module
// cache, holds no sibling folder: where the root module is absent, the test
// skips, saying so; the repository's run checks the file.
func rootFile(t *testing.T, name string) []byte {
	t.Helper()
	top := ".."
	if _, err := os.Stat(filepath.Join(top, "go.mod")); errors.Is(err, fs.ErrNotExist) {
		t.Skipf("%s is the root module's, whose folder is not beside the mirror's (a module zip): checked where the repository is whole", name)
	}
	b, err := os.ReadFile(filepath.Join(top, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// readmeQuery is an SQL block of docs/mirror.md: for
// both databases, or for the one its first line names ("-- PostgreSQL",
// "-- SQLite").
type readmeQuery struct {
	sql, only string
	full      string // the block as written, its first line too
}

// readmeQueries are the SQL blocks of docs/mirror.md, the mirror's
// reference, which the README links to for its queries.
func readmeQueries(t *testing.T) []readmeQuery {
	t.Helper()
	section := string(rootFile(t, "docs/mirror.md"))
	var out []readmeQuery
	for _, block := range strings.Split(section, "```sql\n")[1:] {
		q, _, _ := strings.Cut(block, "```")
		q = strings.TrimSuffix(strings.TrimSpace(q), ";")
		full, only := q, ""
		if first, rest, ok := strings.Cut(q, "\n"); ok && strings.HasPrefix(first, "-- ") {
			only, q = strings.TrimPrefix(first, "-- "), rest
		}
		out = append(out, readmeQuery{q, only, full})
	}
	return out
}

// Every query of docs/mirror.md runs unchanged on the databases it is for over
// a mirror of the same fake data, and finds rows; the two databases give
// the same rows (booleans as 0/1, numbers and times in one spelling), and
// the queries whose answer is cheap to work out from the fake's records
// give that answer.
func TestREADMEQueries(t *testing.T) {
	queries := readmeQueries(t)
	if len(queries) < 8 {
		t.Fatalf("found %d queries in docs/mirror.md", len(queries))
	}
	srv := newFake(t, ordermsgtest.Config{Seed: 5, Websites: 2, OrdersPerWebsite: 60, MessagesPerWebsite: 80})
	want := readmeAnswers(srv)
	results := map[string][][]string{} // backend name: the rows of each query for both
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		db := be.Open(t, target)
		m := openMirror(t, be, db)
		// A fleet of the two websites and a third that fails (a key of
		// no account), for the queries of mirror_website_states.
		bad := clientOf(t, srv.URL, site{id: 1003, key: "omk_no_such_account"})
		if res, _ := m.SyncFleet(context.Background(), fleetOf(siteOf(t, srv, 0), siteOf(t, srv, 1), bad), nil); res.Synced != 2 || res.Failed != 1 {
			t.Fatalf("the fleet: %+v", res)
		}
		var all [][]string
		ran := 0
		for _, q := range queries {
			if q.only != "" && q.only != be.Name {
				continue
			}
			ran++
			rows := normalizedRows(t, db, q.sql)
			if len(rows) == 0 {
				t.Errorf("no rows:\n%s", q.sql)
			}
			for marker, w := range want {
				if strings.Contains(q.sql, marker) && !slices.Equal(rows, w) {
					t.Errorf("%d rows, want %d from the fake's data:\n%s\n got  %.300q\n want %.300q", len(rows), len(w), q.sql, rows, w)
				}
			}
			if strings.Contains(q.sql, "FROM mirror_website_states") && (len(rows) != 1 || !strings.HasPrefix(rows[0], "1003|failed|") ||
				(q.only != "" && !strings.HasPrefix(rows[0], "1003|failed|ordermsg: GET "))) {
				t.Errorf("the websites that failed or have not synced: %q, want website 1003's failure alone:\n%s", rows, q.sql)
			}
			if q.only == "" {
				all = append(all, rows)
			}
		}
		// A website whose last run ok is two hours old shows too.
		update := "UPDATE mirror_runs SET started_at = $1, finished_at = $1 WHERE website_id = 1001"
		var old any = time.Now().Add(-2 * time.Hour).UTC()
		if be.Name == "SQLite" {
			update = strings.ReplaceAll(update, "$1", "?1")
			old = old.(time.Time).Format("2006-01-02T15:04:05.000000Z")
		}
		if _, err := db.Exec(update, old); err != nil {
			t.Fatal(err)
		}
		for _, q := range queries {
			if strings.Contains(q.sql, "FROM mirror_website_states") && q.only == be.Name {
				if rows := normalizedRows(t, db, q.sql); len(rows) != 2 || !strings.HasPrefix(rows[0], "1001|ok|NULL|") {
					t.Errorf("with website 1001 synced two hours ago: %q", rows)
				}
			}
		}
		// A query for one backend has its twin for the other.
		if 2*(len(queries)-ran) != countOnly(queries) {
			t.Errorf("ran %d of the %d queries, %d of them for one backend", ran, len(queries), countOnly(queries))
		}
		results[be.Name] = all
	})
	sqlite, postgres := results["SQLite"], results["PostgreSQL"]
	if sqlite == nil || postgres == nil {
		return // one backend only: compared with the fake's data above
	}
	var both []string
	for _, q := range queries {
		if q.only == "" {
			both = append(both, q.sql)
		}
	}
	for i, q := range both {
		if !slices.Equal(sqlite[i], postgres[i]) {
			t.Errorf("SQLite and PostgreSQL differ (%d and %d rows):\n%s", len(sqlite[i]), len(postgres[i]), q)
			for j := range min(3, len(sqlite[i]), len(postgres[i])) {
				t.Errorf("  SQLite     %s\n  PostgreSQL %s", sqlite[i][j], postgres[i][j])
			}
		}
	}
}

// TestREADMEShowsTestedQueries: each SQL block of the README is one of
// docs/mirror.md's, which TestREADMEQueries runs.
func TestREADMEShowsTestedQueries(t *testing.T) {
	blocks := strings.Split(string(rootFile(t, "README.md")), "```sql\n")[1:]
	if len(blocks) == 0 {
		t.Fatal("the README shows no SQL")
	}
	tested := readmeQueries(t)
	for _, block := range blocks {
		q, _, _ := strings.Cut(block, "```")
		q = strings.TrimSuffix(strings.TrimSpace(q), ";")
		if !slices.ContainsFunc(tested, func(r readmeQuery) bool { return r.full == q }) {
			t.Errorf("the README's query is none of docs/mirror.md's:\n%s", q)
		}
	}
}

// countOnly is the number of queries for one backend.
func countOnly(queries []readmeQuery) int {
	n := 0
	for _, q := range queries {
		if q.only != "" {
			n++
		}
	}
	return n
}

// readmeAnswers works out, from the fake's records, the rows of the documented
// queries that are cheap to compute, keyed by a string of the query.
func readmeAnswers(srv *ordermsgtest.Server) map[string][]string {
	type sums struct{ n, sum int64 }
	revenue := map[string]*sums{} // currency|day in the README's zone, UTC+9 all year
	tokyo := time.FixedZone("Asia/Tokyo", 9*3600)
	sold := map[string]*sums{} // sku|currency: quantity, subtotal
	add := func(m map[string]*sums, key string, n, sum int64) {
		if m[key] == nil {
			m[key] = &sums{}
		}
		m[key].n += n
		m[key].sum += sum
	}
	srv.Handler.Snapshot(func(ds *ordermsgtest.Dataset) {
		for _, w := range ds.Websites {
			for _, o := range w.Orders {
				if !o.DateCreated.Before(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)) {
					day := o.DateCreated.In(tokyo).Format(time.DateOnly)
					add(revenue, o.Currency+"|"+day, 1, o.Pricing.Total)
				}
				for _, it := range o.Items {
					add(sold, it.SKU+"|"+o.Currency, int64(it.Quantity), it.Pricing.Subtotal)
				}
			}
		}
	})
	rows := func(m map[string]*sums) []string {
		var out []string
		for k, s := range m {
			out = append(out, fmt.Sprintf("%s|%d|%d", k, s.n, s.sum))
		}
		slices.Sort(out)
		return out
	}
	return map[string][]string{
		"AS day, count(*) AS orders, sum(total) AS revenue": rows(revenue),
		"sum(i.quantity) AS sold":                           rows(sold),
	}
}

// normalizedRows is rowsOf with every value in one spelling whatever the
// backend: a boolean as 0 or 1, a number (PostgreSQL gives sums as numeric
// text) in Go's shortest form.
func normalizedRows(t *testing.T, db *sql.DB, query string) []string {
	t.Helper()
	var out []string
	for _, vals := range rowValues(t, db, query) {
		parts := make([]string, len(vals))
		for i, v := range vals {
			parts[i] = normalized(v)
		}
		out = append(out, strings.Join(parts, "|"))
	}
	slices.Sort(out)
	return out
}

// normalized is a value of a row as text, the same for both backends: a
// time (a timestamptz of PostgreSQL) as SQLite's UTC RFC 3339 text.
func normalized(v any) string {
	switch v := v.(type) {
	case nil:
		return "NULL"
	case time.Time:
		return v.UTC().Format(time.RFC3339)
	case bool:
		if v {
			return "1"
		}
		return "0"
	case []byte:
		return normalized(string(v))
	case int64:
		return strconv.FormatInt(v, 10)
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case string:
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			return strconv.FormatInt(n, 10)
		}
		return v
	}
	return fmt.Sprint(v)
}
