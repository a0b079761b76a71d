package main

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/ordermsg/ordermsg-go"
)

// csvTable flattens records into CSV rows under fixed columns.
type csvTable[T any] struct {
	columns []string
	rows    func(v *T) [][]string
}

// The columns of `export --format csv`. Money is the integers the API sends
// (the spec does not say their unit); a referenced record is its id, empty
// when there is none, whether the API sent 0, null or nothing (the rule of
// sync --db, whose columns are NULL then); timestamps are as the API sends
// them.
var orderTable = &csvTable[ordermsg.Order]{
	columns: []string{
		"id", "date_created", "status", "order_type", "currency",
		"amount_paid", "subtotal", "subtotal_discount", "shipping", "shipping_discount", "tax", "total",
		"is_pay_later", "message_id", "portal_id", "user_id", "promo_code_id", "item_count",
	},
	rows: func(o *ordermsg.Order) [][]string {
		p := o.Pricing
		itemCount := ""
		if o.Items != nil {
			itemCount = strconv.Itoa(len(o.Items))
		}
		return [][]string{{
			itoa(o.ID), timestamp(o.DateCreated), string(o.Status), string(o.OrderType), o.Currency,
			itoa(o.AmountPaid), itoa(p.Subtotal), itoa(p.SubtotalDiscount), itoa(p.Shipping), itoa(p.ShippingDiscount), itoa(p.Tax), itoa(p.Total),
			strconv.FormatBool(o.IsPayLater), refID(o.Message), refID(o.Portal), refID(o.User), refID(o.PromoCode), itemCount,
		}}
	},
}

// orderItemTable is `orders export --format csv --items`: one row per item.
var orderItemTable = &csvTable[ordermsg.Order]{
	columns: []string{
		"order_id", "order_date_created", "currency", "item_id", "item_kind", "sku", "title",
		"quantity", "unit", "volume", "subtotal", "status", "shipment_id", "portal_id",
		"tax_class", "tax_percentage", "is_taxable", "weight",
	},
	rows: func(o *ordermsg.Order) [][]string {
		rows := make([][]string, 0, len(o.Items))
		for _, it := range o.Items {
			rows = append(rows, []string{
				itoa(o.ID), timestamp(o.DateCreated), o.Currency, itoa(it.ID), it.Object, it.SKU, it.Title,
				itoa(it.Quantity), itoa(it.Pricing.Unit), itoa(it.Pricing.Volume), itoa(it.Pricing.Subtotal),
				string(it.Status), idOrEmpty(it.Shipment), refID(it.Portal),
				idOrEmpty(it.TaxClass), ftoa(it.TaxPercentage), strconv.FormatBool(it.IsTaxable), ftoa(it.Weight),
			})
		}
		return rows
	},
}

var messageTable = &csvTable[ordermsg.Message]{
	columns: []string{
		"id", "date_created", "message_type", "message_tracking_number",
		"form_id", "order_id", "user_id", "portal_id", "file_id", "event_submission", "online_proof",
		"name", "email", "phone", "form_fields",
	},
	rows: func(m *ordermsg.Message) [][]string {
		var fields ordermsg.FormFields
		if m.FormSubmission != nil {
			fields = m.FormSubmission.Fields
		}
		return [][]string{{
			itoa(m.ID), timestamp(m.DateCreated), string(m.MessageType), m.MessageTrackingNumber,
			refID(m.Form), refID(m.Order), refID(m.User), refID(m.Portal), refID(m.File),
			idOrEmpty(m.EventSubmission), idOrEmpty(m.OnlineProof),
			firstOfType(fields, ordermsg.FieldTypeName), firstOfType(fields, ordermsg.FieldTypeEmail),
			firstOfType(fields, ordermsg.FieldTypePhone), fieldsJSON(fields),
		}}
	},
}

// firstOfType is the text of the first field of type t, or "".
func firstOfType(fields ordermsg.FormFields, t ordermsg.FieldType) string {
	for _, f := range fields {
		if f.FieldType == t {
			return fieldText(f)
		}
	}
	return ""
}

// fieldText is a form field as text: its formatted_value, or when that is
// empty its values joined by spaces, in the spec's order of keys.
func fieldText(f ordermsg.FormField) string {
	if f.FormattedValue != "" {
		return f.FormattedValue
	}
	v := f.Values
	choice := v.DisplayValue
	if choice == "" {
		choice = v.SubmittedValue
	}
	var parts []string
	for _, p := range []string{v.Prefix, v.First, v.Middle, v.Last, v.Suffix, choice, v.CountryCode, v.Number, v.Extension,
		v.Line, v.Line2, v.Line3, v.City, v.State, v.PostalCode, v.Country} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, " ")
}

// fieldsJSON is every field of a form submission as one JSON object, in
// the response's order, from the field's label to its text (fieldText). A
// label seen before, or an empty one, is followed by the field's id in
// brackets: "Address [f7]". It is "" when there is no form submission.
func fieldsJSON(fields ordermsg.FormFields) string {
	if fields == nil {
		return ""
	}
	var b strings.Builder
	seen := map[string]bool{}
	b.WriteByte('{')
	for i, f := range fields {
		key := f.Label
		if key == "" || seen[key] {
			key = strings.TrimSpace(key + " [" + f.ID + "]")
		}
		seen[key] = true
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(key) // a string always encodes
		v, _ := json.Marshal(fieldText(f))
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.String()
}

func itoa(n int64) string   { return strconv.FormatInt(n, 10) }
func ftoa(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func timestamp(t ordermsg.Timestamp) string {
	b, _ := t.MarshalJSON()
	return string(b[1 : len(b)-1])
}

// refID is a reference as a column: its id, or "" when the API sent 0,
// null or nothing.
func refID[T any](r ordermsg.Ref[T]) string { return idOrEmpty(r.ID) }

// idOrEmpty is an id as a column: "" for 0, the API's "none".
func idOrEmpty(id int64) string {
	if id == 0 {
		return ""
	}
	return itoa(id)
}
