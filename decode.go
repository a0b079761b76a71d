package ordermsg

import (
	"encoding/json"
	"errors"
	"fmt"
)

var errNotObject = errors.New("the body is not a JSON object")

// decodeJSON decodes body into v; any failure is a *DecodeError.
func decodeJSON(url string, body []byte, v any) error {
	if err := json.Unmarshal(body, v); err != nil {
		return newDecodeError(url, err)
	}
	return nil
}

// decodeRecord decodes one record whose "object" must be kind. It returns no
// value with an error.
func decodeRecord[T any](url string, body []byte, kind string) (*T, error) {
	if err := checkObject(url, body); err != nil {
		return nil, err
	}
	v := new(T)
	if err := decodeJSON(url, body, v); err != nil {
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
	if err := checkObject(url, body); err != nil {
		return nil, err
	}
	p := new(Page[T])
	if err := decodeJSON(url, body, p); err != nil {
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

// checkObject refuses a body that does not start with '{': an empty body, an
// array, null, or HTML.
func checkObject(url string, body []byte) error {
	i := skipSpace(body, 0)
	if i < len(body) && body[i] == '{' {
		return nil
	}
	if i == len(body) {
		return &DecodeError{URL: url, Offset: int64(i), Err: fmt.Errorf("%w: the body is empty", errNotObject)}
	}
	return &DecodeError{URL: url, Offset: int64(i), Err: fmt.Errorf("%w: it starts with %q", errNotObject, body[i])}
}
