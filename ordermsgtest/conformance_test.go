package ordermsgtest_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/internal/exchangelog"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// These tests read the fake's raw JSON, without the SDK's types, and check it
// against the spec's conventions, so that a test that passes against the
// fake means something for the real service.

type obj = map[string]any

func rawGet(t *testing.T, srv *ordermsgtest.Server, path string) (int, obj) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
	req.SetBasicAuth(srv.APIKey, "")
	req.Header.Set("Service-Api-Version", "1")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var v obj
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return resp.StatusCode, v
}

func mustGet(t *testing.T, srv *ordermsgtest.Server, path string) obj {
	t.Helper()
	status, v := rawGet(t, srv, path)
	if status != 200 {
		t.Fatalf("%s: %d %v", path, status, v)
	}
	return v
}

// sharedServer serves the default dataset to the tests that only read it.
var sharedServer *ordermsgtest.Server

func TestMain(m *testing.M) {
	sharedServer = ordermsgtest.NewServer(nil)
	code := exchangelog.Main(m)
	sharedServer.Close()
	os.Exit(code)
}

// fake returns the shared server over the default dataset.
func fake(*testing.T) *ordermsgtest.Server { return sharedServer }

func find[T any](t *testing.T, records []*T, pred func(*T) bool) *T {
	t.Helper()
	for _, r := range records {
		if pred(r) {
			return r
		}
	}
	t.Fatal("the dataset has no record of the kind this test needs")
	return nil
}

func path(srv *ordermsgtest.Server, format string, args ...any) string {
	return fmt.Sprintf("/websites/%d/", srv.WebsiteID) + fmt.Sprintf(format, args...)
}

func TestConformanceOrderUser(t *testing.T) {
	srv := fake(t)
	w := srv.Handler.Dataset().Website(srv.WebsiteID)
	guest := find(t, w.Orders, func(o *ordermsg.Order) bool { return o.User.IsNull() })
	member := find(t, w.Orders, func(o *ordermsg.Order) bool { return o.User.IsExpanded() })

	for _, inc := range []string{"", "?includes=user"} {
		if u, ok := mustGet(t, srv, path(srv, "orders/%d%s", guest.ID, inc))["user"]; !ok || u != nil {
			t.Errorf("retrieved order with no user%s: user = %v, want null", inc, u)
		}
	}
	if u := mustGet(t, srv, path(srv, "orders/%d", member.ID))["user"]; u != float64(member.User.ID) {
		t.Errorf("user without include = %v, want the id", u)
	}
	if u, _ := mustGet(t, srv, path(srv, "orders/%d?includes=user", member.ID))["user"].(obj); u["object"] != "website_user" {
		t.Errorf("user with include = %v", u)
	}
	list := mustGet(t, srv, path(srv, "orders?count=100&includes=user"))["data"].([]any)
	var sawNull, sawObject bool
	for _, o := range list {
		switch u := o.(obj)["user"].(type) {
		case nil:
			sawNull = true
		case obj:
			sawObject = u["object"] == "website_user"
		default:
			t.Fatalf("order in a list: user = %v", u)
		}
	}
	if !sawNull || !sawObject {
		t.Errorf("list with include user: null seen %v, object seen %v", sawNull, sawObject)
	}
}

func TestConformanceMessageUserAndFile(t *testing.T) {
	srv := fake(t)
	w := srv.Handler.Dataset().Website(srv.WebsiteID)
	anon := find(t, w.Messages, func(m *ordermsg.Message) bool { return m.User.IsNull() && m.File.IsNull() })
	withFile := find(t, w.Messages, func(m *ordermsg.Message) bool { return m.File.IsExpanded() })

	for _, inc := range []string{"", "?includes=user"} {
		if u := mustGet(t, srv, path(srv, "messages/%d%s", anon.ID, inc))["user"]; u != float64(0) {
			t.Errorf("retrieved message with no user%s: user = %v, want 0", inc, u)
		}
	}
	if f, ok := mustGet(t, srv, path(srv, "messages/%d?includes=file", anon.ID))["file"]; !ok || f != nil {
		t.Errorf("include file, no file: file = %v, want null", f)
	}
	if f := mustGet(t, srv, path(srv, "messages/%d", anon.ID))["file"]; f != float64(0) {
		t.Errorf("no include, no file: file = %v, want 0", f)
	}
	if f, _ := mustGet(t, srv, path(srv, "messages/%d?includes=file", withFile.ID))["file"].(obj); f["object"] != "file" {
		t.Errorf("include file: %v", f)
	}
	var nullInList, zeroInList bool
	for _, inc := range []string{"&includes=user", ""} {
		for _, m := range mustGet(t, srv, path(srv, "messages?count=100%s", inc))["data"].([]any) {
			u := m.(obj)["user"]
			switch {
			case inc != "" && u == nil:
				nullInList = true
			case inc == "" && u == float64(0):
				zeroInList = true
			case inc != "" && u == float64(0):
				t.Errorf("message in a list with include user and no user: 0, want null")
			}
		}
	}
	if !nullInList || !zeroInList {
		t.Errorf("null with include seen %v; 0 without include seen %v", nullInList, zeroInList)
	}
}

