// Package worker keeps a fleet of websites mirrored without end: each
// website is synced about once per Config.Every, by one process or by
// several sharing the work through the database, until the context of Run
// ends.
//
// The schedule is River's (github.com/riverqueue/river), a job queue whose
// tables live in the mirror's database: each website has one job at a
// time, unique by its id, whose args hold that id alone (never a key: the
// key comes from the websites the worker was given). A job that syncs a
// website runs again at the start of its run plus Every (River's snooze);
// a failed run is retried sooner, with growing waits (RetryWait), and the
// first success after failures completes the job and puts, in the same
// transaction, a new one, whose failures count from zero. The run of a job goes through the
// mirror's hold of the website (mirror.SyncFleet), so a website is never
// synced by two at once, and its row in mirror_runs starts once it is
// held. PostgreSQL uses River's pgx v5 driver, SQLite River's SQLite
// driver over database/sql.
package worker
