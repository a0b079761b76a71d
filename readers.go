package ordermsg

import (
	"encoding/json"
	"strconv"
)

// The hand-written decoders of the resources, on the reader of jsonscan.go.
// Each readFrom reads one JSON object into its receiver with encoding/json's
// semantics for what the API sends: keys it does not know are skipped, null
// leaves a field as it is, a list or reference takes the form it was sent in.
// One difference: keys match exactly, where encoding/json would also take
// "ID" or "Object" for "id" and "object"; the API sends lowercase keys.
// The round-trip tests decode every fixture and compare its re-encoding with
// the fixture, so a field missing here fails them.

// readable is a type with a hand-written decoder.
type readable interface{ readFrom(r *jsonReader) error }

// readInto reads the next value into v, with v's hand-written decoder when it
// has one.
func readInto[T any](r *jsonReader, v *T) error {
	if rd, ok := any(v).(readable); ok {
		return rd.readFrom(r)
	}
	raw, err := r.value()
	if err != nil {
		return err
	}
	return json.Unmarshal(raw, v)
}

// readWhole decodes data, which must hold one value and nothing after it.
func readWhole[T any](data []byte, v *T) error {
	r := jsonReader{data: data}
	if err := readInto(&r, v); err != nil {
		return err
	}
	return r.end()
}

// listInto reads an array into *dst: nil for null, else a non-nil slice.
func listInto[T any](r *jsonReader, dst *[]T) error {
	var out []T
	err := r.array(func() { out = make([]T, 0, 4) }, func(int) error {
		out = append(out, *new(T))
		return readInto(r, &out[len(out)-1])
	})
	*dst = out
	return err
}

// ptrInto reads an object into a new *T, or nil for null.
func ptrInto[T any](r *jsonReader, dst **T) error {
	if r.peek() == 'n' {
		*dst = nil
		return r.null("object")
	}
	v := new(T)
	*dst = v
	return readInto(r, v)
}

// refInto reads an id, null or an expanded object into a Ref.
func refInto[T any](r *jsonReader, dst *Ref[T]) error {
	switch r.peek() {
	case 'n':
		*dst = Ref[T]{form: formNull}
		return r.null("id or object")
	case '{':
		v := new(T)
		if err := readInto(r, v); err != nil {
			return err
		}
		*dst = Ref[T]{ID: idOf(v), Expanded: v, form: formObject}
		return nil
	}
	raw, err := r.value()
	if err != nil {
		return err
	}
	id, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil {
		r.i -= len(raw)
		return r.kindError("id or object")
	}
	*dst = Ref[T]{ID: id, form: formNumber}
	return nil
}

// nullableInto reads an object or null into a Nullable.
func nullableInto[T any](r *jsonReader, dst *Nullable[T]) error {
	switch r.peek() {
	case 'n':
		*dst = Nullable[T]{null: true}
		return r.null("object")
	case '{':
		v := new(T)
		*dst = Nullable[T]{Value: v}
		return readInto(r, v)
	}
	return r.kindError("object or null")
}

// UnmarshalJSON decodes an order.
func (o *Order) UnmarshalJSON(data []byte) error { return readWhole(data, o) }

// UnmarshalJSON decodes a message.
func (m *Message) UnmarshalJSON(data []byte) error { return readWhole(data, m) }

func (o *Order) readFrom(r *jsonReader) error {
	return r.object(func(key []byte) error {
		switch string(keyName(key)) {
		case "object":
			return r.stringInto(&o.Object)
		case "id":
			return r.int64Into(&o.ID)
		case "additional_information":
			return ptrInto(r, &o.AdditionalInformation)
		case "amount_paid":
			return r.int64Into(&o.AmountPaid)
		case "billing_address":
			return ptrInto(r, &o.BillingAddress)
		case "content_catalog":
			return r.int64Into(&o.ContentCatalog)
		case "currency":
			return r.stringInto(&o.Currency)
		case "date_created":
			return r.unmarshalerInto(&o.DateCreated)
		case "is_pay_later":
			return r.boolInto(&o.IsPayLater)
		case "items":
			return listInto(r, &o.Items)
		case "message":
			return refInto(r, &o.Message)
		case "notes":
			return listInto(r, &o.Notes)
		case "order_type":
			return r.stringInto((*string)(&o.OrderType))
		case "payment_transactions":
			return listInto(r, &o.PaymentTransactions)
		case "portal":
			return refInto(r, &o.Portal)
		case "pricing":
			return o.Pricing.readFrom(r)
		case "promo_code":
			return refInto(r, &o.PromoCode)
		case "shipments":
			return listInto(r, &o.Shipments)
		case "shipping_tax_percentage":
			return r.float64Into(&o.ShippingTaxPercentage)
		case "status":
			return r.stringInto((*string)(&o.Status))
		case "user":
			return refInto(r, &o.User)
		}
		return r.skip()
	})
}

