package mirror_test

import (
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// rowsOf returns the rows of query, each as its columns joined with "|"
// (NULL for a null), sorted.
func rowsOf(t *testing.T, db *sql.DB, query string) []string {
	t.Helper()
	var out []string
	for _, vals := range rowValues(t, db, query) {
		parts := make([]string, len(vals))
		for i, v := range vals {
			switch v := v.(type) {
			case nil:
				parts[i] = "NULL"
			case []byte:
				parts[i] = string(v)
			default:
				parts[i] = fmt.Sprint(v)
			}
		}
		out = append(out, strings.Join(parts, "|"))
	}
	slices.Sort(out)
	return out
}

// expected builds the rows a view should have from the fake's records.
type expected struct{ rows []string }

func (e *expected) add(vals ...any) {
	parts := make([]string, len(vals))
	for i, v := range vals {
		switch v := v.(type) {
		case nil:
			parts[i] = "NULL"
		case *int64:
			parts[i] = "NULL"
			if v != nil {
				parts[i] = fmt.Sprint(*v)
			}
		default:
			parts[i] = fmt.Sprint(v)
		}
	}
	e.rows = append(e.rows, strings.Join(parts, "|"))
}

// orNull is id, or nil for 0.
func orNull(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

func fieldsOf(fs *ordermsg.FormSubmission) ordermsg.FormFields {
	if fs == nil {
		return nil
	}
	return fs.Fields
}

// TestViews compares every view, row by row, with the fake's records.
func TestViews(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		srv, s, db, m := mirrorOf(t, be, target, ordermsgtest.Config{Seed: 5, Websites: 1, OrdersPerWebsite: 60, MessagesPerWebsite: 80})
		syncSite(t, m, s, nil)
		var w *ordermsgtest.Website
		srv.Handler.Snapshot(func(ds *ordermsgtest.Dataset) { w = ds.Websites[0] })

		want := map[string]*expected{}
		for _, v := range []string{"order_items", "order_item_fields", "order_fields", "message_fields", "order_shipments",
			"order_notes", "print_ready_files", "order_payment_transactions", "message_payment_transactions"} {
			want[v] = &expected{}
		}
		for _, o := range w.Orders {
			for _, it := range o.Items {
				want["order_items"].add(w.ID, o.ID, it.ID, it.Object, it.SKU, it.Title, it.Quantity, it.Status,
					it.Pricing.Unit, it.Pricing.Volume, it.Pricing.Subtotal, it.CatalogItem, orNull(it.Shipment), orNull(it.Portal.ID))
				for _, f := range fieldsOf(it.Attributes.Value) {
					want["order_item_fields"].add(o.ID, it.ID, "attributes", f.ID, f.FieldType, f.Label, f.FormattedValue,
						f.PriceModifier, orNullText(string(f.PriceModifierType)), orNullText(string(f.PriceScope)))
				}
				for _, f := range fieldsOf(it.VersadocOrderForm) {
					want["order_item_fields"].add(o.ID, it.ID, "versadoc_order_form", f.ID, f.FieldType, f.Label, f.FormattedValue,
						f.PriceModifier, orNullText(string(f.PriceModifierType)), orNullText(string(f.PriceScope)))
				}
				for _, p := range it.PrintReadyFiles {
					var fileID, name any
					if p.File != nil {
						fileID, name = p.File.ID, p.File.Filename
					}
					want["print_ready_files"].add(o.ID, it.ID, p.ID, p.Tag, p.Status, fileID, name)
				}
			}
			for _, form := range []struct {
				name string
				fs   *ordermsg.FormSubmission
			}{{"billing_address", o.BillingAddress}, {"additional_information", o.AdditionalInformation}} {
				for _, f := range fieldsOf(form.fs) {
					want["order_fields"].add(o.ID, form.name, nil, f.ID, f.FieldType, f.Label, f.FormattedValue)
				}
			}
			for _, sh := range o.Shipments {
				for _, f := range fieldsOf(sh.ShippingAddress) {
					want["order_fields"].add(o.ID, "shipping_address", sh.ID, f.ID, f.FieldType, f.Label, f.FormattedValue)
				}
				want["order_shipments"].add(o.ID, sh.ID, sh.Status, sh.TrackingNumber, sh.Price, sh.ShippingCarrier.Title,
					sh.ShippingCarrier.CarrierType, sh.ShippingMethod.Title)
			}
			for _, n := range o.Notes {
				want["order_notes"].add(o.ID, n.ID, n.Note, n.User.ID, n.User.Username)
			}
			for _, p := range o.PaymentTransactions {
				want["order_payment_transactions"].add(o.ID, p.ID, p.Amount, p.Currency, p.PaymentType, p.TransactionID, p.TransactionStatus)
			}
		}
		for _, m := range w.Messages {
			for _, f := range fieldsOf(m.FormSubmission) {
				want["message_fields"].add(m.ID, m.MessageType, f.ID, f.FieldType, f.Label, f.FormattedValue)
			}
			for _, p := range m.PaymentTransactions {
				want["message_payment_transactions"].add(m.ID, p.ID, p.Amount, p.Currency, p.PaymentType, p.TransactionID, p.TransactionStatus)
			}
		}
		queries := map[string]string{
			"order_items": `SELECT website_id, order_id, id, object, sku, title, quantity, status, unit_price, volume_price, subtotal,
				catalog_item_id, shipment_id, portal_id FROM order_items`,
			"order_item_fields": `SELECT order_id, item_id, form, field_id, field_type, label, formatted_value, price_modifier,
				price_modifier_type, price_scope FROM order_item_fields`,
			"order_fields":      `SELECT order_id, form, shipment_id, field_id, field_type, label, formatted_value FROM order_fields`,
			"message_fields":    `SELECT message_id, message_type, field_id, field_type, label, formatted_value FROM message_fields`,
			"order_shipments":   `SELECT order_id, id, status, tracking_number, price, carrier, carrier_type, method FROM order_shipments`,
			"order_notes":       `SELECT order_id, id, note, user_id, username FROM order_notes`,
			"print_ready_files": `SELECT order_id, item_id, id, tag, status, file_id, filename FROM print_ready_files`,
			"order_payment_transactions": `SELECT order_id, id, amount, currency, payment_type, transaction_id, transaction_status
				FROM order_payment_transactions`,
			"message_payment_transactions": `SELECT message_id, id, amount, currency, payment_type, transaction_id, transaction_status
				FROM message_payment_transactions`,
		}
		for view, e := range want {
			slices.Sort(e.rows)
			got := rowsOf(t, db, queries[view])
			if len(e.rows) == 0 {
				t.Errorf("%s: the fake's data has no rows for it: the test proves nothing", view)
			}
			if !slices.Equal(got, e.rows) {
				t.Errorf("%s: %d rows, want %d", view, len(got), len(e.rows))
				for i := range min(3, len(got), len(e.rows)) {
					t.Errorf("  got  %s\n  want %s", got[i], e.rows[i])
				}
			}
		}
		// The columns the views document, beyond those compared above,
		// exist in both backends.
		for _, q := range []string{
			"SELECT tax_percentage, is_taxable, weight, date_created FROM order_items",
			"SELECT field_values FROM message_fields WHERE field_type = 'email'",
			"SELECT date_created, date_shipped, shipping_notification_sent, carrier_id, method_id FROM order_shipments",
			"SELECT date_created, url, expires FROM print_ready_files",
			"SELECT is_recurring, test_mode, transaction_type, date_created FROM order_payment_transactions",
		} {
			rowsOf(t, db, q)
		}
		if got := rowsOf(t, db, "SELECT field_values FROM message_fields WHERE field_type = 'email' AND message_id = "+fmt.Sprint(firstWithEmail(w))); len(got) != 1 || !strings.HasPrefix(got[0], `{"submitted_value":`) {
			t.Errorf("field_values of an email field: %q", got)
		}
	})
}

func orNullText(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// firstWithEmail is the id of the first message with an email field.
func firstWithEmail(w *ordermsgtest.Website) int64 {
	for _, m := range w.Messages {
		for _, f := range fieldsOf(m.FormSubmission) {
			if f.FieldType == "email" {
				return m.ID
			}
		}
	}
	return 0
}
