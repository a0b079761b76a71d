package mirror

import (
	"context"
	"iter"
	"time"

	"github.com/ordermsg/ordermsg-go"
)

// The tables are described once, here, as data: the steps of the schema
// (migrations/) make exactly these columns (a test holds the two to each
// other), and the writes take their columns from here.

// colType is the type of a column, written in each backend's SQL.
type colType int

const (
	typeInteger colType = iota + 1 // INTEGER
	typeBigint                     // BIGINT
	typeText                       // TEXT
	typeJSON                       // json in PostgreSQL, TEXT in SQLite
	typeBytes                      // bytea in PostgreSQL, BLOB in SQLite
	// typeTime is a time the API sent: timestamptz in PostgreSQL; in
	// SQLite UTC RFC 3339 text to the second ("2024-03-10T12:05:00Z"),
	// which sorts as time does.
	typeTime
	// typeStamp is a time of this machine's clock: timestamptz in
	// PostgreSQL; in SQLite UTC RFC 3339 text with microseconds, as
	// PostgreSQL keeps them ("2024-03-10T12:05:00.123456Z"), all of one
	// width, so that it sorts as time does.
	typeStamp
)

// column is a column of a table.
type column struct {
	name    string
	typ     colType
	notNull bool
}

// tableDef is a table: its name and its columns, in order.
type tableDef struct {
	name    string
	columns []column
}

// names are the names of the columns.
func (t tableDef) names() []string {
	out := make([]string, len(t.columns))
	for i, c := range t.columns {
		out[i] = c.name
	}
	return out
}

func notNull(name string, typ colType) column  { return column{name, typ, true} }
func nullable(name string, typ colType) column { return column{name, typ, false} }

// The columns every record's row begins and ends with. json is the record
// exactly as the server sent it; nul_free_json, digest and read_at are
// described by nulFreeJSON, contentDigest and writer.write; deleted_at is
// when a reconcile found the record gone.
var (
	recordKey  = []column{notNull("website_id", typeBigint), notNull("id", typeBigint)}
	recordTail = []column{
		notNull("json", typeJSON), nullable("nul_free_json", typeJSON), nullable("digest", typeBytes),
		nullable("read_at", typeStamp), nullable("deleted_at", typeStamp),
	}
)

// The other tables.
var (
	// mirrorSchemaTable holds the schema's version.
	mirrorSchemaTable = tableDef{"mirror_schema", []column{notNull("version", typeInteger)}}
	// syncStateTable holds a checkpoint (an ordermsg.Checkpoint as JSON) per
	// website and resource.
	syncStateTable = tableDef{"sync_state", []column{
		notNull("website_id", typeBigint), notNull("resource", typeText), notNull("checkpoint", typeText),
	}}
	// refusedTable holds the records the SDK could not decode, as sent (see
	// refused.go).
	refusedTable = tableDef{"refused_records", []column{
		notNull("website_id", typeBigint), notNull("resource", typeText), nullable("id", typeBigint),
		notNull("page", typeInteger), notNull("index_on_page", typeInteger), notNull("byte_offset", typeBigint),
		notNull("raw", typeBytes), notNull("raw_digest", typeBytes), notNull("reason", typeText),
		notNull("first_seen_at", typeStamp), notNull("last_seen_at", typeStamp),
	}}
	// sourcesTable holds the base URL each website is mirrored from (see
	// source.go).
	sourcesTable = tableDef{"website_sources", []column{
		notNull("website_id", typeBigint), notNull("base_url", typeText), notNull("recorded_at", typeStamp),
	}}
	// runsTable holds a row per run of a website by a fleet (see
	// fleet.go): status is "ok" or "failed"; the counts are the orders' and
	// messages' together.
	runsTable = tableDef{"mirror_runs", []column{
		notNull("website_id", typeBigint), notNull("started_at", typeStamp), notNull("finished_at", typeStamp),
		notNull("status", typeText), notNull("new_records", typeBigint), notNull("updated_records", typeBigint),
		notNull("deleted_records", typeBigint), nullable("error", typeText),
	}}
)