func (p *OrderPricing) readFrom(r *jsonReader) error {
	return r.object(func(key []byte) error {
		switch string(keyName(key)) {
		case "object":
			return r.stringInto(&p.Object)
		case "shipping":
			return r.int64Into(&p.Shipping)
		case "shipping_discount":
			return r.int64Into(&p.ShippingDiscount)
		case "subtotal":
			return r.int64Into(&p.Subtotal)
		case "subtotal_discount":
			return r.int64Into(&p.SubtotalDiscount)
		case "tax":
			return r.int64Into(&p.Tax)
		case "total":
			return r.int64Into(&p.Total)
		}
		return r.skip()
	})
}

func (it *OrderItem) readFrom(r *jsonReader) error {
	return r.object(func(key []byte) error {
		switch string(keyName(key)) {
		case "object":
			return r.stringInto(&it.Object)
		case "id":
			return r.int64Into(&it.ID)
		case "attributes":
			return nullableInto(r, &it.Attributes)
		case "catalog_item":
			return r.int64Into(&it.CatalogItem)
		case "content_catalog":
			return r.int64Into(&it.ContentCatalog)
		case "date_created":
			return r.unmarshalerInto(&it.DateCreated)
		case "description":
			return r.stringInto(&it.Description)
		case "exempt_from_shipping":
			return r.boolInto(&it.ExemptFromShipping)
		case "is_taxable":
			return r.boolInto(&it.IsTaxable)
		case "portal":
			return refInto(r, &it.Portal)
		case "pricing":
			return it.Pricing.readFrom(r)
		case "quantity":
			return r.int64Into(&it.Quantity)
		case "shipment":
			return r.int64Into(&it.Shipment)
		case "short_description":
			return r.stringInto(&it.ShortDescription)
		case "sku":
			return r.stringInto(&it.SKU)
		case "status":
			return r.stringInto((*string)(&it.Status))
		case "tax_class":
			return r.int64Into(&it.TaxClass)
		case "tax_percentage":
			return r.float64Into(&it.TaxPercentage)
		case "title":
			return r.stringInto(&it.Title)
		case "weight":
			return r.float64Into(&it.Weight)
		case "print_ready_files":
			return listInto(r, &it.PrintReadyFiles)
		case "versadoc_order_form":
			return ptrInto(r, &it.VersadocOrderForm)
		}
		return r.skip()
	})
}

func (p *OrderItemPricing) readFrom(r *jsonReader) error {
	return r.object(func(key []byte) error {
		switch string(keyName(key)) {
		case "object":
			return r.stringInto(&p.Object)
		case "unit":
			return r.int64Into(&p.Unit)
		case "volume":
			return r.int64Into(&p.Volume)
		case "subtotal":
			return r.int64Into(&p.Subtotal)
		}
		return r.skip()
	})
}

func (f *PrintReadyFile) readFrom(r *jsonReader) error {
	return r.object(func(key []byte) error {
		switch string(keyName(key)) {
		case "object":
			return r.stringInto(&f.Object)
		case "id":
			return r.int64Into(&f.ID)
		case "date_created":
			return r.unmarshalerInto(&f.DateCreated)
		case "tag":
			return r.stringInto(&f.Tag)
		case "status":
			return r.stringInto((*string)(&f.Status))
		case "file":
			return ptrInto(r, &f.File)
		}
		return r.skip()
	})
}

