package mirror

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/internal/listtotals"
)

// syncTable brings one table of a website up to date: the records created
// since its checkpoint, then (with RefreshDays) the recent ones again, or
// (with Reconcile) every one.
func syncTable(ctx context.Context, r *run, t *table) (Counts, error) {
	var counts Counts
	err := r.withConn(ctx, func(conn *sql.Conn) error {
		unlock, err := r.m.lock(ctx, conn, r.site, t.name)
		if err != nil {
			return dbErrOf(ctx, err)
		}
		defer unlock()
		p := &pass{r: r, conn: conn, t: t, began: time.Now()}
		defer func() { counts = p.counts }()
		if err := p.loadRefusedIDs(context.WithoutCancel(ctx)); err != nil {
			return dbErr(err)
		}
		cp, err := p.fresh(ctx)
		switch {
		case err != nil:
			return err
		case r.opts.Reconcile:
			// Before the first record, every record the table holds is
			// one the server no longer lists.
			return p.reconcile(ctx, cmp.Or(cp.Mark(), time.Now()))
		case r.opts.RefreshDays > 0 && !cp.IsZero():
			return p.refresh(ctx, cp.Mark())
		}
		return nil
	})
	return counts, err
}

// pass reads a table's records and writes them, one writer at a time, on
// the connection that holds the table's lock.
type pass struct {
	r          *run
	conn       *sql.Conn
	t          *table
	refusedIDs map[int64]bool // see writer.refusedIDs
	began      time.Time      // before the first request of the table
	counts     Counts
	// seen are the records that the new-records pass wrote or refused,
	// kept for a reconcile only, whose listing goes past them: a run
	// counts (and writes) each record once.
	seen map[seenKey]bool
}

// seenKey names a record the new-records pass met: by id, or for a
// refused record whose id cannot be read by the digest of its bytes (see
// contentDigest).
type seenKey struct {
	id     int64
	digest string
}

// key is the seenKey of what a walk yielded, and false for an error of the
// walk itself.
func (p *pass) key(v *ordermsg.RawRecord, err error) (seenKey, bool) {
	var bad *ordermsg.RecordDecodeError
	switch {
	case err == nil:
		return seenKey{id: v.ID}, true
	case !errors.As(err, &bad):
		return seenKey{}, false
	}
	if id, ok := refusedID(bad); ok {
		return seenKey{id: id}, true
	}
	return seenKey{digest: string(contentDigest(bad.Raw))}, true
}

// writer starts a writer of the table's rows; its counts are added to the
// pass's by done.
func (p *pass) writer(ctx context.Context, insertFirst bool) *writer {
	// The database work is not cancelled with ctx, so that an interrupted
	// run commits what it has read.
	return newWriter(context.WithoutCancel(ctx), p, insertFirst)
}

// done finishes w, with cp when not nil, adds its counts, and returns err
// (the walk's, the writer's, or nil) joined with the writer's.
func (p *pass) done(w *writer, cp *ordermsg.Checkpoint, err error) error {
	werr := w.finish(cp)
	p.counts.add(w.counts)
	if err != nil && werr != err {
		return joinFlush(err, werr)
	}
	return cmp.Or(err, werr)
}

// take hands what a walk yielded to w: a record, read at the time of resp,
// or one that could not be decoded; cp, when not nil, covers it. It returns
// the walk's error, or the writer's.
func (p *pass) take(w *writer, v *ordermsg.RawRecord, err error, resp *ordermsg.Response, cp *ordermsg.Checkpoint) error {
	var bad *ordermsg.RecordDecodeError
	switch {
	case errors.As(err, &bad):
		p.r.progress()
		return w.refuse(bad, resp.ReceivedAt, cp)
	case err != nil:
		return err
	}
	p.r.progress()
	return w.add(v, resp.ReceivedAt, cp)
}

