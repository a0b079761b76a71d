-- Step 1: the tables of ordermsg sync --db before package mirror, as
-- cmd/ordermsg/mirror.go made them (SQLite only, one website per database).
-- A database that never had them goes through it too, so that every
-- database reaches a version by the same steps. Released: never change it.
CREATE TABLE IF NOT EXISTS orders (
	id            INTEGER PRIMARY KEY,
	website_id    INTEGER NOT NULL,
	date_created  TEXT NOT NULL, -- UTC, RFC 3339
	status        TEXT NOT NULL,
	order_type    TEXT NOT NULL,
	currency      TEXT NOT NULL,
	total         INTEGER NOT NULL,
	amount_paid   INTEGER NOT NULL,
	message_id    INTEGER,
	user_id       INTEGER,
	portal_id     INTEGER,
	promo_code_id INTEGER,
	json          TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS orders_date_created ON orders(date_created);
CREATE TABLE IF NOT EXISTS messages (
	id            INTEGER PRIMARY KEY,
	website_id    INTEGER NOT NULL,
	date_created  TEXT NOT NULL,
	message_type  TEXT NOT NULL,
	order_id      INTEGER,
	form_id       INTEGER,
	user_id       INTEGER,
	portal_id     INTEGER,
	file_id       INTEGER,
	json          TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS messages_date_created ON messages(date_created);
CREATE TABLE IF NOT EXISTS sync_state (
	resource    TEXT PRIMARY KEY, -- "orders" or "messages"
	website_id  INTEGER NOT NULL,
	checkpoint  TEXT NOT NULL     -- an ordermsg.Checkpoint as JSON
);
