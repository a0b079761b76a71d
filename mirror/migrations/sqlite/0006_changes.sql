-- Step 6: the change feed. Every new, updated or deleted record that the
-- mirror writes appends a row to mirror_changes in the same transaction:
-- the website, resource and id, the kind of change, when it was recorded
-- (UTC RFC 3339 text with microseconds), and for new and updated the
-- record's JSON as stored. A change's place in the feed is seq: SQLite
-- takes one writer at a time, so that seq grows in the order of the
-- commits, and AUTOINCREMENT never gives a removed change's seq again.
-- mirror_changes_state holds the database's origin, which its cursors
-- carry, and the seq of the newest change removed by retention (NULL:
-- none). live_orders and live_messages are the records not deleted; a
-- later step that changes the columns of orders or messages makes them
-- again. Released: never change it.
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
CREATE VIEW live_orders AS SELECT * FROM orders WHERE deleted_at IS NULL;
CREATE VIEW live_messages AS SELECT * FROM messages WHERE deleted_at IS NULL;
