package worker

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"sync"
)

// OpenSQLiteQueueDB opens the pool that SQLiteQueue wants on the SQLite
// database of dsn, through the driver registered as "sqlite" (import
// modernc.org/sqlite): one connection, whose statements stay prepared from
// one use to the next. River's SQLite driver sends each statement as text,
// which SQLite would parse at every use: its poll for jobs, a few
// milliseconds each time, was most of an idle worker's CPU. Set the
// connection's busy timeout in dsn, as for the mirror's pool. The pool is
// River's alone: its rows report no column types, and sql.Conn.Raw gives
// a wrapper of modernc.org/sqlite's connection, not that connection.
func OpenSQLiteQueueDB(dsn string) (*sql.DB, error) {
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("worker: opening the queue's SQLite database: %w", err)
	}
	d := db.Driver()
	db.Close()
	var c driver.Connector = dsnConnector{d, dsn}
	if dc, ok := d.(driver.DriverContext); ok {
		if c, err = dc.OpenConnector(dsn); err != nil {
			return nil, fmt.Errorf("worker: opening the queue's SQLite database: %w", err)
		}
	}
	db = sql.OpenDB(keptStatements{c})
	db.SetMaxOpenConns(1)
	return db, nil
}

// dsnConnector is the connector of a driver that has none.
type dsnConnector struct {
	d   driver.Driver
	dsn string
}

func (c dsnConnector) Connect(context.Context) (driver.Conn, error) { return c.d.Open(c.dsn) }
func (c dsnConnector) Driver() driver.Driver                        { return c.d }

// keptStatements is a connector whose connections keep their statements
// prepared (stmtConn).
type keptStatements struct{ driver.Connector }

func (k keptStatements) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := k.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	if _, ok := conn.(driver.ConnPrepareContext); !ok {
		return conn, nil
	}
	return &stmtConn{Conn: conn, stmts: map[string]*keptStmt{}}, nil
}

// maxKeptStatements bounds the statements a connection keeps: River's
// are a few dozen; others are prepared for one use.
const maxKeptStatements = 200

// stmtConn is a connection that runs each query through a statement it
// prepared for that text before, unless that statement is in use (its
// rows open): then through one prepared for this use alone.
type stmtConn struct {
	driver.Conn
	mu    sync.Mutex
	stmts map[string]*keptStmt
}

// keptStmt is a statement a connection keeps, and whether it is in use.
type keptStmt struct {
	driver.Stmt
	busy bool
}

// stmt returns the statement of query for one use, and done, which ends
// that use.
func (c *stmtConn) stmt(ctx context.Context, query string) (s driver.Stmt, done func(), err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if k, ok := c.stmts[query]; ok && !k.busy {
		k.busy = true
		return k.Stmt, func() { c.release(k) }, nil
	}
	s, err = c.Conn.(driver.ConnPrepareContext).PrepareContext(ctx, query)
	if err != nil {
		return nil, nil, err
	}
	if _, ok := c.stmts[query]; ok || len(c.stmts) >= maxKeptStatements {
		return s, func() { s.Close() }, nil
	}
	k := &keptStmt{Stmt: s, busy: true}
	c.stmts[query] = k
	return s, func() { c.release(k) }, nil
}

func (c *stmtConn) release(k *keptStmt) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k.busy = false
}

// QueryContext runs query through its statement, in use until the rows
// close.
func (c *stmtConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	s, done, err := c.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	q, ok := s.(driver.StmtQueryContext)
	if !ok {
		done()
		return nil, driver.ErrSkip
	}
	rows, err := q.QueryContext(ctx, args)
	if err != nil {
		done()
		return nil, err
	}
	return &stmtRows{Rows: rows, done: done}, nil
}

// ExecContext runs query through its statement.
func (c *stmtConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	s, done, err := c.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	defer done()
	e, ok := s.(driver.StmtExecContext)
	if !ok {
		return nil, driver.ErrSkip
	}
	return e.ExecContext(ctx, args)
}

// Close closes the kept statements, then the connection.
func (c *stmtConn) Close() error {
	c.mu.Lock()
	for _, k := range c.stmts {
		k.Close()
	}
	clear(c.stmts)
	c.mu.Unlock()
	return c.Conn.Close()
}

// The rest is the connection's own.

func (c *stmtConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	return c.Conn.(driver.ConnPrepareContext).PrepareContext(ctx, query)
}

func (c *stmtConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	if b, ok := c.Conn.(driver.ConnBeginTx); ok {
		return b.BeginTx(ctx, opts)
	}
	//lint:ignore SA1019 the driver has no BeginTx
	return c.Conn.Begin()
}

func (c *stmtConn) Ping(ctx context.Context) error {
	if p, ok := c.Conn.(driver.Pinger); ok {
		return p.Ping(ctx)
	}
	return nil
}

func (c *stmtConn) ResetSession(ctx context.Context) error {
	if r, ok := c.Conn.(driver.SessionResetter); ok {
		return r.ResetSession(ctx)
	}
	return nil
}

func (c *stmtConn) IsValid() bool {
	if v, ok := c.Conn.(driver.Validator); ok {
		return v.IsValid()
	}
	return true
}

func (c *stmtConn) CheckNamedValue(nv *driver.NamedValue) error {
	if n, ok := c.Conn.(driver.NamedValueChecker); ok {
		return n.CheckNamedValue(nv)
	}
	return driver.ErrSkip
}

// stmtRows are the rows of a kept statement, which their Close lets go.
type stmtRows struct {
	driver.Rows
	once sync.Once
	done func()
}

func (r *stmtRows) Close() error {
	err := r.Rows.Close()
	r.once.Do(r.done)
	return err
}
