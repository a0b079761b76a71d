// Package mirror keeps a SQL database in step with websites' orders and
// messages, read through the ordermsg SDK: every record with the data of its
// includes, exactly as the server sent it, for any number of websites in one
// database, in SQLite or PostgreSQL.
//
// The package takes the caller's *sql.DB and imports no driver: a service
// that mirrors into PostgreSQL registers its own (github.com/jackc/pgx/v5/stdlib,
// driver name "pgx"), one that mirrors into SQLite its own (modernc.org/sqlite
// needs no cgo). Open creates the tables and views, or upgrades those of an
// earlier version; Mirror.Sync brings one website up to date.
//
// # Tables
//
//   - orders, messages: one row per record, keyed by (website_id, id). The
//     column json is the record exactly as the server sent it (PostgreSQL
//     type json, which keeps the text; TEXT in SQLite). Beside it are the
//     fields people filter and join on: date_created (UTC, RFC 3339 text:
//     "2024-03-10T12:05:00Z", which sorts as time does), status, order_type,
//     currency, total, amount_paid, promo_code (the code's text),
//     message_type and the ids of linked records (message_id, order_id,
//     user_id, portal_id, promo_code_id, form_id, file_id), NULL when the API
//     sends 0 or null.
//   - sync_state: a checkpoint (an ordermsg.Checkpoint as JSON) per website
//     and resource, written in the same transaction as the records it covers.
//   - mirror_schema: the schema's version.
//
// # Views
//
// One row per element of a record's lists, the same columns in both
// databases (booleans are 0/1 in SQLite, boolean in PostgreSQL; money is the
// API's integers; timestamps are the wire's text):
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
// # Runs at once, crashes
//
// Records are written in transactions of up to a batch, each with the
// checkpoint that covers them; no transaction is open while a page is
// fetched. Two runs of the same website at once both finish and leave the
// mirror exact: in PostgreSQL a run holds an advisory lock per website and
// resource, so the second waits for the first and then finds nothing new; in
// SQLite writes are serialized by the database and a run never moves a
// stored checkpoint back. A run killed at any moment keeps what it
// committed, and the next goes on from there.
package mirror
