package ordermsg

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"
)

// Every resource decodes from its struct tags through encoding/json/v2 (the
// module github.com/go-json-experiment/json, which on Go 1.27 is the standard
// library's package). Two small interfaces, both unexported, tie the types in:
//
//   - structCoded: a resource whose JSON form is the default struct form plus
//     its unknown members (the field Unknown, tagged ",unknown"). jsonFields
//     returns the value as a twin type without JSON methods, so that v2 codes
//     it from its tags.
//   - valueCoded: a type whose wire form needs code of its own (Ref,
//     Nullable, FormFields, FieldValues, Timestamp), written once each.
//
// codecOptions installs both as caller-side arshalers, so that nothing in the
// exported API names a jsontext type in a method, and a nested value is coded
// in the same pass as its parent, never re-scanned. The MarshalJSON and
// UnmarshalJSON methods of the types call into the same options: the types
// give the same results through encoding/json (v1), through v2 without
// options, and through the client.
//
// Strictness, as a careful user would want it from data that is stored and
// compared: invalid UTF-8 and duplicate member names are errors (v2's
// defaults). Replacing bad bytes with U+FFFD, or keeping one of two values for
// a name, would hand back a record that is not what the server sent. Member
// names match exactly, as the API sends them. A null leaves a field as it is
// (encoding/json's semantics).

type structCoded interface{ jsonFields() any }

type valueCoded interface {
	unmarshalFrom(dec *jsontext.Decoder) error
	marshalTo(enc *jsontext.Encoder) error
}

// codec is the caller-side marshaler and unmarshaler of one type.
type codec struct {
	marshal   *json.Marshalers
	unmarshal *json.Unmarshalers
}

// structCodec codes a T from the tags of its twin type, unknown members
// included.
func structCodec[T any, P interface {
	*T
	structCoded
}]() codec {
	return codec{
		json.MarshalToFunc(func(enc *jsontext.Encoder, v *T) error { return json.MarshalEncode(enc, P(v).jsonFields()) }),
		json.UnmarshalFromFunc(func(dec *jsontext.Decoder, v *T) error { return json.UnmarshalDecode(dec, P(v).jsonFields()) }),
	}
}

// valueCodec codes a T with its own code.
func valueCodec[T any, P interface {
	*T
	valueCoded
}]() codec {
	return codec{
		json.MarshalToFunc(func(enc *jsontext.Encoder, v *T) error { return P(v).marshalTo(enc) }),
		json.UnmarshalFromFunc(func(dec *jsontext.Decoder, v *T) error { return P(v).unmarshalFrom(dec) }),
	}
}

// anyCodec serves the types that codecs does not list by name (a Ref or a
// Page of a caller's own type). It finds them through their interface, which
// costs encoding/json/v2 a conversion and an allocation per value: the types
// of the API are listed by name for that reason.
var anyCodec = []codec{
	{
		json.MarshalToFunc(func(enc *jsontext.Encoder, v valueCoded) error { return v.marshalTo(enc) }),
		json.UnmarshalFromFunc(func(dec *jsontext.Decoder, v valueCoded) error { return v.unmarshalFrom(dec) }),
	},
	{
		json.MarshalToFunc(func(enc *jsontext.Encoder, v structCoded) error { return json.MarshalEncode(enc, v.jsonFields()) }),
		json.UnmarshalFromFunc(func(dec *jsontext.Decoder, v structCoded) error { return json.UnmarshalDecode(dec, v.jsonFields()) }),
	},
}

// codecUnmarshalers decode every type that has a codec.
var codecUnmarshalers = func() *json.Unmarshalers {
	var u []*json.Unmarshalers
	for _, c := range append(codecs, anyCodec...) {
		u = append(u, c.unmarshal)
	}
	return json.JoinUnmarshalers(u...)
}()

// codecMarshalers encode every type that has a codec.
var codecMarshalers = func() *json.Marshalers {
	var m []*json.Marshalers
	for _, c := range append(codecs, anyCodec...) {
		m = append(m, c.marshal)
	}
	return json.JoinMarshalers(m...)
}()

