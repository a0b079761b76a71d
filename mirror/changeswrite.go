package mirror

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// changesChannel is the channel of PostgreSQL's NOTIFY that a transaction
// that recorded changes sends, delivered when it commits, and that
// FollowChanges listens on.
const changesChannel = "ordermsg_mirror_changes"

// changesTable is the table of the changes in b (migrations/*/0006): its
// place in the feed (PostgreSQL: xid and seq; SQLite: seq), then the
// columns a writer writes (changeColumns).
func changesTable(b Backend) tableDef {
	return tableDef{"mirror_changes", append(b.ops().changeKey(),
		notNull("website_id", typeBigint), notNull("resource", typeText), notNull("id", typeBigint),
		notNull("change", typeText), notNull("recorded_at", typeStamp), nullable("json", typeJSON))}
}

// changeColumns are the columns of mirror_changes that a writer gives a
// value: json is NULL as written (see keepVersion).
var changeColumns = []string{"website_id", "resource", "id", "change", "recorded_at"}

// changesStateTable holds the database's origin, which its cursors carry,
// and the position of the newest change removed (NULL when none).
func changesStateTable(b Backend) tableDef {
	return tableDef{"mirror_changes_state", append([]column{notNull("origin", typeText)}, b.ops().prunedColumns()...)}
}

// recordsChanges is whether writers record changes: always, but for the
// benchmark that measures what recording them costs (export_test.go).
var recordsChanges = true

// change is a change that a writer's transaction records: its json is
// NULL, the row's own (see keepVersion).
type change struct {
	id   int64
	kind ChangeKind
}

// noteChange keeps a change of the transaction being written, recorded
// by recordChanges before it commits.
func (w *writer) noteChange(id int64, kind ChangeKind) {
	if recordsChanges {
		w.changes = append(w.changes, change{id, kind})
	}
}

// keepVersion copies the JSON of the record's row into the record's
// change that holds none (its json is the row's), before the row is
// rewritten: each version is then written once, in the row while it is
// the newest, and kept by its change after.
func (w *writer) keepVersion(ctx context.Context, id int64) error {
	if !recordsChanges {
		return nil
	}
	_, err := w.conn.ExecContext(ctx, w.b.rebind(`UPDATE mirror_changes SET json = (SELECT json FROM `+w.t.name+` WHERE website_id = ? AND id = ?)
		WHERE website_id = ? AND resource = ? AND id = ? AND json IS NULL AND change <> 'deleted'`), w.site, id, w.site, w.t.name, id)
	return err
}

// recordChanges appends the changes noted to mirror_changes, recorded at
// at, in the order noted, and in PostgreSQL sends the NOTIFY that wakes
// the followers once the transaction commits.
func (w *writer) recordChanges(ctx context.Context, at time.Time) error {
	if len(w.changes) == 0 {
		return nil
	}
	stamp := w.b.value(typeStamp, at)
	rows := make([][]any, len(w.changes))
	for i, c := range w.changes {
		rows[i] = []any{w.site, w.t.name, c.id, string(c.kind), stamp}
	}
	return w.b.ops().writeChanges(ctx, w.conn, rows)
}

// changesInsertSQL is the INSERT of k changes, in SQLite.
func changesInsertSQL(k int) string {
	row := "(?, ?, ?, ?, ?)"
	return fmt.Sprintf("INSERT INTO mirror_changes (%s) VALUES %s", strings.Join(changeColumns, ", "),
		strings.TrimSuffix(strings.Repeat(row+", ", k), ", "))
}
