-- Step 4: a fleet of websites. Every run of a website by a fleet (SyncFleet,
-- ordermsg sync --websites) leaves one row when it ends: when it started and
-- finished (UTC RFC 3339 text with microseconds), ok or failed, the records
-- it found new, updated and deleted (orders and messages together), and why
-- it failed. Released: never change it.
CREATE TABLE mirror_runs (
	website_id      BIGINT NOT NULL,
	started_at      TEXT NOT NULL,
	finished_at     TEXT NOT NULL,
	status          TEXT NOT NULL CHECK (status IN ('ok', 'failed')),
	new_records     BIGINT NOT NULL,
	updated_records BIGINT NOT NULL,
	deleted_records BIGINT NOT NULL,
	error           TEXT
);
CREATE INDEX mirror_runs_website_id_finished_at ON mirror_runs (website_id, finished_at);
-- Runs of a website's orders or messages take turns through a lease (in
-- PostgreSQL, through an advisory lock): the process (host and pid) and the
-- run (token) that holds it, until expires_at, which the run moves on while
-- it holds it.
CREATE TABLE mirror_leases (
	website_id BIGINT NOT NULL,
	resource   TEXT NOT NULL,
	host       TEXT NOT NULL,
	pid        BIGINT NOT NULL,
	token      TEXT NOT NULL,
	expires_at TEXT NOT NULL,
	CONSTRAINT mirror_leases_website_id_resource PRIMARY KEY (website_id, resource)
);
