package ordermsg

import "strings"

// The spec lists only the values it observed for each status-like field and
// says the complete sets are not shown. Each such field is a named string type
// with constants for the observed values; any other value the server sends
// passes through unchanged.

// OrderStatus is an order's status. Observed: "new".
type OrderStatus string

// Observed order statuses.
const (
	OrderStatusNew OrderStatus = "new"
)

// OrderType is an order's type. Observed: "ecommerce", "catalog".
type OrderType string

// Observed order types.
const (
	OrderTypeEcommerce OrderType = "ecommerce"
	OrderTypeCatalog   OrderType = "catalog"
)

// ItemStatus is an order item's status. Observed: "ordered".
type ItemStatus string

// Observed order item statuses.
const (
	ItemStatusOrdered ItemStatus = "ordered"
)

// ShipmentStatus is an order shipment's status. Observed: "shipped".
type ShipmentStatus string

// Observed shipment statuses.
const (
	ShipmentStatusShipped ShipmentStatus = "shipped"
)

// PrintReadyFileStatus is a print-ready file's status. Observed: "success",
// "failure".
type PrintReadyFileStatus string

// Observed print-ready file statuses.
const (
	PrintReadyFileStatusSuccess PrintReadyFileStatus = "success"
	PrintReadyFileStatusFailure PrintReadyFileStatus = "failure"
)

// CarrierType is a shipping carrier's type. Observed: "custom".
type CarrierType string

// Observed carrier types.
const (
	CarrierTypeCustom CarrierType = "custom"
)

// PaymentType is a payment transaction's payment type. Observed:
// "credit_card".
type PaymentType string

// Observed payment types.
const (
	PaymentTypeCreditCard PaymentType = "credit_card"
)

// TransactionStatus is a payment transaction's status. Observed: "captured".
type TransactionStatus string

// Observed transaction statuses.
const (
	TransactionStatusCaptured TransactionStatus = "captured"
)

// TransactionType is a payment transaction's type. Observed: "payment".
type TransactionType string

// Observed transaction types.
const (
	TransactionTypePayment TransactionType = "payment"
)

// MessageType is a message's type. Observed: "online_order",
// "event_management", "general_contact".
type MessageType string

// Observed message types.
const (
	MessageTypeOnlineOrder     MessageType = "online_order"
	MessageTypeEventManagement MessageType = "event_management"
	MessageTypeGeneralContact  MessageType = "general_contact"
)

// FieldType is a form field's type. Observed: "name", "text", "textarea",
// "email", "phone", "address", "radio_buttons".
type FieldType string

// Observed form field types.
const (
	FieldTypeName         FieldType = "name"
	FieldTypeText         FieldType = "text"
	FieldTypeTextarea     FieldType = "textarea"
	FieldTypeEmail        FieldType = "email"
	FieldTypePhone        FieldType = "phone"
	FieldTypeAddress      FieldType = "address"
	FieldTypeRadioButtons FieldType = "radio_buttons"
)

// PriceModifierType says how an item attribute's price modifier applies.
// Observed: "percent".
type PriceModifierType string

// Observed price modifier types.
const (
	PriceModifierTypePercent PriceModifierType = "percent"
)

// PriceScope says which units an item attribute's price modifier applies to.
// Observed: "all_units".
type PriceScope string

// Observed price scopes.
const (
	PriceScopeAllUnits PriceScope = "all_units"
)

// Direction orders a list. The spec says the parameter chooses ascending or
// descending order but does not show its two values; "asc" and "desc" are
// assumed, and any other string is sent as given.
type Direction string

// Assumed direction values (see Direction).
const (
	DirectionAsc  Direction = "asc"
	DirectionDesc Direction = "desc"
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
