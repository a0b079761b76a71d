package mirror

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// PruneChanges removes the changes recorded before before, and returns how
// many it removed. A cursor older than the newest change removed is then
// refused (a *CursorError matching ErrCursorExpired), never read on from
// with a gap. In PostgreSQL it removes only changes that a follower may
// read already (see Changes). ordermsg sync --keep-changes calls it after
// its run.
func (m *Mirror) PruneChanges(ctx context.Context, before time.Time) (int64, error) {
	var removed int64
	err := m.withConn(ctx, func(conn *sql.Conn) error {
		if m.backend == SQLite {
			m.writes.Lock()
			defer m.writes.Unlock()
		}
		return inTx(ctx, m.backend, conn, func() error {
			var err error
			removed, err = m.prune(ctx, conn, m.backend.value(typeStamp, before))
			return err
		})
	})
	if err != nil {
		return 0, dbErrOf(ctx, fmt.Errorf("mirror: removing the changes recorded before %s: %w", before.UTC().Format(time.RFC3339), err))
	}
	return removed, nil
}

// prune removes the changes recorded before before, in the transaction
// open on conn, and moves the position of the newest change removed on.
func (m *Mirror) prune(ctx context.Context, conn *sql.Conn, before any) (int64, error) {
	var n int64
	var newest struct{ xid, seq sql.NullInt64 }
	if m.backend == PostgreSQL {
		err := conn.QueryRowContext(ctx, `WITH d AS (
				DELETE FROM mirror_changes WHERE recorded_at < $1 AND xid < txid_snapshot_xmin(txid_current_snapshot()) RETURNING xid, seq)
			SELECT n.n, x.xid, x.seq FROM (SELECT count(*) AS n FROM d) n
				LEFT JOIN (SELECT xid, seq FROM d ORDER BY xid DESC, seq DESC LIMIT 1) x ON true`, before).Scan(&n, &newest.xid, &newest.seq)
		if err != nil || n == 0 {
			return 0, err
		}
		_, err = conn.ExecContext(ctx, `UPDATE mirror_changes_state SET pruned_xid = $1, pruned_seq = $2
			WHERE pruned_xid IS NULL OR (pruned_xid, pruned_seq) < ($1, $2)`, newest.xid, newest.seq)
		return n, err
	}
	err := conn.QueryRowContext(ctx, "SELECT count(*), max(seq) FROM mirror_changes WHERE recorded_at < ?", before).Scan(&n, &newest.seq)
	if err != nil || n == 0 {
		return 0, err
	}
	if _, err := conn.ExecContext(ctx, "DELETE FROM mirror_changes WHERE recorded_at < ?", before); err != nil {
		return 0, err
	}
	_, err = conn.ExecContext(ctx, "UPDATE mirror_changes_state SET pruned_seq = ? WHERE pruned_seq IS NULL OR pruned_seq < ?", newest.seq, newest.seq)
	return n, err
}
