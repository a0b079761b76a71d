package mirror

import (
	"fmt"
	"strings"
)

// The views are described once, here, and written in each backend's SQL, so
// that both have the same names, columns and rows. They are made again only
// when the schema's version changes: a change of a view is a new step of the
// schema too (one that may hold nothing but a comment).

// colKind is how a column is read from a JSON element.
type colKind int

const (
	colText colKind = iota
	colInt
	colReal
	colBool
	colRef  // an id, or an expanded object's id; 0 and null are NULL
	colJSON // the JSON value as text
	colTime // a timestamp: timestamptz in PostgreSQL, UTC RFC 3339 text in SQLite
	colSQL  // path is an SQL expression, the same in both backends
)

// col is a column of a view: name, read from element's path (dotted).
type col struct {
	name    string
	kind    colKind
	element string // the alias of the element (see each)
	path    string
}

// each walks the array (or, with object, the members of the object) at path
// in the JSON of parent; alias.value is each element, alias.key its key.
type each struct {
	alias, parent, path string
	object              bool
}

// viewPart is one SELECT of a view, of the records that are not deleted;
// the parts of a view are joined with UNION ALL.
type viewPart struct {
	from  string // "orders o" or "messages m"
	walks []each
	cols  []col
}

// The JSON the views read of a record: its copy that both databases can
// read, when it has one (see viewJSON), else the record as sent.
const (
	orderDoc   = "COALESCE(o.nul_free_json, o.json)"
	messageDoc = "COALESCE(m.nul_free_json, m.json)"
)

type view struct {
	name  string
	parts []viewPart
}

func text(name, elem, path string) col  { return col{name, colText, elem, path} }
func num(name, elem, path string) col   { return col{name, colInt, elem, path} }
func fnum(name, elem, path string) col  { return col{name, colReal, elem, path} }
func flag(name, elem, path string) col  { return col{name, colBool, elem, path} }
func refTo(name, elem, path string) col { return col{name, colRef, elem, path} }
func when(name, elem, path string) col  { return col{name, colTime, elem, path} }
func sqlCol(name, expr string) col      { return col{name: name, kind: colSQL, path: expr} }

// fieldCols are the columns of a form field at alias f.
func fieldCols(f string) []col {
	return []col{
		text("field_id", f, "id"), text("field_type", f, "field_type"), text("label", f, "label"),
		text("formatted_value", f, "formatted_value"), col{"field_values", colJSON, f, "values"},
	}
}

func cols(groups ...[]col) []col {
	var out []col
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}

// ofOrder and ofMessage are the first columns of a view of an order's or a
// message's elements.
var (
	ofOrder   = []col{sqlCol("website_id", "o.website_id"), sqlCol("order_id", "o.id")}
	ofMessage = []col{sqlCol("website_id", "m.website_id"), sqlCol("message_id", "m.id")}
)

var paymentCols = []col{
	num("id", "t", "id"), when("date_created", "t", "date_created"), num("amount", "t", "amount"),
	text("currency", "t", "currency"), text("payment_type", "t", "payment_type"),
	text("transaction_id", "t", "transaction_id"), text("transaction_status", "t", "transaction_status"),
	text("transaction_type", "t", "transaction_type"), flag("is_recurring", "t", "is_recurring"),
	flag("test_mode", "t", "test_mode"),
}

var items = each{"i", orderDoc, "items", false}

