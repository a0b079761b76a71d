package mirror

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"iter"
	"strings"
	"time"
)

// changesPage is the number of changes one query reads.
const changesPage = 1000

// FollowPollInterval is how often FollowChanges reads a SQLite database
// for new changes. In PostgreSQL it wakes on the NOTIFY that a transaction
// sends as it commits, and reads anyway after pgFallbackPoll without one
// (a change held back by another transaction in flight, see Changes).
const FollowPollInterval = 250 * time.Millisecond

// pgFallbackPoll is how long FollowChanges waits for a NOTIFY in
// PostgreSQL before it reads again all the same.
const pgFallbackPoll = time.Second

// Changes returns the changes recorded after the cursor after (every
// change kept, for ""), that f lets through (nil: all), in cursor order,
// up to at least every change committed before the call; then it ends. A consumer that
// keeps the Cursor of the last change it processed, and reads on from it,
// never misses a change and never sees one twice, with any number of
// writers at once: in PostgreSQL it reads only the changes of transactions
// older than the oldest still in flight (docs/mirror.md#changes), so that a
// change committed later never lands behind a cursor read. A cursor that is
// malformed or not this database's yields a *CursorError, and one older
// than the changes kept one that matches ErrCursorExpired; errors of the
// database match ErrDatabase. The iteration stops at its first error.
func (m *Mirror) Changes(ctx context.Context, after string, f *ChangeFilter) iter.Seq2[Change, error] {
	return m.changes(ctx, after, f, false)
}

// FollowChanges is Changes that does not end: after the changes recorded,
// it waits for new ones and yields each soon after its transaction
// commits, until ctx ends; then it ends without an error. In PostgreSQL it
// listens (LISTEN) for the NOTIFY each writer's transaction sends; in
// SQLite it reads every FollowPollInterval. It holds one connection of the
// pool while it runs.
func (m *Mirror) FollowChanges(ctx context.Context, after string, f *ChangeFilter) iter.Seq2[Change, error] {
	return m.changes(ctx, after, f, true)
}

func (m *Mirror) changes(ctx context.Context, after string, f *ChangeFilter, follow bool) iter.Seq2[Change, error] {
	return func(yield func(Change, error) bool) {
		if err := f.check(); err != nil {
			yield(Change{}, err)
			return
		}
		conn, err := m.conn(ctx)
		if err != nil {
			if !follow || ctx.Err() == nil {
				yield(Change{}, dbErrOf(ctx, err))
			}
			return
		}
		r := &changeReader{ops: m.ops, conn: conn, filter: f}
		defer r.close()
		err = r.start(ctx, after)
		if err == nil {
			err = r.read(ctx, follow, yield)
		}
		var cursorErr *CursorError
		switch {
		case err == nil:
		case follow && ctx.Err() != nil:
		case errors.As(err, &cursorErr):
			yield(Change{}, err)
		default:
			yield(Change{}, dbErrOf(ctx, err))
		}
	}
}

// read yields the changes from r's position on, page by page, until the
// changes committed before it started are all read, or with follow until
// ctx ends. It returns nil once done or once yield asks it to stop, else
// the error that stopped it.
func (r *changeReader) read(ctx context.Context, follow bool, yield func(Change, error) bool) error {
	for {
		// Read only once the changes committed before the call are all
		// readable (PostgreSQL: no earlier transaction holds them back):
		// then a short page is the end of them.
		settled, err := r.settled(ctx)
		if err != nil {
			return err
		}
		page, err := r.page(ctx)
		if err != nil {
			return err
		}
		for _, c := range page {
			if !yield(c, nil) {
				return nil
			}
		}
		switch {
		case len(page) == changesPage:
		case !follow && settled:
			return nil
		default:
			if err := r.wait(ctx); err != nil {
				return err
			}
		}
	}
}

// changeReader reads the changes on a connection of its own.
type changeReader struct {
	ops       backendOps
	conn      *sql.Conn
	filter    *ChangeFilter
	origin    string
	at        position // of the last change read
	listening bool
	// committed is, in PostgreSQL, the newest transaction that had
	// committed changes when the reader started.
	committed int64
	// backoff is, in PostgreSQL, how long the last wait for changes held
	// back lasted (see wait).
	backoff time.Duration
}

// settled reports whether every change committed before the reader
// started is readable (see feedOps.settled).
func (r *changeReader) settled(ctx context.Context) (bool, error) { return r.ops.settled(ctx, r) }

