package mirror

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ordermsg/ordermsg-go"
)

// batchSize is the largest number of records of one transaction, and
// batchBytes the most JSON (as sent) its records hold, past which it holds
// no more: a writer holds two batches at most (one being written, one being
// read), so that a worker's memory is bounded whatever the number and the
// size of the records. In PostgreSQL a batch's new records are one COPY;
// in SQLite INSERTs of sqliteInsertRows rows, and of one for the rest.
const (
	batchSize  = 500
	batchBytes = 1 << 20
)

// writer writes the records of one table in transactions of up to
// batchSize records (and batchBytes), each with the checkpoint that covers
// them. Records wait in
// memory until a batch is full; the batch is then written by the writer's
// own goroutine while the walk goes on, so that the network and the
// database overlap. A transaction holds only database work: it never waits
// for a page.
type writer struct {
	b    Backend
	conn *sql.Conn
	t    *table
	site int64
	// insertFirst writes a batch's records as new rows before reading
	// which the table holds: for the new records, which the table seldom
	// holds, it saves a query per batch (a batch with one the table holds
	// is rolled back, and written again, read first). Otherwise (the
	// passes that read records again) the batch's digests are read first,
	// and only the records the table lacks are inserted.
	insertFirst bool
	// turns, in SQLite, is the Mirror's lock that its writers take turns
	// on (Mirror.writes); nil in PostgreSQL.
	turns *sync.Mutex
	// refusedIDs are the ids of the table's stored refusals of the
	// website (see refused.go), used by the writer's goroutine only.
	refusedIDs map[int64]bool
	// changes are the changes of the transaction being written (see
	// noteChange), used by the writer's goroutine only.
	changes []change
	pending batch
	// lastCheckpoint is the table's checkpoint (as JSON) as the writer
	// last read or sent it: a batch of nothing with this checkpoint has
	// nothing to write, and is not sent (a run with nothing new writes
	// nothing, and in SQLite does not take the write lock).
	lastCheckpoint []byte

	jobs    chan batch
	done    chan struct{} // closed when the goroutine has ended
	stopped bool          // jobs is closed
	err     error         // the goroutine's, read after done
	counts  Counts        // the goroutine's, read after done
}

// read is a record as the writer writes it: its id, the digest of its
// JSON (see contentDigest) and the values of its row, computed as it is
// read, so that the writer's goroutine does only the database's work (the
// digest of a record of 4 KB with file links takes about 20 µs).
type read struct {
	id     int64
	digest []byte
	row    []any
}

// gone is a record that a reconcile found deleted (the server answered 404)
// at the time at.
type gone struct {
	id int64
	at time.Time
}

// batch is what one transaction writes: records, records found deleted,
// records that could not be decoded and, unless nil, the checkpoint (as
// JSON) that covers them.
type batch struct {
	records    []read
	gone       []gone
	refused    []refusal
	bytes      int // of the records' JSON, and of the refused records'
	checkpoint []byte
	mark       time.Time
}

func (b *batch) size() int { return len(b.records) + len(b.gone) + len(b.refused) }

// newWriter returns a writer of the rows of the pass's table, started.
func newWriter(ctx context.Context, p *pass, insertFirst bool) *writer {
	b := p.r.m.backend
	w := &writer{b: b, conn: p.conn, t: p.t, site: p.r.site, insertFirst: insertFirst, refusedIDs: p.refusedIDs}
	if p.r.m.ops.oneWriter() {
		w.turns = &p.r.m.writes
	}
	w.jobs, w.done = make(chan batch), make(chan struct{})
	go func() {
		defer close(w.done)
		for b := range w.jobs {
			if err := w.flush(ctx, b); err != nil {
				w.err = err
				return
			}
		}
	}()
	return w
}

// add keeps v, read at at, for the next batch (its digest and row, see
// read), and sends the batch, with cp, once it is full. It returns the
// error of an earlier batch.
func (w *writer) add(v *ordermsg.RawRecord, at time.Time, cp *ordermsg.Checkpoint) error {
	raw := v.RawJSON()
	digest := contentDigest(raw)
	w.pending.records = append(w.pending.records, read{v.ID, digest, w.rowOf(v, at, digest)})
	w.pending.bytes += len(raw)
	return w.sendIfFull(cp)
}

