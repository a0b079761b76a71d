package mirror

import (
	"context"
	"database/sql/driver"
	"errors"
	"slices"
	"testing"
	"time"
)

// TestSQLiteArgsAreDriverValues: a row's values reach the driver as
// database/sql would hand them over, unconverted: each is a driver.Value,
// but the JSON, which goes as its bytes.
func TestSQLiteArgsAreDriverValues(t *testing.T) {
	for _, tbl := range []*table{ordersTable, messagesTable} {
		w := &writer{b: SQLite, t: tbl, site: 7}
		rec := rawOrderOfSize(t, 1<<10)
		row := w.rowOf(rec, time.Now(), contentDigest(rec.RawJSON()))
		args := sqliteArgs([][]any{row, row})
		if len(args) != 2*len(row) {
			t.Fatalf("%s: %d args of 2 rows of %d", tbl.name, len(args), len(row))
		}
		for i, a := range args {
			if a.Ordinal != i+1 || !driver.IsValue(a.Value) {
				t.Errorf("%s: arg %d: %+v (%T), want ordinal %d and a driver.Value", tbl.name, i, a, a.Value, i+1)
			}
			if _, ok := row[i%len(row)].(sqliteText); ok && string(a.Value.([]byte)) != string(rec.RawJSON()) {
				t.Errorf("%s: arg %d: the JSON is not the record's bytes", tbl.name, i)
			}
		}
	}
}

// TestStatementsOfADriverWithoutContexts: a driver whose connections and
// statements lack the context methods gets its INSERT through Prepare and
// Exec, with the values in order.
func TestStatementsOfADriverWithoutContexts(t *testing.T) {
	c := &plainConn{}
	stmt, err := prepareOn(context.Background(), c, "INSERT …")
	if err != nil || !slices.Equal(c.prepared, []string{"INSERT …"}) {
		t.Fatalf("prepared %q: %v", c.prepared, err)
	}
	res, err := execOn(context.Background(), stmt, []driver.NamedValue{{Ordinal: 1, Value: int64(4)}, {Ordinal: 2, Value: "x"}})
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := res.RowsAffected(); n != 2 || !slices.Equal(stmt.(*plainStmt).got, []driver.Value{int64(4), "x"}) {
		t.Errorf("ran with %v, %d rows", stmt.(*plainStmt).got, n)
	}
}

// plainConn is a driver's connection with only driver.Conn's methods.
type plainConn struct{ prepared []string }

func (c *plainConn) Prepare(query string) (driver.Stmt, error) {
	c.prepared = append(c.prepared, query)
	return &plainStmt{}, nil
}
func (c *plainConn) Close() error { return nil }

func (c *plainConn) Begin() (driver.Tx, error) { return nil, errors.New("no transactions") }

// plainStmt is a driver's statement with only driver.Stmt's methods; Exec
// keeps its values and says it wrote a row for each.
type plainStmt struct{ got []driver.Value }

func (s *plainStmt) Close() error  { return nil }
func (s *plainStmt) NumInput() int { return -1 }

func (s *plainStmt) Exec(args []driver.Value) (driver.Result, error) {
	s.got = args
	return driver.RowsAffected(len(args)), nil
}

func (s *plainStmt) Query([]driver.Value) (driver.Rows, error) { return nil, errors.New("no queries") }
