package ordermsg

import (
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// The JSON methods of the resources. Each resource has a twin type without
// methods (orderFields for Order, ...) that encoding/json/v2 codes from the
// struct tags, unknown members included (the Unknown field, tagged
// ",embed"). UnmarshalJSONFrom and MarshalJSONTo are encoding/json/v2's
// streaming methods: a nested value is coded in the same pass as its parent,
// never re-scanned. MarshalJSON and UnmarshalJSON make encoding/json (v1)
// give the same results as the client.

type orderFields Order

// UnmarshalJSONFrom decodes o from dec, keeping the members it does not model.
func (o *Order) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	return decodeFields(dec, (*orderFields)(o))
}

// MarshalJSONTo encodes o to enc with its unknown members.
func (o *Order) MarshalJSONTo(enc *jsontext.Encoder) error {
	return json.MarshalEncode(enc, (*orderFields)(o))
}

// MarshalJSON encodes o with its unknown members.
func (o Order) MarshalJSON() ([]byte, error) { return marshalJSON(&o) }

// UnmarshalJSON decodes data into o, keeping the members it does not model.
func (o *Order) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, o) }

type orderPricingFields OrderPricing

// UnmarshalJSONFrom decodes p from dec, keeping the members it does not model.
func (p *OrderPricing) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	return decodeFields(dec, (*orderPricingFields)(p))
}

// MarshalJSONTo encodes p to enc with its unknown members.
func (p *OrderPricing) MarshalJSONTo(enc *jsontext.Encoder) error {
	return json.MarshalEncode(enc, (*orderPricingFields)(p))
}

// MarshalJSON encodes p with its unknown members.
func (p OrderPricing) MarshalJSON() ([]byte, error) { return marshalJSON(&p) }

// UnmarshalJSON decodes data into p, keeping the members it does not model.
func (p *OrderPricing) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, p) }

type orderItemFields OrderItem

// UnmarshalJSONFrom decodes it from dec, keeping the members it does not model.
func (it *OrderItem) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	return decodeFields(dec, (*orderItemFields)(it))
}

// MarshalJSONTo encodes it to enc with its unknown members.
func (it *OrderItem) MarshalJSONTo(enc *jsontext.Encoder) error {
	return json.MarshalEncode(enc, (*orderItemFields)(it))
}

// MarshalJSON encodes it with its unknown members.
func (it OrderItem) MarshalJSON() ([]byte, error) { return marshalJSON(&it) }

// UnmarshalJSON decodes data into it, keeping the members it does not model.
func (it *OrderItem) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, it) }

type orderItemPricingFields OrderItemPricing

// UnmarshalJSONFrom decodes p from dec, keeping the members it does not model.
func (p *OrderItemPricing) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	return decodeFields(dec, (*orderItemPricingFields)(p))
}

// MarshalJSONTo encodes p to enc with its unknown members.
func (p *OrderItemPricing) MarshalJSONTo(enc *jsontext.Encoder) error {
	return json.MarshalEncode(enc, (*orderItemPricingFields)(p))
}

// MarshalJSON encodes p with its unknown members.
func (p OrderItemPricing) MarshalJSON() ([]byte, error) { return marshalJSON(&p) }

// UnmarshalJSON decodes data into p, keeping the members it does not model.
func (p *OrderItemPricing) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, p) }

type printReadyFileFields PrintReadyFile

// UnmarshalJSONFrom decodes f from dec, keeping the members it does not model.
func (f *PrintReadyFile) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	return decodeFields(dec, (*printReadyFileFields)(f))
}

// MarshalJSONTo encodes f to enc with its unknown members.
func (f *PrintReadyFile) MarshalJSONTo(enc *jsontext.Encoder) error {
	return json.MarshalEncode(enc, (*printReadyFileFields)(f))
}

// MarshalJSON encodes f with its unknown members.
func (f PrintReadyFile) MarshalJSON() ([]byte, error) { return marshalJSON(&f) }

// UnmarshalJSON decodes data into f, keeping the members it does not model.
func (f *PrintReadyFile) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, f) }

type fileFields File

// UnmarshalJSONFrom decodes f from dec, keeping the members it does not model.
func (f *File) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	return decodeFields(dec, (*fileFields)(f))
}

