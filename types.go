package ordermsg

// The JSON methods of every struct type here with an Unknown field tagged
// `json:",embed"` are generated into codec.go from the struct definitions,
// and so are the validators of those that orders and messages hold.
//go:generate go run ./internal/cmd/gencodec -o codec.go -lenient FieldValues -validate Order,Message

import (
	"net/http"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/ordermsg/ordermsg-go/internal/resources"
)

// Object kinds: the value of the "object" field that names each resource.
const (
	ObjectOrder             = resources.OrderObject
	ObjectOrderItem         = "order_item"
	ObjectVersadocOrderItem = "versadoc_order_item"
	ObjectMessage           = resources.MessageObject
	ObjectList              = "list"
)

// Order is a purchase made on a website. Fields marked "include" are nil (or
// a zero Ref) unless the matching include was requested; an included empty
// list is an empty, non-nil slice. Money fields are the integers the API
// sends: the spec does not say whether they are whole or minor units.
type Order struct {
	Object                string               `json:"object"`
	ID                    int64                `json:"id"`
	AdditionalInformation *FormSubmission      `json:"additional_information,omitzero"` // include additional_information
	AmountPaid            int64                `json:"amount_paid"`
	BillingAddress        *FormSubmission      `json:"billing_address,omitzero"` // include billing_address
	ContentCatalog        int64                `json:"content_catalog"`
	Currency              string               `json:"currency"` // lowercase currency code
	DateCreated           Timestamp            `json:"date_created"`
	IsPayLater            bool                 `json:"is_pay_later"`
	Items                 []OrderItem          `json:"items,omitzero"`   // include items.* (order.items in a message's expanded order)
	Message               Ref[Message]         `json:"message,omitzero"` // an id; the message with include message
	Notes                 []OrderNote          `json:"notes,omitzero"`   // include notes
	OrderType             OrderType            `json:"order_type"`
	PaymentTransactions   []PaymentTransaction `json:"payment_transactions,omitzero"` // include payment_transactions
	Portal                Ref[Portal]          `json:"portal,omitzero"`               // 0 when none; expanded with include portal
	Pricing               OrderPricing         `json:"pricing,omitzero"`
	PromoCode             Ref[OrderPromoCode]  `json:"promo_code,omitzero"` // null when none; expanded with include promo_code
	Shipments             []OrderShipment      `json:"shipments,omitzero"`  // include shipments.*
	ShippingTaxPercentage float64              `json:"shipping_tax_percentage"`
	Status                OrderStatus          `json:"status"`
	// User is null when the order has no user, an id, or the website user
	// with include user. Inside a message's expanded order it is the id.
	User    Ref[WebsiteUser] `json:"user,omitzero"`
	Unknown jsontext.Value   `json:",embed"` // members the SDK does not model, as sent

	raw []byte // the record as sent, with KeepRawJSON
}

// The methods of the record constraint (resource.go), and the ids that a
// Ref finds at run time (idOf, ref.go).
func (o *Order) kind() string           { return o.Object }
func (o *Order) refID() int64           { return o.ID }
func (o *Order) createdAt() time.Time   { return o.DateCreated.Time }
func (o *Order) setRaw(raw []byte)      { o.raw = raw }
func (m *Message) kind() string         { return m.Object }
func (m *Message) refID() int64         { return m.ID }
func (m *Message) createdAt() time.Time { return m.DateCreated.Time }
func (m *Message) setRaw(raw []byte)    { m.raw = raw }
func (f *File) refID() int64            { return f.ID }
func (p *OrderPromoCode) refID() int64  { return p.ID }
func (p *Portal) refID() int64          { return p.ID }
func (u *WebsiteUser) refID() int64     { return u.ID }
func (f *Form) refID() int64            { return f.ID }

// RawJSON returns the order's own bytes exactly as the server sent them when
// it was read with KeepRawJSON; else nil. Do not modify them.
func (o *Order) RawJSON() []byte { return o.raw }

// RawJSON returns the message's own bytes exactly as the server sent them
// when it was read with KeepRawJSON; else nil. Do not modify them.
func (m *Message) RawJSON() []byte { return m.raw }

