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
	"github.com/ordermsg/ordermsg-go/internal/jsontok"
)

// Every resource is coded through encoding/json/v2 (go-json-experiment/json;
// the standard library's on Go 1.27) by its exported streaming methods:
// MarshalJSONTo through a twin type, UnmarshalJSONFrom token by token
// (codec.go, generated from the struct types; Ref, Nullable, FormFields,
// FieldValues and Timestamp have code of their own). Methods, because
// caller-side arshalers cost a map lookup and an allocation per value
// (BENCHMARKS.md).
//
// Decoding is strict, as a careful user wants of data that is stored and
// compared: invalid UTF-8 and duplicate names are errors, names match
// exactly, and a null leaves a field as it is (encoding/json's semantics).

// codecOptions are the options of every encode of the SDK's types:
// encoding/json's treatment of null and of nil slices and maps.
var codecOptions = json.JoinOptions(
	json.FormatNilSliceAsNull(true),
	json.FormatNilMapAsNull(true),
	jsonv1.MergeWithLegacySemantics(true),
)

// decodeOptions are the options of every decode of the SDK's types: those of
// encoding, the SDK's mark (ownMark), and duplicate names left to the SDK's
// decoders, which tell them apart themselves (see internal/jsontok). Only
// values that have decoders of the SDK's may be decoded with them.
var decodeOptions = json.JoinOptions(codecOptions, json.WithMarshalers(ownMark), jsontext.AllowDuplicateNames(true))

// ownMark marks the SDK's own decoders. Marshalers act only on encoding, so
// it changes nothing in a decode (and costs it nothing); what marks is its
// address, which only this package holds: a caller's options cannot pass for
// the SDK's.
var ownMark = json.MarshalToFunc(func(*jsontext.Encoder, ownMarkType) error { return nil })

// ownMarkType is a type that nothing encodes.
type ownMarkType struct{}

// ownDecode reports whether dec is one of the SDK's decoders (json.Unmarshal
// with decodeOptions, over bytes in memory). On any other decoder, such as
// encoding/json v1's (lenient options on Go 1.27), v2 with a caller's
// options, or one streaming from an io.Reader, UnmarshalJSONFrom reads its
// value whole and decodes that the SDK's way (decodeWhole), so every caller
// gets the client's results; only the outermost value pays the second read.
func ownDecode(dec *jsontext.Decoder) bool {
	mark, _ := json.GetOption(dec.Options(), json.WithMarshalers)
	return mark == ownMark
}

// decodeWhole reads the next value whole and decodes it into v again with
// the SDK's options.
func decodeWhole(dec *jsontext.Decoder, v any) error {
	raw, err := dec.ReadValue()
	if err != nil {
		return err
	}
	return unmarshalJSON(raw, v)
}

// unmarshalJSON decodes data into v with the SDK's options: the body of every
// UnmarshalJSON method.
func unmarshalJSON(data []byte, v any) error { return json.Unmarshal(data, v, decodeOptions) }

// marshalJSON encodes v with the SDK's options: the body of every MarshalJSON
// method.
func marshalJSON(v any) ([]byte, error) { return json.Marshal(v, codecOptions) }

var errNotObject = errors.New("the body is not a JSON object")

// jsonSpace is the whitespace JSON allows around a value.
const jsonSpace = " \t\r\n"

// trimJSONSpace returns the JSON value in b without the whitespace around it.
func trimJSONSpace(b []byte) []byte { return bytes.Trim(b, jsonSpace) }

// decodeJSON decodes body into v, any type, with encoding/json/v2 and the
// SDK's encoding options; any failure is a *DecodeError. The raw Client.Get
// uses it.
func decodeJSON(url string, body []byte, v any) error {
	if err := json.Unmarshal(body, v, codecOptions); err != nil {
		return newDecodeError(url, err)
	}
	return nil
}

