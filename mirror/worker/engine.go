package worker

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"time"

	"github.com/ordermsg/ordermsg-go/mirror/webhook"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/rivermigrate"
	"github.com/riverqueue/river/rivertype"
)

// Queue is where a worker's jobs live: River's tables in the mirror's
// database, made by PostgreSQLQueue or SQLiteQueue.
type Queue struct {
	open func(cfg *river.Config) (engine, error)
}

// engine is River's client on one backend, as the worker uses it.
type engine interface {
	// migrate brings River's tables to the version of this River.
	migrate(ctx context.Context) error
	start(ctx context.Context) error
	// stop waits for the jobs in progress, until ctx ends.
	stop(ctx context.Context) error
	// stopAndCancel stops the jobs in progress (their contexts end).
	stopAndCancel(ctx context.Context) error
	// insert inserts jobs, leaving out those whose unique job lives.
	insert(ctx context.Context, jobs []river.InsertManyParams) error
	// completeAndNext completes a running job and inserts its next, in
	// one transaction.
	completeAndNext(ctx context.Context, job *rivertype.JobRow, next river.InsertManyParams) error
	// websitesAlone returns the websites that have a job of their own
	// waiting or running.
	websitesAlone(ctx context.Context) (map[int64]bool, error)
	// ping reports whether the database answers.
	ping(ctx context.Context) error
	// createWebhookTable creates the table of the webhooks' cursors.
	createWebhookTable(ctx context.Context) error
	// enqueueWebhooks enqueues the deliveries of d of the changes after
	// its cursors (webhook.Enqueue).
	enqueueWebhooks(ctx context.Context, d *webhook.Deliverer) (int, error)
}

// backend is what a backend gives an engine beside River's driver.
type backend struct {
	ping           func(ctx context.Context) error
	lockMigrations func(ctx context.Context) (unlock func(), err error)
	// pollOnly has River poll for jobs (every fetchPoll) rather than
	// listen for them.
	pollOnly bool
}

// riverEngine is the engine of a River driver.
type riverEngine[TDriver riverdriver.Driver[TTx], TTx any] struct {
	driver TDriver
	client *river.Client[TTx]
	// store is the backend's transactions, and the webhooks' cursors.
	store  webhook.Store[TTx]
	pinger func(ctx context.Context) error
	// lockMigrations waits until no other worker migrates River's tables,
	// and holds them until unlock.
	lockMigrations func(ctx context.Context) (unlock func(), err error)
}

// newEngine makes the River client of driver with cfg.
func newEngine[TDriver riverdriver.Driver[TTx], TTx any](driver TDriver, cfg *river.Config, store webhook.Store[TTx], b backend) (engine, error) {
	cfg.PollOnly = b.pollOnly
	client, err := river.NewClient(driver, cfg)
	if err != nil {
		return nil, fmt.Errorf("worker: River: %w", err)
	}
	return &riverEngine[TDriver, TTx]{driver: driver, client: client, store: store, pinger: b.ping, lockMigrations: b.lockMigrations}, nil
}

func (e *riverEngine[TDriver, TTx]) migrate(ctx context.Context) error {
	migrator, err := rivermigrate.New(e.driver, &rivermigrate.Config{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		return fmt.Errorf("worker: River's migrations: %w", err)
	}
	// River's migrations run in transactions of their own: one adds a
	// value to a type that the next uses.
	unlock, err := e.lockMigrations(ctx)
	if err != nil {
		return fmt.Errorf("worker: migrating River's tables: %w", err)
	}
	defer unlock()
	if _, err := migrator.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return fmt.Errorf("worker: migrating River's tables: %w", err)
	}
	return nil
}

func (e *riverEngine[TDriver, TTx]) start(ctx context.Context) error {
	if err := e.client.Start(ctx); err != nil {
		return fmt.Errorf("worker: starting River: %w", err)
	}
	return nil
}

func (e *riverEngine[TDriver, TTx]) stop(ctx context.Context) error { return e.client.Stop(ctx) }

func (e *riverEngine[TDriver, TTx]) stopAndCancel(ctx context.Context) error {
	return e.client.StopAndCancel(ctx)
}

func (e *riverEngine[TDriver, TTx]) insert(ctx context.Context, jobs []river.InsertManyParams) error {
	if _, err := e.client.InsertMany(ctx, jobs); err != nil {
		return fmt.Errorf("worker: inserting the websites' jobs: %w", err)
	}
	return nil
}

// anyArgs stands for the args of a job that is completed by its row.
type anyArgs struct{}

