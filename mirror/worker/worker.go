package worker

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/mirror/webhook"
)

// Events is told what the worker does, for metrics. Calls may come from several goroutines.
type Events interface {
	RunStarted(websiteID int64)
	RunEnded(r mirror.WebsiteResult)
}

// DefaultKeepRuns is how long the rows of mirror_runs are kept when
// Config.KeepRuns is 0.
const DefaultKeepRuns = 30 * 24 * time.Hour

// stopTimeout is how long Run waits, once its context ends, for the runs
// in progress to finish before it stops them (they keep what they read).
const stopTimeout = 20 * time.Second

// cancelTimeout is how long Run waits, after stopTimeout, for the runs it
// stopped to return.
const cancelTimeout = 8 * time.Second

// Config is what a Worker runs.
type Config struct {
	// Mirror is the mirror the websites are synced into. Each run takes
	// connections of its pool: let the pool keep 3 × Parallel of them idle
	// (sql.DB.SetMaxIdleConns; database/sql keeps 2), else each run opens
	// new ones (in PostgreSQL, with their authentication).
	Mirror *mirror.Mirror
	// Queue holds River's tables, in the mirror's database: PostgreSQLQueue
	// or SQLiteQueue.
	Queue *Queue
	// Websites returns the websites to sync, each with its client. It is
	// called when Run starts, every Every/2 and on Refresh; an error keeps
	// the last list it returned, and is logged.
	Websites func() ([]mirror.Website, error)
	// Every is the period of each website's runs: at least MinEvery.
	Every time.Duration
	// ReconcileEvery, when above 0, is the period of each website's
	// reconcile (mirror.Options.Reconcile), the first one ReconcileEvery
	// after the worker first saw the website.
	ReconcileEvery time.Duration
	// KeepRuns is the age past which rows of mirror_runs are removed
	// (mirror.Mirror.PruneRuns), every hour; 0 is DefaultKeepRuns.
	KeepRuns time.Duration
	// KeepChanges, when above 0, is the age past which the mirror's
	// changes are removed (mirror.Mirror.PruneChanges), every hour; 0
	// keeps them all.
	KeepChanges time.Duration
	// Options are those of each run (Secrets beside each Website's).
	Options mirror.Options
	// Parallel is the number of websites this worker syncs at once in its
	// batches, and the number of websites' own jobs (retries, reconciles)
	// it runs at once besides; 0 is mirror.DefaultParallel.
	Parallel int
	// Events, when set, is told of each run.
	Events Events
	// Deliverer, when set, delivers the mirror's changes to its webhook
	// endpoints (webhook.FromMirror of Mirror): Run registers it with
	// River, its queues beside the websites' (a slow endpoint never holds
	// up a sync), creates its table of cursors, and enqueues the changes
	// at start, after each batch and after each website's run alone
	// (webhook.Enqueue). An enqueue that fails is logged, and the next
	// one takes its changes.
	Deliverer *webhook.Deliverer
	// Logger, when set, gets a line per batch, per run of a website's own
	// job, per failure and per refused list, and at debug level a line per
	// run of each website of a batch; River logs there its warnings and
	// errors.
	Logger *slog.Logger
}

// Worker syncs the websites of its Config until the context of Run ends.
type Worker struct {
	cfg     Config
	log     *slog.Logger
	list    atomic.Pointer[websiteList]
	refresh chan struct{}
	// slots holds a value for each website of a batch being synced:
	// Parallel at most (takeSlot).
	slots chan struct{}
	// stopping is closed when Run's context ends: no website starts after.
	stopping chan struct{}
	// lastStart is when the last run of each website of the list began
	// on this worker (batchSites).
	startsMu  sync.Mutex
	lastStart map[int64]time.Time
	running   atomic.Bool
	engine    engine // set by Run before the first job
}

// New checks cfg and returns its Worker.
func New(cfg Config) (*Worker, error) {
	switch {
	case cfg.Mirror == nil || cfg.Queue == nil || cfg.Websites == nil:
		return nil, errors.New("worker: Config needs a Mirror, a Queue and Websites")
	case cfg.Every < MinEvery:
		return nil, fmt.Errorf("worker: Every %v: want at least %v", cfg.Every, MinEvery)
	case cfg.ReconcileEvery < 0 || cfg.KeepRuns < 0 || cfg.KeepChanges < 0 || cfg.Parallel < 0:
		return nil, fmt.Errorf("worker: ReconcileEvery %v, KeepRuns %v, KeepChanges %v, Parallel %d: none may be negative",
			cfg.ReconcileEvery, cfg.KeepRuns, cfg.KeepChanges, cfg.Parallel)
	}
	cfg.KeepRuns = cmp.Or(cfg.KeepRuns, DefaultKeepRuns)
	cfg.Parallel = cmp.Or(cfg.Parallel, mirror.DefaultParallel)
	if cfg.Events == nil {
		cfg.Events = noEvents{}
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Worker{cfg: cfg, log: log, refresh: make(chan struct{}, 1), slots: make(chan struct{}, cfg.Parallel),
		stopping: make(chan struct{}), lastStart: map[int64]time.Time{}}, nil
}

// Run migrates River's tables, reads the websites and syncs them until ctx
// ends (call it once); then it starts no more runs, waits up to 20 s for those in
// progress and stops them (each keeps what it read, and its job is taken
// up again by the next worker), and returns nil. It returns an error when
// the queue cannot start (the database cannot be reached) or the first
// list of websites cannot be read.
func (w *Worker) Run(ctx context.Context) error {
	if err := w.readList(); err != nil {
		return err
	}
	cfg, err := w.riverConfig()
	if err != nil {
		return err
	}
	e, err := w.cfg.Queue.open(cfg)
	if err != nil {
		return err
	}
	w.engine = e
	if err := e.migrate(ctx); err != nil {
		return err
	}
	if w.cfg.Deliverer != nil {
		if err := e.createWebhookTable(ctx); err != nil {
			return err
		}
		w.enqueueWebhooks(ctx)
	}
	if err := w.ensureJobs(ctx); err != nil {
		return err
	}
	if err := e.start(context.WithoutCancel(ctx)); err != nil {
		return err
	}
	w.running.Store(true)
	w.refreshUntil(ctx)
	w.running.Store(false)
	close(w.stopping)
	stopCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), stopTimeout)
	defer cancel()
	if err := e.stop(stopCtx); err != nil {
		// The runs' contexts end at once; what is left of the 30 s a
		// service manager allows bounds their return.
		cancelCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cancelTimeout)
		defer cancel()
		return e.stopAndCancel(cancelCtx)
	}
	return nil
}

