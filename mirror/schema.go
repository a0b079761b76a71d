package mirror

import (
	"cmp"
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"time"
)

// SchemaVersion is the version of the tables and views that this package
// makes, kept in the table mirror_schema: the number of its schema's steps
// (migrations/). Version 1 is the unversioned SQLite database of ordermsg
// sync --db before this package (one website, records without their
// includes).
const SchemaVersion = 6

// ErrSchema is matched (errors.Is) by the error of Open for a database whose
// tables are not a mirror's this version can use: made by a newer version,
// or holding tables of the same names that are not a mirror's. Such an
// error matches ErrDatabase too: the database is what is wrong.
var ErrSchema = errors.New("mirror: the database's schema is not one this version can use")

// migrations holds the steps of the schema, for each backend a folder of
// files named for their number (0001_....sql): step n takes a database from
// version n-1 to version n. A released step never changes; a change of the
// schema is a new step. Each is the SQL of one Exec, which both backends
// run statement after statement (PostgreSQL's simple protocol, which pgx
// uses for a statement without arguments, and sqlite3_prepare's tail).
//
//go:embed migrations
var migrations embed.FS

// steps returns the SQL of the schema's steps for b, step n at index n-1.
func steps(b Backend) ([]string, error) {
	dir := "migrations/" + strings.ToLower(b.String())
	entries, err := fs.ReadDir(migrations, dir)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(entries))
	for i, e := range entries { // sorted by name
		if !strings.HasPrefix(e.Name(), fmt.Sprintf("%04d_", i+1)) || !strings.HasSuffix(e.Name(), ".sql") {
			return nil, fmt.Errorf("mirror: step %s: want %04d_<name>.sql", e.Name(), i+1)
		}
		sql, err := fs.ReadFile(migrations, dir+"/"+e.Name())
		if err != nil {
			return nil, err
		}
		out = append(out, string(sql))
	}
	return out, nil
}

// schemaLockKey is the PostgreSQL advisory lock that serializes the making
// and upgrading of the schema by runs that start at once.
const schemaLockKey = 0x6f72646d73670001

// setUp makes the schema, or upgrades it, in one transaction on conn: it
// drops the views, runs every step after the database's version (all of
// them for a new database, as for an old one), fills what the steps add
// but cannot compute, then makes the views again from their description
// and records the version.
func setUp(ctx context.Context, b Backend, conn *sql.Conn) error {
	// A database of this version, the usual case, needs neither the lock
	// nor a transaction: workers that start at once do not wait in turn.
	if version, err := schemaVersion(ctx, b, conn); err == nil && version == SchemaVersion {
		return nil
	}
	return inTx(ctx, b, conn, func() error {
		if b == PostgreSQL {
			if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_xact_lock($1)", int64(schemaLockKey)); err != nil {
				return err
			}
		}
		version, err := schemaVersion(ctx, b, conn)
		switch {
		case err != nil:
			return err
		case version == SchemaVersion:
			return nil
		case version > SchemaVersion:
			return fmt.Errorf("%w: it was made by a newer version (schema %d; this one knows %d): upgrade ordermsg", ErrSchema, version, SchemaVersion)
		}
		all, err := steps(b)
		if err != nil {
			return err
		}
		if _, err := conn.ExecContext(ctx, dropViewsSQL()); err != nil {
			return fmt.Errorf("mirror: dropping the views to make them again: %w", err)
		}
		for n := version + 1; n <= len(all); n++ {
			if _, err := conn.ExecContext(ctx, all[n-1]); err != nil {
				return fmt.Errorf("mirror: step %d of the schema: %w", n, err)
			}
		}
		if version > 0 && version < nulFreeStep {
			if err := fillNULFreeJSON(ctx, b, conn); err != nil {
				return err
			}
		}
		if err := compressWithLZ4(ctx, b, conn); err != nil {
			return err
		}
		if _, err := conn.ExecContext(ctx, viewsSQL(b)); err != nil {
			return fmt.Errorf("mirror: making the views: %w", err)
		}
		if _, err := conn.ExecContext(ctx, "DELETE FROM mirror_schema"); err != nil {
			return err
		}
		_, err = conn.ExecContext(ctx, b.rebind("INSERT INTO mirror_schema (version) VALUES (?)"), len(all))
		return err
	})
}

// nulFreeStep is the step that adds the column nul_free_json.
const nulFreeStep = 3

// fillNULFreeJSON fills nul_free_json for the records that have a NUL and
// none yet: those an earlier version stored, whose step added the column
// but cannot compute it. A run writes it with every record.
func fillNULFreeJSON(ctx context.Context, b Backend, conn *sql.Conn) error {
	find := "SELECT website_id, id, json FROM %s WHERE nul_free_json IS NULL AND instr(json, ?) > 0"
	if b == PostgreSQL {
		find = "SELECT website_id, id, CAST(json AS TEXT) FROM %s WHERE nul_free_json IS NULL AND strpos(CAST(json AS TEXT), $1) > 0"
	}
	for _, table := range []string{ordersTable.name, messagesTable.name} {
		type key struct{ site, id int64 }
		fill := map[key][]byte{}
		rows, err := conn.QueryContext(ctx, fmt.Sprintf(find, table), `\u0000`)
		if err != nil {
			return err
		}
		for rows.Next() {
			var k key
			var raw []byte
			if err := rows.Scan(&k.site, &k.id, &raw); err != nil {
				rows.Close()
				return err
			}
			if free := viewJSON(raw); free != nil {
				fill[k] = free
			}
		}
		if err := cmp.Or(rows.Err(), rows.Close()); err != nil {
			return err
		}
		for k, free := range fill {
			q := b.rebind("UPDATE " + table + " SET nul_free_json = ? WHERE website_id = ? AND id = ?")
			if _, err := conn.ExecContext(ctx, q, string(free), k.site, k.id); err != nil {
				return err
			}
		}
	}
	return nil
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
	for _, table := range []string{ordersTable.name, messagesTable.name, changesTable(b).name} {
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
	for _, t := range []string{ordersTable.name, messagesTable.name, syncStateTable.name} {
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
