package mirror

import (
	"bytes"
	"context"
	"iter"
	"strconv"
	"sync"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/internal/resources"
)

// The columns of the tables, as the code reads and writes them, are
// described here as data: the writes take their columns from here. The SQL
// that makes them is each backend's steps of the schema (migrations/),
// frozen once released, so written apart from this description, which is
// always the latest; TestStepsMakeTheDescribedTables holds the tables a new
// database gets to it, column by column, type and nullability.

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
// described by viewJSON, contentDigest and writer.write; deleted_at is
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
	// leasesTable holds, in SQLite only, the lease of each website's
	// resource that a run holds (see lease.go).
	leasesTable = tableDef{"mirror_leases", []column{
		notNull("website_id", typeBigint), notNull("resource", typeText), notNull("host", typeText),
		notNull("pid", typeBigint), notNull("token", typeText), notNull("expires_at", typeStamp),
	}}
	runsTable = tableDef{"mirror_runs", []column{
		notNull("website_id", typeBigint), notNull("started_at", typeStamp), notNull("finished_at", typeStamp),
		notNull("status", typeText), notNull("new_records", typeBigint), notNull("updated_records", typeBigint),
		notNull("deleted_records", typeBigint), nullable("error", typeText),
	}}
)

// schemaTables are every table of the schema of b.
func schemaTables(b Backend) []tableDef {
	out := []tableDef{mirrorSchemaTable, ordersTable.def(), messagesTable.def(), syncStateTable, refusedTable, sourcesTable, runsTable,
		changesTable(b), changesStateTable(b)}
	return append(out, b.ops().ownTables()...)
}

// field is a column of a record's table that holds one of the record's
// fields, for people to filter and join on, and how a record fills it.
type field struct {
	column
	value func(*ordermsg.RawRecord) any
}

// table is what the mirror needs to know of a resource.
type table struct {
	name     string // table and resource, the collection's: "orders" or "messages"
	object   string // its records' "object": "order" or "message"
	fields   []field
	records  ordermsg.Resource[ordermsg.RawRecord] // how the API gives them
	includes []string                              // the includes the mirror asks for (OrderIncludes, MessageIncludes)
}

// The table's records are read with its includes. Each read sets *resp to
// the response that carried the record, and the walks yield a record that
// cannot be decoded as an *ordermsg.RecordDecodeError.

// sync walks what was created after cp, advancing it.
func (t *table) sync(ctx context.Context, c *ordermsg.Client, site int64, cp *ordermsg.Checkpoint, count int, resp *ordermsg.Response) iter.Seq2[*ordermsg.RawRecord, error] {
	return t.records.Sync(ctx, c, site, cp, &ordermsg.ResourceOptions{Count: count, Includes: t.includes, Response: resp},
		ordermsg.WithSkipUndecodable())
}

// all lists the records created from since on, oldest first.
func (t *table) all(ctx context.Context, c *ordermsg.Client, site int64, since ordermsg.Date, count, concurrency int, resp *ordermsg.Response) iter.Seq2[*ordermsg.RawRecord, error] {
	return t.records.AllSince(ctx, c, site, since, &ordermsg.ResourceOptions{Count: count, Includes: t.includes, Response: resp},
		ordermsg.WithConcurrency(concurrency), ordermsg.WithSkipUndecodable())
}

// get reads one record.
func (t *table) get(ctx context.Context, c *ordermsg.Client, site, id int64, resp *ordermsg.Response) (*ordermsg.RawRecord, error) {
	return t.records.Get(ctx, c, site, id, &ordermsg.ResourceOptions{Includes: t.includes, Response: resp})
}

// def is the table's description: the key, the fields, then the record's
// JSON and what the mirror keeps beside it.
func (t *table) def() tableDef {
	cols := append([]column(nil), recordKey...)
	for _, f := range t.fields {
		cols = append(cols, f.column)
	}
	return tableDef{t.name, append(cols, recordTail...)}
}

// The mirror reads its records as RawRecords (ordermsg's AllRaw, SyncRaw,
// GetRaw): checked as the SDK decodes them, not decoded. A field's value is
// read from the members it comes from, which the check has found to be of
// the type the SDK decodes them into (a string or null, an integer or null,
// a reference, an object or null), and is what the SDK's decode gives:
// null or absent is the zero value.

// textField is the text of the string member name, each NUL replaced by U+FFFD;
// "" when it is null or absent.
func textField(name string) func(*ordermsg.RawRecord) any {
	return func(r *ordermsg.RawRecord) any { return nulFree(stringOf(r.Member(name))) }
}

// integerField is the integer member name; 0 when it is null or absent.
func integerField(name string) func(*ordermsg.RawRecord) any {
	return func(r *ordermsg.RawRecord) any { return integerOf(r.Member(name)) }
}

