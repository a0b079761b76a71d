package main

import (
	"strconv"

	"github.com/ordermsg/ordermsg-go"
)

// csvTable flattens records into CSV rows under fixed columns.
type csvTable[T any] struct {
	columns []string
	rows    func(v *T) [][]string
}

// The columns of `export --format csv`. Money is the integers the API sends
// (the spec does not say their unit); a referenced record is its id, empty
// when the API sent null; timestamps are as the API sends them.
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
				string(it.Status), itoa(it.Shipment), refID(it.Portal),
				itoa(it.TaxClass), ftoa(it.TaxPercentage), strconv.FormatBool(it.IsTaxable), ftoa(it.Weight),
			})
		}
		return rows
	},
}

var messageTable = &csvTable[ordermsg.Message]{
	columns: []string{
		"id", "date_created", "message_type", "message_tracking_number",
		"form_id", "order_id", "user_id", "portal_id", "file_id", "event_submission", "online_proof",
	},
	rows: func(m *ordermsg.Message) [][]string {
		return [][]string{{
			itoa(m.ID), timestamp(m.DateCreated), string(m.MessageType), m.MessageTrackingNumber,
			refID(m.Form), refID(m.Order), refID(m.User), refID(m.Portal), refID(m.File),
			itoa(m.EventSubmission), itoa(m.OnlineProof),
		}}
	},
}

func itoa(n int64) string   { return strconv.FormatInt(n, 10) }
func ftoa(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func timestamp(t ordermsg.Timestamp) string {
	b, _ := t.MarshalJSON()
	return string(b[1 : len(b)-1])
}

func refID[T any](r ordermsg.Ref[T]) string {
	if r.IsNull() || r.IsZero() {
		return ""
	}
	return itoa(r.ID)
}