// decodeBody checks that body is one JSON object, then decodes it into v in
// one pass with opts.
func decodeBody(url string, body []byte, v any, opts json.Options) error {
	trimmed := bytes.TrimLeft(body, jsonSpace)
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

// errWrongObject says that a record's "object" is not the kind expected.
type errWrongObject struct{ got, want string }

func (e *errWrongObject) Error() string { return fmt.Sprintf("object is %q, want %q", e.got, e.want) }

// decodeRecord decodes one record whose "object" must be kind. With keepRaw,
// the record keeps the body's bytes (see Order.RawJSON). It returns no value
// with an error.
func decodeRecord[T any, P record[T]](url string, body []byte, kind string, keepRaw bool) (*T, error) {
	v := new(T)
	if err := decodeBody(url, body, v, decodeOptions); err != nil {
		return nil, err
	}
	if got := P(v).kind(); got != kind {
		start := len(body) - len(bytes.TrimLeft(body, jsonSpace))
		return nil, &DecodeError{URL: url, Offset: int64(start), Err: &errWrongObject{got: got, want: kind}}
	}
	if keepRaw {
		P(v).setRaw(trimJSONSpace(body))
	}
	return v, nil
}

// decodePage decodes a list page. The list's "object" must be "list", and
// every record must be an object of the given kind. With keepRaw, each record
// keeps its own copy of its bytes, from a second pass over the body that only
// callers who ask for them pay.
func decodePage[T any, P record[T]](url string, body []byte, kind string, keepRaw bool) (*Page[T], error) {
	p := new(Page[T])
	if err := decodeBody(url, body, p, decodeOptions); err != nil {
		return nil, err
	}
	if p.Object != ObjectList {
		return nil, &DecodeError{URL: url, Offset: -1, Err: &errWrongObject{got: p.Object, want: ObjectList}}
	}
	for i, rec := range p.Data {
		var err error
		switch {
		case rec == nil:
			err = errors.New("expected object, got null")
		case P(rec).kind() != kind:
			err = &errWrongObject{got: P(rec).kind(), want: kind}
		default:
			continue
		}
		at, ptr := recordOffset(body, i), jsontext.Pointer("/data/"+strconv.Itoa(i))
		return nil, &DecodeError{URL: url, Offset: at, Err: atPath(ptr, err, &json.SemanticError{ByteOffset: at, JSONPointer: ptr, Err: err})}
	}
	if keepRaw {
		var raw struct {
			Data []jsontext.Value `json:"data"`
		}
		if err := json.Unmarshal(body, &raw); err != nil {
			return nil, newDecodeError(url, err)
		}
		for i, rec := range p.Data {
			P(rec).setRaw(raw.Data[i])
		}
		p.raw = trimJSONSpace(body)
	}
	return p, nil
}

// recordOffset is the offset in body, a page that decoded, of its record i:
// where an error about that record points.
func recordOffset(body []byte, i int) int64 {
	dec := jsontext.NewDecoder(bytes.NewBuffer(body))
	if _, err := dec.ReadToken(); err != nil { // the page's '{'
		return -1
	}
	for dec.PeekKind() == '"' {
		name, err := dec.ReadToken()
		if err != nil {
			return -1
		}
		if name.String() != "data" {
			if err := dec.SkipValue(); err != nil {
				return -1
			}
			continue
		}
		if _, err := dec.ReadToken(); err != nil { // the data's '['
			return -1
		}
		for range i {
			if err := dec.SkipValue(); err != nil {
				return -1
			}
		}
		rest := body[dec.InputOffset():]
		return int64(len(body) - len(bytes.TrimLeft(rest, jsonSpace+",")))
	}
	return -1
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
		return fmt.Errorf("expected %s, got %s", goKindName(e.GoType), jsontok.KindName(e.JSONKind))
	}
	return nil
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

// decodeState is what a decode carries through the values it decodes:
// interned strings, as v2 keeps them (a page repeats its object kinds,
// statuses, labels and ids), and whether FieldValues may keep Raw in the
// decoder's input (FormFields copies them all at once).
type decodeState struct {
	strs    jsontok.Strings
	inPlace bool
}

var decodeStates = sync.Pool{New: func() any { return new(decodeState) }}

// fieldsDecoder is a value with a generated token-level decoder.
type fieldsDecoder interface {
	decodeFrom(dec *jsontext.Decoder, st *decodeState) error
}

// decodeTop is the UnmarshalJSONFrom of a value that decodeFrom decodes.
func decodeTop(dec *jsontext.Decoder, v fieldsDecoder) error {
	if !ownDecode(dec) {
		return decodeWhole(dec, v)
	}
	st := decodeStates.Get().(*decodeState)
	defer decodeStates.Put(st)
	st.strs.Reset() // interned for this decode only, as v2 does
	return v.decodeFrom(dec, st)
}

// decodeValue decodes the next value into v, with its generated decoder if
// it has one.
func decodeValue(dec *jsontext.Decoder, st *decodeState, v any) error {
	if d, ok := v.(fieldsDecoder); ok {
		return d.decodeFrom(dec, st)
	}
	raw, err := dec.ReadValue()
	if err == nil {
		err = jsontok.UniqueNames(dec, raw)
	}
	if err != nil {
		return err
	}
	return json.Unmarshal(raw, v, codecOptions)
}

// decodeRecords decodes a page's records, null or objects, into *s; v2
// decodes (and refuses) anything but an array.
func decodeRecords[T any](dec *jsontext.Decoder, st *decodeState, s *[]*T) error {
	if dec.PeekKind() != '[' {
		return json.UnmarshalDecode(dec, s)
	}
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	if *s = (*s)[:0]; *s == nil {
		*s = []*T{}
	}
	for dec.PeekKind() != ']' {
		var v *T
		if null, err := jsontok.ReadNull(dec); err != nil {
			return err
		} else if !null {
			v = new(T)
			if err := decodeValue(dec, st, v); err != nil {
				return err
			}
		}
		*s = append(*s, v)
	}
	_, err := dec.ReadToken()
	return err
}

// decodePtr decodes an object, or null (nil), into *p.
func decodePtr[T any, P interface {
	*T
	fieldsDecoder
}](dec *jsontext.Decoder, st *decodeState, p **T) error {
	if dec.PeekKind() == 'n' {
		*p = nil
		_, err := dec.ReadToken()
		return err
	}
	if *p == nil {
		*p = new(T)
	}
	return P(*p).decodeFrom(dec, st)
}

// decodeSlice decodes an array of objects, or null (nil), into *s.
func decodeSlice[T any, P interface {
	*T
	fieldsDecoder
}](dec *jsontext.Decoder, st *decodeState, s *[]T) error {
	switch dec.PeekKind() {
	case 'n':
		*s = nil
		_, err := dec.ReadToken()
		return err
	case '[':
	default:
		return jsontok.WrongKind(dec, "array")
	}
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	if *s = (*s)[:0]; *s == nil {
		*s = []T{}
	}
	for dec.PeekKind() != ']' {
		var zero T
		*s = append(*s, zero)
		if err := P(&(*s)[len(*s)-1]).decodeFrom(dec, st); err != nil {
			return err
		}
	}
	_, err := dec.ReadToken()
	return err
}
