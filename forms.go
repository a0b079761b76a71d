package ordermsg

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// FormSubmission is the data of a submitted form: a billing or shipping
// address, additional information, an item's attributes, a versadoc order
// form, or a message's form submission.
type FormSubmission struct {
	Object string     `json:"object"`
	Fields FormFields `json:"fields"`
}

// UnmarshalJSON reads a form submission in one pass over data.
func (fs *FormSubmission) UnmarshalJSON(data []byte) error { return readWhole(data, fs) }

func (r *jsonReader) formSubmission(out *FormSubmission) error {
	return r.object(func(key []byte) error {
		switch string(keyName(key)) {
		case "object":
			return r.stringInto(&out.Object)
		case "fields":
			return r.formFields(&out.Fields)
		}
		return r.skip()
	})
}

// FormFields are the fields of a form submission, in the order the response
// lists them. The API sends them as an object keyed by field id (f<digits>);
// FormFields keeps that order and encodes back to an object in the same order.
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
func (ff FormFields) MarshalJSON() ([]byte, error) {
	if ff == nil {
		return []byte("null"), nil
	}
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i := range ff {
		if i > 0 {
			buf.WriteByte(',')
		}
		key, err := json.Marshal(ff[i].key())
		if err != nil {
			return nil, err
		}
		buf.Write(key)
		buf.WriteByte(':')
		value, err := json.Marshal(&ff[i])
		if err != nil {
			return nil, err
		}
		buf.Write(value)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// UnmarshalJSON reads a JSON object of form fields, keeping their order.
func (ff *FormFields) UnmarshalJSON(data []byte) error { return readWhole(data, ff) }

func (ff *FormFields) readFrom(r *jsonReader) error { return r.formFields(ff) }

func (r *jsonReader) formFields(out *FormFields) error {
	if r.peek() == 'n' {
		*out = nil
		return r.null("object")
	}
	var buf [8]FormField // most forms have a few fields: no growth until the final copy
	fields := buf[:0]
	err := r.object(func(key []byte) error {
		var f FormField
		if err := r.formField(&f); err != nil {
			return fmt.Errorf("form field %s: %w", key, err)
		}
		f.mapKey = memberName(key)
		if f.mapKey == f.ID {
			f.mapKey = f.ID // share one string
		}
		fields = append(fields, f)
		return nil
	})
	if err != nil {
		return err
	}
	*out = append(make(FormFields, 0, len(fields)), fields...)
	return nil
}

// FormField is one field of a form submission. Values holds the submitted
// values by key, as they fit the field's type; FormattedValue is the server's
// rendering of them and may be empty. PriceModifier, PriceModifierType and
// PriceScope are set on the fields of an order item's attributes.
type FormField struct {
	Object         string      `json:"object"`
	ID             string      `json:"id"`
	FieldType      FieldType   `json:"field_type"`
	Label          string      `json:"label"`
	Values         FieldValues `json:"values"`
	FormattedValue string      `json:"formatted_value"`
	// PriceModifier is set on item attribute fields.
	PriceModifier     *int64            `json:"price_modifier,omitempty"`
	PriceModifierType PriceModifierType `json:"price_modifier_type,omitempty"`
	PriceScope        PriceScope        `json:"price_scope,omitempty"`

	// mapKey is the key the field had in the fields object, when it was
	// decoded from one; it is the field's id in every sample.
	mapKey string
}

// UnmarshalJSON reads a form field in one pass over data.
func (f *FormField) UnmarshalJSON(data []byte) error { return readWhole(data, f) }

func (f *FormField) readFrom(r *jsonReader) error { return r.formField(f) }

func (r *jsonReader) formField(out *FormField) error {
	return r.object(func(key []byte) error {
		switch string(keyName(key)) {
		case "object":
			return r.stringInto(&out.Object)
		case "id":
			return r.stringInto(&out.ID)
		case "field_type":
			return r.stringInto((*string)(&out.FieldType))
		case "label":
			return r.stringInto(&out.Label)
		case "formatted_value":
			return r.stringInto(&out.FormattedValue)
		case "price_modifier_type":
			return r.stringInto((*string)(&out.PriceModifierType))
		case "price_scope":
			return r.stringInto((*string)(&out.PriceScope))
		case "values":
			return r.fieldValues(&out.Values)
		case "price_modifier":
			out.PriceModifier = nil
			if r.peek() == 'n' {
				return r.null("integer")
			}
			n := new(int64)
			out.PriceModifier = n
			return r.int64Into(n)
		}
		return r.skip()
	})
}

func (f *FormField) key() string {
	if f.mapKey != "" {
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
	Prefix         string
	First          string
	Middle         string
	Last           string
	Suffix         string
	SubmittedValue string
	DisplayValue   string
	CountryCode    string
	Number         string
	Extension      string
	Line           string
	Line2          string
	Line3          string
	City           string
	State          string
	PostalCode     string
	Country        string

	Raw json.RawMessage
}

// fieldValueKeys lists the known keys in the order MarshalJSON writes them
// when there is no Raw.
var fieldValueKeys = []string{
	"prefix", "first", "middle", "last", "suffix",
	"submitted_value", "display_value",
	"country_code", "number", "extension",
	"line", "line2", "line3", "city", "state", "postal_code", "country",
}

// slot returns the string field for a JSON key, or nil for an unknown key.
func (v *FieldValues) slot(key string) *string {
	switch key {
	case "prefix":
		return &v.Prefix
	case "first":
		return &v.First
	case "middle":
		return &v.Middle
	case "last":
		return &v.Last
	case "suffix":
		return &v.Suffix
	case "submitted_value":
		return &v.SubmittedValue
	case "display_value":
		return &v.DisplayValue
	case "country_code":
		return &v.CountryCode
	case "number":
		return &v.Number
	case "extension":
		return &v.Extension
	case "line":
		return &v.Line
	case "line2":
		return &v.Line2
	case "line3":
		return &v.Line3
	case "city":
		return &v.City
	case "state":
		return &v.State
	case "postal_code":
		return &v.PostalCode
	case "country":
		return &v.Country
	}
	return nil
}

// MarshalJSON writes Raw when it is set, else an object of the non-empty
// string fields.
func (v FieldValues) MarshalJSON() ([]byte, error) {
	if len(v.Raw) > 0 {
		return v.Raw, nil
	}
	var buf bytes.Buffer
	buf.WriteByte('{')
	for _, key := range fieldValueKeys {
		s := *v.slot(key)
		if s == "" {
			continue
		}
		if buf.Len() > 1 {
			buf.WriteByte(',')
		}
		buf.WriteString(strconv.Quote(key))
		buf.WriteByte(':')
		quoted, err := json.Marshal(s)
		if err != nil {
			return nil, err
		}
		buf.Write(quoted)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// UnmarshalJSON keeps data as Raw and fills the string fields that fit. It
// fails only on malformed JSON.
func (v *FieldValues) UnmarshalJSON(data []byte) error { return readWhole(data, v) }

func (v *FieldValues) readFrom(r *jsonReader) error { return r.fieldValues(v) }

func (r *jsonReader) fieldValues(out *FieldValues) error {
	*out = FieldValues{}
	start := r.i
	if r.peek() != '{' {
		raw, err := r.value()
		if err != nil {
			return err
		}
		if !json.Valid(raw) {
			r.i = start
			return r.syntaxError("invalid values")
		}
		out.Raw = bytes.Clone(raw)
		return nil
	}
	err := r.object(func(key []byte) error {
		slot := out.slot(string(keyName(key)))
		if slot == nil || r.peek() != '"' {
			return r.skip() // an unknown key, or a value that is not a string: kept in Raw only
		}
		return r.stringInto(slot)
	})
	if err != nil {
		return err
	}
	out.Raw = bytes.Clone(bytes.TrimSpace(r.data[start:r.i]))
	return nil
}
