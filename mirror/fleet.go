package mirror

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"iter"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/internal/secretmask"
)

// A fleet is many websites, each owned by its own account with its own key,
// mirrored into one database by one call (SyncFleet), or by several workers
// (processes on one machine or many, each calling SyncFleet with the same
// websites) that share the work through PostgreSQL.

// DefaultParallel is the number of websites a SyncFleet syncs at once when
// FleetOptions.Parallel is 0. Each website reads its new records one page
// at a time, so this is also the number of requests in flight (more during
// a refresh or a reconcile, see Options.Concurrency).
const DefaultParallel = 4

// Website is a website of a fleet: its id, and a client authenticated with
// the key of the account that owns it.
type Website struct {
	ID     int64
	Client *ordermsg.Client
	// Secrets are strings that the text of the website's failure must
	// never hold where the mirror keeps it (mirror_runs.error), in any
	// spelling that decodes to them: as themselves, URL-encoded,
	// JSON-escaped, in base64 (of the secret and of the secret and a
	// colon, the credentials of HTTP Basic authentication), and the start
	// of one that the SDK's cut of a server's message (marked …) split.
	// Each is replaced there by xxxxx. Give the client's API key, which the
	// mirror cannot read from the client and a server may quote, and any
	// other secret a driver may quote (a database password); every one
	// given is masked, however short. WebsiteResult.Err keeps the text as
	// it was.
	Secrets []string
}

// FleetOptions tune a SyncFleet. The zero value (or nil) syncs
// DefaultParallel websites at once, each as Sync does with the zero
// Options.
type FleetOptions struct {
	// Options are those of each website's Sync. Progress, when set, is
	// called from the goroutines of several websites at once.
	Options
	// Parallel is the number of websites synced at once; 0 is
	// DefaultParallel.
	Parallel int
	// Done, when set, is called for each website that SyncFleet took, once
	// it is done with it: synced, failed or skipped. Calls come one at a
	// time, in the order the websites end.
	Done func(WebsiteResult)
}

// Skip says why a SyncFleet did not sync a website.
type Skip int

// The reasons a SyncFleet skips a website.
const (
	// NotSkipped: the website was synced (or its Sync failed).
	NotSkipped Skip = iota
	// SkipHeld: another worker was syncing the website (PostgreSQL).
	SkipHeld
	// SkipSynced: another worker synced the website since this SyncFleet
	// began (its run in mirror_runs started later than this SyncFleet, and
	// succeeded).
	SkipSynced
)

// String says why the website was skipped: "held by another worker" or
// "synced by another worker since this run began"; "" for NotSkipped.
func (s Skip) String() string {
	switch s {
	case NotSkipped:
		return ""
	case SkipHeld:
		return "held by another worker"
	case SkipSynced:
		return "synced by another worker since this run began"
	}
	return fmt.Sprintf("Skip(%d)", int(s))
}

// WebsiteResult is what a SyncFleet did with one website.
type WebsiteResult struct {
	WebsiteID int64
	// Skipped says why the website was not synced; NotSkipped when it was.
	Skipped Skip
	// Result is what the website's Sync did, as far as it went.
	Result
	// Err is the error of the website's Sync, as Sync returns it, or of
	// the database before or after it; nil when it succeeded or was
	// skipped.
	Err error
	// Started and Finished bound the website's Sync, as mirror_runs
	// records them; zero when it did not start.
	Started, Finished time.Time
}

// FleetResult is what a SyncFleet did: how many websites it synced, how
// many failed and how many it skipped, and the counts of the websites'
// Syncs, summed.
type FleetResult struct {
	Synced, Failed, Skipped int
	Orders, Messages        Counts
}

// FleetError is the error of a SyncFleet in which websites failed. Every
// other website was synced; each website's error went to FleetOptions.Done.
// It unwraps to the first failure's error.
type FleetError struct {
	// Failed is the number of websites that failed, out of Websites, the
	// number that SyncFleet took (synced, failed or skipped).
	Failed, Websites int
	// First is the first website that failed.
	First WebsiteResult
}

// Error counts the failures and gives the first.
func (e *FleetError) Error() string {
	return fmt.Sprintf("mirror: %d of %d websites failed; the first, website %d: %v", e.Failed, e.Websites, e.First.WebsiteID, e.First.Err)
}

// Unwrap returns the first failure's error, so that errors.Is and
// errors.As see it.
func (e *FleetError) Unwrap() error { return e.First.Err }