// start checks the cursor after and reads from it, once the backend's
// reader has started (see feedOps.listen).
func (r *changeReader) start(ctx context.Context, after string) error {
	if err := r.ops.listen(ctx, r); err != nil {
		return err
	}
	var prunedXID, prunedSeq sql.NullInt64
	cols, _ := r.ops.positionSQL("pruned_")
	if err := r.conn.QueryRowContext(ctx, "SELECT origin, "+cols+" FROM mirror_changes_state").Scan(&r.origin, &prunedXID, &prunedSeq); err != nil {
		return err
	}
	pruned := position{prunedXID.Int64, prunedSeq.Int64}
	if after == "" {
		return nil
	}
	p, ok := r.ops.parseCursor(r.origin, after)
	switch {
	case !ok:
		return &CursorError{Cursor: after}
	case p.less(pruned):
		return &CursorError{Cursor: after, Expired: true}
	case p == pruned:
		r.at = p
		return nil
	}
	var n int
	at, args := r.ops.readable("", "=", p)
	if err := r.conn.QueryRowContext(ctx, r.ops.rebind("SELECT count(*) FROM mirror_changes WHERE "+at), args...).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return &CursorError{Cursor: after}
	}
	r.at = p
	return nil
}

// page reads the next changes, up to changesPage of them.
func (r *changeReader) page(ctx context.Context) ([]Change, error) {
	after, args := r.ops.readable("c.", ">", r.at)
	where := []string{after}
	if f := r.filter; f != nil && f.WebsiteID != 0 {
		where, args = append(where, "c.website_id = ?"), append(args, f.WebsiteID)
	}
	if f := r.filter; f != nil && f.Resource != "" {
		where, args = append(where, "c.resource = ?"), append(args, f.Resource)
	}
	cols, order := r.ops.positionSQL("c.")
	q := fmt.Sprintf(`SELECT %s, c.website_id, c.resource, c.id, c.change, c.recorded_at, CAST(c.record AS TEXT)
		FROM mirror_change_records c WHERE %s ORDER BY %s LIMIT %d`, cols, strings.Join(where, " AND "), order, changesPage)
	rows, err := r.conn.QueryContext(ctx, r.ops.rebind(q), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make([]Change, 0, changesPage)
	for rows.Next() {
		var c Change
		var p position
		var kind string
		at := stampScanner{&c.At}
		if err := rows.Scan(&p.xid, &p.seq, &c.WebsiteID, &c.Resource, &c.ID, &kind, &at, &c.Record); err != nil {
			return nil, err
		}
		c.Kind = ChangeKind(kind)
		c.Cursor = r.ops.cursor(r.origin, p)
		r.at = p
		out = append(out, c)
	}
	return out, rows.Err()
}

// wait returns when there may be new changes to read (see feedOps.wait).
// It returns ctx's error once ctx ends.
func (r *changeReader) wait(ctx context.Context) error { return r.ops.wait(ctx, r) }

// close hands the connection back; one that listened is closed instead, so
// that no connection of the pool gathers notifications that nobody reads.
func (r *changeReader) close() {
	if r.listening {
		r.conn.Raw(func(any) error { return errBadConn })
	}
	r.conn.Close()
}

// stampScanner scans a typeStamp column into *t: a time in PostgreSQL,
// RFC 3339 text in SQLite.
type stampScanner struct{ t *time.Time }

func (s *stampScanner) Scan(v any) error {
	switch v := v.(type) {
	case time.Time:
		*s.t = v
		return nil
	case string:
		t, err := time.Parse(time.RFC3339Nano, v)
		*s.t = t
		return err
	case []byte:
		t, err := time.Parse(time.RFC3339Nano, string(v))
		*s.t = t
		return err
	}
	return fmt.Errorf("mirror: a time stored as %T", v)
}

// Change returns the change at cursor, as Changes yields it: for a program
// that keeps cursors and reads each change again later, such as a webhook
// delivery. A cursor that is malformed or not this database's yields a
// *CursorError, and one of a change no longer kept one that matches
// ErrCursorExpired; errors of the database match ErrDatabase.
func (m *Mirror) Change(ctx context.Context, cursor string) (Change, error) {
	if cursor == "" {
		return Change{}, &CursorError{Cursor: cursor}
	}
	conn, err := m.conn(ctx)
	if err != nil {
		return Change{}, dbErrOf(ctx, err)
	}
	r := &changeReader{ops: m.ops, conn: conn}
	defer r.close()
	if err := r.start(ctx, cursor); err != nil {
		var cursorErr *CursorError
		if errors.As(err, &cursorErr) {
			return Change{}, err
		}
		return Change{}, dbErrOf(ctx, err)
	}
	at := r.at
	r.at.seq-- // seq is unique: the page then starts at the change itself
	page, err := r.page(ctx)
	if err != nil {
		return Change{}, dbErrOf(ctx, err)
	}
	if len(page) == 0 || r.ops.cursor(r.origin, at) != page[0].Cursor {
		return Change{}, &CursorError{Cursor: cursor, Expired: true}
	}
	return page[0], nil
}
