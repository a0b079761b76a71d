package mirror_test

import (
	"os"
	"strings"
	"testing"

	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// readmeQueries are the SQL blocks of the README's section on the mirror.
func readmeQueries(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n## A mirror in SQLite or PostgreSQL")
	if !ok {
		t.Fatal("the README has no section on the mirror")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var out []string
	for _, block := range strings.Split(section, "```sql\n")[1:] {
		q, _, _ := strings.Cut(block, "```")
		out = append(out, strings.TrimSuffix(strings.TrimSpace(q), ";"))
	}
	return out
}

// Every query of the README runs unchanged on both databases, and finds
// rows in a mirror of the fake's data.
func TestREADMEQueries(t *testing.T) {
	queries := readmeQueries(t)
	if len(queries) < 8 {
		t.Fatalf("found %d queries in the README", len(queries))
	}
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		srv := newFake(t, ordermsgtest.Config{Seed: 5, Websites: 2, OrdersPerWebsite: 60, MessagesPerWebsite: 80})
		db := be.Open(t, target)
		m := openMirror(t, be, db)
		syncSite(t, m, siteOf(t, srv, 0), nil)
		syncSite(t, m, siteOf(t, srv, 1), nil)
		for _, q := range queries {
			if rows := rowsOf(t, db, q); len(rows) == 0 {
				t.Errorf("no rows:\n%s", q)
			}
		}
	})
}