// SyncFleet syncs every website of websites, Parallel at a time, each as
// Sync does with FleetOptions.Options, and records each website's run in
// the table mirror_runs. A website that fails does not stop the others.
//
// Workers (processes that call SyncFleet with the same websites on one
// database) share a fleet: a worker holds a website while it syncs it (in
// PostgreSQL an advisory lock of its session, in SQLite a lease, a row of
// mirror_leases) and skips one that another holds (SkipHeld) or synced
// since it began (SkipSynced), never waiting. websites is read on the
// caller's goroutine as slots free up, so that an iterator can make each
// client as its website is taken. Each website is synced on one connection
// of db's pool, kept for the next; a limited pool lowers Parallel.
// docs/mirror.md ("How workers share a fleet") says what a killed worker
// leaves, what mirror_runs records, and how connections are used.
//
// SyncFleet returns a *FleetError when websites failed. When ctx ends, it
// takes no more websites and returns, once those in progress have stopped
// (committing what they read, as Sync does), an error that matches ctx's
// (errors.Is(err, ctx.Err())).
func (m *Mirror) SyncFleet(ctx context.Context, websites iter.Seq[Website], opts *FleetOptions) (FleetResult, error) {
	f, err := m.newFleet(websites, opts)
	if err != nil {
		return FleetResult{}, err
	}
	f.run(ctx, websites)
	switch {
	case ctx.Err() != nil:
		return f.res, fmt.Errorf("mirror: the fleet stopped after %d websites: %w", f.taken(), ctx.Err())
	case f.res.Failed > 0:
		return f.res, &FleetError{Failed: f.res.Failed, Websites: f.taken(), First: f.firstFailure}
	}
	return f.res, nil
}

// newFleet checks websites and opts, and returns the fleet they make, its Parallel
// lowered to what the pool of m's database allows: its limit, less the
// connections that leases are moved on from, when it leaves one.
func (m *Mirror) newFleet(websites iter.Seq[Website], opts *FleetOptions) (*fleet, error) {
	var o FleetOptions
	if opts != nil {
		o = *opts
	}
	syncOpts, err := o.Options.withDefaults()
	switch {
	case err != nil:
		return nil, err
	case websites == nil:
		return nil, errors.New("mirror: SyncFleet needs websites")
	case o.Parallel < 0:
		return nil, fmt.Errorf("mirror: Parallel %d: must not be negative", o.Parallel)
	}
	parallel := cmp.Or(o.Parallel, DefaultParallel)
	if limit := m.db.Stats().MaxOpenConnections; limit > 0 {
		if spare := m.ops.leaseConns(); limit > spare {
			limit -= spare
		}
		parallel = min(parallel, limit)
	}
	return &fleet{m: m, opts: syncOpts, parallel: parallel, since: time.Now(), done: o.Done}, nil
}

// run syncs websites, read on this goroutine, so that a panic of the
// iterator reaches the caller (once the websites in progress have
// stopped). A slot starts when a website finds every slot busy, up to
// parallel; run returns once every slot has stopped.
func (f *fleet) run(ctx context.Context, websites iter.Seq[Website]) {
	todo := make(chan Website)
	var wg sync.WaitGroup
	slots := 0
	stop := sync.OnceFunc(func() {
		close(todo)
		wg.Wait()
	})
	defer stop()
	for w := range websites {
		if ctx.Err() != nil {
			break
		}
		select {
		case todo <- w:
			continue
		default:
		}
		if slots < f.parallel {
			slots++
			wg.Go(func() { f.slot(ctx, todo) })
		}
		select {
		case todo <- w:
		case <-ctx.Done():
		}
	}
}

// fleet is one SyncFleet.
type fleet struct {
	m        *Mirror
	opts     Options
	parallel int       // websites at once
	since    time.Time // when it began
	done     func(WebsiteResult)

	mu           sync.Mutex // guards what follows, and calls of done
	res          FleetResult
	firstFailure WebsiteResult
}

// taken is the number of websites the fleet took.
func (f *fleet) taken() int { return f.res.Synced + f.res.Failed + f.res.Skipped }

// slot syncs the websites it receives from todo, one at a time, until todo
// closes or ctx ends. It keeps its connection from one website to the
// next.
func (f *fleet) slot(ctx context.Context, todo <-chan Website) {
	var conn *sql.Conn
	defer func() {
		if conn != nil {
			conn.Close()
		}
	}()
	for w := range todo {
		if ctx.Err() != nil {
			return
		}
		f.report(f.syncOn(ctx, &conn, w))
	}
}