func (f *File) readFrom(r *jsonReader) error {
	return r.object(func(key []byte) error {
		switch string(keyName(key)) {
		case "object":
			return r.stringInto(&f.Object)
		case "id":
			return r.int64Into(&f.ID)
		case "filename":
			return r.stringInto(&f.Filename)
		case "url":
			return r.stringInto(&f.URL)
		case "expires":
			return r.unmarshalerInto(&f.Expires)
		}
		return r.skip()
	})
}

func (s *OrderShipment) readFrom(r *jsonReader) error {
	return r.object(func(key []byte) error {
		switch string(keyName(key)) {
		case "object":
			return r.stringInto(&s.Object)
		case "id":
			return r.int64Into(&s.ID)
		case "date_created":
			return r.unmarshalerInto(&s.DateCreated)
		case "date_shipped":
			return r.unmarshalerInto(&s.DateShipped)
		case "shipping_address":
			return ptrInto(r, &s.ShippingAddress)
		case "shipping_carrier":
			return ptrInto(r, &s.ShippingCarrier)
		case "shipping_method":
			return ptrInto(r, &s.ShippingMethod)
		case "shipping_notification_sent":
			return r.boolInto(&s.ShippingNotificationSent)
		case "status":
			return r.stringInto((*string)(&s.Status))
		case "tracking_number":
			return r.stringInto(&s.TrackingNumber)
		case "price":
			return r.int64Into(&s.Price)
		}
		return r.skip()
	})
}

func (c *ShippingCarrier) readFrom(r *jsonReader) error {
	return r.object(func(key []byte) error {
		switch string(keyName(key)) {
		case "object":
			return r.stringInto(&c.Object)
		case "id":
			return r.int64Into(&c.ID)
		case "carrier_type":
			return r.stringInto((*string)(&c.CarrierType))
		case "title":
			return r.stringInto(&c.Title)
		}
		return r.skip()
	})
}

// readTitled reads the shape {object, id, title} shared by shipping methods,
// portals and forms.
func (r *jsonReader) readTitled(object *string, id *int64, title *string) error {
	return r.object(func(key []byte) error {
		switch string(keyName(key)) {
		case "object":
			return r.stringInto(object)
		case "id":
			return r.int64Into(id)
		case "title":
			return r.stringInto(title)
		}
		return r.skip()
	})
}

func (m *ShippingMethod) readFrom(r *jsonReader) error {
	return r.readTitled(&m.Object, &m.ID, &m.Title)
}
func (p *Portal) readFrom(r *jsonReader) error { return r.readTitled(&p.Object, &p.ID, &p.Title) }
func (f *Form) readFrom(r *jsonReader) error   { return r.readTitled(&f.Object, &f.ID, &f.Title) }

func (n *OrderNote) readFrom(r *jsonReader) error {
	return r.object(func(key []byte) error {
		switch string(keyName(key)) {
		case "object":
			return r.stringInto(&n.Object)
		case "id":
			return r.int64Into(&n.ID)
		case "date_created":
			return r.unmarshalerInto(&n.DateCreated)
		case "note":
			return r.stringInto(&n.Note)
		case "user":
			return n.User.readFrom(r)
		}
		return r.skip()
	})
}

func (u *AccountUser) readFrom(r *jsonReader) error {
	return r.object(func(key []byte) error {
		switch string(keyName(key)) {
		case "object":
			return r.stringInto(&u.Object)
		case "id":
			return r.int64Into(&u.ID)
		case "username":
			return r.stringInto(&u.Username)
		}
		return r.skip()
	})
}

func (p *OrderPromoCode) readFrom(r *jsonReader) error {
	return r.object(func(key []byte) error {
		switch string(keyName(key)) {
		case "object":
			return r.stringInto(&p.Object)
		case "id":
			return r.int64Into(&p.ID)
		case "promo_code":
			return p.PromoCode.readFrom(r)
		case "shipping_discount":
			return r.int64Into(&p.ShippingDiscount)
		case "subtotal_discount":
			return r.int64Into(&p.SubtotalDiscount)
		}
		return r.skip()
	})
}

