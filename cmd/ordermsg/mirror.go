package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"github.com/ordermsg/ordermsg-go"
	_ "modernc.org/sqlite" // pure Go: no cgo, so go install works anywhere
)

// mirrorSchema is the database of sync --db. Each table keeps a record's
// JSON as the server sent it and, beside it, the fields people filter on;
// a reference the API sent as 0 or null is NULL. sync_state holds each
// resource's checkpoint, written in the same transaction as the records it
// covers.
const mirrorSchema = `
CREATE TABLE IF NOT EXISTS orders (
	id            INTEGER PRIMARY KEY,
	website_id    INTEGER NOT NULL,
	date_created  TEXT NOT NULL, -- UTC, RFC 3339
	status        TEXT NOT NULL,
	order_type    TEXT NOT NULL,
	currency      TEXT NOT NULL,
	total         INTEGER NOT NULL,
	amount_paid   INTEGER NOT NULL,
	message_id    INTEGER,
	user_id       INTEGER,
	portal_id     INTEGER,
	promo_code_id INTEGER,
	json          TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS orders_date_created ON orders(date_created);
CREATE TABLE IF NOT EXISTS messages (
	id            INTEGER PRIMARY KEY,
	website_id    INTEGER NOT NULL,
	date_created  TEXT NOT NULL,
	message_type  TEXT NOT NULL,
	order_id      INTEGER,
	form_id       INTEGER,
	user_id       INTEGER,
	portal_id     INTEGER,
	file_id       INTEGER,
	json          TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS messages_date_created ON messages(date_created);
CREATE TABLE IF NOT EXISTS sync_state (
	resource    TEXT PRIMARY KEY, -- "orders" or "messages"
	website_id  INTEGER NOT NULL,
	checkpoint  TEXT NOT NULL     -- an ordermsg.Checkpoint as JSON
);`

// openMirror opens (or creates) the database at path, for one website. A
// database that mirrors another website is refused.
func openMirror(ctx context.Context, path string, websiteID int64) (*sql.DB, error) {
	dsn, err := mirrorDSN(path)
	if err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	if _, err := db.ExecContext(ctx, mirrorSchema); err != nil {
		db.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var other int64
	switch err := db.QueryRowContext(ctx, `SELECT website_id FROM sync_state WHERE website_id <> ? LIMIT 1`, websiteID).Scan(&other); {
	case errors.Is(err, sql.ErrNoRows):
		return db, nil
	case err != nil:
		db.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	default:
		db.Close()
		return nil, fmt.Errorf("%s mirrors website %d, not %d: use one database per website", path, other, websiteID)
	}
}

// mirrorDSN is the driver's name of the database at path: a file: URI, so
// that no character of the name is taken for a parameter, in WAL mode with
// synchronous=NORMAL, which loses no commit when the process is killed.
func mirrorDSN(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	return (&url.URL{Scheme: "file", Path: abs}).String() +
		"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)", nil
}

// mirrorTable is what the mirror needs to know of a resource.
type mirrorTable[T any] struct {
	name    string   // table and resource: "orders" or "messages"
	columns []string // the filter columns, after id and website_id
	values  func(*T) []any
	id      func(*T) int64
	created func(*T) time.Time
}

// mirrorCounts are what a run did to a table.
type mirrorCounts struct{ new, updated, unchanged int }

func (c mirrorCounts) String() string {
	return fmt.Sprintf("%d new, %d updated, %d unchanged", c.new, c.updated, c.unchanged)
}

// mirrorWriter writes records of one table in transactions of up to batch
// records, each with the checkpoint that covers them.
type mirrorWriter[T any] struct {
	db      *sql.DB
	t       *mirrorTable[T]
	website int64
	batch   int
	counts  mirrorCounts

	tx                    *sql.Tx
	insert, update, state *sql.Stmt
	pending               int
}

func newMirrorWriter[T any](db *sql.DB, t *mirrorTable[T], website int64, batch int) *mirrorWriter[T] {
	return &mirrorWriter[T]{db: db, t: t, website: website, batch: batch}
}

func (w *mirrorWriter[T]) begin(ctx context.Context) error {
	tx, err := w.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	cols := append([]string{"id", "website_id"}, w.t.columns...)
	cols = append(cols, "json")
	marks := strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", ")
	sets := make([]string, 0, len(cols))
	for _, c := range cols[1:] {
		sets = append(sets, c+" = ?")
	}
	w.tx = tx
	w.insert, err = tx.PrepareContext(ctx, fmt.Sprintf("INSERT OR IGNORE INTO %s (%s) VALUES (%s)", w.t.name, strings.Join(cols, ", "), marks))
	if err == nil {
		w.update, err = tx.PrepareContext(ctx, fmt.Sprintf("UPDATE %s SET %s WHERE id = ? AND json IS NOT ?", w.t.name, strings.Join(sets, ", ")))
	}
	if err == nil {
		w.state, err = tx.PrepareContext(ctx, `INSERT INTO sync_state (resource, website_id, checkpoint) VALUES (?, ?, ?)
			ON CONFLICT(resource) DO UPDATE SET checkpoint = excluded.checkpoint`)
	}
	if err != nil {
		tx.Rollback()
		w.tx = nil
	}
	return err
}