// syncOn syncs w on *conn, the slot's connection, and takes one of the
// pool first when *conn is nil. When the connection it kept from an
// earlier website fails in a way that says nothing of w (see
// retryOnFreshConn), it tries w once more on another connection.
func (f *fleet) syncOn(ctx context.Context, conn **sql.Conn, w Website) WebsiteResult {
	kept := *conn != nil
	r := f.syncOnce(ctx, conn, w)
	if kept && f.retryOnFreshConn(ctx, r) {
		r = f.syncOnce(ctx, conn, w)
	}
	return r
}

// syncOnce syncs w on *conn, taking one of the pool first when *conn is
// nil. It lets the connection go (*conn nil) when w's result leaves it
// unfit to keep (see unfit), and then ends its session when a hold may
// belong to it, so that no hold of the website outlives it.
func (f *fleet) syncOnce(ctx context.Context, conn **sql.Conn, w Website) WebsiteResult {
	if *conn == nil {
		c, err := f.m.conn(ctx)
		if err != nil {
			return WebsiteResult{WebsiteID: w.ID, Err: dbErrOf(ctx, err)}
		}
		*conn = c
	}
	r, sessionEnded := f.syncWebsite(ctx, *conn, w)
	if f.unfit(*conn, r, sessionEnded) {
		if f.m.ops.onSession() && !sessionEnded {
			endSession(*conn)
		}
		(*conn).Close()
		*conn = nil
	}
	return r
}

// retryOnFreshConn reports whether a website whose result on a kept
// connection is r is tried once more, on a fresh connection. A connection
// kept idle since the last website may have lost its session meanwhile
// (a restart of the server, an idle timeout: see idleEnds), which the
// website's first statement finds: a failure of the database before the
// website's Sync began then says nothing of the website, and a fresh
// connection likely succeeds. Any other failure is the website's, and is
// not tried again, nor is any once ctx has ended.
func (f *fleet) retryOnFreshConn(ctx context.Context, r WebsiteResult) bool {
	return f.m.ops.idleEnds() && r.Started.IsZero() && errors.Is(r.Err, ErrDatabase) && ctx.Err() == nil
}

// unfit reports whether a slot's connection is unfit to keep after a
// website's result r: its session was ended (sessionEnded), or
// database/sql closed it (its driver said driver.ErrBadConn); the database
// failed; or the website failed before it was held, when holds belong to
// the session, so that a hold the server granted may be held still (its
// answer lost). A failure of the API leaves the connection as it was:
// ending it would end a SQLite database in memory.
func (f *fleet) unfit(conn *sql.Conn, r WebsiteResult, sessionEnded bool) bool {
	closed := conn.Raw(func(any) error { return nil }) != nil
	return sessionEnded || closed || errors.Is(r.Err, ErrDatabase) ||
		(f.m.ops.onSession() && r.Err != nil && r.Started.IsZero())
}

// report adds what was done with a website to the fleet's result, and
// hands it to done.
func (f *fleet) report(r WebsiteResult) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case r.Err != nil:
		if f.res.Failed == 0 {
			f.firstFailure = r
		}
		f.res.Failed++
	case r.Skipped != NotSkipped:
		f.res.Skipped++
	default:
		f.res.Synced++
	}
	f.res.Orders.add(r.Orders)
	f.res.Messages.add(r.Messages)
	if f.done != nil {
		f.done(r)
	}
}

// syncWebsite syncs one website of the fleet on conn, unless another
// worker holds it or synced it since the fleet began, and records its run.
// sessionEnded reports that the release of the website ended conn's
// session.
func (f *fleet) syncWebsite(ctx context.Context, conn *sql.Conn, w Website) (r WebsiteResult, sessionEnded bool) {
	r = WebsiteResult{WebsiteID: w.ID}
	if r.Err = checkWebsite(w.Client, w.ID); r.Err != nil {
		return r, false
	}
	h, err := f.m.tryHold(ctx, conn, w.ID)
	switch {
	case err != nil:
		r.Err = dbErrOf(ctx, err)
		return r, false
	case h == nil:
		r.Skipped = SkipHeld
		return r, false
	}
	defer func() { sessionEnded = h.Release() }()
	if r.Skipped, err = f.m.syncedSince(ctx, conn, w.ID, f.since); err != nil || r.Skipped != NotSkipped {
		r.Err = dbErrOf(ctx, err)
		return r, false
	}
	return f.m.syncHeld(ctx, conn, conn, w, &f.opts), false
}