// refField is the reference member name as a column: its id, whether sent as a
// number or as the object it refers to; NULL when that is 0 or null.
func refField(name string) func(*ordermsg.RawRecord) any {
	return func(r *ordermsg.RawRecord) any {
		v := r.Member(name)
		if v.Kind() == '{' {
			v = objectMember(v, "id")
		}
		if id := integerOf(v); id != 0 {
			return id
		}
		return nil
	}
}

// promoCode is the text of an order's promo code, when its promo_code is
// the object (the include): the "promo_code" of that object's
// "promo_code"; NULL when it is not an object.
func promoCode(r *ordermsg.RawRecord) any {
	if p := r.Member("promo_code"); p.Kind() == '{' {
		return nulFree(stringOf(objectMember(objectMember(p, "promo_code"), "promo_code")))
	}
	return nil
}

// dateCreated is the column of a record's creation time.
var dateCreated = field{notNull("date_created", typeTime), func(r *ordermsg.RawRecord) any { return r.DateCreated.Time }}

var ordersTable = &table{
	name: ordermsg.OrdersResource().Name(), object: resources.Orders.Object,
	fields: []field{
		dateCreated,
		{notNull("status", typeText), textField("status")},
		{notNull("order_type", typeText), textField("order_type")},
		{notNull("currency", typeText), textField("currency")},
		{notNull("total", typeBigint), func(r *ordermsg.RawRecord) any { return integerOf(objectMember(r.Member("pricing"), "total")) }},
		{notNull("amount_paid", typeBigint), integerField("amount_paid")},
		{nullable("message_id", typeBigint), refField("message")},
		{nullable("user_id", typeBigint), refField("user")},
		{nullable("portal_id", typeBigint), refField("portal")},
		{nullable("promo_code_id", typeBigint), refField("promo_code")},
		{nullable("promo_code", typeText), promoCode},
	},
	records:  ordermsg.OrdersResource().Raw(),
	includes: includeNames(OrderIncludes()),
}

var messagesTable = &table{
	name: ordermsg.MessagesResource().Name(), object: resources.Messages.Object,
	fields: []field{
		dateCreated,
		{notNull("message_type", typeText), textField("message_type")},
		{nullable("order_id", typeBigint), refField("order")},
		{nullable("form_id", typeBigint), refField("form")},
		{nullable("user_id", typeBigint), refField("user")},
		{nullable("portal_id", typeBigint), refField("portal")},
		{nullable("file_id", typeBigint), refField("file")},
	},
	records:  ordermsg.MessagesResource().Raw(),
	includes: includeNames(MessageIncludes()),
}

// includeNames are the names of includes.
func includeNames[I ~string](includes []I) []string {
	out := make([]string, len(includes))
	for i, inc := range includes {
		out[i] = string(inc)
	}
	return out
}

// stringOf is the text of v, a JSON string; "" for null or nothing.
func stringOf(v jsontext.Value) string {
	if v.Kind() != '"' {
		return ""
	}
	if b := v[1 : len(v)-1]; bytes.IndexByte(b, '\\') < 0 {
		return string(b)
	}
	s, _ := jsontext.AppendUnquote(nil, v) // checked: a valid string
	return string(s)
}

// integerOf is v, a JSON integer (checked: an int64); 0 for null or
// nothing.
func integerOf(v jsontext.Value) int64 {
	if v.Kind() != '0' {
		return 0
	}
	n, _ := strconv.ParseInt(string(v), 10, 64)
	return n
}

// objectMember is the value of the member name of obj, a JSON object, as sent;
// nil when obj is not an object or has no such member.
func objectMember(obj jsontext.Value, name string) jsontext.Value {
	if obj.Kind() != '{' {
		return nil
	}
	r := objectReaders.Get().(*objectReader)
	defer objectReaders.Put(r)
	r.in = *bytes.NewBuffer(obj) // the decoder reads obj where it is
	r.dec.Reset(&r.in)
	if _, err := r.dec.ReadToken(); err != nil {
		return nil
	}
	for r.dec.PeekKind() == '"' {
		quoted, err := r.dec.ReadValue()
		if err != nil {
			return nil
		}
		found := string(quoted[1:len(quoted)-1]) == name
		if bytes.IndexByte(quoted, '\\') >= 0 {
			found = stringOf(jsontext.Value(quoted)) == name
		}
		v, err := r.dec.ReadValue()
		if err != nil {
			return nil
		}
		if found {
			return v
		}
	}
	return nil
}

// objectReader is objectMember's decoder and its input, kept for the next call.
type objectReader struct {
	in  bytes.Buffer
	dec jsontext.Decoder
}

var objectReaders = sync.Pool{New: func() any { return new(objectReader) }}
