package worker

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/ordermsg/ordermsg-go/internal/secretmask"
	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// queueName is the River queue of the worker's jobs.
const queueName = "ordermsg_mirror"

// syncArgs are the args of a website's job of its own, which it has from
// a failed run until a successful one: the website's id, never its key,
// and the failures in a row before the job's first run (its batch's).
type syncArgs struct {
	WebsiteID      int64 `json:"website_id" river:"unique"`
	FailuresBefore int   `json:"failures_before"`
}

// Kind names the job in River's tables.
func (syncArgs) Kind() string { return "ordermsg_website_sync" }

// InsertOpts puts the job in the websites' queue, unique by the website
// while it lives.
func (syncArgs) InsertOpts() river.InsertOpts { return liveUnique(queueName) }

// reconcileArgs are the args of a website's reconcile job.
type reconcileArgs struct {
	WebsiteID int64 `json:"website_id"`
}

// Kind names the job in River's tables.
func (reconcileArgs) Kind() string { return "ordermsg_website_reconcile" }

// InsertOpts puts the job in the websites' queue, unique by its args
// while it lives.
func (reconcileArgs) InsertOpts() river.InsertOpts { return liveUnique(queueName) }

// pruneArgs are the args of the job that removes old rows of mirror_runs
// and old changes.
type pruneArgs struct{}

// Kind names the job in River's tables.
func (pruneArgs) Kind() string { return "ordermsg_prune_runs" }

// InsertOpts puts the job in the websites' queue, one at a time.
func (pruneArgs) InsertOpts() river.InsertOpts { return liveUnique(queueName) }

// liveStates are the states in which a job keeps another of the same
// args out: a job of a kind and args waits or runs alone, and the job
// that completes may put the next one.
var liveStates = []rivertype.JobState{rivertype.JobStateAvailable, rivertype.JobStatePending,
	rivertype.JobStateRunning, rivertype.JobStateRetryable, rivertype.JobStateScheduled}

// liveUnique are the options of a job of queue that is unique by its args
// (or those tagged river:"unique") while it lives.
func liveUnique(queue string) river.InsertOpts {
	return river.InsertOpts{Queue: queue, MaxAttempts: maxAttempts,
		UniqueOpts: river.UniqueOpts{ByArgs: true, ByState: liveStates}}
}

// jobAt is the insertion of a job of args at the given time, with the
// options of its args. A time that has come leaves the job available at
// once: River would insert it scheduled, for its scheduler to make
// available up to 5 s later.
func jobAt(args river.JobArgs, at time.Time) river.InsertManyParams {
	opts := &river.InsertOpts{}
	if at.After(time.Now()) {
		opts.ScheduledAt = at
	}
	return river.InsertManyParams{Args: args, InsertOpts: opts}
}

// ensureJobs gives the list its batches, every website of it its
// reconcile job and the fleet its prune job, unless they have them: a
// new batch runs at once, a new reconcile ReconcileEvery later.
func (w *Worker) ensureJobs(ctx context.Context) error {
	now := time.Now()
	ids := w.WebsiteIDs()
	jobs := []river.InsertManyParams{jobAt(pruneArgs{}, now)}
	batches := batchCount(len(ids))
	for k := range batches {
		jobs = append(jobs, jobAt(batchArgs{Batch: k, Batches: batches}, now))
	}
	if w.cfg.ReconcileEvery > 0 {
		for _, id := range ids {
			jobs = append(jobs, jobAt(reconcileArgs{id}, now.Add(w.cfg.ReconcileEvery)))
		}
	}
	return w.engine.insert(ctx, jobs)
}

// syncWorker runs the websites' jobs of their own.
type syncWorker struct {
	river.WorkerDefaults[syncArgs]
	w *Worker
}

// Work syncs the website once; a success ends the job, and the website's
// batch takes it up again.
func (s *syncWorker) Work(ctx context.Context, job *river.Job[syncArgs]) error {
	return s.w.work(ctx, job.JobRow, job.Args.WebsiteID, jobPlan{opts: s.w.cfg.Options, failuresBefore: job.Args.FailuresBefore})
}