func (anyArgs) Kind() string { return "" }

func (e *riverEngine[TDriver, TTx]) completeAndNext(ctx context.Context, job *rivertype.JobRow, next river.InsertManyParams) error {
	err := e.inTx(ctx, func(tx TTx) error {
		if _, err := river.JobCompleteTx[TDriver](ctx, tx, &river.Job[anyArgs]{JobRow: job}); err != nil {
			return err
		}
		_, err := e.client.InsertTx(ctx, tx, next.Args, next.InsertOpts)
		return err
	})
	if err != nil {
		return fmt.Errorf("worker: putting the next job of %s: %w", job.Kind, err)
	}
	return nil
}

func (e *riverEngine[TDriver, TTx]) websitesAlone(ctx context.Context) (map[int64]bool, error) {
	alone := map[int64]bool{}
	params := river.NewJobListParams().Kinds(syncArgs{}.Kind()).States(liveStates...).First(jobListMax)
	for {
		res, err := e.client.JobList(ctx, params)
		if err != nil {
			return nil, fmt.Errorf("worker: reading the websites' own jobs: %w", err)
		}
		for _, job := range res.Jobs {
			var args syncArgs
			if err := json.Unmarshal(job.EncodedArgs, &args); err != nil {
				return nil, fmt.Errorf("worker: the args of job %d: %w", job.ID, err)
			}
			alone[args.WebsiteID] = true
		}
		if len(res.Jobs) < jobListMax {
			return alone, nil
		}
		params = params.After(res.LastCursor)
	}
}

// jobListMax is the most jobs River lists at once.
const jobListMax = 10_000

func (e *riverEngine[TDriver, TTx]) ping(ctx context.Context) error { return e.pinger(ctx) }

func (e *riverEngine[TDriver, TTx]) createWebhookTable(ctx context.Context) error {
	if err := e.store.CreateTable(ctx); err != nil {
		return fmt.Errorf("worker: creating the table of the webhooks' cursors: %w", err)
	}
	return nil
}

func (e *riverEngine[TDriver, TTx]) enqueueWebhooks(ctx context.Context, d *webhook.Deliverer) (int, error) {
	return webhook.Enqueue(ctx, e.client, e.store, d)
}

// inTx runs f in a transaction, committed when f succeeds.
func (e *riverEngine[TDriver, TTx]) inTx(ctx context.Context, f func(tx TTx) error) error {
	tx, err := e.store.Begin(ctx)
	if err != nil {
		return err
	}
	if err := f(tx); err != nil {
		e.store.Rollback(context.WithoutCancel(ctx), tx)
		return err
	}
	return e.store.Commit(ctx, tx)
}

// riverConfig is River's configuration of the worker: its queue of
// batches, one at a time (Parallel websites at once), and its queue of
// other jobs, Parallel at a time, the four kinds of job, and the times that
// policy.go explains; with a Deliverer, its deliveries and their queues
// too, one per endpoint, beside the websites' queue.
func (w *Worker) riverConfig() (*river.Config, error) {
	workers := river.NewWorkers()
	river.AddWorker(workers, &batchWorker{w: w})
	river.AddWorker(workers, &syncWorker{w: w})
	river.AddWorker(workers, &reconcileWorker{w: w})
	river.AddWorker(workers, &pruneWorker{w: w})
	queues := map[string]river.QueueConfig{fleetQueue: {MaxWorkers: 1}, queueName: {MaxWorkers: w.cfg.Parallel}}
	if d := w.cfg.Deliverer; d != nil {
		if err := d.Register(workers); err != nil {
			return nil, fmt.Errorf("worker: the webhooks' deliveries: %w", err)
		}
		maps.Copy(queues, d.Queues())
	}
	every := w.cfg.Every
	return &river.Config{
		Queues:                      queues,
		Workers:                     workers,
		FetchPollInterval:           fetchPoll(every),
		JobTimeout:                  jobTimeout(every),
		RescueStuckJobsAfter:        rescueAfter(every),
		CompletedJobRetentionPeriod: completedRetention(every),
		MaxAttempts:                 maxAttempts,
		SoftStopTimeout:             stopTimeout - 5*time.Second,
		Logger:                      slog.New(warnings{w.log.Handler()}),
	}, nil
}

// warnings is a handler that passes on River's warnings and errors only.
type warnings struct{ slog.Handler }

// Enabled is the handler's, from slog.LevelWarn up.
func (h warnings) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= slog.LevelWarn && h.Handler.Enabled(ctx, l)
}
