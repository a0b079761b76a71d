package ordermsg

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"
	"github.com/ordermsg/ordermsg-go/internal/jsonerr"
	"github.com/ordermsg/ordermsg-go/internal/jsonscan"
	"github.com/ordermsg/ordermsg-go/internal/jsontok"
)

// Every type is coded by encoding/json/v2's streaming methods (codec.go), as
// caller-side arshalers cost a map lookup and an allocation per value
// (BENCHMARKS.md). Decoding is strict: invalid UTF-8 and duplicate names are
// errors, names match exactly, and a null leaves a field as it is (as in v1).

// codecOptions are the options of every encode of the SDK's types:
// encoding/json's treatment of null and of nil slices and maps.
var codecOptions = json.JoinOptions(
	json.FormatNilSliceAsNull(true),
	json.FormatNilMapAsNull(true),
	jsonv1.MergeWithLegacySemantics(true),
)

// decodeOptions are the options of every decode of the SDK's types: those of
// encoding, the SDK's mark (ownMark), and duplicate names left to the SDK's
// decoders, which catch them themselves: use them only on the SDK's types.
var decodeOptions = json.JoinOptions(codecOptions, json.WithMarshalers(ownMark), jsontext.AllowDuplicateNames(true))

// ownMark marks the SDK's decoders: a marshaler (of a type nothing encodes)
// changes nothing in a decode, and only this package holds its address, so a
// caller's options cannot pass for the SDK's.
var ownMark = json.MarshalToFunc(func(*jsontext.Encoder, *decodeState) error { return nil })

// ownDecode reports whether dec is one of the SDK's decoders (json.Unmarshal
// with decodeOptions, over bytes in memory). From any other (v1's, a caller's,
// a stream's), UnmarshalJSONFrom reads its value whole and decodes it the
// SDK's way (decodeWhole).
func ownDecode(dec *jsontext.Decoder) bool {
	mark, _ := json.GetOption(dec.Options(), json.WithMarshalers)
	return mark == ownMark
}

// decodeWhole reads the next value whole and decodes it into v the SDK's way.
func decodeWhole(dec *jsontext.Decoder, v any) error {
	raw, err := dec.ReadValue()
	if err != nil {
		return err
	}
	return unmarshalJSON(raw, v)
}

// unmarshalJSON and marshalJSON are the bodies of every UnmarshalJSON and
// MarshalJSON method: encoding/json v1 gets the SDK's results.
func unmarshalJSON(data []byte, v any) error { return json.Unmarshal(data, v, decodeOptions) }
func marshalJSON(v any) ([]byte, error)      { return json.Marshal(v, codecOptions) }

// record is the constraint on the records that decodeRecord and decodePage
// decode (Order, Message, and rawRecord's): P is *T, with the methods that
// decoding calls, and those that the resource, the walk and Sync call.
type record[T any] interface {
	*T
	kind() string         // the record's "object"
	refID() int64         // its id
	createdAt() time.Time // its date_created
	setRaw(raw []byte)    // keeps its bytes as sent (KeepRawJSON)
	RawJSON() []byte      // those bytes, nil unless kept
}

var errNotObject = errors.New("the body is not a JSON object")

const jsonSpace = " \t\r\n" // the whitespace JSON allows around a value

// decodeBody checks that body is a JSON object, then decodes it into v.
func decodeBody(url string, body []byte, v any, opts json.Options) error {
	trimmed := bytes.TrimLeft(body, jsonSpace)
	offset := int64(len(body) - len(trimmed))
	switch {
	case len(trimmed) == 0:
		return &DecodeError{URL: url, Offset: offset, Err: fmt.Errorf("%w: the body is empty", errNotObject)}
	case trimmed[0] != '{':
		return &DecodeError{URL: url, Offset: offset, Err: fmt.Errorf("%w: it starts with %q", errNotObject, trimmed[0])}
	}
	return newDecodeError(url, json.Unmarshal(body, v, opts))
}

// wrongObject says that a record's "object" is not the kind expected.
func wrongObject(got, want string) error { return fmt.Errorf("object is %q, want %q", got, want) }

