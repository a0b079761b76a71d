package mirror

import (
	"cmp"
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/ordermsg/ordermsg-go"
)

// OrderIncludes returns, in a new slice each call, the includes a mirror
// requests with every order: all of ordermsg.AllOrderIncludes that bring data
// no other table holds. The linked message is mirrored on its own, so include
// message is not requested and order.message stays its id.
func OrderIncludes() []ordermsg.OrderInclude {
	return slices.DeleteFunc(ordermsg.AllOrderIncludes(), func(inc ordermsg.OrderInclude) bool {
		return inc == ordermsg.OrderIncludeMessage
	})
}

// MessageIncludes returns, in a new slice each call, the includes a mirror
// requests with every message: all of ordermsg.AllMessageIncludes but order
// and order.items (the order is mirrored on its own, and message.order stays
// its id).
func MessageIncludes() []ordermsg.MessageInclude {
	return slices.DeleteFunc(ordermsg.AllMessageIncludes(), func(inc ordermsg.MessageInclude) bool {
		return inc == ordermsg.MessageIncludeOrder || inc == ordermsg.MessageIncludeOrderItems
	})
}

// ErrDatabase is matched (errors.Is) by every error of Sync that the
// database returned, as opposed to the API or the network.
var ErrDatabase = errors.New("mirror: database")

// dbError is an error of the database.
type dbError struct{ err error }

func (e *dbError) Error() string        { return e.err.Error() }
func (e *dbError) Unwrap() error        { return e.err }
func (e *dbError) Is(target error) bool { return target == ErrDatabase }

// dbErr wraps err as an error of the database; nil stays nil.
func dbErr(err error) error {
	if err == nil || errors.Is(err, ErrDatabase) {
		return err
	}
	return &dbError{err}
}

// dbErrOf is dbErr for the error of database work done with ctx. Once ctx
// has ended, the work's failure is the caller's cancellation, not the
// database's: it is returned as ctx's error (errors.Is sees it), with the
// failure's text. (pgx answers a statement sent with an ended context
// with driver.ErrBadConn, which does not say why.)
func dbErrOf(ctx context.Context, err error) error {
	switch {
	case err == nil || ctx.Err() == nil:
		return dbErr(err)
	case endedWith(ctx, err):
		return err
	}
	return fmt.Errorf("%w: %v", ctx.Err(), err)
}

// endedWith reports whether ctx has ended and err is its error.
func endedWith(ctx context.Context, err error) bool {
	return ctx.Err() != nil && errors.Is(err, ctx.Err())
}

// Mirror keeps the orders and messages of websites in a database. It is safe
// for concurrent use, and any number of processes may mirror into the same
// database at once.
type Mirror struct {
	db      *sql.DB
	backend Backend
	ops     backendOps // backend's
	// writes is taken by each transaction of a writer in SQLite, which
	// writes one transaction at a time: the writers of this Mirror (the
	// orders' and the messages', a fleet's websites) take turns on it, so
	// that one waiting starts as the other commits, instead of after the
	// next sleep of SQLite's busy handler (1 to 100 ms). Another process's
	// writers still meet the busy handler.
	writes sync.Mutex
}

// Open prepares db, a database of the given backend, for mirroring: it makes
// the tables and views when they are missing, and upgrades those of an
// earlier version in place. A database whose schema it cannot use (a newer
// version's, or other tables of the same names) is refused with an error
// that matches ErrSchema and is left as it was. The caller keeps db and
// closes it. A SQLite file is put in WAL mode (kept in the file), so that
// readers query the mirror while a run writes; leave journal_mode out of the
// connection's settings, for two processes that switch a file to WAL at
// once fail, while Open waits for the other's switch. A PostgreSQL db must
// be one of github.com/jackc/pgx/v5/stdlib, whose COPY the mirror writes
// with: another driver's is refused, and left as it was.
func Open(ctx context.Context, db *sql.DB, backend Backend) (*Mirror, error) {
	if !backend.valid() {
		return nil, fmt.Errorf("mirror: unknown backend %v", backend)
	}
	m := &Mirror{db: db, backend: backend, ops: backend.ops()}
	err := m.withConn(ctx, func(conn *sql.Conn) error {
		if err := m.ops.checkDriver(conn); err != nil {
			return err
		}
		if err := useWAL(ctx, backend, conn); err != nil {
			return err
		}
		return setUp(ctx, backend, conn)
	})
	if err != nil {
		return nil, dbErrOf(ctx, err)
	}
	return m, nil
}