func TestConformanceMessageExpandedOrder(t *testing.T) {
	srv := fake(t)
	w := srv.Handler.Dataset().Website(srv.WebsiteID)
	m := find(t, w.Messages, func(m *ordermsg.Message) bool {
		return m.Order.IsExpanded() && m.Order.Expanded.User.IsExpanded()
	})
	plain := mustGet(t, srv, path(srv, "messages/%d?includes=order", m.ID))["order"].(obj)
	if _, ok := plain["user"].(float64); !ok {
		t.Errorf("expanded order's user = %v, want an integer id", plain["user"])
	}
	if _, ok := plain["items"]; ok {
		t.Error("expanded order carries items without order.items")
	}
	withItems := mustGet(t, srv, path(srv, "messages/%d?includes=order,order.items", m.ID))["order"].(obj)
	if items, ok := withItems["items"].([]any); !ok || len(items) == 0 {
		t.Errorf("order.items: items = %v", withItems["items"])
	}
	if id := mustGet(t, srv, path(srv, "messages/%d", m.ID))["order"]; id != float64(m.Order.ID) {
		t.Errorf("order without include = %v, want the id", id)
	}
}

func TestConformancePromoCodeAndItems(t *testing.T) {
	srv := fake(t)
	w := srv.Handler.Dataset().Website(srv.WebsiteID)
	none := find(t, w.Orders, func(o *ordermsg.Order) bool { return o.PromoCode.IsNull() })
	promo := find(t, w.Orders, func(o *ordermsg.Order) bool { return o.PromoCode.IsExpanded() })
	for _, inc := range []string{"", "?includes=promo_code"} {
		if p, ok := mustGet(t, srv, path(srv, "orders/%d%s", none.ID, inc))["promo_code"]; !ok || p != nil {
			t.Errorf("no code%s: promo_code = %v, want null", inc, p)
		}
	}
	if p, _ := mustGet(t, srv, path(srv, "orders/%d?includes=promo_code", promo.ID))["promo_code"].(obj); p["object"] != "order_promo_code" {
		t.Errorf("include promo_code: %v", p)
	}

	failing := find(t, w.Orders, func(o *ordermsg.Order) bool {
		return len(o.Items) > 1 && o.Items[0].IsVersadoc() && o.Items[0].PrintReadyFiles[1].File == nil
	})
	o := mustGet(t, srv, path(srv, "orders/%d?includes=items.attributes,items.print_ready_files", failing.ID))
	items := o["items"].([]any)
	vd, regular := items[0].(obj), items[1].(obj)
	if a, ok := vd["attributes"]; !ok || a != nil {
		t.Errorf("versadoc item attributes = %v, want null", a)
	}
	if a, _ := regular["attributes"].(obj); a["object"] != "form_submission" {
		t.Errorf("order_item attributes = %v", regular["attributes"])
	}
	files := vd["print_ready_files"].([]any)
	if f := files[1].(obj); f["status"] != "failure" || f["file"] != nil {
		t.Errorf("failed print-ready file = %v, want status failure and file null", f)
	}
	if _, ok := regular["print_ready_files"]; ok {
		t.Error("an order_item carries print_ready_files")
	}
	if _, ok := vd["versadoc_order_form"].(obj); !ok {
		t.Error("versadoc item without versadoc_order_form")
	}
}

// includeFields maps each include to the field it adds, and where.
var orderIncludeFields = map[string]string{
	"additional_information": "additional_information", "billing_address": "billing_address",
	"notes": "notes", "payment_transactions": "payment_transactions",
	"items.attributes": "items", "items.portal": "items", "items.print_ready_files": "items",
	"shipments.shipping_address": "shipments", "shipments.shipping_carrier": "shipments", "shipments.shipping_method": "shipments",
}

