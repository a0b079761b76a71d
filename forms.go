package ordermsg

import (
	"bytes"
	stdjson "encoding/json"
	"errors"
	"fmt"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/ordermsg/ordermsg-go/internal/jsontok"
)

// FormSubmission is the data of a submitted form: a billing or shipping
// address, additional information, an item's attributes, a versadoc order
// form, or a message's form submission.
type FormSubmission struct {
	Object  string         `json:"object"`
	Fields  FormFields     `json:"fields"`
	Unknown jsontext.Value `json:",embed"` // members the SDK does not model, as sent
}

// FormFields are the fields of a form submission. The API sends them as an
// object keyed by field id (f<digits>); FormFields keeps the response's order
// and encodes back to an object in that order.
type FormFields []FormField

// Get returns the field with the given id, or nil.
func (ff FormFields) Get(id string) *FormField {
	for i := range ff {
		if ff[i].key() == id {
			return &ff[i]
		}
	}
	return nil
}

// MarshalJSON writes the fields as a JSON object in their order.
func (ff FormFields) MarshalJSON() ([]byte, error) { return marshalJSON(&ff) }

// UnmarshalJSON reads a JSON object of form fields, keeping their order.
func (ff *FormFields) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, ff) }

// UnmarshalJSONFrom reads a JSON object of form fields from dec, keeping their order (encoding/json/v2).
func (ff *FormFields) UnmarshalJSONFrom(dec *jsontext.Decoder) error { return decodeTop(dec, ff) }

func (ff *FormFields) decodeFrom(dec *jsontext.Decoder, st *decodeState) error {
	// The fields are decoded into the decode's scratch slice, then copied to
	// one of their exact size: a FormField is about 460 bytes, and growing
	// each form's slice from nothing was half the bytes a page allocated.
	fields := st.fields[:0]
	st.fields = nil   // a form inside a form gets a slice of its own
	st.inPlace = true // the fields' Raw stay in the input until copyRaw
	defer func() {
		st.inPlace = false
		clear(fields)
		st.fields = fields[:0]
	}()
	null, err := readFormFields(dec, func(key []byte) error {
		fields = append(fields, FormField{})
		f := &fields[len(fields)-1]
		if err := f.decodeFrom(dec, st); err != nil {
			return err
		}
		if string(key) != f.ID {
			f.mapKey, f.keyed = string(key), true
		}
		return nil
	})
	if null || err != nil {
		*ff = nil
		return err
	}
	*ff = append(make(FormFields, 0, len(fields)), fields...)
	ff.copyRaw()
	return nil
}

// validateFrom checks form fields as decodeFrom decodes them.
func (*FormFields) validateFrom(dec *jsontext.Decoder, st *decodeState) error {
	_, err := readFormFields(dec, func([]byte) error { return (*FormField)(nil).validateFrom(dec, st) })
	return err
}

// readFormFields reads a JSON object of form fields, or null (reporting
// true), and calls field to read the value of each key (unquoted, new in
// the object: a key given twice is an error). The decoder must hold its
// input in memory: the keys are kept where they are in it.
func readFormFields(dec *jsontext.Decoder, field func(key []byte) error) (null bool, err error) {
	if null, err := jsontok.ReadNull(dec); null {
		return true, err
	}
	if k := dec.PeekKind(); k != '{' {
		return false, fmt.Errorf("expected object, got %s", jsontok.KindName(k))
	}
	if _, err := dec.ReadToken(); err != nil {
		return false, err
	}
	var keys jsontok.NameSet // linear time for many fields, no allocation for a few
	for dec.PeekKind() != '}' {
		quoted, err := dec.ReadValue()
		if err != nil {
			return false, err
		}
		key := quoted[1 : len(quoted)-1]
		if bytes.IndexByte(key, '\\') >= 0 {
			key, _ = jsontext.AppendUnquote(nil, quoted) // the decoder read a valid string
		}
		if keys.Add(key) {
			return false, jsontok.Duplicate(dec, dec.InputOffset()-int64(len(quoted))) // decodeOptions leave them to the SDK
		}
		if err := field(key); err != nil {
			return false, jsontok.AtValue(dec, err)
		}
	}
	_, err = dec.ReadToken()
	return false, err
}

// copyRaw copies the fields' Raw values into one new array, each capped so
// that an append to one cannot overwrite the next.
func (ff FormFields) copyRaw() {
	n := 0
	for i := range ff {
		n += len(ff[i].Values.Raw)
	}
	buf := make([]byte, 0, n)
	for i := range ff {
		if v := &ff[i].Values; v.Raw != nil {
			buf = append(buf, v.Raw...)
			v.Raw = buf[len(buf)-len(v.Raw) : len(buf) : len(buf)]
		}
	}
}

// MarshalJSONTo writes the fields to enc as a JSON object in their order (encoding/json/v2).
func (ff *FormFields) MarshalJSONTo(enc *jsontext.Encoder) error {
	if *ff == nil {
		return enc.WriteToken(jsontext.Null)
	}
	if err := enc.WriteToken(jsontext.BeginObject); err != nil {
		return err
	}
	for i := range *ff {
		f := &(*ff)[i]
		if err := enc.WriteToken(jsontext.String(f.key())); err != nil {
			return err
		}
		if err := json.MarshalEncode(enc, (*formFieldFields)(f)); err != nil {
			return err
		}
	}
	return enc.WriteToken(jsontext.EndObject)
}