// decodeRecord decodes one record whose "object" must be kind. With keepRaw,
// the record keeps a copy of the body's bytes (see Order.RawJSON): nothing
// decoded holds the body, which goes back to the pool (answer.decoded).
func decodeRecord[T any, P record[T]](url string, body []byte, kind string, keepRaw bool) (*T, error) {
	v := new(T)
	if err := decodeBody(url, body, v, decodeOptions); err != nil {
		return nil, err
	}
	if got := P(v).kind(); got != kind {
		start := len(body) - len(bytes.TrimLeft(body, jsonSpace))
		return nil, &DecodeError{URL: url, Offset: int64(start), Err: wrongObject(got, kind)}
	}
	if keepRaw {
		P(v).setRaw(bytes.Clone(bytes.Trim(body, jsonSpace)))
	}
	return v, nil
}

// decodePage decodes a list page: a "list" of objects of the given kind.
// With keepRaw, each record keeps its own copy of its bytes, from a second
// pass over the body that only callers who ask for them pay. With skip, a
// page that fails for some of its records only is decoded one record at a
// time (decodeByRecord): the others are its Data.
func decodePage[T any, P record[T]](url string, body []byte, kind string, keepRaw, skip bool) (*Page[T], error) {
	p := new(Page[T])
	err := decodeBody(url, body, p, decodeOptions)
	if err == nil && p.Object != ObjectList {
		return nil, &DecodeError{URL: url, Offset: -1, Err: wrongObject(p.Object, ObjectList)}
	}
	if err == nil {
		err = checkRecords[T, P](url, body, kind, p.Data)
	}
	if err != nil {
		if skip {
			if p, ok := decodeByRecord[T, P](url, body, kind, keepRaw); ok {
				return p, nil
			}
		}
		return nil, err
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
		p.raw = bytes.Clone(bytes.Trim(body, jsonSpace))
	}
	return p, nil
}

// checkRecords checks that every record of a decoded page is an object of
// the given kind.
func checkRecords[T any, P record[T]](url string, body []byte, kind string, data []*T) error {
	for i, rec := range data {
		var err error
		switch {
		case rec == nil:
			err = errors.New("expected object, got null")
		case P(rec).kind() != kind:
			err = wrongObject(P(rec).kind(), kind)
		default:
			continue
		}
		at, ptr := jsonerr.ElementOffset(body, "data", i), jsontext.Pointer("/data/"+strconv.Itoa(i))
		return &DecodeError{URL: url, Offset: at, Err: &jsonerr.PathError{At: ptr, Detail: err, Err: &json.SemanticError{ByteOffset: at, JSONPointer: ptr, Err: err}}}
	}
	return nil
}

// decodeByRecord decodes a page that failed as a whole one record at a
// time: the records that decode are its Data, each of the others is a
// *RecordDecodeError in skipped. It reports false, for the page's own error
// to stand, when the page is not a list apart from its records (a broken
// envelope, metadata or syntax), or when every record decodes on its own.
func decodeByRecord[T any, P record[T]](url string, body []byte, kind string, keepRaw bool) (*Page[T], bool) {
	data, records, ok := jsonscan.ArrayMember(body, "data")
	if !ok {
		return nil, false
	}
	p := new(Page[T])
	envelope := slices.Concat(body[:data.Start], []byte("[]"), body[data.End:])
	if decodeBody(url, envelope, p, decodeOptions) != nil || p.Object != ObjectList {
		return nil, false
	}
	p.Data = make([]*T, 0, len(records))
	for i, at := range records {
		raw := bytes.Clone(body[at.Start:at.End]) // a record's error keeps nothing of the body
		var v *T
		var err error
		if raw[0] == '{' {
			v, err = decodeRecord[T, P](url, raw, kind, keepRaw)
		} else {
			err = &DecodeError{URL: url, Offset: 0, Err: fmt.Errorf("the record is not a JSON object: it starts with %q", raw[0])}
		}
		if err != nil {
			p.skipped = append(p.skipped, undecodable(kind, i, at.Start, raw, err))
			continue
		}
		p.Data = append(p.Data, v)
	}
	if len(p.skipped) == 0 {
		return nil, false
	}
	if keepRaw {
		p.raw = bytes.Clone(bytes.Trim(body, jsonSpace))
	}
	return p, true
}

