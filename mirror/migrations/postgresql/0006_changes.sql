-- Step 6: the change feed. Every new, updated or deleted record that the
-- mirror writes appends a row to mirror_changes in the same transaction:
-- the website, resource and id, the kind of change, when it was recorded,
-- and for new and updated the record's JSON as stored. A change's place in
-- the feed is (xid, seq): the id of the transaction that wrote it
-- (txid_current(), 64 bits with its epoch) and a sequence. A follower reads
-- only the changes of transactions older than the oldest one still in
-- flight (txid_snapshot_xmin), in (xid, seq) order: a transaction that
-- commits later always has an xid at or above that bound, so that no change
-- ever lands behind a cursor already read (docs/mirror.md#changes).
-- mirror_changes_state holds the database's origin, which its cursors carry,
-- and the place of the newest change removed by retention (NULL: none).
-- live_orders and live_messages are the records not deleted; a later step
-- that changes the columns of orders or messages makes them again.
-- Released: never change it.
CREATE TABLE mirror_changes (
	xid         BIGINT NOT NULL DEFAULT txid_current(),
	seq         BIGINT GENERATED ALWAYS AS IDENTITY,
	website_id  BIGINT NOT NULL,
	resource    TEXT NOT NULL CHECK (resource IN ('orders', 'messages')),
	id          BIGINT NOT NULL,
	change      TEXT NOT NULL CHECK (change IN ('new', 'updated', 'deleted')),
	recorded_at timestamptz NOT NULL,
	json        json,
	CONSTRAINT mirror_changes_xid_seq PRIMARY KEY (xid, seq)
);
CREATE INDEX mirror_changes_website_id_resource_id ON mirror_changes (website_id, resource, id);
CREATE TABLE mirror_changes_state (
	origin     TEXT NOT NULL,
	pruned_xid BIGINT,
	pruned_seq BIGINT
);
INSERT INTO mirror_changes_state (origin) VALUES (substr(md5(random()::text || clock_timestamp()::text), 1, 12));
CREATE VIEW live_orders AS SELECT * FROM orders WHERE deleted_at IS NULL;
CREATE VIEW live_messages AS SELECT * FROM messages WHERE deleted_at IS NULL;
