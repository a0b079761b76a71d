-- Step 3: the mirror stays exact over time. Beside each record's JSON come a
-- copy without NUL characters for the views (only for the records that have
-- one), the digest that tells a change, the time the stored data was read,
-- and the time a reconcile found the record gone. Records the SDK cannot
-- decode are kept as sent, and each website remembers the base URL it is
-- mirrored from. Times are UTC RFC 3339 text. Released: never change it.
ALTER TABLE orders ADD COLUMN nul_free_json TEXT;
ALTER TABLE orders ADD COLUMN digest BLOB;
ALTER TABLE orders ADD COLUMN read_at TEXT;
ALTER TABLE orders ADD COLUMN deleted_at TEXT;
ALTER TABLE messages ADD COLUMN nul_free_json TEXT;
ALTER TABLE messages ADD COLUMN digest BLOB;
ALTER TABLE messages ADD COLUMN read_at TEXT;
ALTER TABLE messages ADD COLUMN deleted_at TEXT;
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