// OrderPricing is an order's price breakdown. In every sample of the spec,
// Total = Subtotal - SubtotalDiscount + Shipping + Tax.
type OrderPricing struct {
	Object           string         `json:"object"`
	Shipping         int64          `json:"shipping"`
	ShippingDiscount int64          `json:"shipping_discount"`
	Subtotal         int64          `json:"subtotal"`
	SubtotalDiscount int64          `json:"subtotal_discount"`
	Tax              int64          `json:"tax"`
	Total            int64          `json:"total"`
	Unknown          jsontext.Value `json:",embed"` // members the SDK does not model, as sent
}

// OrderItem is one line of an order, of either kind the API sends:
// "order_item" or "versadoc_order_item" (see IsVersadoc). PrintReadyFiles and
// VersadocOrderForm are filled for the second kind only.
type OrderItem struct {
	Object string `json:"object"`
	ID     int64  `json:"id"`
	// Attributes is present with include items.attributes: the item's
	// attribute fields, or null for a versadoc item.
	Attributes         Nullable[FormSubmission] `json:"attributes,omitzero"`
	CatalogItem        int64                    `json:"catalog_item"`
	ContentCatalog     int64                    `json:"content_catalog"`
	DateCreated        Timestamp                `json:"date_created"`
	Description        string                   `json:"description"`
	ExemptFromShipping bool                     `json:"exempt_from_shipping"`
	IsTaxable          bool                     `json:"is_taxable"`
	Portal             Ref[Portal]              `json:"portal,omitzero"` // expanded with include items.portal
	Pricing            OrderItemPricing         `json:"pricing,omitzero"`
	Quantity           int64                    `json:"quantity"`
	Shipment           int64                    `json:"shipment"` // the id of the shipment that carries the item; 0 when none
	ShortDescription   string                   `json:"short_description"`
	SKU                string                   `json:"sku"`
	Status             ItemStatus               `json:"status"`
	TaxClass           int64                    `json:"tax_class"`      // 0 when none
	TaxPercentage      float64                  `json:"tax_percentage"` // a fraction: 0.08 for 8%
	Title              string                   `json:"title"`
	Weight             float64                  `json:"weight"`
	PrintReadyFiles    []PrintReadyFile         `json:"print_ready_files,omitzero"`   // versadoc items with include items.print_ready_files
	VersadocOrderForm  *FormSubmission          `json:"versadoc_order_form,omitzero"` // versadoc items
	Unknown            jsontext.Value           `json:",embed"`                       // members the SDK does not model, as sent
}

// IsVersadoc reports whether the item is a versadoc_order_item.
func (it *OrderItem) IsVersadoc() bool { return it.Object == ObjectVersadocOrderItem }

// OrderItemPricing is an item's price. In the spec's samples,
// Subtotal = Unit × quantity.
type OrderItemPricing struct {
	Object   string         `json:"object"`
	Unit     int64          `json:"unit"`
	Volume   int64          `json:"volume"`
	Subtotal int64          `json:"subtotal"`
	Unknown  jsontext.Value `json:",embed"` // members the SDK does not model, as sent
}

// PrintReadyFile is a file produced for printing a versadoc item.
type PrintReadyFile struct {
	Object      string               `json:"object"`
	ID          int64                `json:"id"`
	DateCreated Timestamp            `json:"date_created"`
	Tag         string               `json:"tag"`
	Status      PrintReadyFileStatus `json:"status"`
	// File is nil (JSON null) when there is none, as with "failure" in the
	// spec's sample.
	File    *File          `json:"file"`
	Unknown jsontext.Value `json:",embed"` // members the SDK does not model, as sent
}

// File is a downloadable file.
type File struct {
	Object   string         `json:"object"`
	ID       int64          `json:"id"`
	Filename string         `json:"filename"`
	URL      string         `json:"url"` // download address
	Expires  Timestamp      `json:"expires"`
	Unknown  jsontext.Value `json:",embed"` // members the SDK does not model, as sent
}