// schemaTables are every table of the schema.
func schemaTables() []tableDef {
	return []tableDef{mirrorSchemaTable, ordersTable.def(), messagesTable.def(), syncStateTable, refusedTable, sourcesTable, runsTable}
}

// field is a column of a record's table that holds one of the record's
// fields, for people to filter and join on, and how a record fills it.
type field[T any] struct {
	column
	value func(*T) any
}

// table is what the mirror needs to know of a resource.
type table[T any] struct {
	name    string // table and resource: "orders" or "messages"
	fields  []field[T]
	id      func(*T) int64
	created func(*T) time.Time
	raw     func(*T) []byte
	// sync walks what was created after cp, advancing it; all lists the
	// records created from since on, oldest first; get reads one. Each sets
	// *resp to the response that carried the record, and the walks yield
	// a record that cannot be decoded as an *ordermsg.RecordDecodeError.
	sync func(ctx context.Context, c *ordermsg.Client, site int64, cp *ordermsg.Checkpoint, count int, resp *ordermsg.Response) iter.Seq2[*T, error]
	all  func(ctx context.Context, c *ordermsg.Client, site int64, since ordermsg.Date, count, concurrency int, resp *ordermsg.Response) iter.Seq2[*T, error]
	get  func(ctx context.Context, c *ordermsg.Client, site, id int64, resp *ordermsg.Response) (*T, error)
}

// def is the table's description: the key, the fields, then the record's
// JSON and what the mirror keeps beside it.
func (t *table[T]) def() tableDef {
	cols := append([]column(nil), recordKey...)
	for _, f := range t.fields {
		cols = append(cols, f.column)
	}
	return tableDef{t.name, append(cols, recordTail...)}
}

// ref is a reference as a column: NULL when the API sent 0 or null.
func ref[R any](r ordermsg.Ref[R]) any {
	if r.ID == 0 {
		return nil
	}
	return r.ID
}

// textOf is a text field as a column, each NUL replaced by U+FFFD.
func textOf[S ~string](s S) any { return nulFree(string(s)) }

// promoCode is the text of an order's promo code, NULL when none.
func promoCode(o *ordermsg.Order) any {
	if p := o.PromoCode.Expanded; p != nil {
		return textOf(p.PromoCode.PromoCode)
	}
	return nil
}

