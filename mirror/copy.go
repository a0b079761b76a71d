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

// copyRows writes rows, of the columns cols of table, with one COPY, in
// the transaction open on conn.
func copyRows(ctx context.Context, conn *sql.Conn, table string, cols []string, rows [][]any) error {
	return conn.Raw(func(dc any) error {
		pc, ok := dc.(pgxConn)
		if !ok {
			return notPgx(dc)
		}
		_, err := pc.Conn().CopyFrom(ctx, pgx.Identifier{table}, cols, pgx.CopyFromRows(rows))
		return err
	})
}

// isUniqueViolation reports whether err is PostgreSQL's of a key that a
// table holds already (SQLSTATE 23505).
func isUniqueViolation(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "23505"
}