// withConn runs f on a connection of its own (see conn).
func (m *Mirror) withConn(ctx context.Context, f func(*sql.Conn) error) error {
	conn, err := m.conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return f(conn)
}

// onConnOrAnother runs f on conn, and when conn has ended (its driver
// said driver.ErrBadConn, now or before) again on a connection of the
// pool, if one comes within busyWait: for what must be written even then,
// the release of a lease, the row of a run.
func (m *Mirror) onConnOrAnother(ctx context.Context, conn *sql.Conn, f func(*sql.Conn) error) error {
	err := f(conn)
	if errors.Is(err, sql.ErrConnDone) || errors.Is(err, driver.ErrBadConn) {
		ctx, cancel := context.WithTimeout(ctx, busyWait)
		defer cancel()
		err = m.withConn(ctx, f)
	}
	return err
}

// conn takes a connection of the pool, set up for the backend; the caller
// closes it.
func (m *Mirror) conn(ctx context.Context) (*sql.Conn, error) {
	conn, err := m.db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	if err := m.ops.prepare(ctx, conn); err != nil {
		conn.Close()
		return nil, err
	}
	return conn, nil
}

// Options tune a Sync. The zero value (or nil) is a run that reads the new
// records 100 at a time.
type Options struct {
	// RefreshDays, when above 0, also reads again the records created in
	// the RefreshDays days before the newest one mirrored, and rewrites
	// those that changed: nothing in the API says when a record changes
	// (statuses do). It has no effect with Reconcile, which reads them all.
	RefreshDays int
	// Reconcile, when true, also reads every record the server lists for
	// the website (after the new ones): a record the server no longer has
	// gets deleted_at, one listed again gets it back to NULL, and one that
	// changed is rewritten, however old. It costs a full listing of the
	// website (BENCHMARKS.md); run it less often than the new records,
	// such as once a day.
	Reconcile bool
	// BaseURLMoved says that the service the website is mirrored from
	// moved to the client's base URL: the run takes it as the website's
	// source. Without it, a run from another base URL than the one the
	// website was first mirrored from is refused (see SourceError).
	BaseURLMoved bool
	// AllowMassDelete lets a reconcile mark more than 10% of a website's
	// live records of a resource deleted, and more than 10: without it,
	// such a reconcile marks none of them (see MassDeleteError).
	AllowMassDelete bool
	// PageSize is the count of each list request; 0 is 100.
	PageSize int
	// Concurrency is the number of pages the refresh and reconcile passes
	// fetch at once, and of records a reconcile retrieves at once, for the
	// orders and for the messages (which Sync reads at once); 0 is 4.
	// The new records are always read one page at a time (see
	// ordermsg.OrdersService.Sync).
	Concurrency int
	// Progress, when set, is called once for each record read, from the
	// goroutines of the orders and of the messages at once.
	Progress func()
	// Secrets are strings that the text of a run's failure must never hold
	// where the mirror keeps it (mirror_runs.error), each replaced there by
	// xxxxx: the client's API key, which the mirror cannot read from the
	// client and a server may quote in an error's message, and any other
	// secret a driver may quote (a database password). The error returned
	// keeps the text as it was. A fleet masks them with each Website's.
	Secrets []string
}

// withDefaults returns the options (the zero ones for nil) with the
// defaults of their zero fields, or an error when one is negative.
func (o *Options) withDefaults() (Options, error) {
	var out Options
	if o != nil {
		out = *o
	}
	if out.RefreshDays < 0 || out.PageSize < 0 || out.Concurrency < 0 {
		return out, fmt.Errorf("mirror: RefreshDays %d, PageSize %d, Concurrency %d: none may be negative", out.RefreshDays, out.PageSize, out.Concurrency)
	}
	out.PageSize = cmp.Or(out.PageSize, 100)
	out.Concurrency = cmp.Or(out.Concurrency, 4)
	return out, nil
}

