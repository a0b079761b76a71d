package ordermsg

import (
	"encoding/json"
	"errors"
	"fmt"
)

var errNotObject = errors.New("the body is not a JSON object")

// decodeJSON decodes body into v with encoding/json; any failure is a
// *DecodeError. The raw Client.Get uses it.
func decodeJSON(url string, body []byte, v any) error {
	if err := json.Unmarshal(body, v); err != nil {
		return newDecodeError(url, err)
	}
	return nil
}

// decodeBody checks that body is one valid JSON object, then decodes it into
// v in one pass with the hand-written decoders.
func decodeBody[T any](url string, body []byte, v *T) error {
	i := skipSpace(body, 0)
	switch {
	case i == len(body):
		return &DecodeError{URL: url, Offset: int64(i), Err: fmt.Errorf("%w: the body is empty", errNotObject)}
	case body[i] != '{':
		return &DecodeError{URL: url, Offset: int64(i), Err: fmt.Errorf("%w: it starts with %q", errNotObject, body[i])}
	case !json.Valid(body):
		// Let encoding/json say what is wrong, and where.
		var discard any
		return newDecodeError(url, json.Unmarshal(body, &discard))
	}
	r := jsonReader{data: body}
	if err := readInto(&r, v); err != nil {
		return newDecodeError(url, err)
	}
	return nil
}

// decodeRecord decodes one record whose "object" must be kind. It returns no
// value with an error.
func decodeRecord[T any](url string, body []byte, kind string) (*T, error) {
	v := new(T)
	if err := decodeBody(url, body, v); err != nil {
		return nil, err
	}
	if k, ok := any(v).(interface{ kind() string }); ok && k.kind() != kind {
		return nil, &DecodeError{URL: url, Offset: -1, Err: fmt.Errorf("object is %q, want %q", k.kind(), kind)}
	}
	return v, nil
}

// decodePage decodes a list page. Every record must be an object; the list's
// "object" must be "list".
func decodePage[T any](url string, body []byte) (*Page[T], error) {
	p := new(Page[T])
	if err := decodeBody(url, body, (*pageOf[T])(p)); err != nil {
		return nil, err
	}
	if p.Object != ObjectList {
		return nil, &DecodeError{URL: url, Offset: -1, Err: fmt.Errorf("object is %q, want %q", p.Object, ObjectList)}
	}
	for i, rec := range p.Data {
		if rec == nil {
			return nil, &DecodeError{URL: url, Offset: -1, Err: fmt.Errorf("data[%d] is null", i)}
		}
	}
	return p, nil
}

// pageOf gives Page[T] the hand-written decoder without making it part of
// Page's API.
type pageOf[T any] Page[T]

func (p *pageOf[T]) readFrom(r *jsonReader) error { return readPage(r, (*Page[T])(p)) }
