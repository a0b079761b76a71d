package mirror

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
	"time"

	"github.com/ordermsg/ordermsg-go"
)

// batchSize is the largest number of records of one transaction.
const batchSize = 500

// insertRows is the largest number of rows of one INSERT statement: a whole
// batch, one statement per transaction (500 rows of 14 columns are 7,000
// parameters, under SQLite's limit of 32,766 and PostgreSQL's of 65,535).
// Statements of 100 rows took about 10% longer (BENCHMARKS.md).
const insertRows = batchSize

// syncTable brings one table of a website up to date: the records created
// since its checkpoint, then (with RefreshDays) the recent ones again.
func syncTable[T any](ctx context.Context, r *run, t *table[T]) (Counts, error) {
	// The database work is not cancelled with ctx, so that an interrupted
	// run commits what it has read.
	dbctx := context.WithoutCancel(ctx)
	var counts Counts
	err := r.m.withConn(ctx, func(conn *sql.Conn) error {
		unlock, err := r.m.lock(ctx, conn, r.site, t.name)
		if err != nil {
			return dbErr(err)
		}
		defer unlock()
		w := &writer[T]{b: r.m.backend, conn: conn, t: t, site: r.site}
		cp, err := w.checkpoint(dbctx)
		if err != nil {
			return dbErr(err)
		}
		w.start(dbctx)
		defer func() { counts = w.counts }() // after finish, below
		defer w.finish(nil)
		for v, err := range t.sync(ctx, r.c, r.site, &cp, r.opts.PageSize) {
			if err != nil {
				return joinFlush(err, w.finish(&cp))
			}
			r.progress()
			if err := w.add(v, &cp); err != nil {
				return err
			}
		}
		if err := w.send(&cp); err != nil || r.opts.RefreshDays == 0 || cp.IsZero() {
			return cmp.Or(err, w.finish(nil))
		}
		// Refresh: the records created from RefreshDays before the newest
		// on, listed from two days earlier whatever the server's reading of
		// date_start, up to the checkpoint (what comes after is the next
		// Sync's).
		from := r.refreshFrom(cp.Mark())
		var since ordermsg.Date // from the beginning, for a zero from
		if !from.IsZero() {
			since = ordermsg.DateOf(from.UTC().AddDate(0, 0, -2))
		}
		for v, err := range t.all(ctx, r.c, r.site, since, r.opts.PageSize, ordermsg.WithConcurrency(r.opts.Concurrency)) {
			if err != nil {
				return joinFlush(err, w.finish(nil))
			}
			if created := t.created(v); created.Before(from) || created.After(cp.Mark()) {
				continue
			}
			r.progress()
			if err := w.add(v, nil); err != nil {
				return err
			}
		}
		return w.finish(nil)
	})
	return counts, err
}

// joinFlush is the walk's error, with the flush's text when that failed
// too: the walk's error is the cause (errors.Is sees it, not ErrDatabase).
func joinFlush(walkErr, flushErr error) error {
	if flushErr != nil {
		return fmt.Errorf("%w (and saving what was read: %v)", walkErr, flushErr)
	}
	return walkErr
}

// lock takes the lock of a website's resource, in PostgreSQL: an advisory
// lock of the session of conn, waited for, held until unlock. In SQLite,
// whose transactions are serialized by the database, it takes nothing.
func (m *Mirror) lock(ctx context.Context, conn *sql.Conn, site int64, resource string) (unlock func(), err error) {
	if m.backend != PostgreSQL {
		return func() {}, nil
	}
	h := fnv.New64a()
	fmt.Fprintf(h, "ordermsg mirror %s of website %d", resource, site)
	key := int64(h.Sum64())
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", key); err != nil {
		return nil, fmt.Errorf("mirror: waiting for the lock of website %d's %s: %w", site, resource, err)
	}
	return func() {
		if _, err := conn.ExecContext(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", key); err != nil {
			// The lock belongs to the session: end it rather than return
			// it to the pool still locked.
			conn.Raw(func(any) error { return errBadConn })
		}
	}, nil
}

// writer writes the records of one table in transactions of up to
// batchSize, each with the checkpoint that covers them. Records wait in
// memory until a batch is full; the batch is then written by the writer's
// own goroutine while the walk goes on, so that the network and the
// database overlap. A transaction holds only database work: it never waits
// for a page.
type writer[T any] struct {
	b       Backend
	conn    *sql.Conn
	t       *table[T]
	site    int64
	pending []*T

	jobs    chan batch[T]
	done    chan struct{} // closed when the goroutine has ended
	stopped bool          // jobs is closed
	err     error         // the goroutine's, read after done
	counts  Counts        // the goroutine's, read after done
}