// codecOptions are the options of every decode and encode of the SDK's types.
var codecOptions = json.JoinOptions(
	json.WithUnmarshalers(codecUnmarshalers),
	json.WithMarshalers(codecMarshalers),
	json.FormatNilSliceAsNull(true),
	json.FormatNilMapAsNull(true),
	jsonv1.MergeWithLegacySemantics(true),
)

// decodeValue decodes the next value into v, going straight to v's twin type
// when it has one: one lookup and one call fewer than through codecs.
func decodeValue(dec *jsontext.Decoder, v any) error {
	if s, ok := v.(structCoded); ok {
		v = s.jsonFields()
	}
	return json.UnmarshalDecode(dec, v)
}

// encodeValue encodes v, going straight to its twin type when it has one.
func encodeValue(enc *jsontext.Encoder, v any) error {
	if s, ok := v.(structCoded); ok {
		v = s.jsonFields()
	}
	return json.MarshalEncode(enc, v)
}

// unmarshalJSON decodes data into v with the SDK's options: the body of every
// UnmarshalJSON method.
func unmarshalJSON(data []byte, v any) error { return json.Unmarshal(data, v, codecOptions) }

// marshalJSON encodes v with the SDK's options: the body of every MarshalJSON
// method.
func marshalJSON(v any) ([]byte, error) { return json.Marshal(v, codecOptions) }

var errNotObject = errors.New("the body is not a JSON object")

// decodeJSON decodes body into v with encoding/json/v2 and the SDK's
// options; any failure is a *DecodeError. The raw Client.Get uses it.
func decodeJSON(url string, body []byte, v any) error {
	if err := unmarshalJSON(body, v); err != nil {
		return newDecodeError(url, err)
	}
	return nil
}

// decodeBody checks that body is one JSON object, then decodes it into v in
// one pass with opts.
func decodeBody(url string, body []byte, v any, opts json.Options) error {
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	offset := int64(len(body) - len(trimmed))
	switch {
	case len(trimmed) == 0:
		return &DecodeError{URL: url, Offset: offset, Err: fmt.Errorf("%w: the body is empty", errNotObject)}
	case trimmed[0] != '{':
		return &DecodeError{URL: url, Offset: offset, Err: fmt.Errorf("%w: it starts with %q", errNotObject, trimmed[0])}
	}
	if err := json.Unmarshal(body, v, opts); err != nil {
		return newDecodeError(url, err)
	}
	return nil
}

// record is a resource that the API lists and returns one at a time.
type record interface {
	kind() string
	setRaw(raw []byte)
}

// asRecord returns v as a record. Only Order and Message are records: the
// resources of the service are resource[Order] and resource[Message].
func asRecord[T any](v *T) record { return any(v).(record) }

// errWrongObject says that a record's "object" is not the kind expected.
type errWrongObject struct{ got, want string }

func (e *errWrongObject) Error() string { return fmt.Sprintf("object is %q, want %q", e.got, e.want) }

// decodeRecord decodes one record whose "object" must be kind. With keepRaw,
// the record keeps the body's bytes (see Order.RawJSON). It returns no value
// with an error.
func decodeRecord[T any](url string, body []byte, kind string, keepRaw bool) (*T, error) {
	v := new(T)
	if err := decodeBody(url, body, v, codecOptions); err != nil {
		return nil, err
	}
	trimmed := bytes.TrimSpace(body)
	if got := asRecord(v).kind(); got != kind {
		return nil, &DecodeError{URL: url, Offset: int64(bytes.Index(body, trimmed)), Err: &errWrongObject{got: got, want: kind}}
	}
	if keepRaw {
		asRecord(v).setRaw(trimmed)
	}
	return v, nil
}

// decodePage decodes a list page. The list's "object" must be "list", and
// every record must be an object of the given kind. With keepRaw, each record
// keeps its own copy of its bytes, from a second pass over the body that only
// callers who ask for them pay.
func decodePage[T any](url string, body []byte, kind string, keepRaw bool) (*Page[T], error) {
	p := new(Page[T])
	if err := decodeBody(url, body, p, pageOptions[T](kind)); err != nil {
		return nil, err
	}
	if p.Object != ObjectList {
		return nil, &DecodeError{URL: url, Offset: -1, Err: &errWrongObject{got: p.Object, want: ObjectList}}
	}
	if keepRaw {
		var raw struct {
			Data []jsontext.Value `json:"data"`
		}
		if err := json.Unmarshal(body, &raw); err != nil {
			return nil, newDecodeError(url, err)
		}
		for i, rec := range p.Data {
			asRecord(rec).setRaw(raw.Data[i])
		}
	}
	return p, nil
}

