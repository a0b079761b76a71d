package ordermsg

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"
)

// Every resource decodes from its struct tags through encoding/json/v2 (the
// module github.com/go-json-experiment/json, which on Go 1.27 is the standard
// library's package), through the streaming methods UnmarshalJSONFrom and
// MarshalJSONTo: resources hand their twin types to v2 (codec.go, which go
// generate writes from the struct types), and only Ref, Nullable,
// FormFields, FieldValues and Timestamp have code of their own.
//
// The methods are exported, and name jsontext types, because v2 calls only
// exported methods: the alternative, caller-side arshalers on an unexported
// interface (json.WithUnmarshalers), makes v2 look up every value of every
// field in a map of functions, and costs a reflect conversion and an
// allocation per value. Measured on a 100-order page with every include:
// 15,200 allocations and 0.99 of the map decode's time with interface
// arshalers, 7,000 and 0.59-0.75 with arshalers listed by concrete type, and
// 7,000 and 0.55-0.69 with methods (BENCHMARKS.md).
//
// Strictness, as a careful user would want it from data that is stored and
// compared: invalid UTF-8 and duplicate member names are errors (v2's
// defaults). Replacing bad bytes with U+FFFD, or keeping one of two values for
// a name, would hand back a record that is not what the server sent. Member
// names match exactly, as the API sends them. A null leaves a field as it is
// (encoding/json's semantics).

// codecOptions are the options of every encode of the SDK's types:
// encoding/json's treatment of null and of nil slices and maps.
var codecOptions = json.JoinOptions(
	json.FormatNilSliceAsNull(true),
	json.FormatNilMapAsNull(true),
	jsonv1.MergeWithLegacySemantics(true),
)

// decodeOptions are the options of every decode of the SDK's types: those of
// encoding plus the SDK's mark, jsontext.ReorderRawObjects(true). That option
// acts only on encoding (it sorts the members of raw values an encoder
// writes), so it changes nothing in a decode; the SDK sets it on its own
// decoders so that a method can tell them from any other (see ownDecode).
var decodeOptions = json.JoinOptions(codecOptions, jsontext.ReorderRawObjects(true))

// decodeFields decodes the next value into f, a wire type's twin.
func decodeFields(dec *jsontext.Decoder, f any) error {
	if !ownDecode(dec) {
		return decodeWhole(dec, f)
	}
	return json.UnmarshalDecode(dec, f)
}

// ownDecode reports whether dec is one of the SDK's decoders: one made by
// json.Unmarshal with decodeOptions, over bytes in memory. Every
// UnmarshalJSONFrom that reads on its own or hands dec to encoding/json/v2
// for a value it does not own (decodeFields, FormFields, FieldValues,
// Timestamp) checks this first; on any other decoder it reads its value
// whole and decodes that the SDK's way (decodeWhole). So a caller's options
// never reach the values inside, and every caller gets the client's
// results: encoding/json (v1), which on Go 1.27 calls these methods with
// lenient options of its own (names in any case, duplicate names and invalid
// UTF-8 allowed, time.Time parsed loosely); encoding/json/v2 with any
// options; and decoders that stream from an io.Reader. Only the outermost
// value of such a decode pays for the second read. Ref and Nullable hand
// their objects to such a method.
func ownDecode(dec *jsontext.Decoder) bool {
	mark, _ := json.GetOption(dec.Options(), jsontext.ReorderRawObjects)
	return mark
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
	for _, rec := range p.Data {
		if rec == nil || P(rec).kind() != kind {
			// Decode again, checking each record as it is read, to say
			// where the first bad one is; never return no page and no error.
			err := decodeBody(url, body, new(Page[T]), checkedPage[T, P](kind))
			return nil, cmp.Or(err, error(&DecodeError{URL: url, Offset: -1, Err: errors.New("a record is null or of another kind")}))
		}
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

// checkedPage are decodeOptions plus a check of each record of a page, an
// element of "data": it must be an object of the given kind.
func checkedPage[T any, P record[T]](kind string) json.Options {
	return json.JoinOptions(decodeOptions, json.WithUnmarshalers(
		json.UnmarshalFromFunc(func(dec *jsontext.Decoder, rec **T) error {
			if k := dec.PeekKind(); k != '{' {
				return fmt.Errorf("expected object, got %s", kindName(k))
			}
			raw, err := dec.ReadValue() // read whole, so that an error points at its start
			if err != nil {
				return err
			}
			v := new(T)
			if err := unmarshalJSON(raw, v); err != nil {
				return err
			}
			if got := P(v).kind(); got != kind {
				return &errWrongObject{got: got, want: kind}
			}
			*rec = v
			return nil
		})))
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

// readNull reads a JSON null when it is the next value, and reports whether
// it was: the custom decoders start with it.
func readNull(dec *jsontext.Decoder) (bool, error) {
	if dec.PeekKind() != 'n' {
		return false, nil
	}
	_, err := dec.ReadToken()
	return true, err
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
