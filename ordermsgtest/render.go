package ordermsgtest

import (
	"strings"

	"github.com/ordermsg/ordermsg-go"
)

// includeSet holds the includes of a request.
type includeSet map[string]bool

// under reports whether any include starts with prefix + ".".
func (s includeSet) under(prefix string) bool {
	for inc := range s {
		if strings.HasPrefix(inc, prefix+".") {
			return true
		}
	}
	return false
}

// view is where a record is shown; the spec's conventions differ by it.
type view int

const (
	retrieved view = iota // the record of a retrieve operation
	listed                // a record in a list
	embedded              // an order inside a message, or a message inside an order
)

// idRef is r reduced to its id, written as a number (0 when none).
func idRef[T any](r ordermsg.Ref[T]) ordermsg.Ref[T] { return ordermsg.NewRef[T](r.ID) }

// expandOrID is r expanded when the include asks for it, else its id; an
// absent reference stays as the canonical record has it (0 or null).
func expandOrID[T any](r ordermsg.Ref[T], include bool) ordermsg.Ref[T] {
	if r.IsNull() || include {
		return r
	}
	return idRef(r)
}

// renderOrder returns what the API shows of o with the includes inc, where
// it is shown (retrieved, listed or embedded). For an order embedded in a
// message, items says whether the message asked for order.items.
func (w *Website) renderOrder(o *ordermsg.Order, inc includeSet, where view, items bool) *ordermsg.Order {
	out := *o
	out.AdditionalInformation = keepIf(inc["additional_information"], o.AdditionalInformation)
	out.BillingAddress = keepIf(inc["billing_address"], o.BillingAddress)
	out.Notes = keepIf(inc["notes"], o.Notes)
	out.PaymentTransactions = keepIf(inc["payment_transactions"], o.PaymentTransactions)
	out.Portal = expandOrID(o.Portal, inc["portal"])
	out.PromoCode = expandOrID(o.PromoCode, inc["promo_code"])

	out.Items = nil
	if items || inc.under("items") {
		out.Items = make([]ordermsg.OrderItem, len(o.Items))
		for i := range o.Items {
			out.Items[i] = renderItem(&o.Items[i], inc)
		}
	}
	out.Shipments = nil
	if inc.under("shipments") {
		out.Shipments = make([]ordermsg.OrderShipment, len(o.Shipments))
		for i, s := range o.Shipments {
			s.ShippingAddress = keepIf(inc["shipments.shipping_address"], s.ShippingAddress)
			s.ShippingCarrier = keepIf(inc["shipments.shipping_carrier"], s.ShippingCarrier)
			s.ShippingMethod = keepIf(inc["shipments.shipping_method"], s.ShippingMethod)
			out.Shipments[i] = s
		}
	}
	out.Message = idRef(o.Message)
	if inc["message"] && where != embedded {
		if m := w.Message(o.Message.ID); m != nil {
			out.Message = ordermsg.ExpandedRef(w.renderMessage(m, nil, embedded))
		}
	}
	switch {
	case where == embedded:
		// Inside a message the order's user is the integer id (0 when none,
		// as everywhere in a message record).
		out.User = idRef(o.User)
	default:
		// An order with no user shows null, retrieved or listed.
		out.User = expandOrID(o.User, inc["user"])
	}
	return &out
}

func renderItem(it *ordermsg.OrderItem, inc includeSet) ordermsg.OrderItem {
	out := *it
	if !inc["items.attributes"] {
		out.Attributes = ordermsg.Nullable[ordermsg.FormSubmission]{}
	}
	out.Portal = expandOrID(it.Portal, inc["items.portal"])
	if !inc["items.print_ready_files"] || !it.IsVersadoc() {
		out.PrintReadyFiles = nil
	}
	return out
}

