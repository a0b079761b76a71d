package mirror

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestRetryOnFreshConn holds the one case in which a fleet tries a website
// again on a fresh connection: in PostgreSQL, whose idle sessions may end,
// a failure of the database before the website's Sync began, while the
// context lasts.
func TestRetryOnFreshConn(t *testing.T) {
	dbFailure := dbErr(errors.New("the session ended"))
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	cases := []struct {
		name    string
		backend Backend
		ctx     context.Context
		r       WebsiteResult
		want    bool
	}{
		{"PostgreSQL, database failed before the Sync", PostgreSQL, context.Background(), WebsiteResult{Err: dbFailure}, true},
		{"SQLite, database failed before the Sync", SQLite, context.Background(), WebsiteResult{Err: dbFailure}, false},
		{"the Sync began", PostgreSQL, context.Background(), WebsiteResult{Err: dbFailure, Started: time.Now()}, false},
		{"a failure of the API", PostgreSQL, context.Background(), WebsiteResult{Err: errors.New("503")}, false},
		{"no failure", PostgreSQL, context.Background(), WebsiteResult{}, false},
		{"the context ended", PostgreSQL, ended, WebsiteResult{Err: dbFailure}, false},
	}
	for _, c := range cases {
		f := &fleet{m: &Mirror{backend: c.backend, ops: c.backend.ops()}}
		if got := f.retryOnFreshConn(c.ctx, c.r); got != c.want {
			t.Errorf("%s: retryOnFreshConn = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestCursorsReadBack holds each backend's cursor to its reading: a
// position's cursor reads back as the position, and a cursor of the other
// backend, of another origin, or with a seq that is not positive, does not
// read.
func TestCursorsReadBack(t *testing.T) {
	for _, b := range []Backend{SQLite, PostgreSQL} {
		ops := b.ops()
		p := position{seq: 42}
		if b == PostgreSQL {
			p.xid = 7
		}
		c := ops.cursor("origin", p)
		if got, ok := ops.parseCursor("origin", c); !ok || got != p {
			t.Errorf("%v: cursor %q reads as %v, %v; want %v", b, c, got, ok, p)
		}
		for _, bad := range []string{
			ops.cursor("other", p),
			cursorText("origin", 7, 42, 1),
			cursorText("origin", p.xid, 0)[:len(c)],
			c[:len(c)-1] + "G",
		} {
			if got, ok := ops.parseCursor("origin", bad); ok {
				t.Errorf("%v: cursor %q reads as %v", b, bad, got)
			}
		}
	}
}