// batch is what one transaction writes: records and, unless nil, the
// checkpoint (as JSON) that covers them.
type batch[T any] struct {
	records    []*T
	checkpoint []byte
	mark       time.Time
}

// start starts the goroutine that writes the batches.
func (w *writer[T]) start(ctx context.Context) {
	w.jobs, w.done = make(chan batch[T]), make(chan struct{})
	go func() {
		defer close(w.done)
		for b := range w.jobs {
			if err := w.flush(ctx, b); err != nil {
				w.err = err
				return
			}
		}
	}()
}

// add keeps v for the next batch, and sends the batch, with cp, once it is
// full. It returns the error of an earlier batch.
func (w *writer[T]) add(v *T, cp *ordermsg.Checkpoint) error {
	w.pending = append(w.pending, v)
	if len(w.pending) >= batchSize {
		return w.send(cp)
	}
	return nil
}

// send hands the pending records, with cp when not nil, to the goroutine.
// It waits while the goroutine writes the batch before (so that at most two
// batches are held), and returns the error of an earlier batch.
func (w *writer[T]) send(cp *ordermsg.Checkpoint) error {
	b := batch[T]{records: w.pending}
	w.pending = nil
	if cp != nil {
		raw, err := json.Marshal(cp)
		if err != nil {
			return err
		}
		b.checkpoint, b.mark = raw, cp.Mark()
	}
	if len(b.records) == 0 && b.checkpoint == nil {
		return nil
	}
	select {
	case w.jobs <- b:
		return nil
	case <-w.done:
		return w.err
	}
}

// finish sends what is pending (with cp when not nil), waits for every
// batch to be written and returns the first error. Later calls do nothing
// but return it.
func (w *writer[T]) finish(cp *ordermsg.Checkpoint) error {
	if !w.stopped {
		sendErr := w.send(cp)
		w.stopped = true
		close(w.jobs)
		<-w.done
		if sendErr != nil && w.err == nil {
			w.err = sendErr
		}
	}
	return w.err
}

// checkpoint reads the table's stored checkpoint, zero when none.
func (w *writer[T]) checkpoint(ctx context.Context) (ordermsg.Checkpoint, error) {
	var cp ordermsg.Checkpoint
	var raw string
	err := w.conn.QueryRowContext(ctx, w.b.rebind("SELECT checkpoint FROM sync_state WHERE website_id = ? AND resource = ?"), w.site, w.t.name).Scan(&raw)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return cp, nil
	case err != nil:
		return cp, err
	}
	if err := json.Unmarshal([]byte(raw), &cp); err != nil {
		return cp, fmt.Errorf("mirror: the stored checkpoint of website %d's %s: %w", w.site, w.t.name, err)
	}
	return cp, nil
}

// flush writes a batch in one transaction, with its checkpoint unless the
// stored one is ahead of it (another run went further).
func (w *writer[T]) flush(ctx context.Context, b batch[T]) error {
	var counts Counts
	err := inTx(ctx, w.b, w.conn, func() error {
		var err error
		if counts, err = w.write(ctx, b.records); err == nil && b.checkpoint != nil {
			err = w.saveCheckpoint(ctx, b.checkpoint, b.mark)
		}
		return err
	})
	if err != nil {
		return dbErr(fmt.Errorf("mirror: writing website %d's %s: %w", w.site, w.t.name, err))
	}
	w.counts.New += counts.New
	w.counts.Updated += counts.Updated
	w.counts.Unchanged += counts.Unchanged
	return nil
}