// undecodable is the *RecordDecodeError of record i of a page, which starts
// at offset in the page's body and failed with err, a *DecodeError of its
// own bytes (its Offset moves to the page's body). Page is set by the walk.
func undecodable(kind string, i int, offset int64, raw []byte, err error) *RecordDecodeError {
	var de *DecodeError
	if errors.As(err, &de) && de.Offset >= 0 {
		de.Offset += offset
	}
	e := &RecordDecodeError{Object: kind, Index: i, Offset: offset, Raw: raw, Err: err}
	m := jsonscan.Members(raw, "id", "date_created")
	if id, err := strconv.ParseInt(string(m[0]), 10, 64); err == nil {
		e.ID = id
	}
	var ts Timestamp
	if m[1] != nil && json.Unmarshal(m[1], &ts) == nil {
		e.Created = ts.Time
	}
	return e
}

// newDecodeError wraps a failure of encoding/json/v2, if any, in a
// *DecodeError with the byte offset and the path of the failing value.
func newDecodeError(url string, err error) error {
	if err == nil {
		return nil // first: the targets of errors.As in Locate escape to the heap
	}
	offset, located := jsonerr.Locate(err)
	return &DecodeError{URL: url, Offset: offset, Err: located}
}

// decodeState is what a decode carries: its interned strings, whether
// FieldValues may leave Raw in the input (FormFields copies them all at
// once), where validators parse timestamps and other values, the slice that
// form fields are decoded into, and the memory that the RawRecords of the
// decode share (rawrecord.go). Each decode has its own.
type decodeState struct {
	strs    jsontok.Strings
	inPlace bool
	when    time.Time
	scratch any        // a *T for validateAs
	fields  FormFields // FormFields.decodeFrom's, reused by the forms of the decode
	raw     rawMemory
}

// rawMemory is the memory that the RawRecords of one decode share: copies
// of their bytes, and where their members are.
type rawMemory struct {
	bytes   []byte
	members []jsontok.MemberSpans
}

// keep copies b to m and returns the copy, whose capacity ends with it.
// When m has no room, it takes room for rest bytes (the rest of the input,
// that the decode's next records are part of).
func (m *rawMemory) keep(b []byte, rest int) []byte {
	if cap(m.bytes)-len(m.bytes) < len(b) {
		m.bytes = make([]byte, 0, max(len(b), rest))
	}
	m.bytes = append(m.bytes, b...)
	return m.bytes[len(m.bytes)-len(b) : len(m.bytes) : len(m.bytes)]
}

// reserve makes room for the members of the records that may follow in
// rest bytes of input, estimated from the first: n members in size bytes;
// at most one for 64 bytes (a member of a record of the API takes 130 to
// 230), so that a first record of few bytes cannot make it take much more
// memory than the input holds. Records past the estimate are kept all the
// same, as append grows the room.
func (m *rawMemory) reserve(n, size, rest int) {
	m.members = slices.Grow(m.members, min(n*(rest/max(size, 1)+1), rest/64+n))
}

// fieldsDecoder is a value with a token-level decoder of the SDK's.
type fieldsDecoder interface {
	decodeFrom(dec *jsontext.Decoder, st *decodeState) error
}

// decoderOf is the pointer type *T of a type with a token-level decoder.
type decoderOf[T any] interface {
	*T
	fieldsDecoder
}

// decodeTop is the UnmarshalJSONFrom of a value that decodeFrom decodes.
func decodeTop(dec *jsontext.Decoder, v fieldsDecoder) error {
	if !ownDecode(dec) {
		return decodeWhole(dec, v)
	}
	return v.decodeFrom(dec, new(decodeState))
}