// OrderShipment is a shipment of some of an order's items.
type OrderShipment struct {
	Object                   string           `json:"object"`
	ID                       int64            `json:"id"`
	DateCreated              Timestamp        `json:"date_created"`
	DateShipped              Timestamp        `json:"date_shipped"`
	ShippingAddress          *FormSubmission  `json:"shipping_address,omitzero"` // include shipments.shipping_address
	ShippingCarrier          *ShippingCarrier `json:"shipping_carrier,omitzero"` // include shipments.shipping_carrier
	ShippingMethod           *ShippingMethod  `json:"shipping_method,omitzero"`  // include shipments.shipping_method
	ShippingNotificationSent bool             `json:"shipping_notification_sent"`
	Status                   ShipmentStatus   `json:"status"`
	TrackingNumber           string           `json:"tracking_number"`
	Price                    int64            `json:"price"`
	Unknown                  jsontext.Value   `json:",embed"` // members the SDK does not model, as sent
}

// ShippingCarrier is the carrier of a shipment.
type ShippingCarrier struct {
	Object      string         `json:"object"`
	ID          int64          `json:"id"`
	CarrierType CarrierType    `json:"carrier_type"`
	Title       string         `json:"title"`
	Unknown     jsontext.Value `json:",embed"` // members the SDK does not model, as sent
}

// ShippingMethod is the shipping method of a shipment.
type ShippingMethod struct {
	Object  string         `json:"object"`
	ID      int64          `json:"id"`
	Title   string         `json:"title"`
	Unknown jsontext.Value `json:",embed"` // members the SDK does not model, as sent
}

// OrderNote is a note on an order, written by an account user.
type OrderNote struct {
	Object      string         `json:"object"`
	ID          int64          `json:"id"`
	DateCreated Timestamp      `json:"date_created"`
	Note        string         `json:"note"`
	User        AccountUser    `json:"user"`
	Unknown     jsontext.Value `json:",embed"` // members the SDK does not model, as sent
}

// AccountUser is a user of the account that owns the website (an order
// note's author), as opposed to a WebsiteUser.
type AccountUser struct {
	Object   string         `json:"object"`
	ID       int64          `json:"id"`
	Username string         `json:"username"`
	Unknown  jsontext.Value `json:",embed"` // members the SDK does not model, as sent
}

// OrderPromoCode is the promo code applied to an order, with its discounts.
type OrderPromoCode struct {
	Object           string         `json:"object"`
	ID               int64          `json:"id"`
	PromoCode        PromoCode      `json:"promo_code"`
	ShippingDiscount int64          `json:"shipping_discount"`
	SubtotalDiscount int64          `json:"subtotal_discount"`
	Unknown          jsontext.Value `json:",embed"` // members the SDK does not model, as sent
}

// PromoCode is a promo code; PromoCode.PromoCode is the code's text.
type PromoCode struct {
	Object    string         `json:"object"`
	ID        int64          `json:"id"`
	PromoCode string         `json:"promo_code"`
	Unknown   jsontext.Value `json:",embed"` // members the SDK does not model, as sent
}

// Portal is a portal of the website.
type Portal struct {
	Object  string         `json:"object"`
	ID      int64          `json:"id"`
	Title   string         `json:"title"`
	Unknown jsontext.Value `json:",embed"` // members the SDK does not model, as sent
}

// WebsiteUser is a user of the website who placed an order or sent a message.
type WebsiteUser struct {
	Object               string         `json:"object"`
	ID                   int64          `json:"id"`
	ThirdPartyIdentifier string         `json:"third_party_identifier"` // may be empty
	Username             string         `json:"username"`
	Unknown              jsontext.Value `json:",embed"` // members the SDK does not model, as sent
}

// PaymentTransaction is a payment made for an order or a message.
type PaymentTransaction struct {
	Object            string            `json:"object"`
	ID                int64             `json:"id"`
	Amount            int64             `json:"amount"`
	Currency          string            `json:"currency"` // lowercase currency code
	DateCreated       Timestamp         `json:"date_created"`
	IsRecurring       bool              `json:"is_recurring"`
	PaymentType       PaymentType       `json:"payment_type"`
	TestMode          bool              `json:"test_mode"`
	TransactionID     string            `json:"transaction_id"`
	TransactionStatus TransactionStatus `json:"transaction_status"`
	TransactionType   TransactionType   `json:"transaction_type"`
	Unknown           jsontext.Value    `json:",embed"` // members the SDK does not model, as sent
}

