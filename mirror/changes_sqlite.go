package mirror

import (
	"context"
	"database/sql"
	"time"
)

// The feed of changes in SQLite (see feedOps): transactions commit one at
// a time, in order, so that a change's position is its seq, and every
// change committed is readable. Followers read every FollowPollInterval.

func (sqliteOps) changeKey() []column { return []column{notNull("seq", typeInteger)} }

func (sqliteOps) prunedColumns() []column { return []column{nullable("pruned_seq", typeBigint)} }

func (sqliteOps) cursor(origin string, p position) string { return cursorText(origin, p.seq) }

func (sqliteOps) parseCursor(origin, cursor string) (position, bool) {
	nums, ok := cursorNums(origin, cursor, 1)
	if !ok {
		return position{}, false
	}
	return position{seq: nums[0]}, true
}

func (sqliteOps) positionSQL(prefix string) (cols, order string) {
	return "0, " + prefix + "seq", prefix + "seq"
}

func (sqliteOps) readable(prefix, op string, p position) (string, []any) {
	return prefix + "seq " + op + " ?", []any{p.seq}
}

// writeChanges writes the rows with INSERTs of many rows
// (sqliteinsert.go); followers poll.
func (sqliteOps) writeChanges(ctx context.Context, conn *sql.Conn, rows [][]any) error {
	return insertRowsSQLite(ctx, conn, changesInsertSQL, rows)
}

func (sqliteOps) prune(ctx context.Context, conn *sql.Conn, before any) (int64, error) {
	var n int64
	var seq sql.NullInt64
	err := conn.QueryRowContext(ctx, "SELECT count(*), max(seq) FROM mirror_changes WHERE recorded_at < ?", before).Scan(&n, &seq)
	if err != nil || n == 0 {
		return 0, err
	}
	if _, err := conn.ExecContext(ctx, "DELETE FROM mirror_changes WHERE recorded_at < ?", before); err != nil {
		return 0, err
	}
	_, err = conn.ExecContext(ctx, "UPDATE mirror_changes_state SET pruned_seq = ? WHERE pruned_seq IS NULL OR pruned_seq < ?", seq, seq)
	return n, err
}

// listen has nothing to do: followers poll.
func (sqliteOps) listen(context.Context, *changeReader) error { return nil }

// settled is always true.
func (sqliteOps) settled(context.Context, *changeReader) (bool, error) { return true, nil }

// wait waits FollowPollInterval.
func (sqliteOps) wait(ctx context.Context, _ *changeReader) error {
	t := time.NewTimer(FollowPollInterval)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
