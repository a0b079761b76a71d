package mirror

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// PostgreSQL's new rows are written with COPY, through pgx's connection
// under the caller's *sql.DB: one COPY of a whole batch costs the server
// about half of an INSERT of the same rows, which binds a parameter per
// value (BENCHMARKS.md). The package imports pgx for it but registers no
// driver: the caller's *sql.DB must be one of
// github.com/jackc/pgx/v5/stdlib, which Open checks.

// pgxConn is a driver connection of github.com/jackc/pgx/v5/stdlib, as
// database/sql's Conn.Raw hands it over.
type pgxConn interface{ Conn() *pgx.Conn }

// usesPgx refuses a connection to PostgreSQL whose driver is not pgx's.
func usesPgx(conn *sql.Conn) error {
	return conn.Raw(func(dc any) error {
		if _, ok := dc.(pgxConn); !ok {
			return notPgx(dc)
		}
		return nil
	})
}

// notPgx is the error of a driver connection dc that is not pgx's.
func notPgx(dc any) error {
	return fmt.Errorf("mirror: PostgreSQL is written with COPY through pgx: open the database with "+
		"github.com/jackc/pgx/v5/stdlib (sql.Open(\"pgx\", url), or stdlib.OpenDB), not a driver whose connections are %T", dc)
}

// uniqueViolation is PostgreSQL's SQLSTATE for a key that a table holds
// already.
const uniqueViolation = "23505"

// copyNew writes rows, new rows of the columns cols of table, with one
// COPY, in a savepoint of the transaction open on conn: it reports held,
// having written none, when the table holds one of them already.
func copyNew(ctx context.Context, conn *sql.Conn, table string, cols []string, rows [][]any) (held bool, err error) {
	if _, err := conn.ExecContext(ctx, "SAVEPOINT mirror_copy"); err != nil {
		return false, err
	}
	err = conn.Raw(func(dc any) error {
		pc, ok := dc.(pgxConn)
		if !ok {
			return notPgx(dc)
		}
		_, err := pc.Conn().CopyFrom(ctx, pgx.Identifier{table}, cols, pgx.CopyFromRows(rows))
		return err
	})
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == uniqueViolation {
		_, err = conn.ExecContext(ctx, "ROLLBACK TO SAVEPOINT mirror_copy")
		return err == nil, err
	}
	if err != nil {
		return false, err
	}
	_, err = conn.ExecContext(ctx, "RELEASE SAVEPOINT mirror_copy")
	return false, err
}
