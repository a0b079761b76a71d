-- Step 3: the mirror stays exact over time. Creation times become
-- timestamptz; beside each record's JSON come a copy without NUL characters
-- for the views (only for the records that have one), the digest that tells
-- a change, the time the stored data was read, and the time a reconcile found
-- the record gone. Records the SDK cannot decode are kept as sent, and each
-- website remembers the base URL it is mirrored from. Released: never change
-- it.
ALTER TABLE orders
	ALTER COLUMN date_created TYPE timestamptz USING CAST(date_created AS timestamptz),
	ADD COLUMN nul_free_json json,
	ADD COLUMN digest        bytea,
	ADD COLUMN read_at       timestamptz,
	ADD COLUMN deleted_at    timestamptz;
ALTER TABLE messages
	ALTER COLUMN date_created TYPE timestamptz USING CAST(date_created AS timestamptz),
	ADD COLUMN nul_free_json json,
	ADD COLUMN digest        bytea,
	ADD COLUMN read_at       timestamptz,
	ADD COLUMN deleted_at    timestamptz;
CREATE TABLE refused_records (
	website_id    BIGINT NOT NULL,
	resource      TEXT NOT NULL,
	id            BIGINT,
	page          INTEGER NOT NULL,
	index_on_page INTEGER NOT NULL,
	byte_offset   BIGINT NOT NULL,
	raw           bytea NOT NULL,
	raw_digest    bytea NOT NULL,
	reason        TEXT NOT NULL,
	first_seen_at timestamptz NOT NULL,
	last_seen_at  timestamptz NOT NULL
);
CREATE UNIQUE INDEX refused_records_website_id_resource_id ON refused_records (website_id, resource, id)
	WHERE id IS NOT NULL;
CREATE UNIQUE INDEX refused_records_website_id_resource_raw_digest ON refused_records (website_id, resource, raw_digest)
	WHERE id IS NULL;
CREATE TABLE website_sources (
	website_id  BIGINT NOT NULL,
	base_url    TEXT NOT NULL,
	recorded_at timestamptz NOT NULL,
	CONSTRAINT website_sources_website_id PRIMARY KEY (website_id)
);