// fresh mirrors the records created since the table's checkpoint, which it
// advances, and returns it.
func (p *pass) fresh(ctx context.Context) (ordermsg.Checkpoint, error) {
	w := p.writer(ctx, true)
	cp, err := w.checkpoint(context.WithoutCancel(ctx))
	if err != nil {
		return cp, p.done(w, nil, dbErr(err))
	}
	if p.r.opts.Reconcile {
		p.seen = map[seenKey]bool{}
	}
	var resp ordermsg.Response
	for v, err := range p.t.sync(ctx, p.r.c, p.r.site, &cp, p.r.opts.PageSize, &resp) {
		if k, ok := p.key(v, err); ok && p.seen != nil {
			p.seen[k] = true
		}
		if err := p.take(w, v, err, &resp, &cp); err != nil {
			return cp, p.done(w, &cp, err)
		}
	}
	return cp, p.done(w, &cp, nil)
}

// refresh reads again the records created from RefreshDays before mark on,
// listed from two days earlier whatever the server's reading of date_start,
// up to mark (what comes after is the next Sync's).
func (p *pass) refresh(ctx context.Context, mark time.Time) error {
	from := p.r.refreshFrom(mark)
	var since ordermsg.Date // from the beginning, for a zero from
	if !from.IsZero() {
		since = ordermsg.DateOf(from.UTC().AddDate(0, 0, -2))
	}
	w := p.writer(ctx, false)
	var resp ordermsg.Response
	for v, err := range p.t.all(ctx, p.r.c, p.r.site, since, p.r.opts.PageSize, p.r.opts.Concurrency, &resp) {
		if bad := p.undated(v, err); bad != nil {
			v, err = nil, bad
		} else if err == nil {
			if created := v.DateCreated.Time; created.Before(from) || created.After(mark) {
				continue
			}
		}
		if err := p.take(w, v, err, &resp, nil); err != nil {
			return p.done(w, nil, err)
		}
	}
	return p.done(w, nil, nil)
}

// maxListings is how many times a reconcile lists a table whose list
// shifts under it before it settles by retrieves what its listings did not
// show.
const maxListings = 3

// reconcile reads every record the server lists, up to mark (what comes
// after is the next Sync's), and writes those that are new or changed; then
// it asks the server for each live record of the table that the listing did
// not show: a record the server no longer has (404) gets deleted_at, one it
// has is written as read. The checkpoint does not move.
//
// A listing whose list shifted (records left it between two pages) skipped
// as many records as left, of any kind: one shown late, one of an id that
// cannot be retrieved, one marked deleted that the server lists again. So
// the table is listed again, up to maxListings times, until a listing does
// not shift; what no listing showed is then settled as above. When every
// listing shifted, absence proves nothing: every record the listings did
// not show, those marked deleted too, is retrieved, and one whose id is not
// positive is left as it is.
func (p *pass) reconcile(ctx context.Context, mark time.Time) error {
	listed := map[int64]bool{}
	shifted := true
	for listing := 1; shifted && listing <= maxListings; listing++ {
		var err error
		if shifted, err = p.list(ctx, mark, listed); err != nil {
			return err
		}
	}
	if err := p.forgetUnseenRefused(context.WithoutCancel(ctx), p.began); err != nil {
		return dbErr(err)
	}
	missing, live, err := p.notListed(context.WithoutCancel(ctx), listed, mark, shifted)
	if err != nil {
		return dbErr(err)
	}
	return p.confirm(ctx, missing, live, shifted)
}