// Message is the record of a form submission made on a website. Fields marked
// "include" are nil (or a zero Ref) unless the matching include was requested.
type Message struct {
	Object          string    `json:"object"`
	ID              int64     `json:"id"`
	DateCreated     Timestamp `json:"date_created"`
	EventSubmission int64     `json:"event_submission"` // 0 when none
	// File is 0 by default; expanded with include file, and then null when
	// the message has no file.
	File                  Ref[File]       `json:"file,omitzero"`
	Form                  Ref[Form]       `json:"form,omitzero"`            // an id; the form with include form
	FormSubmission        *FormSubmission `json:"form_submission,omitzero"` // include form_submission
	MessageTrackingNumber string          `json:"message_tracking_number"`
	MessageType           MessageType     `json:"message_type"`
	OnlineProof           int64           `json:"online_proof"` // 0 when none
	// Order is 0 when none; expanded with include order. The expanded order
	// carries its items with include order.items, and its user as an id.
	Order               Ref[Order]           `json:"order,omitzero"`
	PaymentTransactions []PaymentTransaction `json:"payment_transactions,omitzero"` // include payment_transactions
	Portal              Ref[Portal]          `json:"portal,omitzero"`               // 0 when none; expanded with include portal
	// User is 0 when none in a retrieved message and null when none in a
	// list; expanded with include user.
	User    Ref[WebsiteUser] `json:"user,omitzero"`
	Unknown jsontext.Value   `json:",embed"` // members the SDK does not model, as sent

	raw []byte // the record as sent, with KeepRawJSON
}

// Form is the form a message was submitted through.
type Form struct {
	Object  string         `json:"object"`
	ID      int64          `json:"id"`
	Title   string         `json:"title"`
	Unknown jsontext.Value `json:",embed"` // members the SDK does not model, as sent
}

// Page is one page of a list: the records and the pagination metadata.
type Page[T any] struct {
	Object  string         `json:"object"`
	Data    []*T           `json:"data"`
	Meta    ListMeta       `json:"meta"`
	Unknown jsontext.Value `json:",embed"` // members the SDK does not model, as sent

	raw     []byte               // the page as sent, with KeepRawJSON
	skipped []*RecordDecodeError // the records that could not be decoded, with WithSkipUndecodable, by Index
	resp    *Response            // the response, when the walk's caller asked for it
}

// ListMeta is the metadata of a list response.
type ListMeta struct {
	Pagination Pagination     `json:"pagination"`
	Unknown    jsontext.Value `json:",embed"` // members the SDK does not model, as sent
}

// Pagination tells where a page stands in the whole list.
type Pagination struct {
	Total       int            `json:"total"`        // the number of records that match, on all pages
	Count       int            `json:"count"`        // the number of records on this page
	PerPage     int            `json:"per_page"`     // the page size in force: the count asked for, or the server's default
	CurrentPage int            `json:"current_page"` // this page's number, from 1
	TotalPages  int            `json:"total_pages"`  // the number of pages at this page size
	Unknown     jsontext.Value `json:",embed"`       // members the SDK does not model, as sent
}

// HasNextPage reports whether pages follow this one.
func (p *Page[T]) HasNextPage() bool {
	return p.Meta.Pagination.CurrentPage < p.Meta.Pagination.TotalPages
}

// NextPage returns the number of the next page, or 0 when this is the last.
func (p *Page[T]) NextPage() int {
	if !p.HasNextPage() {
		return 0
	}
	return p.Meta.Pagination.CurrentPage + 1
}

// RawJSON returns the page exactly as the server sent it when it was read
// with KeepRawJSON; else nil. Do not modify it.
func (p *Page[T]) RawJSON() []byte { return p.raw }

// Response is the HTTP response behind a successful call: set the Response
// field of a call's options to a *Response to receive it, as in
// ExampleResponse. Its body has been read and decoded; what is left is what
// the API's documentation does not describe, such as a request id or a rate
// limit in the headers.
type Response struct {
	// StatusCode is the HTTP status code: 2xx.
	StatusCode int
	// Header is the response's header.
	Header http.Header
	// ReceivedAt is when the body had been read in full, by this machine's
	// clock: which of two reads of a record is the later.
	ReceivedAt time.Time
}
