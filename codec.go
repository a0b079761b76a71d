package ordermsg

// The JSON methods of the resources. Each resource has a twin type without
// methods (orderFields for Order, ...) that encoding/json/v2 codes from the
// struct tags, unknown members included; jsonFields hands it to the
// caller-side arshalers of codecOptions (see decode.go). MarshalJSON and
// UnmarshalJSON make encoding/json (v1) and v2 without options give the same
// results as the client.

// codecs lists the types of the API with code of their own by name (see
// anyCodec).
var codecs = []codec{
	structCodec[Order](), structCodec[OrderPricing](), structCodec[OrderItem](),
	structCodec[OrderItemPricing](), structCodec[PrintReadyFile](), structCodec[File](),
	structCodec[OrderShipment](), structCodec[ShippingCarrier](), structCodec[ShippingMethod](),
	structCodec[OrderNote](), structCodec[AccountUser](), structCodec[OrderPromoCode](),
	structCodec[PromoCode](), structCodec[Portal](), structCodec[WebsiteUser](),
	structCodec[PaymentTransaction](), structCodec[Message](), structCodec[Form](),
	structCodec[FormSubmission](), structCodec[FormField](), structCodec[ListMeta](),
	structCodec[Pagination](), structCodec[Page[Order]](), structCodec[Page[Message]](),
	valueCodec[Ref[Message]](), valueCodec[Ref[Order]](), valueCodec[Ref[Portal]](),
	valueCodec[Ref[OrderPromoCode]](), valueCodec[Ref[WebsiteUser]](), valueCodec[Ref[File]](),
	valueCodec[Ref[Form]](), valueCodec[Nullable[FormSubmission]](), valueCodec[FormFields](),
	valueCodec[FieldValues](), valueCodec[Timestamp](),
}

type orderFields Order

func (o *Order) jsonFields() any { return (*orderFields)(o) }

// MarshalJSON encodes o with its unknown members.
func (o Order) MarshalJSON() ([]byte, error) { return marshalJSON(&o) }

// UnmarshalJSON decodes data into o, keeping the members it does not model.
func (o *Order) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, o) }

type orderPricingFields OrderPricing

func (p *OrderPricing) jsonFields() any { return (*orderPricingFields)(p) }

// MarshalJSON encodes p with its unknown members.
func (p OrderPricing) MarshalJSON() ([]byte, error) { return marshalJSON(&p) }

// UnmarshalJSON decodes data into p, keeping the members it does not model.
func (p *OrderPricing) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, p) }

type orderItemFields OrderItem

func (it *OrderItem) jsonFields() any { return (*orderItemFields)(it) }

// MarshalJSON encodes it with its unknown members.
func (it OrderItem) MarshalJSON() ([]byte, error) { return marshalJSON(&it) }

// UnmarshalJSON decodes data into it, keeping the members it does not model.
func (it *OrderItem) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, it) }

type orderItemPricingFields OrderItemPricing

func (p *OrderItemPricing) jsonFields() any { return (*orderItemPricingFields)(p) }

// MarshalJSON encodes p with its unknown members.
func (p OrderItemPricing) MarshalJSON() ([]byte, error) { return marshalJSON(&p) }

// UnmarshalJSON decodes data into p, keeping the members it does not model.
func (p *OrderItemPricing) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, p) }

type printReadyFileFields PrintReadyFile

func (f *PrintReadyFile) jsonFields() any { return (*printReadyFileFields)(f) }

// MarshalJSON encodes f with its unknown members.
func (f PrintReadyFile) MarshalJSON() ([]byte, error) { return marshalJSON(&f) }

// UnmarshalJSON decodes data into f, keeping the members it does not model.
func (f *PrintReadyFile) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, f) }

type fileFields File

func (f *File) jsonFields() any { return (*fileFields)(f) }

// MarshalJSON encodes f with its unknown members.
func (f File) MarshalJSON() ([]byte, error) { return marshalJSON(&f) }

// UnmarshalJSON decodes data into f, keeping the members it does not model.
func (f *File) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, f) }

type orderShipmentFields OrderShipment

func (s *OrderShipment) jsonFields() any { return (*orderShipmentFields)(s) }

// MarshalJSON encodes s with its unknown members.
func (s OrderShipment) MarshalJSON() ([]byte, error) { return marshalJSON(&s) }

// UnmarshalJSON decodes data into s, keeping the members it does not model.
func (s *OrderShipment) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, s) }

type shippingCarrierFields ShippingCarrier

func (c *ShippingCarrier) jsonFields() any { return (*shippingCarrierFields)(c) }

// MarshalJSON encodes c with its unknown members.
func (c ShippingCarrier) MarshalJSON() ([]byte, error) { return marshalJSON(&c) }

// UnmarshalJSON decodes data into c, keeping the members it does not model.
func (c *ShippingCarrier) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, c) }

type shippingMethodFields ShippingMethod

func (m *ShippingMethod) jsonFields() any { return (*shippingMethodFields)(m) }

// MarshalJSON encodes m with its unknown members.
func (m ShippingMethod) MarshalJSON() ([]byte, error) { return marshalJSON(&m) }

// UnmarshalJSON decodes data into m, keeping the members it does not model.
func (m *ShippingMethod) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, m) }