// write inserts the records that are new and updates those whose JSON
// changed. The inserts come first, skipping the records the table holds and
// returning the ids of those they added, so that a run of new records does
// not read the table at all.
func (w *writer[T]) write(ctx context.Context, records []*T) (Counts, error) {
	var c Counts
	// The last of a record listed twice wins.
	byID := make(map[int64]*T, len(records))
	var ids []int64
	for _, v := range records {
		id := w.t.id(v)
		if _, ok := byID[id]; !ok {
			ids = append(ids, id)
		}
		byID[id] = v
	}
	added := make(map[int64]bool, len(ids))
	fresh := ids
	var stored map[int64]string
	if w.b == SQLite {
		// In process, reading first is cheap, and inserting only what is
		// new is cheaper than letting the inserts skip what is not.
		var err error
		if stored, err = w.stored(ctx, ids); err != nil {
			return c, err
		}
		fresh = slices.DeleteFunc(slices.Clone(ids), func(id int64) bool { _, ok := stored[id]; return ok })
	}
	for rest := fresh; len(rest) > 0; {
		n := min(len(rest), insertRows)
		if err := w.insert(ctx, rest[:n], byID, added); err != nil {
			return c, err
		}
		rest = rest[n:]
	}
	c.New = len(added)
	var held []int64
	for _, id := range ids {
		if !added[id] {
			held = append(held, id)
		}
	}
	if stored == nil {
		var err error
		if stored, err = w.stored(ctx, held); err != nil {
			return c, err
		}
	}
	for _, id := range held {
		v := byID[id]
		if stored[id] == string(w.t.raw(v)) {
			c.Unchanged++
			continue
		}
		if err := w.update(ctx, v); err != nil {
			return c, err
		}
		c.Updated++
	}
	return c, nil
}

// stored returns the JSON of the records with the given ids that the table
// holds.
func (w *writer[T]) stored(ctx context.Context, ids []int64) (map[int64]string, error) {
	out := make(map[int64]string, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	q := fmt.Sprintf("SELECT id, CAST(json AS TEXT) FROM %s WHERE website_id = ? AND id IN (%s)", w.t.name, marks(len(ids)))
	args := []any{w.site}
	for _, id := range ids {
		args = append(args, id)
	}
	rows, err := w.conn.QueryContext(ctx, w.b.rebind(q), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var raw string
		if err := rows.Scan(&id, &raw); err != nil {
			return nil, err
		}
		out[id] = raw
	}
	return out, rows.Err()
}

// insert adds rows for the records with the given ids, skipping those the
// table holds, and notes in added the ids it added.
func (w *writer[T]) insert(ctx context.Context, ids []int64, byID map[int64]*T, added map[int64]bool) error {
	row := "(" + marks(len(w.t.columns)) + ")"
	values := strings.TrimSuffix(strings.Repeat(row+", ", len(ids)), ", ")
	q := fmt.Sprintf("INSERT INTO %s (%s) VALUES %s ON CONFLICT (website_id, id) DO NOTHING",
		w.t.name, strings.Join(w.t.columns, ", "), values)
	args := make([]any, 0, len(ids)*len(w.t.columns))
	for _, id := range ids {
		args = append(args, w.t.row(w.site, byID[id])...)
	}
	if w.b == SQLite {
		// The write transaction excludes every other writer, and the
		// records read first were left out: every row is added.
		if _, err := w.conn.ExecContext(ctx, q, args...); err != nil {
			return err
		}
		for _, id := range ids {
			added[id] = true
		}
		return nil
	}
	rows, err := w.conn.QueryContext(ctx, w.b.rebind(q+" RETURNING id"), args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return err
		}
		added[id] = true
	}
	return rows.Err()
}

// update writes every column of v's row.
func (w *writer[T]) update(ctx context.Context, v *T) error {
	sets := make([]string, 0, len(w.t.columns))
	for _, c := range w.t.columns[2:] {
		sets = append(sets, c+" = ?")
	}
	row := w.t.row(w.site, v)
	q := fmt.Sprintf("UPDATE %s SET %s WHERE website_id = ? AND id = ?", w.t.name, strings.Join(sets, ", "))
	_, err := w.conn.ExecContext(ctx, w.b.rebind(q), append(row[2:], row[0], row[1])...)
	return err
}

// saveCheckpoint stores cp, whose mark is mark, unless the stored checkpoint's mark is later:
// a run that started at the same time went further, and a checkpoint moved
// back would only make the next run read again what is mirrored.
func (w *writer[T]) saveCheckpoint(ctx context.Context, cp []byte, mark time.Time) error {
	stored, err := w.checkpoint(ctx)
	if err != nil || stored.Mark().After(mark) {
		return err
	}
	_, err = w.conn.ExecContext(ctx, w.b.rebind(`INSERT INTO sync_state (website_id, resource, checkpoint) VALUES (?, ?, ?)
		ON CONFLICT (website_id, resource) DO UPDATE SET checkpoint = excluded.checkpoint`), w.site, w.t.name, string(cp))
	return err
}

// marks is n placeholders separated by commas.
func marks(n int) string { return strings.TrimSuffix(strings.Repeat("?, ", n), ", ") }