// MarshalJSONTo encodes f to enc with its unknown members.
func (f *File) MarshalJSONTo(enc *jsontext.Encoder) error {
	return json.MarshalEncode(enc, (*fileFields)(f))
}

// MarshalJSON encodes f with its unknown members.
func (f File) MarshalJSON() ([]byte, error) { return marshalJSON(&f) }

// UnmarshalJSON decodes data into f, keeping the members it does not model.
func (f *File) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, f) }

type orderShipmentFields OrderShipment

// UnmarshalJSONFrom decodes s from dec, keeping the members it does not model.
func (s *OrderShipment) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	return decodeFields(dec, (*orderShipmentFields)(s))
}

// MarshalJSONTo encodes s to enc with its unknown members.
func (s *OrderShipment) MarshalJSONTo(enc *jsontext.Encoder) error {
	return json.MarshalEncode(enc, (*orderShipmentFields)(s))
}

// MarshalJSON encodes s with its unknown members.
func (s OrderShipment) MarshalJSON() ([]byte, error) { return marshalJSON(&s) }

// UnmarshalJSON decodes data into s, keeping the members it does not model.
func (s *OrderShipment) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, s) }

type shippingCarrierFields ShippingCarrier

// UnmarshalJSONFrom decodes c from dec, keeping the members it does not model.
func (c *ShippingCarrier) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	return decodeFields(dec, (*shippingCarrierFields)(c))
}

// MarshalJSONTo encodes c to enc with its unknown members.
func (c *ShippingCarrier) MarshalJSONTo(enc *jsontext.Encoder) error {
	return json.MarshalEncode(enc, (*shippingCarrierFields)(c))
}

// MarshalJSON encodes c with its unknown members.
func (c ShippingCarrier) MarshalJSON() ([]byte, error) { return marshalJSON(&c) }

// UnmarshalJSON decodes data into c, keeping the members it does not model.
func (c *ShippingCarrier) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, c) }

type shippingMethodFields ShippingMethod

// UnmarshalJSONFrom decodes m from dec, keeping the members it does not model.
func (m *ShippingMethod) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	return decodeFields(dec, (*shippingMethodFields)(m))
}

// MarshalJSONTo encodes m to enc with its unknown members.
func (m *ShippingMethod) MarshalJSONTo(enc *jsontext.Encoder) error {
	return json.MarshalEncode(enc, (*shippingMethodFields)(m))
}

// MarshalJSON encodes m with its unknown members.
func (m ShippingMethod) MarshalJSON() ([]byte, error) { return marshalJSON(&m) }

// UnmarshalJSON decodes data into m, keeping the members it does not model.
func (m *ShippingMethod) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, m) }

type orderNoteFields OrderNote

// UnmarshalJSONFrom decodes n from dec, keeping the members it does not model.
func (n *OrderNote) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	return decodeFields(dec, (*orderNoteFields)(n))
}

// MarshalJSONTo encodes n to enc with its unknown members.
func (n *OrderNote) MarshalJSONTo(enc *jsontext.Encoder) error {
	return json.MarshalEncode(enc, (*orderNoteFields)(n))
}

// MarshalJSON encodes n with its unknown members.
func (n OrderNote) MarshalJSON() ([]byte, error) { return marshalJSON(&n) }

// UnmarshalJSON decodes data into n, keeping the members it does not model.
func (n *OrderNote) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, n) }

type accountUserFields AccountUser

// UnmarshalJSONFrom decodes u from dec, keeping the members it does not model.
func (u *AccountUser) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	return decodeFields(dec, (*accountUserFields)(u))
}

// MarshalJSONTo encodes u to enc with its unknown members.
func (u *AccountUser) MarshalJSONTo(enc *jsontext.Encoder) error {
	return json.MarshalEncode(enc, (*accountUserFields)(u))
}

// MarshalJSON encodes u with its unknown members.
func (u AccountUser) MarshalJSON() ([]byte, error) { return marshalJSON(&u) }

// UnmarshalJSON decodes data into u, keeping the members it does not model.
func (u *AccountUser) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, u) }

type orderPromoCodeFields OrderPromoCode