// renderMessage returns what the API shows of m with the includes inc, where
// it is shown (retrieved, listed or embedded).
func (w *Website) renderMessage(m *ordermsg.Message, inc includeSet, where view) *ordermsg.Message {
	out := *m
	out.Form = expandOrID(m.Form, inc["form"])
	out.FormSubmission = keepIf(inc["form_submission"], m.FormSubmission)
	out.PaymentTransactions = keepIf(inc["payment_transactions"], m.PaymentTransactions)
	out.Portal = expandOrID(m.Portal, inc["portal"])

	// file: the id, 0 by default; with include file the object, or null
	// when the message has no file.
	out.File = idRef(m.File)
	if inc["file"] {
		out.File = m.File
	}
	out.Order = idRef(m.Order)
	if (inc["order"] || inc["order.items"]) && m.Order.Expanded != nil {
		out.Order = ordermsg.ExpandedRef(w.renderOrder(m.Order.Expanded, nil, embedded, inc["order.items"]))
	}
	// user: 0 when none in a retrieved message; null when none in a list
	// with include user; the object with include user.
	switch {
	case m.User.IsNull() && where == listed && inc["user"]:
		out.User = ordermsg.NullRef[ordermsg.WebsiteUser]()
	case inc["user"] && !m.User.IsNull():
		out.User = m.User
	default:
		out.User = idRef(m.User)
	}
	return &out
}

// keepIf returns v when the include asked for it, else v's zero value (nil).
func keepIf[T any](include bool, v T) T {
	if include {
		return v
	}
	var zero T
	return zero
}

// ListedOrders returns the website's orders as the API's list operation
// shows them with includes (an include the fake does not know changes
// nothing), newest first as the fake lists them by default: fixtures for
// ListResponder and PageResponder. The records of a Website are canonical,
// with every include's data; these are what a response holds. For a website
// whose handler adds records while it serves, call it inside
// Handler.Snapshot.
//
// File links differ from the fake's. A file (a message's, a print-ready
// file) keeps the dataset's link: a url on https://files.example.com, which
// nothing serves, and an expires a day after its record's creation (for
// generated records, in 2024: long past). The fake instead mints a signed
// url on its own origin, valid for FileLinks.TTL, each time it serves a
// record. A test that downloads files serves them itself, or uses the fake
// (NewServer).
func (w *Website) ListedOrders(includes ...ordermsg.OrderInclude) []*ordermsg.Order {
	inc := includeSet(includeNames(includes))
	return listAll(w.Orders, orderOps, func(o *ordermsg.Order) *ordermsg.Order { return w.renderOrder(o, inc, listed, false) })
}

// ListedMessages returns the website's messages as ListedOrders returns
// its orders, with the dataset's file links (expired, served by nothing).
func (w *Website) ListedMessages(includes ...ordermsg.MessageInclude) []*ordermsg.Message {
	inc := includeSet(includeNames(includes))
	return listAll(w.Messages, messageOps, func(m *ordermsg.Message) *ordermsg.Message { return w.renderMessage(m, inc, listed) })
}

// RetrievedOrder returns the order with the given id as the API's retrieve
// operation shows it with includes, or nil when the website has none: a
// fixture for RecordResponder. Its file links are the dataset's, expired
// and served by nothing, as ListedOrders says.
func (w *Website) RetrievedOrder(id int64, includes ...ordermsg.OrderInclude) *ordermsg.Order {
	if o := w.Order(id); o != nil {
		return w.renderOrder(o, includeSet(includeNames(includes)), retrieved, false)
	}
	return nil
}

// RetrievedMessage returns the message with the given id as RetrievedOrder
// returns an order, with the dataset's file links (expired, served by
// nothing).
func (w *Website) RetrievedMessage(id int64, includes ...ordermsg.MessageInclude) *ordermsg.Message {
	if m := w.Message(id); m != nil {
		return w.renderMessage(m, includeSet(includeNames(includes)), retrieved)
	}
	return nil
}

// listAll returns every record as the fake's default list shows them, each
// rendered.
func listAll[T any](records []*T, ops kindOps[T], render func(*T) *T) []*T {
	return listPage(records, listQuery{page: 1, count: max(len(records), 1)}, "", ops, render).Data
}
