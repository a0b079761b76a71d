package mirror

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"strings"
)

// SchemaVersion is the version of the tables and views that this package
// makes, kept in the table mirror_schema: the number of its schema's steps
// (migrations/).
const SchemaVersion = 1

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

// setUp makes the schema, or upgrades it, in one transaction on conn: it
// drops the views, runs every step after the database's version (all of
// them for a new database, as for an old one), sets what is no SQL of a
// step (schemaBackend.tune), then makes the views again from their
// description and records the version.
func setUp(ctx context.Context, b Backend, conn *sql.Conn) error {
	// A database of this version, the usual case, needs neither the lock
	// nor a transaction: workers that start at once do not wait in turn.
	if version, err := schemaVersion(ctx, b, conn); err == nil && version == SchemaVersion {
		return nil
	}
	return inTx(ctx, b, conn, func() error {
		if err := schemaBackends[b].lock(ctx, conn); err != nil {
			return err
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
		if err := schemaBackends[b].tune(ctx, conn); err != nil {
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

// schemaVersion reads the version of the database's schema: 0 when it has
// none of the mirror's tables.
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
	if len(found) > 0 {
		return 0, fmt.Errorf("%w: it holds the tables %s but not a mirror's schema version; use another database", ErrSchema, strings.Join(found, ", "))
	}
	return 0, nil
}

// schemaBackend is what the making of the schema does in one backend
// beside running its steps: schema_sqlite.go and schema_postgres.go.
type schemaBackend interface {
	// useWAL readies a connection before the schema is read.
	useWAL(ctx context.Context, conn *sql.Conn) error
	// lock serializes, in setUp's transaction, the runs that make or
	// upgrade the schema at once.
	lock(ctx context.Context, conn *sql.Conn) error
	// tune sets what no step can: settings that depend on the server.
	tune(ctx context.Context, conn *sql.Conn) error
}

// schemaBackends holds the schemaBackend of each backend.
var schemaBackends = map[Backend]schemaBackend{SQLite: sqliteSchema{}, PostgreSQL: postgresSchema{}}

// useWAL readies conn, of a database of backend b, for the schema and the
// runs: a SQLite file is put in WAL mode (sqliteSchema.useWAL).
func useWAL(ctx context.Context, b Backend, conn *sql.Conn) error {
	return schemaBackends[b].useWAL(ctx, conn)
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
