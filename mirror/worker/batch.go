package worker

import (
	"cmp"
	"context"
	"errors"
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

// fleetQueue is the River queue of the batches: one batch at a time per
// worker, its websites Parallel at once.
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
// website whose run failed has one until it succeeds), in the order of
// their ids, so that each starts at about the same time of each period,
// and has the batch run again one Every after this run's start. A batch
// that its timeout cuts short keeps what its runs read, and is retried
// (NextRetry): its first websites then take less time.
// A batch of another number of batches than the list now makes ends: the
// list changed, and ensureJobs gave it batches of its own.
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
	var sites []mirror.Website
	for id, s := range list.byID {
		if batchOf(id, job.Args.Batches) == job.Args.Batch && !alone[id] {
			sites = append(sites, s)
		}
	}
	slices.SortFunc(sites, func(a, b mirror.Website) int { return cmp.Compare(a.ID, b.ID) })
	start := time.Now()
	out, err := w.syncBatch(ctx, sites)
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case err != nil:
		return err
	}
	if len(out.retries) > 0 {
		if err := w.engine.insert(ctx, out.retries); err != nil {
			return err
		}
	}
	if out.synced {
		w.enqueueWebhooks(ctx)
	}
	return w.again(ctx, job.JobRow, job.Args, start.Add(w.cfg.Every))
}

// NextRetry is the retry of a batch that failed before its websites ran
// (the database).
func (b *batchWorker) NextRetry(job *river.Job[batchArgs]) time.Time {
	return nextRetry(job.JobRow, job.Attempt, b.w.cfg.Every)
}

// Timeout is the longest a batch lasts: that of a website's run.
func (b *batchWorker) Timeout(*river.Job[batchArgs]) time.Duration { return jobTimeout(b.w.cfg.Every) }

// batchOutcome is what a batch's runs leave to do.
type batchOutcome struct {
	// retries are the jobs of the websites whose run failed: each is
	// retried alone from now on, until it succeeds.
	retries []river.InsertManyParams
	// synced reports that a run was not skipped, so that it may have
	// recorded changes.
	synced bool
}

// syncBatch syncs sites in one SyncFleet, each once it has one of the
// worker's slots, telling Events and logging each run.
func (w *Worker) syncBatch(ctx context.Context, sites []mirror.Website) (batchOutcome, error) {
	var (
		mu      sync.Mutex
		started = map[int64]mirror.Website{} // taken, not done
		out     batchOutcome
	)
	websites := func(yield func(mirror.Website) bool) {
		for _, s := range sites {
			if !w.takeSlot(ctx) {
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
	done := func(r mirror.WebsiteResult) {
		mu.Lock()
		site := started[r.WebsiteID]
		delete(started, r.WebsiteID)
		mu.Unlock()
		w.ended(site, r, "ordermsg_fleet_sync", 0)
		out.synced = out.synced || r.Skipped == mirror.NotSkipped
		if r.Err != nil && ctx.Err() == nil {
			out.retries = append(out.retries, jobAt(syncArgs{WebsiteID: r.WebsiteID, FailuresBefore: 1}, retryAt(r, 1, w.cfg.Every)))
		}
	}
	_, err := w.cfg.Mirror.SyncFleet(ctx, websites, &mirror.FleetOptions{Options: w.cfg.Options, Parallel: w.cfg.Parallel, Done: done})
	// A website taken when ctx ended may not have reached a run.
	for _, s := range started {
		w.ended(s, mirror.WebsiteResult{WebsiteID: s.ID, Err: ctx.Err()}, "ordermsg_fleet_sync", 0)
	}
	var fleetErr *mirror.FleetError
	if err != nil && !errors.As(err, &fleetErr) && ctx.Err() == nil {
		return out, err
	}
	return out, nil
}

// ended tells Events of the end of a website's run r, gives back its slot
// and logs it.
func (w *Worker) ended(site mirror.Website, r mirror.WebsiteResult, kind string, failures int) {
	w.cfg.Events.RunEnded(r)
	w.releaseSlot()
	w.logRun(kind, failures, site.Secrets, r)
}

// retryAt is when a website whose run r was its failures-th failure in a
// row runs again: a 429's Retry-After from now, else RetryWait after the
// run's start.
func retryAt(r mirror.WebsiteResult, failures int, every time.Duration) time.Time {
	var apiErr *ordermsg.APIError
	if errors.As(r.Err, &apiErr) && errors.Is(r.Err, ordermsg.ErrRateLimited) && apiErr.RetryAfter > 0 {
		return time.Now().Add(apiErr.RetryAfter)
	}
	started := r.Started
	if started.IsZero() {
		started = time.Now()
	}
	return started.Add(RetryWait(failures, every))
}

// takeSlot waits for one of the worker's Parallel slots of websites, and
// reports false when ctx ends first.
func (w *Worker) takeSlot(ctx context.Context) bool {
	select {
	case w.slots <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	}
}

// releaseSlot gives back a slot that takeSlot took.
func (w *Worker) releaseSlot() { <-w.slots }