func TestConformanceIncludeOnlyFields(t *testing.T) {
	srv := fake(t)
	w := srv.Handler.Dataset().Website(srv.WebsiteID)
	o := find(t, w.Orders, func(o *ordermsg.Order) bool { return len(o.Shipments) > 0 && len(o.Notes) > 0 })
	bare := mustGet(t, srv, path(srv, "orders/%d", o.ID))
	for inc, field := range orderIncludeFields {
		if _, ok := bare[field]; ok {
			t.Errorf("%s present without include %s", field, inc)
		}
		got := mustGet(t, srv, path(srv, "orders/%d?includes=%s", o.ID, inc))
		if _, ok := got[field]; !ok {
			t.Errorf("%s absent with include %s", field, inc)
		}
	}
	ship := mustGet(t, srv, path(srv, "orders/%d?includes=shipments.shipping_carrier", o.ID))["shipments"].([]any)[0].(obj)
	if _, ok := ship["shipping_address"]; ok {
		t.Error("shipping_address present with only shipments.shipping_carrier")
	}
	if _, ok := ship["shipping_carrier"].(obj); !ok {
		t.Error("shipping_carrier missing")
	}
	m := mustGet(t, srv, path(srv, "messages/%d", w.Messages[0].ID))
	for _, field := range []string{"form_submission", "payment_transactions"} {
		if _, ok := m[field]; ok {
			t.Errorf("message %s present without include", field)
		}
	}
	if _, ok := m["form"].(float64); !ok {
		t.Errorf("message form without include = %v, want an id", m["form"])
	}
}

func TestConformanceNumbersAgree(t *testing.T) {
	srv := fake(t)
	for _, w := range srv.Handler.Dataset().Websites {
		for _, o := range w.Orders {
			p := o.Pricing
			if p.Total != p.Subtotal-p.SubtotalDiscount+p.Shipping+p.Tax {
				t.Fatalf("order %d: total does not add up: %+v", o.ID, p)
			}
			var paid int64
			for _, tx := range o.PaymentTransactions {
				paid += tx.Amount
			}
			if paid != o.AmountPaid {
				t.Fatalf("order %d: amount_paid %d, transactions %d", o.ID, o.AmountPaid, paid)
			}
			var sum int64
			for _, it := range o.Items {
				if it.Pricing.Subtotal != it.Pricing.Unit*it.Quantity {
					t.Fatalf("item %d: subtotal %d ≠ %d × %d", it.ID, it.Pricing.Subtotal, it.Pricing.Unit, it.Quantity)
				}
				sum += it.Pricing.Subtotal
			}
			if sum != p.Subtotal {
				t.Fatalf("order %d: items add to %d, subtotal %d", o.ID, sum, p.Subtotal)
			}
			m := w.Message(o.Message.ID)
			if m == nil || m.Order.ID != o.ID || m.MessageType != ordermsg.MessageTypeOnlineOrder {
				t.Fatalf("order %d and message %d do not point at each other", o.ID, o.Message.ID)
			}
		}
	}
}

func TestConformancePaginationMeta(t *testing.T) {
	srv := fake(t)
	total := len(srv.Handler.Dataset().Website(srv.WebsiteID).Orders)
	for _, tc := range []struct{ page, count int }{{1, 25}, {3, 100}, {5, 100}, {999, 10}} {
		v := mustGet(t, srv, path(srv, "orders?page=%d&count=%d", tc.page, tc.count))
		pg := v["meta"].(obj)["pagination"].(obj)
		data := v["data"].([]any)
		wantCount := max(0, min(tc.count, total-(tc.page-1)*tc.count))
		if v["object"] != "list" || pg["total"] != float64(total) || pg["per_page"] != float64(tc.count) ||
			pg["current_page"] != float64(tc.page) || pg["total_pages"] != float64((total+tc.count-1)/tc.count) ||
			pg["count"] != float64(len(data)) || len(data) != wantCount {
			t.Errorf("page %d count %d: %v with %d records", tc.page, tc.count, pg, len(data))
		}
	}
}

func TestConformanceErrorShape(t *testing.T) {
	srv := fake(t)
	status, v := rawGet(t, srv, path(srv, "orders/1"))
	if status != 404 || v["object"] != "error" || v["status"] != float64(404) || !strings.Contains(v["message"].(string), "not found") {
		t.Errorf("%d %v", status, v)
	}
}
