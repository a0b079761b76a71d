package mirror

import (
	"context"
	"database/sql/driver"
	"fmt"
	"strings"
)

// sqliteInsertRows is the number of rows of one INSERT in SQLite: 50 took
// less time than 20 or 100, or than a batch's 500 in one statement, and 1,
// 10 or 25 no less (BENCHMARKS.md).
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
	return w.conn.Raw(func(dc any) error {
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
				if stmt, err = prepareOn(ctx, dc, w.insertSQL(k)); err != nil {
					return err
				}
				prepared[k] = stmt
			}
			args, err := sqliteArgs(rows[:k])
			if err != nil {
				return err
			}
			res, err := execOn(ctx, stmt, args)
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

// sqliteArgs are the values of rows, in order, as a driver takes them:
// converted as database/sql converts them, but the JSON (sqliteText) as
// bytes.
func sqliteArgs(rows [][]any) ([]driver.NamedValue, error) {
	var args []driver.NamedValue
	for _, row := range rows {
		for _, v := range row {
			if t, ok := v.(sqliteText); ok {
				v = []byte(t)
			} else {
				var err error
				if v, err = driver.DefaultParameterConverter.ConvertValue(v); err != nil {
					return nil, err
				}
			}
			args = append(args, driver.NamedValue{Ordinal: len(args) + 1, Value: v})
		}
	}
	return args, nil
}

// prepareOn prepares query on dc, a driver's connection.
func prepareOn(ctx context.Context, dc any, query string) (driver.Stmt, error) {
	switch c := dc.(type) {
	case driver.ConnPrepareContext:
		return c.PrepareContext(ctx, query)
	case driver.Conn:
		return c.Prepare(query)
	}
	return nil, fmt.Errorf("mirror: %T is not a driver's connection", dc)
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