// decodeValue decodes the next value into v, with its own decoder if any.
func decodeValue(dec *jsontext.Decoder, st *decodeState, v any) error {
	if d, ok := v.(fieldsDecoder); ok {
		return d.decodeFrom(dec, st)
	}
	raw, err := jsontok.ReadValue(dec)
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
		null, err := jsontok.ReadNull(dec)
		if !null {
			v = new(T)
			err = decodeValue(dec, st, v)
		}
		if err != nil {
			return err
		}
		*s = append(*s, v)
	}
	_, err := dec.ReadToken()
	return err
}

// decodePtr decodes an object, or null (nil), into *p.
func decodePtr[T any, P decoderOf[T]](dec *jsontext.Decoder, st *decodeState, p **T) error {
	if null, err := jsontok.ReadNull(dec); null {
		*p = nil
		return err
	}
	if *p == nil {
		*p = new(T)
	}
	return P(*p).decodeFrom(dec, st)
}

// decodeSlice decodes an array of objects, or null (nil), into *s.
func decodeSlice[T any, P decoderOf[T]](dec *jsontext.Decoder, st *decodeState, s *[]T) error {
	items := (*s)[:0]
	null, err := readArray(dec, func() error {
		var zero T
		items = append(items, zero)
		return P(&items[len(items)-1]).decodeFrom(dec, st)
	})
	switch {
	case null:
		*s = nil
	case items == nil:
		*s = []T{} // an empty array
	default:
		*s = items
	}
	return err
}

// readArray reads an array, or null (reporting true), calling elem to read
// each element.
func readArray(dec *jsontext.Decoder, elem func() error) (null bool, err error) {
	if null, err := jsontok.ReadNull(dec); null {
		return true, err
	}
	if dec.PeekKind() != '[' {
		return false, jsontok.WrongKind(dec, "array")
	}
	if _, err := dec.ReadToken(); err != nil {
		return false, err
	}
	for dec.PeekKind() != ']' {
		if err := elem(); err != nil {
			return false, err
		}
	}
	_, err = dec.ReadToken()
	return false, err
}

// The validators check a value exactly as the decoders decode it, keeping
// nothing: the generated ones (codec.go) for the struct types that records
// hold, and beside their decoders those of the types with hand-written
// decoders (Ref, Nullable, FormFields, FieldValues, Timestamp).

// fieldsValidator is a type with a validator of the SDK's. validateFrom
// reads nothing of its receiver, which may be nil.
type fieldsValidator interface {
	validateFrom(dec *jsontext.Decoder, st *decodeState) error
}

// validatorOf is the pointer type *T of a type with a validator.
type validatorOf[T any] interface {
	*T
	fieldsValidator
}

// errNoValidator is the error of a check of a type without a validator.
var errNoValidator = errors.New("the type has no validator")

// validateValue checks the next value as decodeValue decodes it into a *T.
// Ref and Nullable take any T, so a T's validator is found at run time, as
// decodeValue finds its decoder; every type that a record holds has one.
func validateValue[T any](dec *jsontext.Decoder, st *decodeState) error {
	v, ok := any((*T)(nil)).(fieldsValidator)
	if !ok {
		return errNoValidator
	}
	return v.validateFrom(dec, st)
}

// validateAs checks the next value as encoding/json/v2 decodes it into a
// new T: a field of a type that the generated decoders leave to v2. The T
// is st's scratch, kept for the next value of its type.
func validateAs[T any](dec *jsontext.Decoder, st *decodeState) error {
	v, ok := st.scratch.(*T)
	if !ok {
		v = new(T)
		st.scratch = v
	}
	*v = *new(T)
	return json.UnmarshalDecode(dec, v)
}

// validatePtr checks an object, or null, as decodePtr decodes it.
func validatePtr[T any, P validatorOf[T]](dec *jsontext.Decoder, st *decodeState) error {
	if null, err := jsontok.ReadNull(dec); null {
		return err
	}
	return P(nil).validateFrom(dec, st)
}

// validateSlice checks an array of objects, or null, as decodeSlice decodes
// it.
func validateSlice[T any, P validatorOf[T]](dec *jsontext.Decoder, st *decodeState) error {
	_, err := readArray(dec, func() error { return P(nil).validateFrom(dec, st) })
	return err
}