// list lists every record of the table once, adds the ids it shows to
// listed, and writes, up to mark, those that this run has not taken yet
// (p.seen, to which it adds them: a run counts each record once). It
// reports whether the list shifted during the walk: whether a page's total
// was below that of a page before it.
func (p *pass) list(ctx context.Context, mark time.Time, listed map[int64]bool) (shifted bool, err error) {
	highest := 0
	watched := listtotals.With(ctx, func(total int) {
		shifted = shifted || total < highest
		highest = max(highest, total)
	})
	w := p.writer(ctx, false)
	var resp ordermsg.Response
	for v, err := range p.t.all(watched, p.r.c, p.r.site, ordermsg.Date{}, p.r.opts.PageSize, p.r.opts.Concurrency, &resp) {
		k, ok := p.key(v, err)
		if ok && k.digest == "" {
			listed[k.id] = true
		}
		if ok && p.seen[k] {
			continue // written or refused by this run already
		}
		if ok {
			p.seen[k] = true
		}
		if err == nil {
			if bad := p.undated(v, err); bad != nil {
				v, err = nil, bad
			} else if v.DateCreated.Time.After(mark) {
				continue
			}
		}
		if err := p.take(w, v, err, &resp, nil); err != nil {
			return shifted, p.done(w, nil, err)
		}
	}
	return shifted, p.done(w, nil, nil)
}

// undated is, for v, a record listed without date_created (err nil), the
// refusal that Sync makes of it (ordermsg.ErrNoCreationTime, neither index
// nor offset): every pass keeps such a record alike, as refused, rather
// than one mirroring it as created in year 1 and the next refusing it.
// It is nil for any other record.
func (p *pass) undated(v *ordermsg.RawRecord, err error) *ordermsg.RecordDecodeError {
	if err != nil || !v.DateCreated.Time.IsZero() {
		return nil
	}
	object, id := p.t.object, v.ID
	return &ordermsg.RecordDecodeError{Object: object, ID: id, Index: -1, Offset: -1, Raw: v.RawJSON(),
		Err: fmt.Errorf("%w: %s %d", ordermsg.ErrNoCreationTime, object, id)}
}

// unlisted is a record of the table that a reconcile's listings did not
// show.
type unlisted struct {
	id      int64
	deleted bool // marked deleted already
}

// notListed returns the table's live records of the website, created up
// to mark, and its stored refusals, that listed does not hold; with
// shifted, its records marked deleted too. It returns the number of those
// live records as well.
func (p *pass) notListed(ctx context.Context, listed map[int64]bool, mark time.Time, shifted bool) (out []unlisted, live int, err error) {
	b := p.r.m.backend
	q := "SELECT id, deleted_at IS NOT NULL FROM " + p.t.name + " WHERE website_id = ? AND date_created <= ?"
	if !shifted {
		q += " AND deleted_at IS NULL"
	}
	rows, err := p.conn.QueryContext(ctx, b.rebind(q), p.r.site, b.value(typeTime, mark))
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	for rows.Next() {
		var u unlisted
		if err := rows.Scan(&u.id, &u.deleted); err != nil {
			return nil, 0, err
		}
		if !u.deleted {
			live++
		}
		if !listed[u.id] {
			out = append(out, u)
			listed[u.id] = true
		}
	}
	for id := range p.refusedIDs {
		if !listed[id] {
			out = append(out, unlisted{id: id})
		}
	}
	return out, live, rows.Err()
}

// lookup is the answer to a retrieve of a record that a reconcile did not
// find listed.
type lookup struct {
	unlisted
	v     *ordermsg.RawRecord // nil when the server no longer has it, or it is left
	leave bool                // left as it is
	at    time.Time
	err   error
}