func (p *PromoCode) readFrom(r *jsonReader) error {
	return r.object(func(key []byte) error {
		switch string(keyName(key)) {
		case "object":
			return r.stringInto(&p.Object)
		case "id":
			return r.int64Into(&p.ID)
		case "promo_code":
			return r.stringInto(&p.PromoCode)
		}
		return r.skip()
	})
}

func (u *WebsiteUser) readFrom(r *jsonReader) error {
	return r.object(func(key []byte) error {
		switch string(keyName(key)) {
		case "object":
			return r.stringInto(&u.Object)
		case "id":
			return r.int64Into(&u.ID)
		case "third_party_identifier":
			return r.stringInto(&u.ThirdPartyIdentifier)
		case "username":
			return r.stringInto(&u.Username)
		}
		return r.skip()
	})
}

func (t *PaymentTransaction) readFrom(r *jsonReader) error {
	return r.object(func(key []byte) error {
		switch string(keyName(key)) {
		case "object":
			return r.stringInto(&t.Object)
		case "id":
			return r.int64Into(&t.ID)
		case "amount":
			return r.int64Into(&t.Amount)
		case "currency":
			return r.stringInto(&t.Currency)
		case "date_created":
			return r.unmarshalerInto(&t.DateCreated)
		case "is_recurring":
			return r.boolInto(&t.IsRecurring)
		case "payment_type":
			return r.stringInto((*string)(&t.PaymentType))
		case "test_mode":
			return r.boolInto(&t.TestMode)
		case "transaction_id":
			return r.stringInto(&t.TransactionID)
		case "transaction_status":
			return r.stringInto((*string)(&t.TransactionStatus))
		case "transaction_type":
			return r.stringInto((*string)(&t.TransactionType))
		}
		return r.skip()
	})
}

func (m *Message) readFrom(r *jsonReader) error {
	return r.object(func(key []byte) error {
		switch string(keyName(key)) {
		case "object":
			return r.stringInto(&m.Object)
		case "id":
			return r.int64Into(&m.ID)
		case "date_created":
			return r.unmarshalerInto(&m.DateCreated)
		case "event_submission":
			return r.int64Into(&m.EventSubmission)
		case "file":
			return refInto(r, &m.File)
		case "form":
			return refInto(r, &m.Form)
		case "form_submission":
			return ptrInto(r, &m.FormSubmission)
		case "message_tracking_number":
			return r.stringInto(&m.MessageTrackingNumber)
		case "message_type":
			return r.stringInto((*string)(&m.MessageType))
		case "online_proof":
			return r.int64Into(&m.OnlineProof)
		case "order":
			return refInto(r, &m.Order)
		case "payment_transactions":
			return listInto(r, &m.PaymentTransactions)
		case "portal":
			return refInto(r, &m.Portal)
		case "user":
			return refInto(r, &m.User)
		}
		return r.skip()
	})
}

// readPage reads a list page; a null record is kept as nil, for decodePage to
// refuse.
func readPage[T any](r *jsonReader, p *Page[T]) error {
	return r.object(func(key []byte) error {
		switch string(keyName(key)) {
		case "object":
			return r.stringInto(&p.Object)
		case "data":
			return r.array(func() { p.Data = make([]*T, 0, 32) }, func(int) error {
				if r.peek() == 'n' {
					p.Data = append(p.Data, nil)
					return r.null("object")
				}
				v := new(T)
				p.Data = append(p.Data, v)
				return readInto(r, v)
			})
		case "meta":
			return r.object(func(key []byte) error {
				if string(keyName(key)) == "pagination" {
					return p.Meta.Pagination.readFrom(r)
				}
				return r.skip()
			})
		}
		return r.skip()
	})
}

func (p *Pagination) readFrom(r *jsonReader) error {
	return r.object(func(key []byte) error {
		switch string(keyName(key)) {
		case "total":
			return r.intInto(&p.Total)
		case "count":
			return r.intInto(&p.Count)
		case "per_page":
			return r.intInto(&p.PerPage)
		case "current_page":
			return r.intInto(&p.CurrentPage)
		case "total_pages":
			return r.intInto(&p.TotalPages)
		}
		return r.skip()
	})
}

func (fs *FormSubmission) readFrom(r *jsonReader) error { return r.formSubmission(fs) }