type orderNoteFields OrderNote

func (n *OrderNote) jsonFields() any { return (*orderNoteFields)(n) }

// MarshalJSON encodes n with its unknown members.
func (n OrderNote) MarshalJSON() ([]byte, error) { return marshalJSON(&n) }

// UnmarshalJSON decodes data into n, keeping the members it does not model.
func (n *OrderNote) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, n) }

type accountUserFields AccountUser

func (u *AccountUser) jsonFields() any { return (*accountUserFields)(u) }

// MarshalJSON encodes u with its unknown members.
func (u AccountUser) MarshalJSON() ([]byte, error) { return marshalJSON(&u) }

// UnmarshalJSON decodes data into u, keeping the members it does not model.
func (u *AccountUser) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, u) }

type orderPromoCodeFields OrderPromoCode

func (p *OrderPromoCode) jsonFields() any { return (*orderPromoCodeFields)(p) }

// MarshalJSON encodes p with its unknown members.
func (p OrderPromoCode) MarshalJSON() ([]byte, error) { return marshalJSON(&p) }

// UnmarshalJSON decodes data into p, keeping the members it does not model.
func (p *OrderPromoCode) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, p) }

type promoCodeFields PromoCode

func (p *PromoCode) jsonFields() any { return (*promoCodeFields)(p) }

// MarshalJSON encodes p with its unknown members.
func (p PromoCode) MarshalJSON() ([]byte, error) { return marshalJSON(&p) }

// UnmarshalJSON decodes data into p, keeping the members it does not model.
func (p *PromoCode) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, p) }

type portalFields Portal

func (p *Portal) jsonFields() any { return (*portalFields)(p) }

// MarshalJSON encodes p with its unknown members.
func (p Portal) MarshalJSON() ([]byte, error) { return marshalJSON(&p) }

// UnmarshalJSON decodes data into p, keeping the members it does not model.
func (p *Portal) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, p) }

type websiteUserFields WebsiteUser

func (u *WebsiteUser) jsonFields() any { return (*websiteUserFields)(u) }

// MarshalJSON encodes u with its unknown members.
func (u WebsiteUser) MarshalJSON() ([]byte, error) { return marshalJSON(&u) }

// UnmarshalJSON decodes data into u, keeping the members it does not model.
func (u *WebsiteUser) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, u) }

type paymentTransactionFields PaymentTransaction

func (t *PaymentTransaction) jsonFields() any { return (*paymentTransactionFields)(t) }

// MarshalJSON encodes t with its unknown members.
func (t PaymentTransaction) MarshalJSON() ([]byte, error) { return marshalJSON(&t) }

// UnmarshalJSON decodes data into t, keeping the members it does not model.
func (t *PaymentTransaction) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, t) }

type messageFields Message

func (m *Message) jsonFields() any { return (*messageFields)(m) }

// MarshalJSON encodes m with its unknown members.
func (m Message) MarshalJSON() ([]byte, error) { return marshalJSON(&m) }

// UnmarshalJSON decodes data into m, keeping the members it does not model.
func (m *Message) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, m) }

type formFields Form

func (f *Form) jsonFields() any { return (*formFields)(f) }

// MarshalJSON encodes f with its unknown members.
func (f Form) MarshalJSON() ([]byte, error) { return marshalJSON(&f) }

// UnmarshalJSON decodes data into f, keeping the members it does not model.
func (f *Form) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, f) }

type formSubmissionFields FormSubmission

func (fs *FormSubmission) jsonFields() any { return (*formSubmissionFields)(fs) }

// MarshalJSON encodes fs with its unknown members.
func (fs FormSubmission) MarshalJSON() ([]byte, error) { return marshalJSON(&fs) }

// UnmarshalJSON decodes data into fs, keeping the members it does not model.
func (fs *FormSubmission) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, fs) }

type formFieldFields FormField

func (f *FormField) jsonFields() any { return (*formFieldFields)(f) }

// MarshalJSON encodes f with its unknown members.
func (f FormField) MarshalJSON() ([]byte, error) { return marshalJSON(&f) }

// UnmarshalJSON decodes data into f, keeping the members it does not model.
func (f *FormField) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, f) }

type listMetaFields ListMeta

func (m *ListMeta) jsonFields() any { return (*listMetaFields)(m) }

// MarshalJSON encodes m with its unknown members.
func (m ListMeta) MarshalJSON() ([]byte, error) { return marshalJSON(&m) }

// UnmarshalJSON decodes data into m, keeping the members it does not model.
func (m *ListMeta) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, m) }

type paginationFields Pagination

func (p *Pagination) jsonFields() any { return (*paginationFields)(p) }

// MarshalJSON encodes p with its unknown members.
func (p Pagination) MarshalJSON() ([]byte, error) { return marshalJSON(&p) }

// UnmarshalJSON decodes data into p, keeping the members it does not model.
func (p *Pagination) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, p) }

type pageFields[T any] Page[T]

func (p *Page[T]) jsonFields() any { return (*pageFields[T])(p) }

// MarshalJSON encodes p with its unknown members.
func (p Page[T]) MarshalJSON() ([]byte, error) { return marshalJSON(&p) }

// UnmarshalJSON decodes data into p, keeping the members it does not model.
func (p *Page[T]) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, p) }