// UnmarshalJSONFrom decodes p from dec, keeping the members it does not model.
func (p *OrderPromoCode) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	return decodeFields(dec, (*orderPromoCodeFields)(p))
}

// MarshalJSONTo encodes p to enc with its unknown members.
func (p *OrderPromoCode) MarshalJSONTo(enc *jsontext.Encoder) error {
	return json.MarshalEncode(enc, (*orderPromoCodeFields)(p))
}

// MarshalJSON encodes p with its unknown members.
func (p OrderPromoCode) MarshalJSON() ([]byte, error) { return marshalJSON(&p) }

// UnmarshalJSON decodes data into p, keeping the members it does not model.
func (p *OrderPromoCode) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, p) }

type promoCodeFields PromoCode

// UnmarshalJSONFrom decodes p from dec, keeping the members it does not model.
func (p *PromoCode) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	return decodeFields(dec, (*promoCodeFields)(p))
}

// MarshalJSONTo encodes p to enc with its unknown members.
func (p *PromoCode) MarshalJSONTo(enc *jsontext.Encoder) error {
	return json.MarshalEncode(enc, (*promoCodeFields)(p))
}

// MarshalJSON encodes p with its unknown members.
func (p PromoCode) MarshalJSON() ([]byte, error) { return marshalJSON(&p) }

// UnmarshalJSON decodes data into p, keeping the members it does not model.
func (p *PromoCode) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, p) }

type portalFields Portal

// UnmarshalJSONFrom decodes p from dec, keeping the members it does not model.
func (p *Portal) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	return decodeFields(dec, (*portalFields)(p))
}

// MarshalJSONTo encodes p to enc with its unknown members.
func (p *Portal) MarshalJSONTo(enc *jsontext.Encoder) error {
	return json.MarshalEncode(enc, (*portalFields)(p))
}

// MarshalJSON encodes p with its unknown members.
func (p Portal) MarshalJSON() ([]byte, error) { return marshalJSON(&p) }

// UnmarshalJSON decodes data into p, keeping the members it does not model.
func (p *Portal) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, p) }

type websiteUserFields WebsiteUser

// UnmarshalJSONFrom decodes u from dec, keeping the members it does not model.
func (u *WebsiteUser) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	return decodeFields(dec, (*websiteUserFields)(u))
}

// MarshalJSONTo encodes u to enc with its unknown members.
func (u *WebsiteUser) MarshalJSONTo(enc *jsontext.Encoder) error {
	return json.MarshalEncode(enc, (*websiteUserFields)(u))
}

// MarshalJSON encodes u with its unknown members.
func (u WebsiteUser) MarshalJSON() ([]byte, error) { return marshalJSON(&u) }

// UnmarshalJSON decodes data into u, keeping the members it does not model.
func (u *WebsiteUser) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, u) }

type paymentTransactionFields PaymentTransaction

// UnmarshalJSONFrom decodes t from dec, keeping the members it does not model.
func (t *PaymentTransaction) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	return decodeFields(dec, (*paymentTransactionFields)(t))
}

// MarshalJSONTo encodes t to enc with its unknown members.
func (t *PaymentTransaction) MarshalJSONTo(enc *jsontext.Encoder) error {
	return json.MarshalEncode(enc, (*paymentTransactionFields)(t))
}

// MarshalJSON encodes t with its unknown members.
func (t PaymentTransaction) MarshalJSON() ([]byte, error) { return marshalJSON(&t) }

// UnmarshalJSON decodes data into t, keeping the members it does not model.
func (t *PaymentTransaction) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, t) }

type messageFields Message

// UnmarshalJSONFrom decodes m from dec, keeping the members it does not model.
func (m *Message) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	return decodeFields(dec, (*messageFields)(m))
}

// MarshalJSONTo encodes m to enc with its unknown members.
func (m *Message) MarshalJSONTo(enc *jsontext.Encoder) error {
	return json.MarshalEncode(enc, (*messageFields)(m))
}

// MarshalJSON encodes m with its unknown members.
func (m Message) MarshalJSON() ([]byte, error) { return marshalJSON(&m) }

// UnmarshalJSON decodes data into m, keeping the members it does not model.
func (m *Message) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, m) }

