package ordermsgtest_test

import (
	"reflect"
	"testing"

	"github.com/ordermsg/ordermsg-go"
)

// The package documentation's choice: order.items alone expands a
// message's order, with its items, exactly as order,order.items does.
func TestOrderItemsAloneExpandsTheMessagesOrder(t *testing.T) {
	srv := fake(t)
	w := srv.Handler.Dataset().Website(srv.WebsiteID)
	m := find(t, w.Messages, func(m *ordermsg.Message) bool { return m.Order.IsExpanded() })
	alone := mustGet(t, srv, path(srv, "messages/%d?includes=order.items", m.ID))["order"]
	both := mustGet(t, srv, path(srv, "messages/%d?includes=order,order.items", m.ID))["order"]
	order, ok := alone.(obj)
	if !ok {
		t.Fatalf("order.items alone: order = %v, want the expanded order", alone)
	}
	if items, _ := order["items"].([]any); len(items) == 0 {
		t.Fatalf("order.items alone: items = %v", order["items"])
	}
	if !reflect.DeepEqual(alone, both) {
		t.Fatalf("order.items alone differs from order,order.items:\n%v\n%v", alone, both)
	}
}
