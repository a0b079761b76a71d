package mirror

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// SchemaVersion is the version of the tables and views that this package
// makes, kept in the table mirror_schema. Version 1 is the unversioned
// SQLite database of ordermsg sync --db before this package (one website,
// records without their includes).
const SchemaVersion = 2

// ErrSchema is matched (errors.Is) by the error of Open for a database whose
// tables are not a mirror's this version can use: made by a newer version,
// or holding tables of the same names that are not a mirror's. Such an
// error matches ErrDatabase too: the database is what is wrong.
var ErrSchema = errors.New("mirror: the database's schema is not one this version can use")

// tablesSQL makes the tables of the current version. {json} is the type of
// the record column. The indexes of the filters lead with website_id, as
// every query of one website filters by it too (and date_created comes next,
// for the ranges of dates); those of the order–message links are on the
// link alone, for a join of the two tables by it.
const tablesSQL = `
CREATE TABLE mirror_schema (version INTEGER NOT NULL);
CREATE TABLE orders (
	website_id    BIGINT NOT NULL,
	id            BIGINT NOT NULL,
	date_created  TEXT NOT NULL,
	status        TEXT NOT NULL,
	order_type    TEXT NOT NULL,
	currency      TEXT NOT NULL,
	total         BIGINT NOT NULL,
	amount_paid   BIGINT NOT NULL,
	message_id    BIGINT,
	user_id       BIGINT,
	portal_id     BIGINT,
	promo_code_id BIGINT,
	promo_code    TEXT,
	json          {json} NOT NULL,
	CONSTRAINT orders_website_id_id PRIMARY KEY (website_id, id)
);
CREATE INDEX orders_website_id_date_created ON orders (website_id, date_created);
CREATE INDEX orders_website_id_status ON orders (website_id, status, date_created);
CREATE INDEX orders_website_id_currency ON orders (website_id, currency, date_created);
CREATE INDEX orders_message_id ON orders (message_id);
CREATE TABLE messages (
	website_id    BIGINT NOT NULL,
	id            BIGINT NOT NULL,
	date_created  TEXT NOT NULL,
	message_type  TEXT NOT NULL,
	order_id      BIGINT,
	form_id       BIGINT,
	user_id       BIGINT,
	portal_id     BIGINT,
	file_id       BIGINT,
	json          {json} NOT NULL,
	CONSTRAINT messages_website_id_id PRIMARY KEY (website_id, id)
);
CREATE INDEX messages_website_id_date_created ON messages (website_id, date_created);
CREATE INDEX messages_website_id_message_type ON messages (website_id, message_type, date_created);
CREATE INDEX messages_order_id ON messages (order_id);
CREATE TABLE sync_state (
	website_id  BIGINT NOT NULL,
	resource    TEXT NOT NULL,
	checkpoint  TEXT NOT NULL,
	CONSTRAINT sync_state_website_id_resource PRIMARY KEY (website_id, resource)
);`

// upgradeFrom1SQL turns a version 1 database into version 2 in place: the
// records stay (without their includes until the next run reads them again,
// which it does because the checkpoints are dropped), keyed now by website.
const upgradeFrom1SQL = `
ALTER TABLE orders RENAME TO orders_v1;
ALTER TABLE messages RENAME TO messages_v1;
DROP TABLE sync_state;
{tables}
INSERT INTO orders (website_id, id, date_created, status, order_type, currency, total, amount_paid,
	message_id, user_id, portal_id, promo_code_id, json)
SELECT website_id, id, date_created, status, order_type, currency, total, amount_paid,
	message_id, user_id, portal_id, promo_code_id, CAST(json AS {json}) FROM orders_v1;
INSERT INTO messages (website_id, id, date_created, message_type, order_id, form_id, user_id, portal_id, file_id, json)
SELECT website_id, id, date_created, message_type, order_id, form_id, user_id, portal_id, file_id, CAST(json AS {json}) FROM messages_v1;
DROP TABLE orders_v1;
DROP TABLE messages_v1;`

// schemaLockKey is the PostgreSQL advisory lock that serializes the making
// and upgrading of the schema by runs that start at once.
const schemaLockKey = 0x6f72646d73670001

// setUp makes the schema, or upgrades it, in one transaction on conn.
func setUp(ctx context.Context, b Backend, conn *sql.Conn) error {
	return inTx(ctx, b, conn, func() error {
		if b == PostgreSQL {
			if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_xact_lock($1)", int64(schemaLockKey)); err != nil {
				return err
			}
		}
		version, err := schemaVersion(ctx, b, conn)
		if err != nil {
			return err
		}
		var steps string
		switch {
		case version == SchemaVersion:
			return nil
		case version == 0:
			steps = tablesSQL
		case version == 1:
			steps = strings.Replace(upgradeFrom1SQL, "{tables}", tablesSQL, 1)
		default:
			return fmt.Errorf("%w: it was made by a newer version (schema %d; this one knows %d): upgrade ordermsg", ErrSchema, version, SchemaVersion)
		}
		steps = strings.ReplaceAll(steps, "{json}", b.jsonType()) + viewsSQL(b)
		for stmt := range strings.SplitSeq(steps, ";") {
			if strings.TrimSpace(stmt) == "" {
				continue
			}
			if _, err := conn.ExecContext(ctx, stmt); err != nil {
				return fmt.Errorf("mirror: making the schema: %w", err)
			}
		}
		if err := compressWithLZ4(ctx, b, conn); err != nil {
			return err
		}
		_, err = conn.ExecContext(ctx, b.rebind("INSERT INTO mirror_schema (version) VALUES (?)"), SchemaVersion)
		return err
	})
}