// NextRetry is the retry of a failed run (RetryWait), counting the
// failures before the job.
func (s *syncWorker) NextRetry(job *river.Job[syncArgs]) time.Time {
	return nextRetry(job.JobRow, job.Args.FailuresBefore+job.Attempt, s.w.cfg.Every)
}

// Timeout is the longest a run lasts.
func (s *syncWorker) Timeout(*river.Job[syncArgs]) time.Duration { return jobTimeout(s.w.cfg.Every) }

// reconcileWorker runs the reconcile jobs.
type reconcileWorker struct {
	river.WorkerDefaults[reconcileArgs]
	w *Worker
}

// Work reconciles the website once and has its job run again one
// ReconcileEvery after this run's start.
func (r *reconcileWorker) Work(ctx context.Context, job *river.Job[reconcileArgs]) error {
	opts := r.w.cfg.Options
	opts.Reconcile = true
	return r.w.work(ctx, job.JobRow, job.Args.WebsiteID, jobPlan{opts: opts, next: reconcileArgs{job.Args.WebsiteID}, period: r.w.cfg.ReconcileEvery})
}

// NextRetry is the retry of a failed reconcile (RetryWait).
func (r *reconcileWorker) NextRetry(job *river.Job[reconcileArgs]) time.Time {
	return nextRetry(job.JobRow, job.Attempt, r.w.cfg.Every)
}

// Timeout leaves a reconcile, a full listing, as long as a website's run
// and its job's rescue allow (River's rescuer takes it back after
// rescueAfter).
func (r *reconcileWorker) Timeout(*river.Job[reconcileArgs]) time.Duration {
	return jobTimeout(r.w.cfg.Every)
}

// pruneWorker runs the prune job.
type pruneWorker struct {
	river.WorkerDefaults[pruneArgs]
	w *Worker
}

// Work removes the rows of mirror_runs older than KeepRuns, and the
// changes older than KeepChanges when it is set, and runs again an hour
// later.
func (p *pruneWorker) Work(ctx context.Context, job *river.Job[pruneArgs]) error {
	cfg := p.w.cfg
	n, err := cfg.Mirror.PruneRuns(ctx, time.Now().Add(-cfg.KeepRuns))
	if err != nil {
		return err
	}
	if n > 0 {
		p.w.log.Info("removed old rows of mirror_runs", "rows", n, "older_than", cfg.KeepRuns.String())
	}
	if cfg.KeepChanges > 0 {
		n, err := cfg.Mirror.PruneChanges(ctx, time.Now().Add(-cfg.KeepChanges))
		if err != nil {
			return err
		}
		if n > 0 {
			p.w.log.Info("removed old changes", "changes", n, "older_than", cfg.KeepChanges.String())
		}
	}
	return p.w.again(ctx, job.JobRow, pruneArgs{}, time.Now().Add(pruneEvery))
}

// jobPlan is what a website's job does.
type jobPlan struct {
	opts mirror.Options
	// failuresBefore are the website's failures in a row before the job.
	failuresBefore int
	// next is the job that follows a success period after its start; nil
	// ends the job.
	next   river.JobArgs
	period time.Duration
}

// work runs a website's job: it syncs the website with plan's options,
// unless the website left the list (the job then ends) or the worker
// stops (the job is available again at once), enqueues the webhooks' deliveries of what the run (or
// another worker) recorded, and decides what comes next from the run (see
// after).
func (w *Worker) work(ctx context.Context, job *rivertype.JobRow, id int64, plan jobPlan) error {
	site, ok := w.website(id)
	switch {
	case !ok:
		w.log.Info("website left the list: its job ends", "website", id, "job", job.Kind)
		return nil
	case w.isStopping():
		return river.JobSnooze(0) // for the next worker, at once
	}
	r := w.runOnce(ctx, site, plan.opts)
	w.ended(r)
	w.logRun(job.Kind, plan.failuresBefore+job.Attempt-1, site.Secrets, r, slog.LevelInfo)
	if r.Skipped == mirror.NotSkipped {
		w.enqueueWebhooks(ctx)
	}
	return w.after(ctx, job, site, r, plan.next, plan.period)
}

