package mirror_test

import (
	"context"
	"database/sql"
	"testing"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// site is a website of the fake, with a client that reads it: from the
// fake, or from url, a handler in front of it.
type site struct {
	srv *ordermsgtest.Server
	url string
	id  int64
	key string
	c   *ordermsg.Client
}

// sqliteBackend is mirrortest's SQLite backend, for the tests of SQLite
// alone.
func sqliteBackend(t testing.TB) mirrortest.Backend {
	be := mirrortest.Backends()[0]
	if be.Backend != mirror.SQLite {
		t.Fatalf("the first backend is %v, want SQLite", be.Name)
	}
	return be
}

// postgresBackend is the PostgreSQL backend, for the tests of what
// PostgreSQL alone does.
func postgresBackend(t testing.TB) mirrortest.Backend {
	be := mirrortest.Backends()[1]
	if be.Backend != mirror.PostgreSQL {
		t.Fatalf("the second backend is %v, want PostgreSQL", be.Name)
	}
	return be
}

// mirrorOf starts a fake of cfg and opens a mirror in the database at
// target; it returns the fake, its first website, the database and the
// mirror.
func mirrorOf(t testing.TB, be mirrortest.Backend, target string, cfg ordermsgtest.Config, opts ...ordermsgtest.Option) (*ordermsgtest.Server, site, *sql.DB, *mirror.Mirror) {
	t.Helper()
	srv := newFake(t, cfg, opts...)
	db := be.Open(t, target)
	return srv, siteOf(t, srv, 0), db, openMirror(t, be, db)
}

func newFake(t testing.TB, cfg ordermsgtest.Config, opts ...ordermsgtest.Option) *ordermsgtest.Server {
	t.Helper()
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(cfg), opts...)
	t.Cleanup(srv.Close)
	return srv
}

// siteOf is the website with index i of srv's dataset.
func siteOf(t testing.TB, srv *ordermsgtest.Server, i int) site {
	t.Helper()
	var w *ordermsgtest.Website
	srv.Handler.Snapshot(func(ds *ordermsgtest.Dataset) { w = ds.Websites[i] })
	c, err := ordermsg.NewClient(srv.URL, w.APIKey)
	if err != nil {
		t.Fatal(err)
	}
	return site{srv: srv, url: srv.URL, id: w.ID, key: w.APIKey, c: c}
}

func openMirror(t testing.TB, be mirrortest.Backend, db *sql.DB) *mirror.Mirror {
	t.Helper()
	m, err := mirror.Open(context.Background(), db, be.Backend)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return m
}

func syncSite(t testing.TB, m *mirror.Mirror, s site, opts *mirror.Options) mirror.Result {
	t.Helper()
	res, err := m.Sync(context.Background(), s.c, s.id, opts)
	if err != nil {
		t.Fatalf("Sync of website %d: %v", s.id, err)
	}
	return res
}

// sameRecords fails unless the mirror's live records are exactly the
// website's, with the JSON the client reads (through the handler in front
// of the fake, if any).
func sameRecords(t testing.TB, db *sql.DB, s site) {
	t.Helper()
	srv := *s.srv
	srv.URL = s.url
	mirrortest.SameRecords(t, db, &srv, s.id, s.key)
}

// querier is a *sql.DB or a *sql.Conn.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// rowValues runs query on q and returns the values of each row, in order.
func rowValues(t testing.TB, q querier, query string) [][]any {
	t.Helper()
	rows, err := q.QueryContext(context.Background(), query)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	var out [][]any
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		out = append(out, vals)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