// syncHeld syncs w, which this run holds on conn, as Sync does on runConn
// (nil for connections of the pool), and records its run in mirror_runs:
// the one path of Sync and of a fleet's websites. The run starts once the
// website is held, so that the runs of a website in mirror_runs never
// overlap; the row is written on conn, or on another connection when conn
// has ended, with w's secrets and opts' masked in the text of its failure.
func (m *Mirror) syncHeld(ctx context.Context, conn, runConn *sql.Conn, w Website, opts *Options) WebsiteResult {
	r := WebsiteResult{WebsiteID: w.ID, Started: time.Now()}
	r.Result, r.Err = m.sync(ctx, w.Client, w.ID, opts, runConn)
	r.Finished = time.Now()
	bg := context.WithoutCancel(ctx)
	secrets := append(slices.Clip(w.Secrets), opts.Secrets...)
	if err := m.onConnOrAnother(bg, conn, func(c *sql.Conn) error { return m.recordRun(bg, c, r, secrets) }); err != nil {
		if r.Err == nil {
			r.Err = dbErr(fmt.Errorf("mirror: recording the run of website %d: %w", w.ID, err))
		} else {
			r.Err = fmt.Errorf("%w (and recording the run: %v)", r.Err, err)
		}
	}
	return r
}

// heldWebsite is a website that a run holds on a connection, so that no
// other run syncs it meanwhile: in PostgreSQL by an advisory lock of the
// connection's session, in SQLite by a lease (lease.go).
type heldWebsite struct{ release func() (sessionEnded bool) }

// Release lets the website go. It reports whether it ended the session of
// the connection that held it, which it does only when a lock cannot be
// let go otherwise: the connection is then gone from the pool.
func (h *heldWebsite) Release() (sessionEnded bool) { return h.release() }

// tryHold takes a website for this worker, on conn, never waiting: nil
// when another run holds it.
func (m *Mirror) tryHold(ctx context.Context, conn *sql.Conn, site int64) (*heldWebsite, error) {
	release, err := m.ops.hold(ctx, m, conn, holding{site, fleetLease}, false)
	if err != nil {
		return nil, fmt.Errorf("mirror: taking website %d: %w", site, err)
	}
	if release == nil {
		return nil, nil
	}
	return &heldWebsite{release}, nil
}

// waitFor holds a website for a Sync, on conn, waiting while another run
// holds it (a fleet's worker, another Sync), through the same lock or
// lease that tryHold tries.
func (m *Mirror) waitFor(ctx context.Context, conn *sql.Conn, site int64) (*heldWebsite, error) {
	release, err := m.ops.hold(ctx, m, conn, holding{site, fleetLease}, true)
	if err != nil {
		return nil, fmt.Errorf("mirror: waiting for website %d: %w", site, err)
	}
	return &heldWebsite{release}, nil
}

// fleetLease is the resource of the lease of a website that a run holds
// while it syncs it (a fleet's worker, a Sync), in SQLite, beside those of
// its orders and messages.
const fleetLease = "fleet"

// syncedSince returns SkipSynced when mirror_runs holds a run of the
// website that started at or after since and succeeded, else NotSkipped: a
// website whose run failed meanwhile (an outage, a worker stopped) is
// synced again.
func (m *Mirror) syncedSince(ctx context.Context, conn *sql.Conn, site int64, since time.Time) (Skip, error) {
	b := m.backend
	at := b.value(typeStamp, since)
	// finished_at, which comes after started_at, is what the index reads.
	var n int
	err := conn.QueryRowContext(ctx, b.rebind("SELECT count(*) FROM "+runsTable.name+
		" WHERE website_id = ? AND finished_at >= ? AND started_at >= ? AND status = 'ok'"), site, at, at).Scan(&n)
	if err != nil || n == 0 {
		return NotSkipped, err
	}
	return SkipSynced, nil
}

// recordRun adds the row of a website's run to mirror_runs, on conn, with
// each of secrets masked, in every spelling, in the text of its failure.
func (m *Mirror) recordRun(ctx context.Context, conn *sql.Conn, r WebsiteResult, secrets []string) error {
	status, text := "ok", any(nil)
	if r.Err != nil {
		msg := secretmask.New(secrets...).Text(r.Err.Error())
		// Text holds neither a NUL nor bytes that are not UTF-8.
		status, text = "failed", strings.ToValidUTF8(nulFree(msg), "\uFFFD")
	}
	total := r.Orders
	total.add(r.Messages)
	b := m.backend
	q := fmt.Sprintf("INSERT INTO %s (%s) VALUES (%s)", runsTable.name, strings.Join(runsTable.names(), ", "), marks(len(runsTable.columns)))
	_, err := conn.ExecContext(ctx, b.rebind(q), r.WebsiteID, b.value(typeStamp, r.Started), b.value(typeStamp, r.Finished),
		status, total.New, total.Updated, total.Deleted, text)
	return err
}
