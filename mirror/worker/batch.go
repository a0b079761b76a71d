package worker

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/riverqueue/river"
)

// batchSize is about the number of websites of a batch: a list of n
// websites is spread over ceil(n/batchSize) batches, by a hash of their
// ids. A batch syncs its websites in one SyncFleet, as a one-shot sync
// does, so that a period costs about what a one-shot costs
// (BENCHMARKS.md); several batches let several workers share a fleet.
const batchSize = 50

// fleetQueue is the River queue of the batches: one at a time on a
// worker, so that a batch's time is that of its own websites, and several
// workers share the batches. A website too slow for its batch's timeout
// leaves it for a job of its own, and holds up no other batch.
const fleetQueue = "ordermsg_fleet"

// batchArgs are the args of a batch's job: which of how many batches.
type batchArgs struct {
	Batch   int `json:"batch"`
	Batches int `json:"batches"`
}

// Kind names the job in River's tables.
func (batchArgs) Kind() string { return "ordermsg_fleet_sync" }

// InsertOpts puts a batch in its queue, unique by its args while it lives.
func (batchArgs) InsertOpts() river.InsertOpts { return liveUnique(fleetQueue) }

// batchCount is the number of batches of a list of n websites.
func batchCount(n int) int { return max(1, (n+batchSize-1)/batchSize) }

// batchOf is the batch of website id among batches: a hash (SplitMix64's
// mix), so that ids that follow a pattern spread evenly.
func batchOf(id int64, batches int) int {
	x := uint64(id)
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	x ^= x >> 31
	return int(x % uint64(batches))
}

// batchWorker runs the batches.
type batchWorker struct {
	river.WorkerDefaults[batchArgs]
	w *Worker
}

// Work syncs the websites of the batch that have no job of their own (a
// website whose run failed has one until it succeeds), and has the batch
// run again one Every after this run's start. A batch of another number
// of batches than the list now makes ends: the list changed, and
// ensureJobs gave it batches of its own. A batch that its timeout cuts
// short keeps what its runs read, gives the websites it was running jobs
// of their own, and is retried (NextRetry), beginning with the websites
// it did not reach (batchSites). One that the worker's stop cuts short is
// made available again at once, for another worker.
func (b *batchWorker) Work(ctx context.Context, job *river.Job[batchArgs]) error {
	w := b.w
	list := w.list.Load()
	if job.Args.Batches != batchCount(len(list.byID)) {
		w.log.Info("the list of websites has another number of batches: this batch ends", "batch", job.Args.Batch, "of", job.Args.Batches)
		return nil
	}
	alone, err := w.engine.websitesAlone(ctx)
	if err != nil {
		return err
	}
	start := time.Now()
	out, err := w.syncBatch(ctx, job.Args, w.batchSites(list, job.Args, alone))
	switch {
	case out.stopped:
		return river.JobSnooze(0)
	case ctx.Err() != nil:
		return ctx.Err()
	case err != nil:
		return err
	}
	if out.synced {
		w.enqueueWebhooks(ctx)
	}
	return w.again(ctx, job.JobRow, job.Args, start.Add(w.cfg.Every))
}

// batchSites returns the websites of list in batch that have no job of
// their own, those whose last run on this worker began longest ago first
// (those it never ran first of all, by id): from one period to the next
// each starts at about the same time, and a batch that its timeout cut
// short begins with the websites it did not reach.
func (w *Worker) batchSites(list *websiteList, batch batchArgs, alone map[int64]bool) []mirror.Website {
	var sites []mirror.Website
	for id, s := range list.byID {
		if batchOf(id, batch.Batches) == batch.Batch && !alone[id] {
			sites = append(sites, s)
		}
	}
	w.startsMu.Lock()
	defer w.startsMu.Unlock()
	slices.SortFunc(sites, func(a, b mirror.Website) int {
		return cmp.Or(w.lastStart[a.ID].Compare(w.lastStart[b.ID]), cmp.Compare(a.ID, b.ID))
	})
	return sites
}

// NextRetry is the retry of a batch that failed before its websites ran
// (the database).
func (b *batchWorker) NextRetry(job *river.Job[batchArgs]) time.Time {
	return nextRetry(job.JobRow, job.Attempt, b.w.cfg.Every)
}

// Timeout is the longest a batch lasts: that of a website's run.
func (b *batchWorker) Timeout(*river.Job[batchArgs]) time.Duration { return jobTimeout(b.w.cfg.Every) }

// batchOutcome is what a batch's runs did.
type batchOutcome struct {
	// synced reports that a run was not skipped, so that it may have
	// recorded changes.
	synced bool
	// stopped reports that the worker's stop left websites of the batch
	// that it did not start.
	stopped bool
}