// Counts are what a Sync did to one table. A record read is counted once:
// new, updated (its data changed, see the package doc, or it had been
// found deleted) or unchanged.
type Counts struct {
	New, Updated, Unchanged int
	// Deleted is the number of records a reconcile found deleted on the
	// server, which now have deleted_at.
	Deleted int
	// Refused is the number of records read that the SDK could not decode,
	// kept as sent in the table refused_records (see the package doc).
	Refused int
}

// String is "N new, N updated, N unchanged, N deleted", followed by ", N
// refused" when records could not be decoded.
func (c Counts) String() string {
	s := fmt.Sprintf("%d new, %d updated, %d unchanged, %d deleted", c.New, c.Updated, c.Unchanged, c.Deleted)
	if c.Refused > 0 {
		s += fmt.Sprintf(", %d refused", c.Refused)
	}
	return s
}

// add adds the counts of d to c.
func (c *Counts) add(d Counts) {
	c.New += d.New
	c.Updated += d.Updated
	c.Unchanged += d.Unchanged
	c.Deleted += d.Deleted
	c.Refused += d.Refused
}

// Result is what a Sync did.
type Result struct {
	Orders, Messages Counts
}

// Sync brings the mirror of one website up to date: the orders and the
// messages created since the website's checkpoints, each with the data of
// every include of OrderIncludes and MessageIncludes and its JSON exactly
// as the server sent it; then, with RefreshDays, the recent records again,
// or with Reconcile every record. It holds the website while it runs, as a
// fleet's worker does (see SyncFleet), waiting while another holds it, and
// records its run in mirror_runs. It reads the orders and the messages at
// once when db's pool has room for them, else in turn. A record that the
// SDK cannot decode is kept as sent in refused_records and counted Refused.
//
// Before any write, Sync checks that the website is mirrored from c's base
// URL (its first run records it): a run from another one returns a
// *SourceError, unless Options.BaseURLMoved. Records are written in
// transactions of up to batchSize records, each with the checkpoint that
// covers them. When the context ends or the API fails, what was read so far
// is committed and the error returned; the next Sync goes on from there
// (docs/mirror.md, "When a run fails", says which error). Errors of the
// database match ErrDatabase; others come from the API or the network.
func (m *Mirror) Sync(ctx context.Context, c *ordermsg.Client, websiteID int64, opts *Options) (Result, error) {
	o, err := opts.withDefaults()
	if err == nil {
		err = checkWebsite(c, websiteID)
	}
	if err != nil {
		return Result{}, err
	}
	conn, err := m.conn(ctx)
	if err != nil {
		return Result{}, dbErrOf(ctx, err)
	}
	defer conn.Close()
	h, err := m.waitFor(ctx, conn, websiteID)
	if err != nil {
		if m.ops.onSession() {
			// A lock the server granted may be held still, its answer
			// lost: end the session rather than return it to the pool.
			endSession(conn)
		}
		return Result{}, dbErrOf(ctx, err)
	}
	defer h.Release()
	var runConn *sql.Conn
	if !m.roomForBothTables() {
		runConn = conn
	}
	r := m.syncHeld(ctx, conn, runConn, Website{ID: websiteID, Client: c}, &o)
	return r.Result, r.Err
}