// confirm retrieves the records that the listings did not show,
// Concurrency at a time, and writes what it finds: the record as read (a
// record marked deleted is then live again), or that it is gone. A record
// that cannot be decoded lives, and is left as it is. A record whose id is
// not positive, which cannot be retrieved, is gone, unless the listings
// shifted: it is then left as it is. The records gone are marked deleted
// at the end, and only when they are not too many of the live ones (a
// *MassDeleteError, unless Options.AllowMassDelete).
func (p *pass) confirm(ctx context.Context, records []unlisted, live int, shifted bool) error {
	if len(records) == 0 {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	answers := p.lookUp(ctx, records, shifted)
	w := p.writer(ctx, false)
	var failed error
	var gone []lookup
	for a := range answers {
		if failed != nil {
			continue // drain, so that every worker ends
		}
		p.r.progress()
		switch {
		case a.err != nil:
			failed = a.err
		case a.v != nil:
			failed = w.add(a.v, a.at, nil)
		case a.leave, a.deleted: // a record marked deleted that is gone stays so
		default:
			gone = append(gone, a)
		}
		if failed != nil {
			cancel()
		}
	}
	if failed == nil {
		failed = p.markGone(w, gone, live)
	}
	return p.done(w, nil, failed)
}

// lookUp retrieves records, Concurrency at a time, until ctx ends, and
// sends the answer of each (see lookUpOne) on the channel it returns,
// which closes once every retrieve has ended.
func (p *pass) lookUp(ctx context.Context, records []unlisted, shifted bool) <-chan lookup {
	todo := make(chan unlisted)
	answers := make(chan lookup)
	var wg sync.WaitGroup
	for range min(p.r.opts.Concurrency, len(records)) {
		wg.Go(func() {
			for u := range todo {
				answers <- p.lookUpOne(ctx, u, shifted)
			}
		})
	}
	go func() {
		defer close(todo)
		for _, u := range records {
			select {
			case todo <- u:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(answers) }()
	return answers
}

// lookUpOne retrieves u: the record as read, gone (no record, no error),
// or left as it is when it cannot be decoded.
func (p *pass) lookUpOne(ctx context.Context, u unlisted, shifted bool) lookup {
	if u.id <= 0 {
		// The API cannot be asked for a record by an id that is not
		// positive: the SDK refuses such an id before sending. After a
		// listing that did not shift, the record the server listed once
		// and lists no more is gone (its refusal, if stored, forgotten);
		// after listings that all shifted, nothing can be told.
		return lookup{unlisted: u, leave: shifted, at: time.Now()}
	}
	var resp ordermsg.Response
	v, err := p.t.get(ctx, p.r.c, p.r.site, u.id, &resp)
	a := lookup{unlisted: u, v: v, at: resp.ReceivedAt, err: err}
	var undecodable *ordermsg.DecodeError
	switch {
	case errors.Is(err, ordermsg.ErrNotFound):
		a.err, a.at = nil, time.Now()
	case errors.As(err, &undecodable):
		a.err, a.leave = nil, true
	}
	return a
}

// markGone marks the records gone deleted with w, unless they are too many
// of the live ones (a *MassDeleteError, unless Options.AllowMassDelete).
func (p *pass) markGone(w *writer, gone []lookup, live int) error {
	if !p.r.opts.AllowMassDelete && tooManyGone(len(gone), live) {
		return &MassDeleteError{WebsiteID: p.r.site, Resource: p.t.name, Deleting: len(gone), Live: live}
	}
	for _, a := range gone {
		if err := w.markGone(a.id, a.at); err != nil {
			return err
		}
	}
	return nil
}

// joinFlush is the walk's error, with the flush's text when that failed
// too: the walk's error is the cause (errors.Is sees it, not ErrDatabase).
func joinFlush(walkErr, flushErr error) error {
	if flushErr != nil {
		return fmt.Errorf("%w (and saving what was read: %v)", walkErr, flushErr)
	}
	return walkErr
}

// lock takes the lock of a website's resource, waited for, held until
// unlock: in PostgreSQL an advisory lock of the session of conn, in SQLite
// a lease (lease.go). Runs of a website's table take turns, so that an
// older read never overwrites a newer one.
func (m *Mirror) lock(ctx context.Context, conn *sql.Conn, site int64, resource string) (unlock func(), err error) {
	h := holding{site, resource}
	release, err := m.ops.hold(ctx, m, conn, h, true)
	if err != nil {
		return nil, fmt.Errorf("mirror: waiting for %v: %w", h, err)
	}
	return func() { release() }, nil
}
