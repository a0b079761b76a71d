-- Step 6: the change feed. Every new, updated or deleted record that the
-- mirror writes appends a row to mirror_changes in the same transaction:
-- the website, resource and id, the kind of change and when it was
-- recorded (UTC RFC 3339 text with microseconds). For new and updated, json
-- is the record's JSON as stored, NULL while it is the row's own: a write
-- that changes the row first copies the row's JSON into the record's change
-- that holds NULL, so that a new record is not written twice.
-- mirror_change_records gives each change's record (column record)
-- whichever holds it. A change's place in the feed is seq: SQLite
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
CREATE VIEW mirror_change_records AS
SELECT c.*, CASE WHEN c.change = 'deleted' THEN NULL ELSE COALESCE(c.json, o.json, m.json) END AS record
FROM mirror_changes c
LEFT JOIN orders o ON c.json IS NULL AND c.resource = 'orders' AND o.website_id = c.website_id AND o.id = c.id
LEFT JOIN messages m ON c.json IS NULL AND c.resource = 'messages' AND m.website_id = c.website_id AND m.id = c.id;
CREATE VIEW live_orders AS SELECT * FROM orders WHERE deleted_at IS NULL;
CREATE VIEW live_messages AS SELECT * FROM messages WHERE deleted_at IS NULL;
