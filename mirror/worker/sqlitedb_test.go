package worker_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/mirror/worker"
)

// openQueueDB is a pool of OpenSQLiteQueueDB on a fresh file, with a
// table t of n rows (1 to n).
func openQueueDB(t testing.TB, n int) *sql.DB {
	t.Helper()
	db, err := worker.OpenSQLiteQueueDB(mirrortest.SQLiteDSN(filepath.Join(t.TempDir(), "queue.db")))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.Exec("CREATE TABLE t (n INTEGER PRIMARY KEY)"); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= n; i++ {
		if _, err := db.Exec("INSERT INTO t (n) VALUES (?)", i); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

// The pool's kept statements answer as fresh ones would: a query run
// again with other arguments, the same query run again while its first
// rows are still open (in one transaction, on the one connection), a
// statement that changes the table, one that fails, and more texts than
// it keeps.
func TestSQLiteQueueDBKeepsStatementsRight(t *testing.T) {
	db := openQueueDB(t, 5)
	sum := func(q interface {
		QueryRow(string, ...any) *sql.Row
	}, above int) int {
		var s int
		if err := q.QueryRow("SELECT coalesce(sum(n), 0) FROM t WHERE n > ?", above).Scan(&s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	if a, b := sum(db, 0), sum(db, 3); a != 15 || b != 9 {
		t.Errorf("sums %d and %d, want 15 and 9", a, b)
	}
	tx, err := db.BeginTx(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := tx.Query("SELECT n FROM t WHERE n > ? ORDER BY n", 0)
	if err != nil {
		t.Fatal(err)
	}
	var outer []int
	for rows.Next() {
		var n int
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		outer = append(outer, n)
		// The same text while its rows are open.
		inner, err := tx.Query("SELECT n FROM t WHERE n > ? ORDER BY n", 4)
		if err != nil {
			t.Fatal(err)
		}
		var got []int
		for inner.Next() {
			var m int
			inner.Scan(&m)
			got = append(got, m)
		}
		inner.Close()
		if fmt.Sprint(got) != "[5]" {
			t.Errorf("the query run again while its rows are open: %v, want [5]", got)
		}
	}
	rows.Close()
	if _, err := tx.Exec("DELETE FROM t WHERE n = ?", 5); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(outer) != "[1 2 3 4 5]" || sum(db, 0) != 10 {
		t.Errorf("rows %v and a sum of %d after the delete, want [1 2 3 4 5] and 10", outer, sum(db, 0))
	}
	if _, err := db.Exec("INSERT INTO t (n) VALUES (?)", 1); err == nil {
		t.Error("a duplicate key was inserted")
	}
	if _, err := db.Exec("INSERT INTO t (n) VALUES (?)", 6); err != nil {
		t.Errorf("the statement after a failure: %v", err)
	}
	for i := range 300 {
		var n int
		if err := db.QueryRow(fmt.Sprintf("SELECT count(*) + %d FROM t", i)).Scan(&n); err != nil || n != 5+i {
			t.Fatalf("query %d: %d, %v; want %d", i, n, err, 5+i)
		}
	}
}

// BenchmarkSQLiteQueueDB runs a query of the size of River's fetch of
// jobs on a pool of OpenSQLiteQueueDB and on one that parses it at every
// use, and reports the second's time ÷ the first's.
func BenchmarkSQLiteQueueDB(b *testing.B) {
	const query = `WITH locked AS (SELECT n FROM t WHERE n > ? AND n NOT IN (SELECT n FROM t WHERE n < 0)
		ORDER BY n LIMIT ?) SELECT t.n, t.n * 2, CASE WHEN t.n > 3 THEN 'a' ELSE 'b' END,
		coalesce(nullif(t.n, 0), 1) FROM t JOIN locked ON locked.n = t.n ORDER BY t.n`
	kept := openQueueDB(b, 5)
	plain, err := sql.Open("sqlite", mirrortest.SQLiteDSN(filepath.Join(b.TempDir(), "plain.db")))
	if err != nil {
		b.Fatal(err)
	}
	defer plain.Close()
	plain.SetMaxOpenConns(1)
	if _, err := plain.Exec("CREATE TABLE t (n INTEGER PRIMARY KEY); INSERT INTO t VALUES (1), (2), (3), (4), (5)"); err != nil {
		b.Fatal(err)
	}
	run := func(db *sql.DB) {
		rows, err := db.Query(query, 0, 10)
		if err != nil {
			b.Fatal(err)
		}
		for rows.Next() {
		}
		rows.Close()
	}
	b.ReportAllocs()
	var perKept, perPlain float64
	for _, c := range []struct {
		db  *sql.DB
		per *float64
	}{{kept, &perKept}, {plain, &perPlain}} {
		start := time.Now()
		for range b.N {
			run(c.db)
		}
		*c.per = float64(time.Since(start)) / float64(b.N)
	}
	b.ReportMetric(perPlain/perKept, "parsed/kept")
}