// syncBatch syncs the sites of batch in one SyncFleet, each once it has
// one of the worker's slots, telling Events of each run, logging each
// failure and the batch in one line. A website whose run fails, or lasts
// past the batch's timeout, gets a job of its own at once
// (retryFailures).
func (w *Worker) syncBatch(ctx context.Context, batch batchArgs, sites []mirror.Website) (batchOutcome, error) {
	var (
		mu      sync.Mutex
		started = map[int64]mirror.Website{} // taken, not done
		out     batchOutcome
	)
	websites := func(yield func(mirror.Website) bool) {
		for _, s := range sites {
			if !w.takeSlot(ctx) {
				out.stopped = ctx.Err() == nil
				return
			}
			mu.Lock()
			started[s.ID] = s
			mu.Unlock()
			w.cfg.Events.RunStarted(s.ID)
			if !yield(s) {
				return
			}
		}
	}
	failures, retried := w.retryFailures(ctx, len(sites))
	done := func(r mirror.WebsiteResult) {
		mu.Lock()
		site := started[r.WebsiteID]
		delete(started, r.WebsiteID)
		mu.Unlock()
		w.ended(r)
		w.releaseSlot()
		w.logRun(batch.Kind(), 0, site.Secrets, r, slog.LevelDebug)
		out.synced = out.synced || r.Skipped == mirror.NotSkipped
		if r.Err != nil && !stoppedBy(ctx, r.Err) {
			failures <- jobAt(syncArgs{WebsiteID: r.WebsiteID, FailuresBefore: 1}, retryAt(r, 1, w.cfg.Every))
		}
	}
	start := time.Now()
	res, err := w.cfg.Mirror.SyncFleet(ctx, websites, &mirror.FleetOptions{Options: w.cfg.Options, Parallel: w.cfg.Parallel, Done: done})
	close(failures)
	// A website taken when ctx ended may not have reached a run.
	for id := range started {
		w.ended(mirror.WebsiteResult{WebsiteID: id, Err: ctx.Err()})
		w.releaseSlot()
	}
	retried()
	w.log.Info("batch synced", "batch", batch.Batch, "of", batch.Batches, "websites", len(sites),
		"synced", res.Synced, "failed", res.Failed, "skipped", res.Skipped,
		"orders", fmt.Sprint(res.Orders), "messages", fmt.Sprint(res.Messages), "seconds", time.Since(start).Seconds())
	var fleetErr *mirror.FleetError
	if err != nil && !errors.As(err, &fleetErr) && ctx.Err() == nil {
		return out, err
	}
	return out, nil
}

// stoppedBy reports whether err is that of a run that the worker's stop
// ended (River cancels the jobs' contexts), rather than a failure of the
// website. A run that its job's timeout ended failed: it was too slow
// for its batch.
func stoppedBy(ctx context.Context, err error) bool {
	return errors.Is(ctx.Err(), context.Canceled) && errors.Is(err, context.Canceled)
}

// retryFailures inserts the jobs sent on failures as they come (those
// that wait meanwhile together), so that a website that failed early in a
// long batch is retried on time. The inserts outlive ctx, so that the
// growing waits of a failure are kept when the batch is stopped or cut
// short. wait, called once failures is closed, waits for the last of them
// insertGrace at most, and gives up the rest: an insert that fails is
// logged, and the batch syncs its websites next period.
func (w *Worker) retryFailures(ctx context.Context, n int) (failures chan<- river.InsertManyParams, wait func()) {
	jobs := make(chan river.InsertManyParams, n)
	insertCtx, giveUp := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	go func() {
		defer close(done)
		for job := range jobs {
			waiting := []river.InsertManyParams{job}
			for more := true; more; {
				select {
				case job, ok := <-jobs:
					if ok {
						waiting = append(waiting, job)
					}
					more = ok
				default:
					more = false
				}
			}
			if err := w.engine.insert(insertCtx, waiting); err != nil {
				w.log.Error("websites that failed get no job of their own; their batch syncs them next period",
					"websites", len(waiting), "error", err)
			}
		}
	}()
	return jobs, func() {
		defer giveUp()
		grace := time.NewTimer(insertGrace)
		defer grace.Stop()
		select {
		case <-done:
		case <-grace.C:
			giveUp()
			<-done
		}
	}
}

// insertGrace is how long a batch waits, once its runs are done, for the
// jobs of its failed websites to be inserted: short, so that a batch cut
// short by its timeout ends before River's rescuer would take it back
// (rescueAfter).
const insertGrace = 2 * time.Second

// ended notes the start of a website's run r and tells Events of its end.
func (w *Worker) ended(r mirror.WebsiteResult) {
	if !r.Started.IsZero() {
		w.startsMu.Lock()
		w.lastStart[r.WebsiteID] = r.Started
		w.startsMu.Unlock()
	}
	w.cfg.Events.RunEnded(r)
}

// retryAt is when a website whose run r was its failures-th failure in a
// row runs again: a 429's Retry-After from now, else RetryWait after the
// run's start.
func retryAt(r mirror.WebsiteResult, failures int, every time.Duration) time.Time {
	if wait, ok := retryAfter(r.Err); ok {
		return time.Now().Add(wait)
	}
	return cmp.Or(r.Started, time.Now()).Add(RetryWait(failures, every))
}

// retryAfter is the Retry-After of err, a 429 that gave one.
func retryAfter(err error) (time.Duration, bool) {
	var apiErr *ordermsg.APIError
	if errors.As(err, &apiErr) && errors.Is(err, ordermsg.ErrRateLimited) && apiErr.RetryAfter > 0 {
		return apiErr.RetryAfter, true
	}
	return 0, false
}

// takeSlot waits for one of the worker's Parallel slots of a batch's
// websites (each taken when the website goes to SyncFleet, so that Events
// hear of a run as it starts), and reports false when ctx ends or the
// worker stops first: a stopping worker starts no website.
func (w *Worker) takeSlot(ctx context.Context) bool {
	if w.isStopping() {
		return false
	}
	select {
	case w.slots <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	case <-w.stopping:
		return false
	}
}

// releaseSlot gives back a slot that takeSlot took.
func (w *Worker) releaseSlot() { <-w.slots }
