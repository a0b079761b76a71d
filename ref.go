package ordermsg

import (
	"fmt"
	"io"
	"strconv"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/ordermsg/ordermsg-go/internal/jsontok"
)

// refForm is the wire form a Ref was decoded from, which encoding writes back.
type refForm uint8

const (
	formAbsent refForm = iota // the field was not in the JSON at all
	formNumber                // an integer id, including 0
	formNull                  // JSON null
	formObject                // an expanded object
)

// Ref is a field that refers to another resource. The API sends the
// resource's integer id by default and the whole object when the matching
// include is requested; an absent reference is sent as 0 in some places and
// as null in others. Ref keeps what the wire said, and encoding writes back
// the same form: a number, 0, null or the object. The zero Ref stands for a
// field that was not in the response.
type Ref[T any] struct {
	ID       int64 // the referenced resource's id, also when expanded; 0 when there is none
	Expanded *T    // the referenced resource when the response expanded it
	form     refForm
}

// NewRef returns a reference that encodes as the bare id, including 0.
func NewRef[T any](id int64) Ref[T] { return Ref[T]{ID: id, form: formNumber} }

// NullRef returns a reference that encodes as JSON null.
func NullRef[T any]() Ref[T] { return Ref[T]{form: formNull} }

// ExpandedRef returns a reference that encodes as the object v. Its ID is
// v's id. A nil v gives NullRef.
func ExpandedRef[T any](v *T) Ref[T] {
	if v == nil {
		return NullRef[T]()
	}
	return Ref[T]{ID: idOf(v), Expanded: v, form: formObject}
}

// IsExpanded reports whether the reference holds the whole object.
func (r Ref[T]) IsExpanded() bool { return r.Expanded != nil }

// IsNull reports whether the reference was JSON null.
func (r Ref[T]) IsNull() bool { return r.Expanded == nil && r.ID == 0 && r.form == formNull }

// IsZero reports whether the field was absent, for encoding/json's omitzero.
func (r Ref[T]) IsZero() bool { return r.Expanded == nil && r.ID == 0 && r.form == formAbsent }

// MarshalJSON writes the reference in the form it was decoded from.
func (r Ref[T]) MarshalJSON() ([]byte, error) { return marshalJSON(&r) }

// UnmarshalJSON accepts an integer id, null, or the expanded object.
func (r *Ref[T]) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, r) }

// UnmarshalJSONFrom accepts an integer id, null, or the expanded object (encoding/json/v2).
func (r *Ref[T]) UnmarshalJSONFrom(dec *jsontext.Decoder) error { return decodeTop(dec, r) }

func (r *Ref[T]) decodeFrom(dec *jsontext.Decoder, st *decodeState) error {
	if null, err := jsontok.ReadNull(dec); null {
		*r = NullRef[T]()
		return err
	}
	switch k := dec.PeekKind(); k {
	case '{':
		v := new(T)
		if err := decodeValue(dec, st, v); err != nil {
			return err
		}
		*r = ExpandedRef(v)
		return nil
	case '0':
		id, err := readRefID(dec)
		*r = NewRef[T](id)
		return err
	default:
		return notARef(k)
	}
}

// validateFrom checks a reference as decodeFrom decodes it.
func (*Ref[T]) validateFrom(dec *jsontext.Decoder, st *decodeState) error {
	if null, err := jsontok.ReadNull(dec); null {
		return err
	}
	switch k := dec.PeekKind(); k {
	case '{':
		return validateValue[T](dec, st)
	case '0':
		_, err := readRefID(dec)
		return err
	default:
		return notARef(k)
	}
}

// readRefID reads a reference's id, the next value, a number: the id, and
// an error when it is not an int64 (with the value Token.Int gives then).
func readRefID(dec *jsontext.Decoder) (int64, error) {
	tok, err := dec.ReadToken()
	if err != nil {
		return 0, err
	}
	id, err := tok.Int()
	if err != nil {
		return id, jsontok.BadValue(dec, jsontext.Value(tok.String()), err)
	}
	return id, nil
}

// notARef is the error of a reference whose value is of kind k.
func notARef(k jsontext.Kind) error {
	return fmt.Errorf("expected an id or an object, got %s", jsontok.KindName(k))
}

