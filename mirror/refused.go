package mirror

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/ordermsg/ordermsg-go"
)

// A record that the SDK cannot decode (a lone surrogate in a string, bytes
// that are not UTF-8, a field of the wrong type) never stalls a website:
// the walks go past it (ordermsg.WithSkipUndecodable), every other record
// is mirrored, and it is kept exactly as sent in refused_records, one row
// per record (by id, or by the digest of its bytes when its id cannot be
// read), until it decodes or the server no longer has it.
//
// A record that decoded once, and is mirrored, and that the SDK later
// refuses (the server now sends it with a lone surrogate, say) keeps its
// row in orders or messages as it was last read: live, in the views, with
// its old data, and counted neither updated nor deleted. The row of
// refused_records with the same website, resource and id is what says
// that the server's version of it is no longer the one mirrored; a query
// that must not trust such rows joins on it:
//
//	SELECT o.* FROM orders o LEFT JOIN refused_records r
//	  ON r.website_id = o.website_id AND r.resource = 'orders' AND r.id = o.id
//	WHERE o.deleted_at IS NULL AND r.id IS NULL
//
// The row is kept rather than deleted, for the record exists on the
// server and its last readable version is the best the mirror has; and it
// is not marked in the record's table, whose columns are the record's.

// refusal is a record that could not be decoded, as read at at.
type refusal struct {
	e  *ordermsg.RecordDecodeError
	at time.Time
}

// saveRefused stores the records that could not be decoded: a record
// already stored keeps its first_seen_at and takes the rest anew. The row
// of a refused record that was mirrored before stays as it was (see
// above).
func (w *writer) saveRefused(ctx context.Context, refusals []refusal) error {
	cols := refusedTable.names()
	var updates []string
	for _, c := range cols {
		if c != "first_seen_at" {
			updates = append(updates, c+" = excluded."+c)
		}
	}
	for _, r := range refusals {
		// A record read again has its file links signed anew: the digest
		// leaves them out, so that it stays one row.
		digest := contentDigest(r.e.Raw)
		at := w.b.value(typeStamp, r.at)
		var id any
		target := "(website_id, resource, raw_digest) WHERE id IS NULL"
		if known, ok := refusedID(r.e); ok {
			id, target = known, "(website_id, resource, id) WHERE id IS NOT NULL"
			w.refusedIDs[known] = true
		}
		q := fmt.Sprintf("INSERT INTO %s (%s) VALUES (%s) ON CONFLICT %s DO UPDATE SET %s", refusedTable.name,
			strings.Join(cols, ", "), marks(len(cols)), target, strings.Join(updates, ", "))
		// The reason may quote the record's bytes: text holds neither a
		// NUL nor bytes that are not UTF-8.
		reason := strings.ToValidUTF8(nulFree(r.e.Error()), "\uFFFD")
		_, err := w.conn.ExecContext(ctx, w.b.rebind(q), w.site, w.t.name, id, r.e.Page, r.e.Index, r.e.Offset,
			r.e.Raw, digest, reason, at, at)
		if err != nil {
			return err
		}
	}
	return nil
}

// refusedID is the id of a refused record, and whether it can be read. The
// SDK's RecordDecodeError.ID is 0 both for an id of 0 and for one it cannot
// read, so a 0 is read again from the record's bytes: the first member
// "id", when it is the number 0.
func refusedID(e *ordermsg.RecordDecodeError) (int64, bool) {
	if e.ID != 0 {
		return e.ID, true
	}
	v := objectMember(e.Raw, "id")
	n, err := strconv.ParseInt(string(v), 10, 64)
	return 0, v.Kind() == '0' && err == nil && n == 0
}

// forgetRefused removes the stored refusals of the records with the given
// ids: they decoded, or the server no longer has them.
func (w *writer) forgetRefused(ctx context.Context, ids []int64) error {
	var args []any
	for _, id := range ids {
		if w.refusedIDs[id] {
			args = append(args, id)
			delete(w.refusedIDs, id)
		}
	}
	if len(args) == 0 {
		return nil
	}
	q := fmt.Sprintf("DELETE FROM %s WHERE website_id = ? AND resource = ? AND id IN (%s)", refusedTable.name, marks(len(args)))
	_, err := w.conn.ExecContext(ctx, w.b.rebind(q), append([]any{w.site, w.t.name}, args...)...)
	return err
}

// refusedIDs reads the ids of the table's stored refusals of the website.
func (p *pass) loadRefusedIDs(ctx context.Context) error {
	b := p.r.m.backend
	rows, err := p.conn.QueryContext(ctx, b.rebind("SELECT id FROM "+refusedTable.name+" WHERE website_id = ? AND resource = ? AND id IS NOT NULL"),
		p.r.site, p.t.name)
	if err != nil {
		return err
	}
	defer rows.Close()
	p.refusedIDs = map[int64]bool{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return err
		}
		p.refusedIDs[id] = true
	}
	return rows.Err()
}

// forgetUnseenRefused removes the stored refusals without an id that
// neither the run's new-records pass nor its reconcile's listing, which
// began at start, met: they cannot be asked for, and the server lists them
// no more.
func (p *pass) forgetUnseenRefused(ctx context.Context, start time.Time) error {
	b := p.r.m.backend
	return inTx(ctx, b, p.conn, func() error {
		_, err := p.conn.ExecContext(ctx, b.rebind("DELETE FROM "+refusedTable.name+
			" WHERE website_id = ? AND resource = ? AND id IS NULL AND last_seen_at < ?"), p.r.site, p.t.name, b.value(typeStamp, start))
		return err
	})
}
