package ordermsg

import "strings"

// The spec shows only some values of each status-like field: each is a named
// string type with constants for the values observed, and any other value
// passes through unchanged.

// OrderStatus is an order's status.
type OrderStatus string

// OrderStatusNew is the one order status observed.
const OrderStatusNew OrderStatus = "new"

// OrderType is an order's type.
type OrderType string

// Observed order types.
const (
	OrderTypeEcommerce OrderType = "ecommerce"
	OrderTypeCatalog   OrderType = "catalog"
)

// ItemStatus is an order item's status.
type ItemStatus string

// ItemStatusOrdered is the one order item status observed.
const ItemStatusOrdered ItemStatus = "ordered"

// ShipmentStatus is an order shipment's status.
type ShipmentStatus string

// ShipmentStatusShipped is the one shipment status observed.
const ShipmentStatusShipped ShipmentStatus = "shipped"

// PrintReadyFileStatus is a print-ready file's status.
type PrintReadyFileStatus string

// Observed print-ready file statuses.
const (
	PrintReadyFileStatusSuccess PrintReadyFileStatus = "success"
	PrintReadyFileStatusFailure PrintReadyFileStatus = "failure"
)

// CarrierType is a shipping carrier's type.
type CarrierType string

// CarrierTypeCustom is the one carrier type observed.
const CarrierTypeCustom CarrierType = "custom"

// PaymentType is a payment transaction's payment type.
type PaymentType string

// PaymentTypeCreditCard is the one payment type observed.
const PaymentTypeCreditCard PaymentType = "credit_card"

// TransactionStatus is a payment transaction's status.
type TransactionStatus string

// TransactionStatusCaptured is the one transaction status observed.
const TransactionStatusCaptured TransactionStatus = "captured"

// TransactionType is a payment transaction's type.
type TransactionType string

// TransactionTypePayment is the one transaction type observed.
const TransactionTypePayment TransactionType = "payment"

// MessageType is a message's type.
type MessageType string

// Observed message types.
const (
	MessageTypeOnlineOrder     MessageType = "online_order"
	MessageTypeEventManagement MessageType = "event_management"
	MessageTypeGeneralContact  MessageType = "general_contact"
)

// FieldType is a form field's type.
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
type PriceModifierType string

// PriceModifierTypePercent is the one price modifier type observed.
const PriceModifierTypePercent PriceModifierType = "percent"

// PriceScope says which units an item attribute's price modifier applies to.
type PriceScope string

// PriceScopeAllUnits is the one price scope observed.
const PriceScopeAllUnits PriceScope = "all_units"

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
		OrderIncludeAdditionalInformation, OrderIncludeBillingAddress, OrderIncludeItemsAttributes,
		OrderIncludeItemsPortal, OrderIncludeItemsPrintReadyFiles, OrderIncludeMessage, OrderIncludeNotes,
		OrderIncludePaymentTransactions, OrderIncludePortal, OrderIncludePromoCode,
		OrderIncludeShipmentsShippingAddress, OrderIncludeShipmentsShippingCarrier, OrderIncludeShipmentsShippingMethod, OrderIncludeUser,
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
		MessageIncludeFile, MessageIncludeForm, MessageIncludeFormSubmission, MessageIncludeOrder,
		MessageIncludeOrderItems, MessageIncludePaymentTransactions, MessageIncludePortal, MessageIncludeUser,
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
