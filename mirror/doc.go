// Package mirror keeps a SQL database in step with websites' orders and
// messages, read through the ordermsg SDK: every record with the data of its
// includes, exactly as the server sent it, for any number of websites in one
// database, in SQLite or PostgreSQL.
//
// The package takes the caller's *sql.DB and registers no driver: a service
// that mirrors into PostgreSQL registers pgx's (github.com/jackc/pgx/v5/stdlib,
// driver name "pgx"; the mirror writes with its COPY, and Open refuses
// another driver), one that mirrors into SQLite its own (modernc.org/sqlite
// needs no cgo). Open creates the tables and views, or upgrades those of an
// earlier version; Mirror.Sync brings one website up to date (its orders and
// its messages read at once, each on a connection of the pool, when the pool
// has room), and
// Mirror.SyncFleet many, each with its own key, shared by workers. Records
// are read as ordermsg.RawRecord (AllRaw, SyncRaw), checked as the SDK
// decodes them but not decoded: the mirror reads the members its columns
// need.
//
// The repository's docs/mirror.md has the same reference with the queries
// people ask (revenue per day in a time zone, the websites that failed or
// have not synced lately, ...), each for both databases and run by the
// tests; docs/cli.md describes ordermsg sync --db, the command built on
// this package.
//
// # Tables
//
//   - orders, messages: one row per record, keyed by (website_id, id). The
//     column json is the record exactly as the server sent it (PostgreSQL
//     type json, which keeps the text; TEXT in SQLite). Beside it are the
//     fields people filter and join on: date_created (timestamptz in
//     PostgreSQL; in SQLite UTC RFC 3339 text, "2024-03-10T12:05:00Z",
//     which sorts as time does), status, order_type, currency, total,
//     amount_paid, promo_code (the code's text), message_type and the ids of
//     linked records (message_id, order_id, user_id, portal_id,
//     promo_code_id, form_id, file_id), NULL when the API sends 0 or null;
//     then nul_free_json, digest and read_at (below), and deleted_at: when
//     a reconcile found the record gone from the server, else NULL. Rows are
//     never removed: filter deleted_at IS NULL to read the live records.
//   - sync_state: a checkpoint (an ordermsg.Checkpoint as JSON) per website
//     and resource, written in the same transaction as the records it covers.
//   - refused_records: the records the SDK could not decode (below).
//   - website_sources: the base URL each website is mirrored from (below).
//   - mirror_runs: a row per run of a website by Sync or SyncFleet (below).
//   - mirror_schema: the schema's version.
//
// Times the mirror takes from its own clock (read_at, deleted_at, and those
// of refused_records and website_sources) are timestamptz in PostgreSQL and
// UTC RFC 3339 text with microseconds in SQLite
// ("2024-03-10T12:05:00.123456Z").
//
// # Views
//
// One row per element of a live record's lists (deleted_at NULL), the same
// columns in both databases (booleans are 0/1 in SQLite, boolean in
// PostgreSQL; money is the API's integers; tax_percentage and weight are
// numeric in PostgreSQL, REAL in SQLite; timestamps are timestamptz in
// PostgreSQL and UTC RFC 3339 text in SQLite, NULL where the record's time
// is one the database cannot hold, such as the year 0 in PostgreSQL):
//
//   - order_items: website_id, order_id, id, object, sku, title, quantity,
//     status, unit_price, volume_price, subtotal (the item's pricing),
//     tax_percentage, is_taxable, weight, catalog_item_id, shipment_id,
//     portal_id, date_created.
//   - order_item_fields: the fields of an item's attributes (form
//     "attributes", with price_modifier, price_modifier_type, price_scope)
//     and of a versadoc item's order form (form "versadoc_order_form").
//   - order_fields: the fields of an order's billing_address,
//     additional_information and its shipments' shipping_address (with
//     shipment_id).
//   - message_fields: website_id, message_id, message_type, field_id,
//     field_type, label, formatted_value, field_values (the values object as
//     JSON text): one row per field of the message's form_submission.
//   - order_shipments, order_notes, print_ready_files,
//     order_payment_transactions, message_payment_transactions.
//
// # Exact over time
//
// Options.Reconcile reads every record the server lists for the website: a
// record it no longer lists, and that a retrieve confirms gone (a list can
// shift during a walk and skip one), gets deleted_at; one listed again gets
// it back to NULL; one that changed is rewritten, however old. A reconcile
// where nothing changed writes nothing. A listing whose total drops between
// two pages has skipped records: the reconcile lists again, up to three
// times, and settles what no listing showed, records marked deleted too
// when every listing shifted (docs/sync.md of the repository).
//
// A record read again counts as updated, and is rewritten, only when its
// data changed: the column digest holds the SHA-256 of its JSON less what
// the server signs anew on every read of a file link (in every object whose
// "object" is "file": its expires, and the query string of its url), so
// that a re-signed link is no change and a run compares without reading the
// JSON back. read_at is when the stored data was read (the arrival of the
// page that carried it): a write applies only when its read is later, so
// two runs at once never let an older read overwrite a newer one.
//
// # Unusual data
//
// A string with a NUL character (\u0000) is stored: json keeps the record
// as sent, a text column holds the value with each NUL replaced by U+FFFD,
// and the views read nul_free_json, the record with each \u0000 replaced by
// \ufffd, kept only for the records that have one (PostgreSQL fails every
// query that takes text out of a json value holding \u0000).
//
// A record the SDK cannot decode (a lone surrogate such as \ud800, bytes
// that are not UTF-8, a field of the wrong type) never stalls a website: it
// is kept exactly as sent in refused_records (website_id, resource, id when
// it can be read, page, index_on_page, byte_offset, raw, raw_digest,
// reason, first_seen_at, last_seen_at), with the checkpoint that covers it,
// and counted in Counts.Refused; every other record, on its page and after
// it, is mirrored, and later runs go on past it. It stays there until it
// decodes, or a reconcile finds the server no longer has it.
//
// # One source per website
//
// Each website remembers the base URL it was first mirrored from (scheme,
// host, port and path; never credentials). A Sync from another base URL,
// such as staging and production of the same website id, is refused before
// any write with a *SourceError; Options.BaseURLMoved says that the service
// really moved, and the run takes the new one. A database of an earlier
// version takes the base URL of its next run.
//
// # A fleet of websites
//
// SyncFleet syncs many websites, each with a client of its own account,
// FleetOptions.Parallel at a time (DefaultParallel, 4), each as Sync does;
// one that fails stops none of the others. Open checks the schema once for
// the whole fleet, and a website with nothing new costs 2 requests and no
// DDL. Workers, processes on one machine or many that run SyncFleet with the
// same websites on one PostgreSQL database, share the work: a worker holds a
// website while it syncs it (pg_try_advisory_lock on its session), and skips
// a website another holds (SkipHeld) or synced since it began (SkipSynced),
// so that no worker waits for another. A worker killed at any moment loses
// nothing: what it committed stays, and its hold ends with its session, so
// that the next run takes the website. In SQLite a worker holds a website
// through a lease (a row of mirror_leases) and skips one another holds; a
// lease past its time (a minute), or of a process of this host that no
// longer runs, is anyone's. The file takes one writer at a time: one worker
// per SQLite file is what pays.
//
// Each website's run, a fleet's or a Sync's, leaves a row in mirror_runs
// when it ends: website_id, started_at and finished_at (the mirror's
// clock), status ("ok" or "failed"), new_records, updated_records and
// deleted_records (orders and messages together), and error, the failure's
// text. A run starts once it holds the website (a Sync waits for it), so
// that the runs of a website never overlap. A skipped website leaves no
// row, nor does a run killed before its end. Rows are never removed:
// delete the old ones when they are no longer wanted.
//
// The view mirror_website_states gives each website's state, read from
// mirror_runs: last_success_at, last_run_started_at, last_run_finished_at,
// last_status, last_error and consecutive_failures (the failures since the
// last success). Mirror.WebsiteStates reads it; OpenExisting opens a
// database for that without making a mirror in it.
//
// # Schema
//
// The schema is a series of numbered steps (migrations/), each run once and
// never changed once released; a database is upgraded in place, in one
// transaction, by the steps after its version, and a new one runs them all,
// so that both get the same schema. The views are made again from their
// description after every change of the schema. A step runs as one Exec of
// several statements without arguments, which the drivers named above run
// in order.
//
// # Runs at once, crashes
//
// Records are written in transactions of up to a batch, each with the
// checkpoint that covers them; no transaction is open while a page is
// fetched. Two runs of the same website at once both finish and leave the
// mirror exact: a Sync holds the website, and each table's run a lock of its
// own (in PostgreSQL advisory locks; in SQLite leases, rows of
// mirror_leases), so the second waits for the first and then finds nothing
// new, and a fleet's worker skips a website held; a lease of a killed
// process on this host is taken at once, one elsewhere after a minute. A run
// moves its lease on every 15 seconds from a connection of the pool besides
// its own: give a SQLite pool a limit above the connections its runs hold at
// once (or none), or a run longer than a minute may be joined by another. A
// run killed at any moment keeps what it committed, and the next goes on
// from there.
//
// # Refused records
//
// A record dated in the future or without date_created is refused by every
// pass alike, kept as sent in refused_records. A record mirrored once that
// the SDK later refuses keeps its row as last read, live in the views; its
// row in refused_records (same website, resource and id) says so: join on
// it to leave such rows out. When the orders fail, the messages are still
// mirrored; a failure of the website (401, 403, 404) or an ended context is
// reported once (and when the tables are read in turn, as a fleet's are,
// stops the run before the messages). Options.Secrets and Website.Secrets
// are masked in mirror_runs.error, in every spelling that decodes to them.
package mirror