// refuse keeps, for the next batch, a record that could not be decoded,
// read at at, and sends the batch, with cp, once it is full.
func (w *writer) refuse(e *ordermsg.RecordDecodeError, at time.Time, cp *ordermsg.Checkpoint) error {
	w.pending.refused = append(w.pending.refused, refusal{e, at})
	w.pending.bytes += len(e.Raw)
	return w.sendIfFull(cp)
}

// markGone keeps, for the next batch, that the record with the given id was
// found deleted at at.
func (w *writer) markGone(id int64, at time.Time) error {
	w.pending.gone = append(w.pending.gone, gone{id, at})
	return w.sendIfFull(nil)
}

func (w *writer) sendIfFull(cp *ordermsg.Checkpoint) error {
	if w.pending.size() >= batchSize || w.pending.bytes >= batchBytes {
		return w.send(cp)
	}
	return nil
}

// send hands the pending records, with cp when not nil, to the goroutine.
// It waits while the goroutine writes the batch before (so that at most two
// batches are held), and returns the error of an earlier batch.
func (w *writer) send(cp *ordermsg.Checkpoint) error {
	b := w.pending
	w.pending = batch{}
	if cp != nil {
		raw, err := json.Marshal(cp)
		if err != nil {
			return err
		}
		b.checkpoint, b.mark = raw, cp.Mark()
	}
	if b.size() == 0 && (b.checkpoint == nil || bytes.Equal(b.checkpoint, w.lastCheckpoint)) {
		return nil
	}
	select {
	case w.jobs <- b:
		if b.checkpoint != nil {
			w.lastCheckpoint = b.checkpoint
		}
		return nil
	case <-w.done:
		return w.err
	}
}