// FormField is one field of a form submission. Values holds the submitted
// values by key, as they fit the field's type; FormattedValue is the server's
// rendering of them and may be empty. PriceModifier, PriceModifierType and
// PriceScope are set on the fields of an order item's attributes.
type FormField struct {
	Object            string            `json:"object"`
	ID                string            `json:"id"`
	FieldType         FieldType         `json:"field_type"`
	Label             string            `json:"label"`
	Values            FieldValues       `json:"values"`
	FormattedValue    string            `json:"formatted_value"`
	PriceModifier     *int64            `json:"price_modifier,omitempty"`
	PriceModifierType PriceModifierType `json:"price_modifier_type,omitempty"`
	PriceScope        PriceScope        `json:"price_scope,omitempty"`
	Unknown           jsontext.Value    `json:",embed"` // members the SDK does not model, as sent

	mapKey string // the key in the fields object, when it is not the id (it is in every sample)
	keyed  bool   // mapKey is set, even to ""
}

func (f *FormField) key() string {
	if f.keyed {
		return f.mapKey
	}
	return f.ID
}

// FieldValues are a form field's values. There is one string field per key
// the spec shows for the observed field types:
//
//	name           Prefix, First, Middle, Last, Suffix
//	text, textarea SubmittedValue
//	email          SubmittedValue, DisplayValue
//	phone          CountryCode, Number, Extension
//	address        Line, Line2, Line3, City, State, PostalCode, Country
//	radio_buttons  SubmittedValue, DisplayValue
//
// Raw is the values object exactly as received. A value that does not fit
// (a key of an unknown field type, a number where a string was expected)
// leaves its string field empty and is still in Raw; it never fails the
// record around it. When Raw is set, MarshalJSON writes Raw, so edit Raw (or
// clear it) to change what is encoded.
type FieldValues struct {
	Prefix         string `json:"prefix,omitempty"`
	First          string `json:"first,omitempty"`
	Middle         string `json:"middle,omitempty"`
	Last           string `json:"last,omitempty"`
	Suffix         string `json:"suffix,omitempty"`
	SubmittedValue string `json:"submitted_value,omitempty"`
	DisplayValue   string `json:"display_value,omitempty"`
	CountryCode    string `json:"country_code,omitempty"`
	Number         string `json:"number,omitempty"`
	Extension      string `json:"extension,omitempty"`
	Line           string `json:"line,omitempty"`
	Line2          string `json:"line2,omitempty"`
	Line3          string `json:"line3,omitempty"`
	City           string `json:"city,omitempty"`
	State          string `json:"state,omitempty"`
	PostalCode     string `json:"postal_code,omitempty"`
	Country        string `json:"country,omitempty"`

	Raw stdjson.RawMessage `json:"-"`
}

// fieldValuesFields is FieldValues without its methods, encoded from its tags.
type fieldValuesFields FieldValues

// MarshalJSON writes Raw when it is set, else an object of the non-empty string fields.
func (v FieldValues) MarshalJSON() ([]byte, error) { return marshalJSON(&v) }

// UnmarshalJSON keeps data as Raw and fills the string fields that fit. It
// fails only on malformed JSON or a name given twice.
func (v *FieldValues) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, v) }

// UnmarshalJSONFrom keeps the next value as Raw and fills the string fields that fit (encoding/json/v2).
func (v *FieldValues) UnmarshalJSONFrom(dec *jsontext.Decoder) error { return decodeTop(dec, v) }

// decodeFrom keeps the next value as Raw and fills the string fields that
// fit. The SDK's decoders hold their input whole in memory (decodeTop), so Raw
// is what the decoder consumed, left there when st.inPlace (see FormFields).
func (v *FieldValues) decodeFrom(dec *jsontext.Decoder, st *decodeState) error {
	start, unread := dec.InputOffset(), dec.UnreadBuffer()
	*v = FieldValues{}
	if dec.PeekKind() != '{' {
		raw, err := jsontok.ReadValue(dec)
		v.Raw = bytes.Clone(raw)
		return err
	}
	if err := v.decodeValues(dec, st); err != nil {
		return err
	}
	end := dec.InputOffset()
	if end+int64(len(dec.UnreadBuffer())) != start+int64(len(unread)) { // a decoder that reads as it goes
		return errors.New("the decoder read more input in the middle of a form field's values")
	}
	raw := unread[:end-start]
	v.Raw = raw[bytes.IndexByte(raw, '{'):] // after the ':' and spaces before the value
	if !st.inPlace {
		v.Raw = bytes.Clone(v.Raw)
	}
	return nil
}

// validateFrom checks values as decodeFrom decodes them.
func (*FieldValues) validateFrom(dec *jsontext.Decoder, st *decodeState) error {
	if dec.PeekKind() != '{' {
		_, err := jsontok.ReadValue(dec)
		return err
	}
	return (*FieldValues)(nil).validateValues(dec)
}

// MarshalJSONTo writes Raw when it is set, else an object of the non-empty string fields (encoding/json/v2).
func (v *FieldValues) MarshalJSONTo(enc *jsontext.Encoder) error {
	if len(v.Raw) > 0 {
		return enc.WriteValue(jsontext.Value(v.Raw))
	}
	return json.MarshalEncode(enc, (*fieldValuesFields)(v))
}
