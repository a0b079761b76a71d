-- Step 4: a fleet of websites. Every run of a website by a fleet (SyncFleet,
-- ordermsg sync --websites) leaves one row when it ends: when it started and
-- finished, ok or failed, the records it found new, updated and deleted
-- (orders and messages together), and why it failed. Released: never change
-- it.
CREATE TABLE mirror_runs (
	website_id      BIGINT NOT NULL,
	started_at      timestamptz NOT NULL,
	finished_at     timestamptz NOT NULL,
	status          TEXT NOT NULL CHECK (status IN ('ok', 'failed')),
	new_records     BIGINT NOT NULL,
	updated_records BIGINT NOT NULL,
	deleted_records BIGINT NOT NULL,
	error           TEXT
);
CREATE INDEX mirror_runs_website_id_finished_at ON mirror_runs (website_id, finished_at);