// finish sends what is pending (with cp when not nil), waits for every
// batch to be written and returns the first error. Later calls do nothing
// but return it.
func (w *writer) finish(cp *ordermsg.Checkpoint) error {
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

// storedCheckpoint reads the table's stored checkpoint as JSON, nil when
// none.
func (w *writer) storedCheckpoint(ctx context.Context) ([]byte, error) {
	var raw []byte
	err := w.conn.QueryRowContext(ctx, w.b.rebind("SELECT checkpoint FROM sync_state WHERE website_id = ? AND resource = ?"), w.site, w.t.name).Scan(&raw)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return raw, err
}

// checkpoint reads the table's stored checkpoint, zero when none.
func (w *writer) checkpoint(ctx context.Context) (ordermsg.Checkpoint, error) {
	raw, err := w.storedCheckpoint(ctx)
	if err != nil {
		return ordermsg.Checkpoint{}, err
	}
	w.lastCheckpoint = raw
	return w.decodeCheckpoint(raw)
}

// decodeCheckpoint decodes a stored checkpoint, zero for nil.
func (w *writer) decodeCheckpoint(raw []byte) (ordermsg.Checkpoint, error) {
	var cp ordermsg.Checkpoint
	if raw == nil {
		return cp, nil
	}
	if err := json.Unmarshal(raw, &cp); err != nil {
		return cp, fmt.Errorf("mirror: the stored checkpoint of website %d's %s: %w", w.site, w.t.name, err)
	}
	return cp, nil
}

// flush writes a batch in one transaction, with its checkpoint unless the
// stored one is ahead of it (another run went further).
func (w *writer) flush(ctx context.Context, b batch) error {
	var counts Counts
	presumeNew := w.insertFirst
	write := func() error {
		w.changes = w.changes[:0]
		var err error
		if counts, err = w.write(ctx, b.records, presumeNew); err != nil {
			return err
		}
		if counts.Deleted, err = w.markDeleted(ctx, b.gone); err != nil {
			return err
		}
		if err := w.saveRefused(ctx, b.refused); err != nil {
			return err
		}
		counts.Refused = len(b.refused)
		if err := w.recordChanges(ctx, time.Now()); err != nil {
			return err
		}
		if b.checkpoint != nil {
			return w.saveCheckpoint(ctx, b.checkpoint, b.mark)
		}
		return nil
	}
	if w.turns != nil {
		w.turns.Lock()
		defer w.turns.Unlock()
	}
	err := inTx(ctx, w.b, w.conn, write)
	if presumeNew && errors.Is(err, errHeld) {
		presumeNew = false // the table holds one of the records: read first
		err = inTx(ctx, w.b, w.conn, write)
	}
	clear(w.changes) // hold no record's JSON past its batch
	w.changes = w.changes[:0]
	if err != nil {
		return dbErr(fmt.Errorf("mirror: writing website %d's %s: %w", w.site, w.t.name, err))
	}
	w.counts.add(counts)
	return nil
}

// storedRow is what a batch reads of a record the table holds.
type storedRow struct {
	digest  []byte
	deleted bool
	json    []byte // only when digest is NULL (a row an earlier version wrote)
}

// errHeld is the error of an insert of records one of which the table
// holds (or which inserted fewer rows than it was given): the transaction
// must be rolled back (in PostgreSQL it has failed already). A write of
// records presumed new then writes them again, read first.
var errHeld = errors.New("mirror: a record inserted as new is in the table already")

// write inserts the records that are new and rewrites those that changed
// (see contentDigest) or that a reconcile had found deleted, unless the
// stored row was read later than the record (see update). With presumeNew,
// it inserts them all without reading what the table holds, and returns
// errHeld when the table holds one: the caller rolls the transaction back.
func (w *writer) write(ctx context.Context, records []read, presumeNew bool) (Counts, error) {
	ids, byID := lastOfEach(records)
	if presumeNew {
		return w.insertNew(ctx, ids, byID)
	}
	var c Counts
	if err := w.forgetRefused(ctx, ids); err != nil {
		return c, err
	}
	stored, err := w.stored(ctx, ids)
	if err != nil {
		return c, err
	}
	fresh := slices.DeleteFunc(slices.Clone(ids), func(id int64) bool { _, ok := stored[id]; return ok })
	if err := w.insert(ctx, fresh, byID); err != nil {
		return c, err
	}
	w.noteNew(fresh)
	c.New = len(fresh)
	for _, id := range ids {
		if s, ok := stored[id]; ok {
			n, err := w.rewrite(ctx, s, byID[id])
			if err != nil {
				return c, err
			}
			c.Updated += n
			c.Unchanged += 1 - n
		}
	}
	return c, nil
}

// lastOfEach returns the ids of records, each once, in the order first
// listed, and the last record listed of each id, which wins.
func lastOfEach(records []read) (ids []int64, byID map[int64]read) {
	byID = make(map[int64]read, len(records))
	for _, r := range records {
		if _, ok := byID[r.id]; !ok {
			ids = append(ids, r.id)
		}
		byID[r.id] = r
	}
	return ids, byID
}

// insertNew inserts the records, presumed new, without reading what the
// table holds; nothing is changed before the insert, for a write again
// after errHeld.
func (w *writer) insertNew(ctx context.Context, ids []int64, byID map[int64]read) (Counts, error) {
	if err := w.insert(ctx, ids, byID); err != nil {
		return Counts{}, err
	}
	w.noteNew(ids)
	return Counts{New: len(ids)}, w.forgetRefused(ctx, ids)
}

// rewrite rewrites s, the stored row of r, when r changed (see
// contentDigest) or a reconcile had found it deleted, unless the row was
// read later than r (see update). It returns 1 when it rewrote the row,
// else 0.
func (w *writer) rewrite(ctx context.Context, s storedRow, r read) (int, error) {
	if bytes.Equal(s.digest, r.digest) && !s.deleted {
		return 0, nil
	}
	if err := w.keepVersion(ctx, r.id); err != nil {
		return 0, err
	}
	n, err := w.update(ctx, r)
	if err == nil && n == 1 {
		w.noteChange(r.id, ChangeUpdated)
	}
	return n, err
}

// noteNew notes a ChangeNew of each of the records with the given ids,
// inserted.
func (w *writer) noteNew(ids []int64) {
	for _, id := range ids {
		w.noteChange(id, ChangeNew)
	}
}

// stored returns what the table holds of the records with the given ids.
func (w *writer) stored(ctx context.Context, ids []int64) (map[int64]storedRow, error) {
	out := make(map[int64]storedRow, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	q := fmt.Sprintf(`SELECT id, digest, deleted_at IS NOT NULL, CASE WHEN digest IS NULL THEN CAST(json AS TEXT) END
		FROM %s WHERE website_id = ? AND id IN (%s)`, w.t.name, marks(len(ids)))
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
		var s storedRow
		if err := rows.Scan(&id, &s.digest, &s.deleted, &s.json); err != nil {
			return nil, err
		}
		out[id] = s
	}
	return out, rows.Err()
}

// rowOf is the values of the columns of the row of v, read at at, whose
// JSON's digest is digest, but deleted_at, in order.
func (w *writer) rowOf(v *ordermsg.RawRecord, at time.Time, digest []byte) []any {
	raw := v.RawJSON()
	var free any
	if f := viewJSON(raw); f != nil {
		free = w.b.value(typeJSON, f)
	}
	row := make([]any, 0, 2+len(w.t.fields)+len(recordTail))
	row = append(row, w.site, v.ID)
	for _, f := range w.t.fields {
		row = append(row, w.b.value(f.typ, f.value(v)))
	}
	return append(row, w.b.value(typeJSON, raw), free, digest, w.b.value(typeStamp, at))
}

// writtenColumns are the columns that a write gives a value: all but
// deleted_at, which only a reconcile sets.
func (w *writer) writtenColumns() []string {
	names := w.t.def().names()
	return names[:len(names)-1]
}

// insert adds rows for the records with the given ids, which the table
// does not hold (another run of the website's table waits for the writes'
// lock, sync.go; SQLite's write transaction excludes every other writer),
// or returns errHeld: in PostgreSQL with one COPY, in SQLite with INSERTs
// of sqliteInsertRows rows (sqliteinsert.go).
func (w *writer) insert(ctx context.Context, ids []int64, byID map[int64]read) error {
	if len(ids) == 0 {
		return nil
	}
	rows := make([][]any, len(ids))
	for i, id := range ids {
		rows[i] = byID[id].row
	}
	return w.b.ops().insert(ctx, w, rows)
}

// update rewrites r's row, and makes it live again, unless the stored row
// was read at or after r: two runs at once never let an older read
// overwrite a newer one. It returns 1 when it wrote the row, else 0.
func (w *writer) update(ctx context.Context, r read) (int, error) {
	cols := w.writtenColumns()[2:]
	sets := make([]string, 0, len(cols)+1)
	for _, c := range cols {
		sets = append(sets, c+" = ?")
	}
	sets = append(sets, "deleted_at = NULL")
	row := r.row
	q := fmt.Sprintf("UPDATE %s SET %s WHERE website_id = ? AND id = ? AND (read_at IS NULL OR read_at < ?)", w.t.name, strings.Join(sets, ", "))
	return w.exec(ctx, q, append(row[2:], row[0], row[1], row[len(row)-1])...)
}

// markDeleted sets deleted_at of the records found deleted, unless a run
// read the record again after the server said it was gone, forgets their
// refusals, and returns how many it marked (those already marked are not
// counted again).
func (w *writer) markDeleted(ctx context.Context, records []gone) (int, error) {
	ids := make([]int64, len(records))
	for i, g := range records {
		ids[i] = g.id
	}
	if err := w.forgetRefused(ctx, ids); err != nil {
		return 0, err
	}
	marked := 0
	for _, g := range records {
		at := w.b.value(typeStamp, g.at)
		n, err := w.exec(ctx, "UPDATE "+w.t.name+` SET deleted_at = ?, read_at = ?
			WHERE website_id = ? AND id = ? AND deleted_at IS NULL AND (read_at IS NULL OR read_at < ?)`, at, at, w.site, g.id, at)
		if err != nil {
			return marked, err
		}
		if n == 1 {
			w.noteChange(g.id, ChangeDeleted)
		}
		marked += n
	}
	return marked, nil
}

// exec runs a statement that changes at most one row and returns how many
// it changed.
func (w *writer) exec(ctx context.Context, q string, args ...any) (int, error) {
	res, err := w.conn.ExecContext(ctx, w.b.rebind(q), args...)
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	return int(n), err
}

// saveCheckpoint stores cp, whose mark is mark, unless it is stored already
// (a run with nothing new writes nothing) or the stored checkpoint's mark is
// later: a run that started at the same time went further, and a
// checkpoint moved back would only make the next run read again what is
// mirrored.
func (w *writer) saveCheckpoint(ctx context.Context, cp []byte, mark time.Time) error {
	raw, err := w.storedCheckpoint(ctx)
	if err != nil || bytes.Equal(raw, cp) {
		return err
	}
	stored, err := w.decodeCheckpoint(raw)
	if err != nil || stored.Mark().After(mark) {
		return err
	}
	_, err = w.conn.ExecContext(ctx, w.b.rebind(`INSERT INTO sync_state (website_id, resource, checkpoint) VALUES (?, ?, ?)
		ON CONFLICT (website_id, resource) DO UPDATE SET checkpoint = excluded.checkpoint`), w.site, w.t.name, string(cp))
	return err
}

// marks is n placeholders separated by commas.
func marks(n int) string { return strings.TrimSuffix(strings.Repeat("?, ", n), ", ") }