// sync is Sync, on conn when not nil (else on connections of the pool).
func (m *Mirror) sync(ctx context.Context, c *ordermsg.Client, websiteID int64, opts *Options, conn *sql.Conn) (Result, error) {
	o, err := opts.withDefaults()
	if err == nil {
		err = checkWebsite(c, websiteID)
	}
	if err != nil {
		return Result{}, err
	}
	run := &run{m: m, c: c, site: websiteID, opts: o, conn: conn}
	var res Result
	if err := run.checkSource(ctx); err != nil {
		return res, err
	}
	// The messages are mirrored whatever else became of the orders: a
	// failure of one table (a page the server cannot serve, the database
	// refusing a batch) does not hold the other back.
	var ordersErr, messagesErr error
	if conn != nil || !m.roomForBothTables() {
		// A run given its connection, a fleet's, whose websites are
		// synced at once already, and a pool without room for both take
		// the tables in turn.
		res.Orders, ordersErr = syncTable(ctx, run, ordersTable)
		if ordersErr != nil && (ctx.Err() != nil || ofWebsite(ordersErr)) {
			return res, ordersErr
		}
		res.Messages, messagesErr = syncTable(ctx, run, messagesTable)
		return res, joinTables(ordersErr, messagesErr)
	}
	// Both at once, each on a connection of the pool: one's walk overlaps
	// the other's, and its writes (BENCHMARKS.md); SQLite takes their
	// transactions in turn.
	var wg sync.WaitGroup
	wg.Go(func() { res.Messages, messagesErr = syncTable(ctx, run, messagesTable) })
	res.Orders, ordersErr = syncTable(ctx, run, ordersTable)
	wg.Wait()
	// An error of the whole website, or the ended context's, is said once
	// when both tables met it (or the messages none).
	once := func(err error) bool { return ofWebsite(err) || endedWith(ctx, err) }
	if once(ordersErr) && (messagesErr == nil || once(messagesErr)) {
		return res, ordersErr
	}
	return res, joinTables(ordersErr, messagesErr)
}

// roomForBothTables reports whether the pool of m's database has room for a
// Sync to read the orders and the messages at once: a connection for each
// besides the one that holds the website, and in SQLite one more for each
// of their leases to be moved on from (lease.go); any number when the pool
// has no limit.
func (m *Mirror) roomForBothTables() bool {
	need := 3 * (1 + m.ops.leaseConns())
	limit := m.db.Stats().MaxOpenConnections
	return limit == 0 || limit >= need
}

// ofWebsite reports whether err, an error of the orders, is one of the
// website's, which the messages would meet too: the API key refused (401,
// 403) or the website not found (404).
func ofWebsite(err error) bool {
	return errors.Is(err, ordermsg.ErrUnauthorized) || errors.Is(err, ordermsg.ErrForbidden) || errors.Is(err, ordermsg.ErrNotFound)
}

// joinTables is the error of a run whose orders failed with ordersErr and
// whose messages failed with messagesErr, either of which may be nil:
// errors.Is and errors.As see both.
func joinTables(ordersErr, messagesErr error) error {
	if ordersErr != nil && messagesErr != nil {
		return fmt.Errorf("%w (and the messages: %w)", ordersErr, messagesErr)
	}
	return cmp.Or(ordersErr, messagesErr)
}

// checkWebsite returns the error of a website that Sync cannot read: no
// client, or an id that is not positive.
func checkWebsite(c *ordermsg.Client, websiteID int64) error {
	switch {
	case c == nil:
		return fmt.Errorf("mirror: website %d: no client to read it with", websiteID)
	case websiteID <= 0:
		return fmt.Errorf("mirror: website id %d: want a positive integer", websiteID)
	}
	return nil
}

// run is one Sync.
type run struct {
	m    *Mirror
	c    *ordermsg.Client
	site int64
	opts Options
	conn *sql.Conn // the run's connection, or nil for one of the pool at a time
}

// withConn runs f on the run's connection, or on one of the pool.
func (r *run) withConn(ctx context.Context, f func(*sql.Conn) error) error {
	if r.conn != nil {
		return f(r.conn)
	}
	return r.m.withConn(ctx, f)
}

// progress reports one record read.
func (r *run) progress() {
	if r.opts.Progress != nil {
		r.opts.Progress()
	}
}

// refreshFrom is the creation time from which a refresh pass reads again,
// given the checkpoint's mark: RefreshDays before it, or the zero time (every
// record) for as many days as a time.Duration spans (about 292 years) or
// more, which no computation of dates can overflow.
func (r *run) refreshFrom(mark time.Time) time.Time {
	if r.opts.RefreshDays >= int(mark.Sub(time.Time{})/(24*time.Hour)) {
		return time.Time{}
	}
	return mark.AddDate(0, 0, -r.opts.RefreshDays)
}
