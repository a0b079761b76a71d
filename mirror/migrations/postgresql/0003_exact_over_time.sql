-- Step 3: the mirror stays exact over time. Creation times become
-- timestamptz; beside each record's JSON come a copy without NUL characters
-- for the views (only for the records that have one), the digest that tells
-- a change, the time the stored data was read, and the time a reconcile found
-- the record gone. Records the SDK cannot decode are kept as sent, and each
-- website remembers the base URL it is mirrored from. Released: never change
-- it.
--
-- A creation time of year 0, such as '0000-01-01T00:00:00Z' (valid RFC 3339,
-- which the SDK reads), is not a timestamptz that PostgreSQL takes as text:
-- it is the instant PostgreSQL spells year 1 BC (ISO 8601 counts a year 0,
-- PostgreSQL does not), kept as that instant, which is also what a run
-- writes for such a record; not NULL (date_created is NOT NULL, and the
-- record keeps its place in time) nor -infinity (which is no instant).
ALTER TABLE orders
	ALTER COLUMN date_created TYPE timestamptz USING CASE WHEN date_created LIKE '0000-%'
		THEN CAST(overlay(date_created PLACING '0001' FROM 1 FOR 4) || ' BC' AS timestamptz)
		ELSE CAST(date_created AS timestamptz) END,
	ADD COLUMN nul_free_json json,
	ADD COLUMN digest        bytea,
	ADD COLUMN read_at       timestamptz,
	ADD COLUMN deleted_at    timestamptz;
ALTER TABLE messages
	ALTER COLUMN date_created TYPE timestamptz USING CASE WHEN date_created LIKE '0000-%'
		THEN CAST(overlay(date_created PLACING '0001' FROM 1 FOR 4) || ' BC' AS timestamptz)
		ELSE CAST(date_created AS timestamptz) END,
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