type formFields Form

// UnmarshalJSONFrom decodes f from dec, keeping the members it does not model.
func (f *Form) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	return decodeFields(dec, (*formFields)(f))
}

// MarshalJSONTo encodes f to enc with its unknown members.
func (f *Form) MarshalJSONTo(enc *jsontext.Encoder) error {
	return json.MarshalEncode(enc, (*formFields)(f))
}

// MarshalJSON encodes f with its unknown members.
func (f Form) MarshalJSON() ([]byte, error) { return marshalJSON(&f) }

// UnmarshalJSON decodes data into f, keeping the members it does not model.
func (f *Form) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, f) }

type formSubmissionFields FormSubmission

// UnmarshalJSONFrom decodes fs from dec, keeping the members it does not model.
func (fs *FormSubmission) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	return decodeFields(dec, (*formSubmissionFields)(fs))
}

// MarshalJSONTo encodes fs to enc with its unknown members.
func (fs *FormSubmission) MarshalJSONTo(enc *jsontext.Encoder) error {
	return json.MarshalEncode(enc, (*formSubmissionFields)(fs))
}

// MarshalJSON encodes fs with its unknown members.
func (fs FormSubmission) MarshalJSON() ([]byte, error) { return marshalJSON(&fs) }

// UnmarshalJSON decodes data into fs, keeping the members it does not model.
func (fs *FormSubmission) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, fs) }

type formFieldFields FormField

// UnmarshalJSONFrom decodes f from dec, keeping the members it does not model.
func (f *FormField) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	return decodeFields(dec, (*formFieldFields)(f))
}

// MarshalJSONTo encodes f to enc with its unknown members.
func (f *FormField) MarshalJSONTo(enc *jsontext.Encoder) error {
	return json.MarshalEncode(enc, (*formFieldFields)(f))
}

// MarshalJSON encodes f with its unknown members.
func (f FormField) MarshalJSON() ([]byte, error) { return marshalJSON(&f) }

// UnmarshalJSON decodes data into f, keeping the members it does not model.
func (f *FormField) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, f) }

type listMetaFields ListMeta

// UnmarshalJSONFrom decodes m from dec, keeping the members it does not model.
func (m *ListMeta) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	return decodeFields(dec, (*listMetaFields)(m))
}

// MarshalJSONTo encodes m to enc with its unknown members.
func (m *ListMeta) MarshalJSONTo(enc *jsontext.Encoder) error {
	return json.MarshalEncode(enc, (*listMetaFields)(m))
}

// MarshalJSON encodes m with its unknown members.
func (m ListMeta) MarshalJSON() ([]byte, error) { return marshalJSON(&m) }

// UnmarshalJSON decodes data into m, keeping the members it does not model.
func (m *ListMeta) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, m) }

type paginationFields Pagination

// UnmarshalJSONFrom decodes p from dec, keeping the members it does not model.
func (p *Pagination) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	return decodeFields(dec, (*paginationFields)(p))
}

// MarshalJSONTo encodes p to enc with its unknown members.
func (p *Pagination) MarshalJSONTo(enc *jsontext.Encoder) error {
	return json.MarshalEncode(enc, (*paginationFields)(p))
}

// MarshalJSON encodes p with its unknown members.
func (p Pagination) MarshalJSON() ([]byte, error) { return marshalJSON(&p) }

// UnmarshalJSON decodes data into p, keeping the members it does not model.
func (p *Pagination) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, p) }

type pageFields[T any] Page[T]

// UnmarshalJSONFrom decodes p from dec, keeping the members it does not model.
func (p *Page[T]) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	return decodeFields(dec, (*pageFields[T])(p))
}

// MarshalJSONTo encodes p to enc with its unknown members.
func (p *Page[T]) MarshalJSONTo(enc *jsontext.Encoder) error {
	return json.MarshalEncode(enc, (*pageFields[T])(p))
}

// MarshalJSON encodes p with its unknown members.
func (p Page[T]) MarshalJSON() ([]byte, error) { return marshalJSON(&p) }

// UnmarshalJSON decodes data into p, keeping the members it does not model.
func (p *Page[T]) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, p) }