// put inserts v, or updates it when its JSON changed, and counts which.
// With cp, the transaction commits, with cp, once it holds batch records.
func (w *mirrorWriter[T]) put(ctx context.Context, v *T, cp *ordermsg.Checkpoint) error {
	if w.tx == nil {
		if err := w.begin(ctx); err != nil {
			return err
		}
	}
	raw := rawJSON(v) // the record as the server sent it
	args := append([]any{w.t.id(v), w.website}, w.t.values(v)...)
	args = append(args, string(raw))
	res, err := w.insert.ExecContext(ctx, args...)
	if err != nil {
		return err
	}
	switch n, _ := res.RowsAffected(); {
	case n == 1:
		w.counts.new++
	default:
		res, err := w.update.ExecContext(ctx, append(args[1:], args[0], string(raw))...)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 1 {
			w.counts.updated++
		} else {
			w.counts.unchanged++
		}
	}
	w.pending++
	if w.pending >= w.batch {
		return w.commit(ctx, cp)
	}
	return nil
}

// commit ends the transaction, with the checkpoint cp when not nil.
func (w *mirrorWriter[T]) commit(ctx context.Context, cp *ordermsg.Checkpoint) error {
	if w.tx == nil {
		return nil
	}
	tx := w.tx
	w.tx, w.pending = nil, 0
	if cp != nil {
		b, err := json.Marshal(cp)
		if err == nil {
			_, err = w.state.ExecContext(ctx, w.t.name, w.website, string(b))
		}
		if err != nil {
			tx.Rollback()
			return err
		}
	}
	return tx.Commit()
}

// rollback drops what the open transaction holds.
func (w *mirrorWriter[T]) rollback() {
	if w.tx != nil {
		w.tx.Rollback()
		w.tx = nil
	}
}

// loadCheckpoint returns the table's stored checkpoint, zero when none.
func loadCheckpoint(ctx context.Context, db *sql.DB, resource string) (ordermsg.Checkpoint, error) {
	var cp ordermsg.Checkpoint
	var raw string
	err := db.QueryRowContext(ctx, `SELECT checkpoint FROM sync_state WHERE resource = ?`, resource).Scan(&raw)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return cp, nil
	case err != nil:
		return cp, err
	}
	if err := json.Unmarshal([]byte(raw), &cp); err != nil {
		return cp, fmt.Errorf("the stored %s checkpoint %q: %w", resource, raw, err)
	}
	return cp, nil
}

// refColumn is a reference as a column: NULL when the API sent 0 or null.
func refColumn[R any](r ordermsg.Ref[R]) any {
	if r.ID == 0 {
		return nil
	}
	return r.ID
}

func utc(t ordermsg.Timestamp) string { return t.UTC().Format(time.RFC3339) }

var ordersMirror = &mirrorTable[ordermsg.Order]{
	name: "orders",
	columns: []string{"date_created", "status", "order_type", "currency", "total", "amount_paid",
		"message_id", "user_id", "portal_id", "promo_code_id"},
	values: func(o *ordermsg.Order) []any {
		return []any{utc(o.DateCreated), string(o.Status), string(o.OrderType), o.Currency, o.Pricing.Total, o.AmountPaid,
			refColumn(o.Message), refColumn(o.User), refColumn(o.Portal), refColumn(o.PromoCode)}
	},
	id:      func(o *ordermsg.Order) int64 { return o.ID },
	created: func(o *ordermsg.Order) time.Time { return o.DateCreated.Time },
}

var messagesMirror = &mirrorTable[ordermsg.Message]{
	name:    "messages",
	columns: []string{"date_created", "message_type", "order_id", "form_id", "user_id", "portal_id", "file_id"},
	values: func(m *ordermsg.Message) []any {
		return []any{utc(m.DateCreated), string(m.MessageType), refColumn(m.Order), refColumn(m.Form), refColumn(m.User), refColumn(m.Portal), refColumn(m.File)}
	},
	id:      func(m *ordermsg.Message) int64 { return m.ID },
	created: func(m *ordermsg.Message) time.Time { return m.DateCreated.Time },
}
