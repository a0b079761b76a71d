package mirror_test

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
)

// statements counts the statements a database handle sends: all of them,
// the DDL among them (CREATE, ALTER, DROP) and the look-ups in the catalog
// (information_schema, pg_settings, sqlite_master, pragma_table_info).
// With keep set, it also keeps their text, in order; before, when set, is
// called with each, before it is sent. refuse and lose, when set, make
// faults: a statement for which refuse returns an error is not sent, and
// one for which lose returns an error is run, its answer dropped; the
// caller gets the error (statements that database/sql prepares, and pgx's
// COPY, pass).
type statements struct {
	all, ddl, catalog atomic.Int64

	keep         bool
	before       func(query string)
	refuse, lose func(query string) error
	mu           sync.Mutex
	sent         []string
}

// fault reports whether query runs, and the error refuse or lose make for
// it.
func (s *statements) fault(query string) (runs bool, err error) {
	if s.refuse != nil {
		if err := s.refuse(query); err != nil {
			return false, err
		}
	}
	if s.lose != nil {
		if err := s.lose(query); err != nil {
			return true, err
		}
	}
	return true, nil
}

// firstOf is a fault (statements.refuse or lose) of the first statement
// that holds part: err; fired reports that it was made.
func firstOf(part string, err error) (fault func(query string) error, fired *atomic.Bool) {
	fired = new(atomic.Bool)
	return func(query string) error {
		if strings.Contains(query, part) && fired.CompareAndSwap(false, true) {
			return err
		}
		return nil
	}, fired
}

// note counts query.
func (s *statements) note(query string) {
	if s.before != nil {
		s.before(query)
	}
	if s.keep {
		s.mu.Lock()
		s.sent = append(s.sent, strings.Join(strings.Fields(query), " "))
		s.mu.Unlock()
	}
	s.all.Add(1)
	q := strings.ToUpper(strings.TrimSpace(query))
	for _, word := range []string{"CREATE ", "ALTER ", "DROP "} {
		if strings.HasPrefix(q, word) {
			s.ddl.Add(1)
		}
	}
	for _, catalog := range []string{"INFORMATION_SCHEMA", "PG_SETTINGS", "SQLITE_MASTER", "PRAGMA_TABLE_INFO"} {
		if strings.Contains(q, catalog) {
			s.catalog.Add(1)
			break
		}
	}
}

// counted opens the database at target, as be.Open does, through a driver
// that counts its statements in s.
func counted(t testing.TB, be mirrortest.Backend, target string, s *statements) *sql.DB {
	t.Helper()
	plain := be.Open(t, target)
	dsn := target
	if be.Name == "SQLite" {
		dsn = mirrortest.SQLiteDSN(target)
	}
	db := sql.OpenDB(countingConnector{d: plain.Driver(), dsn: dsn, s: s})
	t.Cleanup(func() { db.Close() })
	return db
}

// countingConnector makes the connections of a countingConn.
type countingConnector struct {
	d   driver.Driver
	dsn string
	s   *statements
}

func (k countingConnector) Connect(context.Context) (driver.Conn, error) {
	c, err := k.d.Open(k.dsn)
	if err != nil {
		return nil, err
	}
	return &countingConn{next: c, s: k.s}, nil
}

func (k countingConnector) Driver() driver.Driver { return k.d }

// countingConn counts the statements of the connection it wraps, and hands
// on what the driver does, or database/sql's default where it does
// nothing.
type countingConn struct {
	next driver.Conn
	s    *statements
}

func (c *countingConn) Prepare(query string) (driver.Stmt, error) { return c.next.Prepare(query) }
func (c *countingConn) Close() error                              { return c.next.Close() }

//lint:ignore SA1019 driver.Conn has it
func (c *countingConn) Begin() (driver.Tx, error) { return c.next.Begin() }

// Conn is pgx's connection it wraps (nil for another driver's), which the
// mirror writes PostgreSQL's new rows with, by COPY: those are not counted.
func (c *countingConn) Conn() *pgx.Conn {
	if p, ok := c.next.(interface{ Conn() *pgx.Conn }); ok {
		return p.Conn()
	}
	return nil
}

func (c *countingConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	c.s.note(query)
	if p, ok := c.next.(driver.ConnPrepareContext); ok {
		return p.PrepareContext(ctx, query)
	}
	return c.next.Prepare(query)
}

func (c *countingConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	e, ok := c.next.(driver.ExecerContext)
	if !ok {
		return nil, driver.ErrSkip // database/sql prepares it, and counts it there
	}
	c.s.note(query)
	runs, fault := c.s.fault(query)
	if !runs {
		return nil, fault
	}
	res, err := e.ExecContext(ctx, query, args)
	if err == nil && fault != nil {
		return nil, fault
	}
	return res, err
}

func (c *countingConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	q, ok := c.next.(driver.QueryerContext)
	if !ok {
		return nil, driver.ErrSkip
	}
	c.s.note(query)
	runs, fault := c.s.fault(query)
	if !runs {
		return nil, fault
	}
	rows, err := q.QueryContext(ctx, query, args)
	if err == nil && fault != nil {
		rows.Close()
		return nil, fault
	}
	return rows, err
}

func (c *countingConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	if b, ok := c.next.(driver.ConnBeginTx); ok {
		return b.BeginTx(ctx, opts)
	}
	//lint:ignore SA1019 the driver has nothing else
	return c.next.Begin()
}

func (c *countingConn) CheckNamedValue(v *driver.NamedValue) error {
	if n, ok := c.next.(driver.NamedValueChecker); ok {
		return n.CheckNamedValue(v)
	}
	return driver.ErrSkip
}

func (c *countingConn) ResetSession(ctx context.Context) error {
	if r, ok := c.next.(driver.SessionResetter); ok {
		return r.ResetSession(ctx)
	}
	return nil
}

func (c *countingConn) IsValid() bool {
	v, ok := c.next.(driver.Validator)
	return !ok || v.IsValid()
}

func (c *countingConn) Ping(ctx context.Context) error {
	if p, ok := c.next.(driver.Pinger); ok {
		return p.Ping(ctx)
	}
	return nil
}
