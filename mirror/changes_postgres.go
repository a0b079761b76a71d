package mirror

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// The feed of changes in PostgreSQL (see feedOps): a change's position is
// its transaction's xid then its seq, and a reader reads only the changes
// of transactions older than the oldest still in flight, so that a change
// committed later never lands behind a cursor read. Writers send a NOTIFY
// on changesChannel, which followers LISTEN for.

// xmin is the condition of the rows whose xid column (named with prefix)
// is of a transaction older than any still in flight.
func xmin(prefix string) string {
	return prefix + "xid < txid_snapshot_xmin(txid_current_snapshot())"
}

func (postgresOps) changeKey() []column {
	return []column{notNull("xid", typeBigint), notNull("seq", typeBigint)}
}

func (postgresOps) prunedColumns() []column {
	return []column{nullable("pruned_xid", typeBigint), nullable("pruned_seq", typeBigint)}
}

func (postgresOps) cursor(origin string, p position) string { return cursorText(origin, p.xid, p.seq) }

func (postgresOps) parseCursor(origin, cursor string) (position, bool) {
	nums, ok := cursorNums(origin, cursor, 2)
	if !ok {
		return position{}, false
	}
	return position{nums[0], nums[1]}, true
}

func (postgresOps) positionSQL(prefix string) (cols, order string) {
	cols = prefix + "xid, " + prefix + "seq"
	return cols, cols
}

func (postgresOps) readable(prefix, op string, p position) (string, []any) {
	return fmt.Sprintf("(%[1]sxid, %[1]sseq) %[2]s (?, ?) AND %[3]s", prefix, op, xmin(prefix)), []any{p.xid, p.seq}
}

// writeChanges writes the rows with one COPY, and sends the NOTIFY that
// wakes the followers once the transaction commits.
func (postgresOps) writeChanges(ctx context.Context, conn *sql.Conn, rows [][]any) error {
	if err := copyRows(ctx, conn, "mirror_changes", changeColumns, rows); err != nil {
		return err
	}
	_, err := conn.ExecContext(ctx, "NOTIFY "+changesChannel)
	return err
}

// prune removes only changes that a reader may read already.
func (postgresOps) prune(ctx context.Context, conn *sql.Conn, before any) (int64, error) {
	var n int64
	var xid, seq sql.NullInt64
	err := conn.QueryRowContext(ctx, `WITH d AS (
			DELETE FROM mirror_changes WHERE recorded_at < $1 AND `+xmin("")+` RETURNING xid, seq)
		SELECT n.n, x.xid, x.seq FROM (SELECT count(*) AS n FROM d) n
			LEFT JOIN (SELECT xid, seq FROM d ORDER BY xid DESC, seq DESC LIMIT 1) x ON true`, before).Scan(&n, &xid, &seq)
	if err != nil || n == 0 {
		return 0, err
	}
	_, err = conn.ExecContext(ctx, `UPDATE mirror_changes_state SET pruned_xid = $1, pruned_seq = $2
		WHERE pruned_xid IS NULL OR (pruned_xid, pruned_seq) < ($1, $2)`, xid, seq)
	return n, err
}

// listen listens for the writers' NOTIFY before the first read, so that
// none is missed, and notes the newest transaction whose changes are
// committed.
func (postgresOps) listen(ctx context.Context, r *changeReader) error {
	if _, err := r.conn.ExecContext(ctx, "LISTEN "+changesChannel); err != nil {
		return err
	}
	r.listening = true
	return r.conn.QueryRowContext(ctx, "SELECT COALESCE(max(xid), 0) FROM mirror_changes").Scan(&r.committed)
}

// settled is true once no transaction older than the newest that had
// committed changes when the reader started is in flight.
func (postgresOps) settled(ctx context.Context, r *changeReader) (bool, error) {
	var ok bool
	err := r.conn.QueryRowContext(ctx, "SELECT txid_snapshot_xmin(txid_current_snapshot()) > $1", r.committed).Scan(&ok)
	return ok, err
}

// wait waits for a writer's NOTIFY, or pgFallbackPoll, sooner while
// committed changes are held back: by an earlier transaction still in
// flight, which may send no NOTIFY (one without changes), the reader reads
// again soon, then less and less often.
func (postgresOps) wait(ctx context.Context, r *changeReader) error {
	var held bool
	err := r.conn.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM mirror_changes
		WHERE (xid, seq) > ($1, $2) AND xid >= txid_snapshot_xmin(txid_current_snapshot()))`, r.at.xid, r.at.seq).Scan(&held)
	if err != nil {
		return err
	}
	poll := pgFallbackPoll
	if held {
		r.backoff = min(max(2*r.backoff, 5*time.Millisecond), pgFallbackPoll)
		poll = r.backoff
	} else {
		r.backoff = 0
	}
	return r.conn.Raw(func(dc any) error {
		pc, ok := dc.(pgxConn)
		if !ok {
			return notPgx(dc)
		}
		wctx, cancel := context.WithTimeout(ctx, poll)
		defer cancel()
		_, err := pc.Conn().WaitForNotification(wctx)
		if err != nil && ctx.Err() == nil && wctx.Err() != nil {
			return nil // no NOTIFY: read all the same
		}
		return err
	})
}