// pageOptionsOf holds the options of pageOptions by kind, made once: an
// encoding/json/v2 Unmarshalers caches its choice of function per type.
var pageOptionsOf sync.Map

// pageOptions are codecOptions plus the decoding of a page's records, the
// elements of "data": each must be an object of the given kind.
func pageOptions[T any](kind string) json.Options {
	if opts, ok := pageOptionsOf.Load(kind); ok {
		return opts.(json.Options)
	}
	record := json.UnmarshalFromFunc(func(dec *jsontext.Decoder, rec **T) error {
		if k := dec.PeekKind(); k != '{' {
			return fmt.Errorf("expected object, got %s", kindName(k))
		}
		v := new(T)
		if err := decodeValue(dec, v); err != nil {
			return err
		}
		if got := asRecord(v).kind(); got != kind {
			return &errWrongObject{got: got, want: kind}
		}
		*rec = v
		return nil
	})
	opts, _ := pageOptionsOf.LoadOrStore(kind, json.JoinOptions(codecOptions,
		json.WithUnmarshalers(json.JoinUnmarshalers(record, codecUnmarshalers))))
	return opts.(json.Options)
}

// newDecodeError wraps a failure of encoding/json/v2 in a *DecodeError with
// the byte offset and the path of the failing value.
func newDecodeError(url string, err error) *DecodeError {
	var semantic *json.SemanticError
	var syntactic *jsontext.SyntacticError
	switch {
	case errors.As(err, &syntactic):
		return &DecodeError{URL: url, Offset: syntactic.ByteOffset, Err: atPath(syntactic.JSONPointer, syntactic.Err, err)}
	case errors.As(err, &semantic):
		return &DecodeError{URL: url, Offset: semantic.ByteOffset, Err: atPath(semantic.JSONPointer, semanticDetail(semantic), err)}
	}
	return &DecodeError{URL: url, Offset: -1, Err: err}
}

// pathError is an error at a JSON path, written the way a Go programmer reads
// one: data[1].items[0].pricing. It wraps encoding/json/v2's error.
type pathError struct {
	path   string
	detail error
	err    error
}

func (e *pathError) Error() string {
	if e.path == "" {
		return e.detail.Error()
	}
	return e.path + ": " + e.detail.Error()
}

func (e *pathError) Unwrap() error { return e.err }

func atPath(p jsontext.Pointer, detail, err error) error {
	if detail == nil {
		detail = err
	}
	var b strings.Builder
	for token := range p.Tokens() {
		if _, err := strconv.ParseUint(token, 10, 64); err == nil && !strings.HasPrefix(token, "0") || token == "0" {
			b.WriteString("[" + token + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(token)
	}
	return &pathError{path: b.String(), detail: detail, err: err}
}

// semanticDetail says what was wrong with a value of the right syntax.
func semanticDetail(e *json.SemanticError) error {
	if e.Err != nil {
		return e.Err
	}
	if e.GoType != nil && e.JSONKind != 0 {
		return fmt.Errorf("expected %s, got %s", goKindName(e.GoType), kindName(e.JSONKind))
	}
	return nil
}

// kindName names a JSON kind for error messages.
func kindName(k jsontext.Kind) string {
	switch k {
	case '"':
		return "string"
	case '[':
		return "array"
	case '{':
		return "object"
	case 't', 'f':
		return "bool"
	case 'n':
		return "null"
	case '0':
		return "number"
	}
	return "nothing"
}

// goKindName names the JSON kind a Go type decodes from.
func goKindName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "object"
	case reflect.Slice, reflect.Array:
		return "array"
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "bool"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "integer"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Pointer:
		return goKindName(t.Elem())
	}
	return t.String()
}