var views = []view{
	{"order_items", []viewPart{{"orders o", []each{items}, cols(ofOrder, []col{
		num("id", "i", "id"), text("object", "i", "object"), text("sku", "i", "sku"), text("title", "i", "title"),
		num("quantity", "i", "quantity"), text("status", "i", "status"),
		num("unit_price", "i", "pricing.unit"), num("volume_price", "i", "pricing.volume"), num("subtotal", "i", "pricing.subtotal"),
		fnum("tax_percentage", "i", "tax_percentage"), flag("is_taxable", "i", "is_taxable"), fnum("weight", "i", "weight"),
		num("catalog_item_id", "i", "catalog_item"), refTo("shipment_id", "i", "shipment"), refTo("portal_id", "i", "portal"),
		when("date_created", "i", "date_created"),
	})}}},
	{"order_item_fields", []viewPart{
		itemFields("attributes"),
		itemFields("versadoc_order_form"),
	}},
	{"order_fields", []viewPart{
		orderFields("billing_address", nil, orderDoc),
		orderFields("additional_information", nil, orderDoc),
		orderFields("shipping_address", []each{{"s", orderDoc, "shipments", false}}, "s.value"),
	}},
	{"message_fields", []viewPart{{"messages m", []each{{"f", messageDoc, "form_submission.fields", true}},
		cols(ofMessage, []col{sqlCol("message_type", "m.message_type")}, fieldCols("f"))}}},
	{"order_shipments", []viewPart{{"orders o", []each{{"s", orderDoc, "shipments", false}}, cols(ofOrder, []col{
		num("id", "s", "id"), when("date_created", "s", "date_created"), when("date_shipped", "s", "date_shipped"),
		text("status", "s", "status"), text("tracking_number", "s", "tracking_number"), num("price", "s", "price"),
		flag("shipping_notification_sent", "s", "shipping_notification_sent"),
		num("carrier_id", "s", "shipping_carrier.id"), text("carrier", "s", "shipping_carrier.title"),
		text("carrier_type", "s", "shipping_carrier.carrier_type"),
		num("method_id", "s", "shipping_method.id"), text("method", "s", "shipping_method.title"),
	})}}},
	{"order_notes", []viewPart{{"orders o", []each{{"n", orderDoc, "notes", false}}, cols(ofOrder, []col{
		num("id", "n", "id"), when("date_created", "n", "date_created"), text("note", "n", "note"),
		num("user_id", "n", "user.id"), text("username", "n", "user.username"),
	})}}},
	{"print_ready_files", []viewPart{{"orders o", []each{items, {"p", "i.value", "print_ready_files", false}}, cols(ofOrder, []col{
		num("item_id", "i", "id"), num("id", "p", "id"), when("date_created", "p", "date_created"),
		text("tag", "p", "tag"), text("status", "p", "status"), num("file_id", "p", "file.id"),
		text("filename", "p", "file.filename"), text("url", "p", "file.url"), when("expires", "p", "file.expires"),
	})}}},
	{"order_payment_transactions", []viewPart{{"orders o", []each{{"t", orderDoc, "payment_transactions", false}}, cols(ofOrder, paymentCols)}}},
	{"message_payment_transactions", []viewPart{{"messages m", []each{{"t", messageDoc, "payment_transactions", false}}, cols(ofMessage, paymentCols)}}},
}

// itemFields is the part of order_item_fields for the form at an item's path.
func itemFields(form string) viewPart {
	return viewPart{"orders o", []each{items, {"f", "i.value", form + ".fields", true}}, cols(ofOrder, []col{
		num("item_id", "i", "id"), sqlCol("form", "'"+form+"'"),
	}, fieldCols("f"), []col{
		num("price_modifier", "f", "price_modifier"), text("price_modifier_type", "f", "price_modifier_type"),
		text("price_scope", "f", "price_scope"),
	})}
}

// orderFields is the part of order_fields for the form at path of parent
// (the order, or a shipment walked by walks).
func orderFields(form string, walks []each, parent string) viewPart {
	shipment := sqlCol("shipment_id", "CAST(NULL AS BIGINT)")
	if len(walks) > 0 {
		shipment = num("shipment_id", "s", "id")
	}
	return viewPart{"orders o", append(walks, each{"f", parent, form + ".fields", true}), cols(ofOrder, []col{
		sqlCol("form", "'"+form+"'"), shipment,
	}, fieldCols("f"))}
}

// dropViewsSQL is the statements that drop every view that exists. A view
// that a later version no longer makes is dropped by the step that removes
// it.
func dropViewsSQL() string {
	var out strings.Builder
	for _, v := range views {
		fmt.Fprintf(&out, "DROP VIEW IF EXISTS %s;\n", v.name)
	}
	return out.String()
}

// viewsSQL is the statements that make every view, separated by semicolons.
func viewsSQL(b Backend) string {
	var out strings.Builder
	for _, v := range views {
		fmt.Fprintf(&out, "\nCREATE VIEW %s AS\n", v.name)
		for i, p := range v.parts {
			if i > 0 {
				out.WriteString("\nUNION ALL\n")
			}
			exprs := make([]string, len(p.cols))
			for j, c := range p.cols {
				exprs[j] = b.column(c) + " AS " + c.name
			}
			fmt.Fprintf(&out, "SELECT %s\nFROM %s", strings.Join(exprs, ", "), p.from)
			for _, w := range p.walks {
				out.WriteString(b.walk(w))
			}
			fmt.Fprintf(&out, "\nWHERE %s.deleted_at IS NULL", strings.Fields(p.from)[1])
		}
		out.WriteString(";")
	}
	return out.String()
}

// walk is the join that walks w.
func (b Backend) walk(w each) string { return b.ops().walk(w) }

// column is the expression of c.
func (b Backend) column(c col) string {
	if c.kind == colSQL {
		return c.path
	}
	return b.ops().jsonColumn(c)
}
