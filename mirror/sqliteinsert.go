package mirror

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"strings"
)

// sqliteInsertRows is the number of rows of one INSERT in SQLite: 50 took
// less time than 20 or 100 (BENCHMARKS.md).
const sqliteInsertRows = 50

// insertSQLite inserts rows, sqliteInsertRows at a time, and the rest of
// them one at a time (compiling an INSERT of their number took longer): a
// row the table holds is left as it was (ON CONFLICT DO NOTHING), and the
// insert then returns errHeld. The records' JSON is bound as bytes under
// CAST(? AS TEXT), not copied into a string.
//
// The two INSERTs are prepared once for the batch, on the driver's
// connection, and closed before it is handed back to database/sql: a
// statement left open when database/sql ends a connection (its driver said
// driver.ErrBadConn) keeps SQLite's connection, and the write lock of its
// transaction, open for as long as the process lives.
func (w *writer) insertSQLite(ctx context.Context, rows [][]any) error {
	return insertRowsSQLite(ctx, w.conn, w.insertSQL, rows)
}

// insertRowsSQLite inserts rows on conn with the INSERTs that insertSQL
// makes for a number of rows, as insertSQLite does, and returns errHeld
// when one inserted fewer rows than it was given.
func insertRowsSQLite(ctx context.Context, conn *sql.Conn, insertSQL func(k int) string, rows [][]any) error {
	return conn.Raw(func(dc any) error {
		prepared := map[int]driver.Stmt{} // by their number of rows
		defer func() {
			for _, stmt := range prepared {
				stmt.Close()
			}
		}()
		for len(rows) > 0 {
			k := sqliteInsertRows
			if len(rows) < k {
				k = 1
			}
			stmt := prepared[k]
			if stmt == nil {
				var err error
				if stmt, err = prepareOn(ctx, dc, insertSQL(k)); err != nil {
					return err
				}
				prepared[k] = stmt
			}
			res, err := execOn(ctx, stmt, sqliteArgs(rows[:k]))
			if err != nil {
				return err
			}
			n, err := res.RowsAffected()
			switch {
			case err != nil:
				return err
			case n != int64(k):
				return fmt.Errorf("%w (%d of %d rows inserted)", errHeld, n, k)
			}
			rows = rows[k:]
		}
		return nil
	})
}

// insertSQL is the INSERT of k rows of the writer's table, in SQLite.
func (w *writer) insertSQL(k int) string {
	cols := w.writtenColumns()
	row := make([]string, len(cols))
	for i, c := range w.t.def().columns[:len(cols)] {
		row[i] = "?"
		if c.typ == typeJSON {
			row[i] = "CAST(? AS TEXT)"
		}
	}
	values := strings.TrimSuffix(strings.Repeat("("+strings.Join(row, ", ")+"), ", k), ", ")
	return fmt.Sprintf("INSERT INTO %s (%s) VALUES %s ON CONFLICT DO NOTHING", w.t.name, strings.Join(cols, ", "), values)
}

// sqliteArgs are the values of rows, in order, as a driver takes them. A
// row's values are driver.Values already (rowOf: int64, string, []byte or
// nil), which database/sql hands to a driver as they are, but the JSON
// (sqliteText, a driver.Valuer of a string), passed as its bytes.
func sqliteArgs(rows [][]any) []driver.NamedValue {
	args := make([]driver.NamedValue, 0, len(rows)*len(rows[0]))
	for _, row := range rows {
		for _, v := range row {
			if t, ok := v.(sqliteText); ok {
				v = []byte(t)
			}
			args = append(args, driver.NamedValue{Ordinal: len(args) + 1, Value: v})
		}
	}
	return args
}

// prepareOn prepares query on dc, the driver's connection that Conn.Raw
// hands over.
func prepareOn(ctx context.Context, dc any, query string) (driver.Stmt, error) {
	if c, ok := dc.(driver.ConnPrepareContext); ok {
		return c.PrepareContext(ctx, query)
	}
	return dc.(driver.Conn).Prepare(query)
}

// execOn runs a driver's statement with args.
func execOn(ctx context.Context, stmt driver.Stmt, args []driver.NamedValue) (driver.Result, error) {
	if s, ok := stmt.(driver.StmtExecContext); ok {
		return s.ExecContext(ctx, args)
	}
	values := make([]driver.Value, len(args))
	for i, a := range args {
		values[i] = a.Value
	}
	//lint:ignore SA1019 the driver has nothing else
	return stmt.Exec(values)
}
