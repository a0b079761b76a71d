package ordermsg

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
