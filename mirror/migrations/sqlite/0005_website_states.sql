-- Step 5: each website's state, read from mirror_runs (so that nothing has
-- to be kept in step with it): a row per website that has a run, with
-- when its last successful run finished (NULL when none succeeded), when
-- its last run started and finished, that run's status and error, and the
-- number of its runs that failed since its last success (0 when its last
-- run succeeded). Times are UTC RFC 3339 text with microseconds, as in mirror_runs.
-- The websites are found by skipping from one website_id of the index to
-- the next, and each website's last runs are read from the end of the
-- index: the view reads a few rows per website, however long the history,
-- but for the failures since the last success, which it counts. Released:
-- never change it.
CREATE INDEX mirror_runs_website_id_status_finished_at ON mirror_runs (website_id, status, finished_at);
CREATE VIEW mirror_website_states AS
WITH RECURSIVE websites (website_id) AS (
	SELECT min(website_id) FROM mirror_runs
	UNION ALL
	SELECT (SELECT min(r.website_id) FROM mirror_runs r WHERE r.website_id > w.website_id)
	FROM websites w WHERE w.website_id IS NOT NULL
),
last AS (
	SELECT w.website_id,
		(SELECT max(r.finished_at) FROM mirror_runs r WHERE r.website_id = w.website_id AND r.status = 'ok') AS success_at,
		(SELECT max(r.finished_at) FROM mirror_runs r WHERE r.website_id = w.website_id) AS finished_at
	FROM websites w WHERE w.website_id IS NOT NULL
)
SELECT l.website_id,
	l.success_at AS last_success_at,
	(SELECT r.started_at FROM mirror_runs r WHERE r.website_id = l.website_id AND r.finished_at = l.finished_at
		ORDER BY r.started_at DESC LIMIT 1) AS last_run_started_at,
	l.finished_at AS last_run_finished_at,
	(SELECT r.status FROM mirror_runs r WHERE r.website_id = l.website_id AND r.finished_at = l.finished_at
		ORDER BY r.started_at DESC, r.status LIMIT 1) AS last_status,
	(SELECT r.error FROM mirror_runs r WHERE r.website_id = l.website_id AND r.finished_at = l.finished_at
		ORDER BY r.started_at DESC, r.status, r.error LIMIT 1) AS last_error,
	(SELECT count(*) FROM mirror_runs r WHERE r.website_id = l.website_id AND r.status = 'failed'
		AND r.finished_at > COALESCE(l.success_at, '')) AS consecutive_failures
FROM last l;
