package worker

import "time"

// MinEvery is the shortest Config.Every: a period below it would have the
// queue poll more than it syncs.
const MinEvery = time.Second

// Slack is how much later than its period a website's run may start: the
// runs of a website start no further apart than Every plus Slack (when its
// batch lasts less than Every and nothing holds it up: a failure, a 429's
// Retry-After). It covers River's scheduler, which every 5 s makes
// available the jobs of the next 5 s, its fetch, which polls every
// fetchPoll for those whose time has come, the few milliseconds of the
// hold, and the runs before the website's in its batch, which may take
// longer than the period before.
const Slack = 10 * time.Second

// fetchPoll is how often River looks for the jobs whose time has come,
// beside what it is told (PostgreSQL) of jobs made available for now: its
// scheduler makes available 5 s ahead of time the jobs of the next 5 s,
// which then wait for a poll. Every 2 s (each poll of River's SQLite
// driver parses its fetch again, a few milliseconds), within Slack; every
// period when it is shorter.
func fetchPoll(every time.Duration) time.Duration { return min(every, 2*time.Second) }

// FailuresBeforeEvery is N: after this many failed runs in a row a website
// is tried once per Every, no sooner.
const FailuresBeforeEvery = 5

// firstRetry is the wait before the retry of a website's first failure;
// each failure after it doubles the wait, never beyond Every.
const firstRetry = 5 * time.Second

// RetryWait is the wait between the start of a website's failed run and
// its retry, after the given number of failures in a row (1 for the
// first): 5 s, 10 s, 20 s, 40 s, never more than every; from
// FailuresBeforeEvery failures on, every.
func RetryWait(failures int, every time.Duration) time.Duration {
	if failures >= FailuresBeforeEvery {
		return every
	}
	wait := firstRetry << max(failures-1, 0)
	return min(wait, every)
}

// heldWait is how long a website's own job waits before it tries the
// website again that another run holds (a one-shot sync, a worker whose
// job was taken from it as stuck); a batch leaves such a website to its
// next period.
func heldWait(every time.Duration) time.Duration { return min(every, 5*time.Second) }

// jobTimeout is the longest a website's run may last: Every and 5 s. A
// run that lasts longer is stopped, keeping what it read (it counts as a
// failure), and the next goes on from there. It is that short so that the
// job of a killed worker is rescued in time (rescueAfter).
func jobTimeout(every time.Duration) time.Duration { return every + 5*time.Second }

// rescueAfter is when River takes back, as stuck, the job of a worker that
// died while it ran (kill -9): after its timeout and a margin for the run
// to commit what it read. River's rescuer looks every 30 s, a new leader
// (when the dead worker led) is elected within about 10 s, and the
// scheduler and fetch add 6 s: the website runs again within Every + 54 s
// of its killed run's start, within Every plus one minute.
func rescueAfter(every time.Duration) time.Duration { return jobTimeout(every) + 3*time.Second }

// completedRetention is how long River keeps a completed job: a
// website's own job that succeeded, a batch of a list of another size, a
// job that succeeded after failures (followed by a new one). A website
// leaves at most one per period, so this bounds them to about ten per
// website (at least a minute's, at most a day's).
func completedRetention(every time.Duration) time.Duration {
	return min(max(10*every, time.Minute), 24*time.Hour)
}

// maxAttempts bounds the failures a website's job keeps (River's errors
// of the job): a job that fails that many times in a row is discarded,
// and the next refresh of the list gives the website a new one.
const maxAttempts = 1000

// pruneEvery is the period of the removal of the rows of mirror_runs older
// than Config.KeepRuns.
const pruneEvery = time.Hour
