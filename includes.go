package ordermsg

import (
	"maps"
	"net/url"
	"slices"
	"strings"
)

// OrderInclude names an additional field to include in an order. The
// constants are the 14 values the spec uses with the order operations; it
// says the list is not complete, so any other string may be passed as well.
type OrderInclude string

// Order includes used in the spec.
const (
	OrderIncludeAdditionalInformation    OrderInclude = "additional_information"
	OrderIncludeBillingAddress           OrderInclude = "billing_address"
	OrderIncludeItemsAttributes          OrderInclude = "items.attributes"
	OrderIncludeItemsPortal              OrderInclude = "items.portal"
	OrderIncludeItemsPrintReadyFiles     OrderInclude = "items.print_ready_files"
	OrderIncludeMessage                  OrderInclude = "message"
	OrderIncludeNotes                    OrderInclude = "notes"
	OrderIncludePaymentTransactions      OrderInclude = "payment_transactions"
	OrderIncludePortal                   OrderInclude = "portal"
	OrderIncludePromoCode                OrderInclude = "promo_code"
	OrderIncludeShipmentsShippingAddress OrderInclude = "shipments.shipping_address"
	OrderIncludeShipmentsShippingCarrier OrderInclude = "shipments.shipping_carrier"
	OrderIncludeShipmentsShippingMethod  OrderInclude = "shipments.shipping_method"
	OrderIncludeUser                     OrderInclude = "user"
)

// AllOrderIncludes returns every order include the spec uses, in a new
// slice each call.
func AllOrderIncludes() []OrderInclude {
	return []OrderInclude{
		OrderIncludeAdditionalInformation, OrderIncludeBillingAddress,
		OrderIncludeItemsAttributes, OrderIncludeItemsPortal, OrderIncludeItemsPrintReadyFiles,
		OrderIncludeMessage, OrderIncludeNotes, OrderIncludePaymentTransactions,
		OrderIncludePortal, OrderIncludePromoCode,
		OrderIncludeShipmentsShippingAddress, OrderIncludeShipmentsShippingCarrier, OrderIncludeShipmentsShippingMethod,
		OrderIncludeUser,
	}
}

// MessageInclude names an additional field to include in a message. The
// constants are the 8 values the spec uses with the message operations; any
// other string may be passed as well.
type MessageInclude string

// Message includes used in the spec.
const (
	MessageIncludeFile                MessageInclude = "file"
	MessageIncludeForm                MessageInclude = "form"
	MessageIncludeFormSubmission      MessageInclude = "form_submission"
	MessageIncludeOrder               MessageInclude = "order"
	MessageIncludeOrderItems          MessageInclude = "order.items"
	MessageIncludePaymentTransactions MessageInclude = "payment_transactions"
	MessageIncludePortal              MessageInclude = "portal"
	MessageIncludeUser                MessageInclude = "user"
)

// AllMessageIncludes returns every message include the spec uses, in a new
// slice each call.
func AllMessageIncludes() []MessageInclude {
	return []MessageInclude{
		MessageIncludeFile, MessageIncludeForm, MessageIncludeFormSubmission,
		MessageIncludeOrder, MessageIncludeOrderItems, MessageIncludePaymentTransactions,
		MessageIncludePortal, MessageIncludeUser,
	}
}

// checkIncludes refuses includes that cannot be sent in one comma-separated
// value: empty ones and ones with a comma or white space.
func checkIncludes[I ~string](includes []I) error {
	for _, inc := range includes {
		if inc == "" || strings.ContainsAny(string(inc), ", \t\r\n") {
			return invalidArgument("include %q must be non-empty, without commas or spaces", string(inc))
		}
	}
	return nil
}

// encodeQuery encodes q as url.Values.Encode does (keys sorted), except that
// the commas between includes are sent as commas, as the spec's "comma
// separated list" reads, rather than as %2C. An include cannot hold a comma
// of its own (checkIncludes), so every comma there is a separator.
func encodeQuery(q url.Values) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(q)) {
		key := url.QueryEscape(k)
		for _, v := range q[k] {
			if b.Len() > 0 {
				b.WriteByte('&')
			}
			v = url.QueryEscape(v)
			if k == "includes" {
				v = strings.ReplaceAll(v, "%2C", ",")
			}
			b.WriteString(key)
			b.WriteByte('=')
			b.WriteString(v)
		}
	}
	return b.String()
}
