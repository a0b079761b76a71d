-- Step 1: the schema of the first release. Released: never change it; a
-- change of the schema is a new step (RELEASING.md, "The schema").
-- mirror/tables.go describes the columns that the code reads and writes,
-- and a test holds this step to it. Times are UTC RFC 3339 text: what the
-- API sent to the second, what this machine's clock read with microseconds.
CREATE TABLE mirror_schema (version INTEGER NOT NULL);

-- The records of any number of websites, keyed by website, with the data of
-- their includes. Beside each record's JSON come a copy without NUL
-- characters for the views (only for the records that have one), the
-- digest that tells a change, the time the stored data was read, and the
-- time a reconcile found the record gone.
CREATE TABLE orders (
	website_id    BIGINT NOT NULL,
	id            BIGINT NOT NULL,
	date_created  TEXT NOT NULL,
	status        TEXT NOT NULL,
	order_type    TEXT NOT NULL,
	currency      TEXT NOT NULL,
	total         BIGINT NOT NULL,
	amount_paid   BIGINT NOT NULL,
	message_id    BIGINT,
	user_id       BIGINT,
	portal_id     BIGINT,
	promo_code_id BIGINT,
	promo_code    TEXT,
	json          TEXT NOT NULL,
	nul_free_json TEXT,
	digest        BLOB,
	read_at       TEXT,
	deleted_at    TEXT,
	CONSTRAINT orders_website_id_id PRIMARY KEY (website_id, id)
);
CREATE INDEX orders_website_id_date_created ON orders (website_id, date_created);
CREATE INDEX orders_website_id_status ON orders (website_id, status, date_created);
CREATE INDEX orders_website_id_currency ON orders (website_id, currency, date_created);
CREATE INDEX orders_message_id ON orders (message_id);
CREATE TABLE messages (
	website_id    BIGINT NOT NULL,
	id            BIGINT NOT NULL,
	date_created  TEXT NOT NULL,
	message_type  TEXT NOT NULL,
	order_id      BIGINT,
	form_id       BIGINT,
	user_id       BIGINT,
	portal_id     BIGINT,
	file_id       BIGINT,
	json          TEXT NOT NULL,
	nul_free_json TEXT,
	digest        BLOB,
	read_at       TEXT,
	deleted_at    TEXT,
	CONSTRAINT messages_website_id_id PRIMARY KEY (website_id, id)
);
CREATE INDEX messages_website_id_date_created ON messages (website_id, date_created);
CREATE INDEX messages_website_id_message_type ON messages (website_id, message_type, date_created);
CREATE INDEX messages_order_id ON messages (order_id);
CREATE TABLE sync_state (
	website_id  BIGINT NOT NULL,
	resource    TEXT NOT NULL,
	checkpoint  TEXT NOT NULL,
	CONSTRAINT sync_state_website_id_resource PRIMARY KEY (website_id, resource)
);

-- Records the SDK cannot decode, kept as sent, and the base URL each
-- website is mirrored from.
CREATE TABLE refused_records (
	website_id    BIGINT NOT NULL,
	resource      TEXT NOT NULL,
	id            BIGINT,
	page          INTEGER NOT NULL,
	index_on_page INTEGER NOT NULL,
	byte_offset   BIGINT NOT NULL,
	raw           BLOB NOT NULL,
	raw_digest    BLOB NOT NULL,
	reason        TEXT NOT NULL,
	first_seen_at TEXT NOT NULL,
	last_seen_at  TEXT NOT NULL
);
CREATE UNIQUE INDEX refused_records_website_id_resource_id ON refused_records (website_id, resource, id)
	WHERE id IS NOT NULL;
CREATE UNIQUE INDEX refused_records_website_id_resource_raw_digest ON refused_records (website_id, resource, raw_digest)
	WHERE id IS NULL;
CREATE TABLE website_sources (
	website_id  BIGINT NOT NULL,
	base_url    TEXT NOT NULL,
	recorded_at TEXT NOT NULL,
	CONSTRAINT website_sources_website_id PRIMARY KEY (website_id)
);

-- Every run of a website leaves one row when it ends: when it started and
-- finished, ok or failed, the records it found new, updated and deleted
-- (orders and messages together), and why it failed.
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
CREATE INDEX mirror_runs_website_id_status_finished_at ON mirror_runs (website_id, status, finished_at);
-- Runs of a website's orders or messages take turns through a lease: the
-- process (host and pid) and the run (token) that holds it, until
-- expires_at, which the run moves on while it holds it.
CREATE TABLE mirror_leases (
	website_id BIGINT NOT NULL,
	resource   TEXT NOT NULL,
	host       TEXT NOT NULL,
	pid        BIGINT NOT NULL,
	token      TEXT NOT NULL,
	expires_at TEXT NOT NULL,
	CONSTRAINT mirror_leases_website_id_resource PRIMARY KEY (website_id, resource)
);

-- Each website's state, read from mirror_runs (so that nothing has to be
-- kept in step with it): a row per website that has a run, with when its
-- last successful run finished (NULL when none succeeded), when its last
-- run started and finished, that run's status and error, and the number of
-- its runs that failed since its last success (0 when its last run
-- succeeded). The websites are found by skipping from one website_id of the
-- index to the next, and each website's last runs are read from the end of
-- the index: the view reads a few rows per website, however long the
-- history, but for the failures since the last success, which it counts.
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

-- The change feed. Every new, updated or deleted record that the mirror
-- writes appends a row to mirror_changes in the same transaction: the
-- website, resource and id, the kind of change and when it was recorded.
-- For new and updated, json is the record's JSON as stored, NULL while it
-- is the row's own: a write that changes the row first copies the row's
-- JSON into the record's change that holds NULL, so that a new record is
-- not written twice. mirror_change_records gives each change's record
-- (column record) whichever holds it. A change's place in the feed is seq:
-- SQLite takes one writer at a time, so that seq grows in the order of the
-- commits, and AUTOINCREMENT never gives a removed change's seq again.
-- mirror_changes_state holds the database's origin, which its cursors
-- carry, and the seq of the newest change removed by retention (NULL:
-- none).
CREATE TABLE mirror_changes (
	seq         INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
	website_id  BIGINT NOT NULL,
	resource    TEXT NOT NULL CHECK (resource IN ('orders', 'messages')),
	id          BIGINT NOT NULL,
	change      TEXT NOT NULL CHECK (change IN ('new', 'updated', 'deleted')),
	recorded_at TEXT NOT NULL,
	json        TEXT
);
CREATE INDEX mirror_changes_website_id_resource_id ON mirror_changes (website_id, resource, id);
CREATE TABLE mirror_changes_state (
	origin     TEXT NOT NULL,
	pruned_seq BIGINT
);
INSERT INTO mirror_changes_state (origin) VALUES (lower(hex(randomblob(6))));
CREATE VIEW mirror_change_records AS
SELECT c.*, CASE WHEN c.change = 'deleted' THEN NULL ELSE COALESCE(c.json, o.json, m.json) END AS record
FROM mirror_changes c
LEFT JOIN orders o ON c.json IS NULL AND c.resource = 'orders' AND o.website_id = c.website_id AND o.id = c.id
LEFT JOIN messages m ON c.json IS NULL AND c.resource = 'messages' AND m.website_id = c.website_id AND m.id = c.id;

-- The records not deleted. A later step that changes the columns of orders
-- or messages makes them again.
CREATE VIEW live_orders AS SELECT * FROM orders WHERE deleted_at IS NULL;
CREATE VIEW live_messages AS SELECT * FROM messages WHERE deleted_at IS NULL;