// busyWait is how long a connection of a Mirror waits for another's lock
// (SQLite's busy timeout), and useWAL for another's switch to WAL.
const busyWait = 30 * time.Second

// useWAL puts a SQLite database in WAL mode. SQLite switches without calling
// its busy handler: a switch that meets another connection's lock fails at
// once with "database is locked", whatever the busy timeout. It is then
// tried again, a few milliseconds later, for up to busyWait; the other's
// switch is usually what it met, and once the file is in WAL there is
// nothing to switch. A database that cannot be in WAL (in memory) keeps its
// mode.
func useWAL(ctx context.Context, b Backend, conn *sql.Conn) error {
	if b != SQLite {
		return nil
	}
	deadline := time.Now().Add(busyWait)
	pause := time.Millisecond
	for {
		var mode string
		err := conn.QueryRowContext(ctx, "PRAGMA journal_mode = WAL").Scan(&mode)
		if err == nil || !strings.Contains(err.Error(), "database is locked") || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(pause):
		}
		pause = min(2*pause, 50*time.Millisecond)
	}
}

// compressWithLZ4 has PostgreSQL compress the records' JSON with lz4 rather
// than its default, pglz, when the server was built with it: it takes about
// half the server's time per row (BENCHMARKS.md). A storage setting only:
// the text read back is the same.
func compressWithLZ4(ctx context.Context, b Backend, conn *sql.Conn) error {
	if b != PostgreSQL {
		return nil
	}
	var lz4 bool
	err := conn.QueryRowContext(ctx, `SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'`).Scan(&lz4)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && !lz4) {
		return nil
	}
	for _, table := range []string{"orders", "messages"} {
		if err == nil {
			_, err = conn.ExecContext(ctx, "ALTER TABLE "+table+" ALTER COLUMN json SET COMPRESSION lz4")
		}
	}
	return err
}

// schemaVersion reads the version of the database's schema: 0 when it has
// none of the mirror's tables, 1 for the unversioned SQLite mirror.
func schemaVersion(ctx context.Context, b Backend, conn *sql.Conn) (int, error) {
	exists := func(table string) (bool, error) {
		var n int
		err := conn.QueryRowContext(ctx, b.tableExists(), table).Scan(&n)
		return n > 0, err
	}
	versioned, err := exists("mirror_schema")
	if err != nil || versioned {
		var v sql.NullInt64
		if err == nil {
			err = conn.QueryRowContext(ctx, "SELECT max(version) FROM mirror_schema").Scan(&v)
		}
		if err == nil && !v.Valid {
			err = fmt.Errorf("%w: its table mirror_schema holds no version, so what its other tables are is not known; use another database", ErrSchema)
		}
		return int(v.Int64), err
	}
	var found []string
	for _, t := range []string{"orders", "messages", "sync_state"} {
		ok, err := exists(t)
		if err != nil {
			return 0, err
		}
		if ok {
			found = append(found, t)
		}
	}
	if len(found) == 0 {
		return 0, nil
	}
	// Version 1: sync_state keyed by resource alone, one website.
	if len(found) == 3 {
		cols, err := columns(ctx, b, conn, "sync_state")
		if err != nil {
			return 0, err
		}
		if slices.Equal(cols, []string{"checkpoint", "resource", "website_id"}) {
			return 1, nil
		}
	}
	return 0, fmt.Errorf("%w: it holds the tables %s but not a mirror's schema version; use another database", ErrSchema, strings.Join(found, ", "))
}

// columns returns the names of the columns of table, sorted.
func columns(ctx context.Context, b Backend, conn *sql.Conn, table string) ([]string, error) {
	q := "SELECT name FROM pragma_table_info(?)"
	if b == PostgreSQL {
		q = "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1"
	}
	rows, err := conn.QueryContext(ctx, q, table)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, err
		}
		out = append(out, name)
	}
	slices.Sort(out)
	return out, rows.Err()
}

// inTx runs f in a write transaction on conn, committed when f returns nil
// and rolled back otherwise.
func inTx(ctx context.Context, b Backend, conn *sql.Conn, f func() error) error {
	if _, err := conn.ExecContext(ctx, b.begin()); err != nil {
		return err
	}
	if err := f(); err != nil {
		conn.ExecContext(context.WithoutCancel(ctx), "ROLLBACK")
		return err
	}
	if _, err := conn.ExecContext(ctx, "COMMIT"); err != nil {
		conn.ExecContext(context.WithoutCancel(ctx), "ROLLBACK")
		return err
	}
	return nil
}
