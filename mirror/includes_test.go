package mirror_test

import (
	"slices"
	"testing"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/mirror"
)

// The includes a mirror requests are pinned: every order include but
// message, every message include but order and order.items, and each call
// returns a slice of its own.
func TestIncludesArePinned(t *testing.T) {
	wantOrders := []ordermsg.OrderInclude{
		"additional_information", "billing_address", "items.attributes", "items.portal", "items.print_ready_files",
		"notes", "payment_transactions", "portal", "promo_code",
		"shipments.shipping_address", "shipments.shipping_carrier", "shipments.shipping_method", "user",
	}
	wantMessages := []ordermsg.MessageInclude{"file", "form", "form_submission", "payment_transactions", "portal", "user"}
	if got := mirror.OrderIncludes(); !slices.Equal(got, wantOrders) {
		t.Errorf("OrderIncludes() = %q, want %q", got, wantOrders)
	}
	if got := mirror.MessageIncludes(); !slices.Equal(got, wantMessages) {
		t.Errorf("MessageIncludes() = %q, want %q", got, wantMessages)
	}
	o := mirror.OrderIncludes()
	o[0] = "changed"
	m := mirror.MessageIncludes()
	m[0] = "changed"
	if mirror.OrderIncludes()[0] != wantOrders[0] || mirror.MessageIncludes()[0] != wantMessages[0] {
		t.Error("changing a returned slice changed the next one")
	}
}