var ordersTable = &table[ordermsg.Order]{
	name: "orders",
	fields: []field[ordermsg.Order]{
		{notNull("date_created", typeTime), func(o *ordermsg.Order) any { return o.DateCreated.Time }},
		{notNull("status", typeText), func(o *ordermsg.Order) any { return textOf(o.Status) }},
		{notNull("order_type", typeText), func(o *ordermsg.Order) any { return textOf(o.OrderType) }},
		{notNull("currency", typeText), func(o *ordermsg.Order) any { return textOf(o.Currency) }},
		{notNull("total", typeBigint), func(o *ordermsg.Order) any { return o.Pricing.Total }},
		{notNull("amount_paid", typeBigint), func(o *ordermsg.Order) any { return o.AmountPaid }},
		{nullable("message_id", typeBigint), func(o *ordermsg.Order) any { return ref(o.Message) }},
		{nullable("user_id", typeBigint), func(o *ordermsg.Order) any { return ref(o.User) }},
		{nullable("portal_id", typeBigint), func(o *ordermsg.Order) any { return ref(o.Portal) }},
		{nullable("promo_code_id", typeBigint), func(o *ordermsg.Order) any { return ref(o.PromoCode) }},
		{nullable("promo_code", typeText), promoCode},
	},
	id:      func(o *ordermsg.Order) int64 { return o.ID },
	created: func(o *ordermsg.Order) time.Time { return o.DateCreated.Time },
	raw:     (*ordermsg.Order).RawJSON,
	sync: func(ctx context.Context, c *ordermsg.Client, site int64, cp *ordermsg.Checkpoint, count int, resp *ordermsg.Response) iter.Seq2[*ordermsg.Order, error] {
		return c.Orders.Sync(ctx, site, cp, &ordermsg.ListOrdersOptions{Count: count, Includes: OrderIncludes(), KeepRawJSON: true,
			Response: resp}, ordermsg.WithSkipUndecodable())
	},
	all: func(ctx context.Context, c *ordermsg.Client, site int64, since ordermsg.Date, count, concurrency int, resp *ordermsg.Response) iter.Seq2[*ordermsg.Order, error] {
		return c.Orders.All(ctx, site, &ordermsg.ListOrdersOptions{Count: count, Includes: OrderIncludes(), KeepRawJSON: true,
			DateStart: since, Direction: ordermsg.DirectionAsc, Sort: "date_created", Response: resp},
			ordermsg.WithConcurrency(concurrency), ordermsg.WithSkipUndecodable())
	},
	get: func(ctx context.Context, c *ordermsg.Client, site, id int64, resp *ordermsg.Response) (*ordermsg.Order, error) {
		return c.Orders.Get(ctx, site, id, &ordermsg.GetOrderOptions{Includes: OrderIncludes(), KeepRawJSON: true, Response: resp})
	},
}

var messagesTable = &table[ordermsg.Message]{
	name: "messages",
	fields: []field[ordermsg.Message]{
		{notNull("date_created", typeTime), func(m *ordermsg.Message) any { return m.DateCreated.Time }},
		{notNull("message_type", typeText), func(m *ordermsg.Message) any { return textOf(m.MessageType) }},
		{nullable("order_id", typeBigint), func(m *ordermsg.Message) any { return ref(m.Order) }},
		{nullable("form_id", typeBigint), func(m *ordermsg.Message) any { return ref(m.Form) }},
		{nullable("user_id", typeBigint), func(m *ordermsg.Message) any { return ref(m.User) }},
		{nullable("portal_id", typeBigint), func(m *ordermsg.Message) any { return ref(m.Portal) }},
		{nullable("file_id", typeBigint), func(m *ordermsg.Message) any { return ref(m.File) }},
	},
	id:      func(m *ordermsg.Message) int64 { return m.ID },
	created: func(m *ordermsg.Message) time.Time { return m.DateCreated.Time },
	raw:     (*ordermsg.Message).RawJSON,
	sync: func(ctx context.Context, c *ordermsg.Client, site int64, cp *ordermsg.Checkpoint, count int, resp *ordermsg.Response) iter.Seq2[*ordermsg.Message, error] {
		return c.Messages.Sync(ctx, site, cp, &ordermsg.ListMessagesOptions{Count: count, Includes: MessageIncludes(), KeepRawJSON: true,
			Response: resp}, ordermsg.WithSkipUndecodable())
	},
	all: func(ctx context.Context, c *ordermsg.Client, site int64, since ordermsg.Date, count, concurrency int, resp *ordermsg.Response) iter.Seq2[*ordermsg.Message, error] {
		return c.Messages.All(ctx, site, &ordermsg.ListMessagesOptions{Count: count, Includes: MessageIncludes(), KeepRawJSON: true,
			DateStart: since, Direction: ordermsg.DirectionAsc, Sort: "date_created", Response: resp},
			ordermsg.WithConcurrency(concurrency), ordermsg.WithSkipUndecodable())
	},
	get: func(ctx context.Context, c *ordermsg.Client, site, id int64, resp *ordermsg.Response) (*ordermsg.Message, error) {
		return c.Messages.Get(ctx, site, id, &ordermsg.GetMessageOptions{Includes: MessageIncludes(), KeepRawJSON: true, Response: resp})
	},
}