// MarshalJSONTo writes the reference in the form it was decoded from (encoding/json/v2).
func (r *Ref[T]) MarshalJSONTo(enc *jsontext.Encoder) error {
	switch {
	case r.Expanded != nil:
		return json.MarshalEncode(enc, r.Expanded)
	case r.ID != 0 || r.form == formNumber:
		return enc.WriteToken(jsontext.Int(r.ID))
	default:
		return enc.WriteToken(jsontext.Null)
	}
}

// String returns the id, "null" for a null reference, or "" for an absent one.
func (r Ref[T]) String() string {
	switch {
	case r.Expanded != nil || r.ID != 0 || r.form == formNumber:
		return strconv.FormatInt(r.ID, 10)
	case r.form == formNull:
		return "null"
	}
	return ""
}

// Format prints the reference for fmt: %v and %s show String; %+v and %#v show
// the expanded object if any (else String). Internal fields are never shown.
func (r Ref[T]) Format(f fmt.State, verb rune) {
	if r.Expanded != nil && (f.Flag('+') || f.Flag('#')) {
		fmt.Fprintf(f, fmt.FormatString(f, verb), r.Expanded)
		return
	}
	_, _ = io.WriteString(f, r.String())
}

// Nullable is a field that is either an object or JSON null, and that some
// responses leave out altogether (an item's attributes: an object for an
// order_item, null for a versadoc_order_item, absent without the include).
type Nullable[T any] struct {
	Value *T // the object; nil when the field was null or absent (IsNull tells them apart)
	null  bool
}

// Null returns a Nullable that encodes as JSON null.
func Null[T any]() Nullable[T] { return Nullable[T]{null: true} }

// IsNull reports whether the field was JSON null.
func (n Nullable[T]) IsNull() bool { return n.Value == nil && n.null }

// IsZero reports whether the field was absent, for encoding/json's omitzero.
func (n Nullable[T]) IsZero() bool { return n.Value == nil && !n.null }

// MarshalJSON writes the object, or null.
func (n Nullable[T]) MarshalJSON() ([]byte, error) { return marshalJSON(&n) }

// UnmarshalJSON accepts the object or null.
func (n *Nullable[T]) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, n) }

// UnmarshalJSONFrom accepts the object or null (encoding/json/v2).
func (n *Nullable[T]) UnmarshalJSONFrom(dec *jsontext.Decoder) error { return decodeTop(dec, n) }

func (n *Nullable[T]) decodeFrom(dec *jsontext.Decoder, st *decodeState) error {
	if null, err := jsontok.ReadNull(dec); null {
		*n = Null[T]()
		return err
	}
	if k := dec.PeekKind(); k != '{' {
		return notNullable(k)
	}
	*n = Nullable[T]{Value: new(T)}
	return decodeValue(dec, st, n.Value)
}

// validateFrom checks an object or null as decodeFrom decodes it.
func (*Nullable[T]) validateFrom(dec *jsontext.Decoder, st *decodeState) error {
	if null, err := jsontok.ReadNull(dec); null {
		return err
	}
	if k := dec.PeekKind(); k != '{' {
		return notNullable(k)
	}
	return validateValue[T](dec, st)
}

// notNullable is the error of a Nullable whose value is of kind k.
func notNullable(k jsontext.Kind) error {
	return fmt.Errorf("expected an object or null, got %s", jsontok.KindName(k))
}

// MarshalJSONTo writes the object, or null (encoding/json/v2).
func (n *Nullable[T]) MarshalJSONTo(enc *jsontext.Encoder) error {
	if n.Value == nil {
		return enc.WriteToken(jsontext.Null)
	}
	return json.MarshalEncode(enc, n.Value)
}

// identified is implemented by every resource that can be the target of a
// Ref. A constraint on Ref's T would break callers' generic code over Ref[T]
// (as in this repository's CLI, fake and mirror), so idOf finds the method at
// run time, and TestEveryRefTargetHasAnID checks every target has it.
type identified interface{ refID() int64 }

// idOf is v's id, or 0 for a type that is not identified.
func idOf[T any](v *T) int64 {
	if r, ok := any(v).(identified); ok {
		return r.refID()
	}
	return 0
}