// after decides what follows a website's run r: a run that a signal
// stopped is taken up again by the next worker (River makes its job
// available again); one that found the website held tries again shortly;
// a 429 waits its Retry-After; another failure is retried (NextRetry) with
// its text masked. After a success a job with a next runs again at the
// run's start plus period, and one without (a website's own) ends.
func (w *Worker) after(ctx context.Context, job *rivertype.JobRow, site mirror.Website, r mirror.WebsiteResult, next river.JobArgs, period time.Duration) error {
	wait, limited := retryAfter(r.Err)
	switch {
	case ctx.Err() != nil && (r.Err == nil || errors.Is(r.Err, ctx.Err())):
		return ctx.Err()
	case r.Skipped == mirror.SkipHeld:
		return river.JobSnooze(heldWait(w.cfg.Every))
	case limited:
		return river.JobSnooze(wait)
	case r.Err != nil:
		return errors.New(maskedText(r.Err, site.Secrets))
	case next == nil:
		return nil
	}
	start := cmp.Or(r.Started, time.Now())
	return w.again(ctx, job, next, start.Add(period))
}

// again has a job run again at the given time. A job that has not failed
// is snoozed: River makes it available at once when the time is within
// its scheduler's interval (5 s), where a scheduled job waits for the
// scheduler. A job that failed before this run is completed and followed
// by a new one, so that its failures (River's attempts, which a snooze
// keeps) count from zero again.
func (w *Worker) again(ctx context.Context, job *rivertype.JobRow, next river.JobArgs, at time.Time) error {
	if job.Attempt <= 1 {
		return river.JobSnooze(max(time.Until(at), 0))
	}
	return w.engine.completeAndNext(ctx, job, jobAt(next, at))
}

// nextRetry is when a job whose last run was the failures-th failure in a
// row runs again: RetryWait after the start of the failed run.
func nextRetry(job *rivertype.JobRow, failures int, every time.Duration) time.Time {
	started := time.Now()
	if job.AttemptedAt != nil {
		started = *job.AttemptedAt
	}
	// River takes a time in the past for a mistake: now at the earliest.
	return later(started.Add(RetryWait(failures, every)), time.Now().Add(time.Millisecond))
}

// later returns the later of a and b.
func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// maxErrorText is the most of a failure's text that River keeps in a
// job's errors.
const maxErrorText = 500

// maskedText is the text of a website's failure with its secrets masked
// in every spelling, cut to maxErrorText bytes: what River keeps.
func maskedText(err error, secrets []string) string {
	text := secretmask.New(secrets...).Text(err.Error())
	if len(text) > maxErrorText {
		text = strings.ToValidUTF8(text[:maxErrorText], "") + "…"
	}
	return text
}

// logRun logs the end of a website's run r in a job of kind, its failure
// masked with secrets (failures are those in a row before it); a run that
// succeeded or was skipped is logged at level, one that failed as a
// warning.
func (w *Worker) logRun(kind string, failures int, secrets []string, r mirror.WebsiteResult, level slog.Level) {
	ctx := context.Background()
	if r.Err == nil && !w.log.Enabled(ctx, level) {
		return // a batch's websites at the info level: nothing to format
	}
	switch {
	case r.Skipped != mirror.NotSkipped:
		w.log.Log(ctx, level, "website skipped", "website", r.WebsiteID, "why", r.Skipped.String())
	case r.Err != nil:
		w.log.Warn("website failed", "website", r.WebsiteID, "job", kind, "failures", failures+1, "error", maskedText(r.Err, secrets))
	default:
		w.log.Log(ctx, level, "website synced", "website", r.WebsiteID, "job", kind,
			"orders", fmt.Sprint(r.Orders), "messages", fmt.Sprint(r.Messages), "seconds", r.Finished.Sub(r.Started).Seconds())
	}
}
