// Package worker keeps a fleet of websites mirrored without end: each
// website is synced about once per Config.Every, by one process or by
// several sharing the work through the database, until the context of Run
// ends.
//
// The schedule is River's (github.com/riverqueue/river), a job queue whose
// tables live in the mirror's database. The websites of the list are
// spread over batches of about 50, by a hash of their ids; each batch is a
// job, unique by its number and the number of batches, that syncs its
// websites in one mirror.SyncFleet, as a one-shot sync does, and runs
// again at its start plus Every (River's snooze). A website whose run
// fails gets a job of its own, unique by its id, whose args hold that id
// alone (never a key: the key comes from the websites the worker was
// given): River retries it with growing waits (RetryWait), a 429 snoozes
// it for its Retry-After, and its first success ends it, the website back
// in its batch. A worker syncs Parallel websites of its batches at once,
// and runs Parallel websites' own jobs besides. Every run goes through the mirror's hold of the website, so a
// website is never synced by two at once, and its row in mirror_runs
// starts once it is held. PostgreSQL uses River's pgx v5 driver, SQLite
// River's SQLite driver over database/sql.
package worker