// refreshUntil reads the list of websites again every Every/2 and on
// Refresh, and gives each website its jobs, until ctx ends.
func (w *Worker) refreshUntil(ctx context.Context) {
	tick := time.NewTicker(w.cfg.Every / 2)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		case <-w.refresh:
		}
		if err := w.readList(); err != nil {
			w.log.Error("the list of websites was refused; the last good one is kept", "error", err)
		}
		if err := w.ensureJobs(ctx); err != nil && ctx.Err() == nil {
			w.log.Error("giving the websites their jobs failed; the next refresh tries again", "error", err)
		}
	}
}

// Refresh has the worker read its list of websites again now, as it does
// every Every/2.
func (w *Worker) Refresh() {
	select {
	case w.refresh <- struct{}{}:
	default:
	}
}

// WebsiteIDs returns the ids of the websites of the worker's current list,
// in ascending order.
func (w *Worker) WebsiteIDs() []int64 {
	l := w.list.Load()
	if l == nil {
		return nil
	}
	return slices.Sorted(func(yield func(int64) bool) {
		for id := range l.byID {
			if !yield(id) {
				return
			}
		}
	})
}

// Healthy returns nil while Run runs and the database answers; else why
// not.
func (w *Worker) Healthy(ctx context.Context) error {
	if !w.running.Load() {
		return errors.New("worker: not running")
	}
	if err := w.engine.ping(ctx); err != nil {
		return fmt.Errorf("worker: the database does not answer: %w", err)
	}
	return nil
}

// websiteList is a list of websites that Websites returned.
type websiteList struct {
	byID map[int64]mirror.Website
}

// readList calls Websites and keeps its list, unless it fails.
func (w *Worker) readList() error {
	sites, err := w.cfg.Websites()
	if err != nil {
		return err
	}
	l := &websiteList{byID: make(map[int64]mirror.Website, len(sites))}
	for _, s := range sites {
		l.byID[s.ID] = s
	}
	w.list.Store(l)
	w.startsMu.Lock()
	defer w.startsMu.Unlock()
	maps.DeleteFunc(w.lastStart, func(id int64, _ time.Time) bool { _, ok := l.byID[id]; return !ok })
	return nil
}

// isStopping reports whether Run's context has ended.
func (w *Worker) isStopping() bool {
	select {
	case <-w.stopping:
		return true
	default:
		return false
	}
}

// website returns the website of the current list with that id.
func (w *Worker) website(id int64) (mirror.Website, bool) {
	s, ok := w.list.Load().byID[id]
	return s, ok
}

// noEvents is the Events of a Worker given none.
type noEvents struct{}

func (noEvents) RunStarted(int64)              {}
func (noEvents) RunEnded(mirror.WebsiteResult) {}

// runOnce syncs site once through the mirror's hold (mirror.SyncFleet of
// that website alone), telling Events of its start, and returns what it
// did.
func (w *Worker) runOnce(ctx context.Context, site mirror.Website, opts mirror.Options) mirror.WebsiteResult {
	w.cfg.Events.RunStarted(site.ID)
	// Done is called before SyncFleet returns.
	var got *mirror.WebsiteResult
	_, err := w.cfg.Mirror.SyncFleet(ctx, func(yield func(mirror.Website) bool) { yield(site) },
		&mirror.FleetOptions{Options: opts, Parallel: 1, Done: func(r mirror.WebsiteResult) { got = &r }})
	r := mirror.WebsiteResult{WebsiteID: site.ID, Err: err}
	if got != nil {
		r = *got
	}
	return r
}

// enqueueWebhooks enqueues the deliveries of the changes that follow the
// endpoints' cursors, when the worker has a Deliverer; a failure is
// logged, never the run's.
func (w *Worker) enqueueWebhooks(ctx context.Context) {
	if w.cfg.Deliverer == nil {
		return
	}
	n, err := w.engine.enqueueWebhooks(ctx, w.cfg.Deliverer)
	switch {
	case err != nil && ctx.Err() == nil:
		w.log.Error("enqueueing the webhooks' deliveries failed; the next run tries again", "error", err)
	case n > 0:
		w.log.Info("webhook deliveries enqueued", "changes", n)
	}
}
