package ordermsg

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file holds a small cursor reader for JSON. The resources are decoded
// with it (readers.go) rather than by encoding/json's reflection, which scans
// every nested value it hands to an UnmarshalJSON once more before the
// method scans it again: form submissions, Refs and timestamps made a list
// page cost more than decoding it into map[string]any.
//
// The reader visits each byte once and trusts nothing: every index is
// bounds-checked, and malformed input gives an error with its offset. The odd
// cases (escaped strings, invalid UTF-8) are left to encoding/json so that
// they decode exactly as encoding/json decodes them. Values the decoders skip
// are checked for their structure only, so callers that take bytes from the
// network run json.Valid first (decode.go); encoding/json has done so for
// the data it hands to an UnmarshalJSON.

var errMalformed = errors.New("ordermsg: malformed JSON")

type jsonReader struct {
	data []byte
	i    int
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipSpace(data []byte, i int) int {
	for i < len(data) && isSpace(data[i]) {
		i++
	}
	return i
}

// peek returns the next byte that is not white space, or 0 at the end.
func (r *jsonReader) peek() byte {
	r.i = skipSpace(r.data, r.i)
	if r.i < len(r.data) {
		return r.data[r.i]
	}
	return 0
}

// end reports an error unless only white space is left.
func (r *jsonReader) end() error {
	if r.peek() != 0 {
		return r.syntaxError("unexpected data after the value")
	}
	return nil
}

// object reads an object, calling member for each key (raw, with quotes)
// with the reader at the start of the value; member must read the value. A
// null is read as nothing, as encoding/json reads null into a struct; an error
// from member is returned with the key added to its path.
func (r *jsonReader) object(member func(key []byte) error) error {
	switch c := r.peek(); c {
	case '{':
	case 'n':
		return r.null("object")
	default:
		return r.kindError("object")
	}
	r.i++
	if r.peek() == '}' {
		r.i++
		return nil
	}
	for {
		if r.peek() != '"' {
			return r.syntaxError("expected a string key")
		}
		start := r.i
		if err := r.skipString(); err != nil {
			return err
		}
		key := r.data[start:r.i]
		if r.peek() != ':' {
			return r.syntaxError("expected : after an object key")
		}
		r.i++
		r.peek()
		if err := member(key); err != nil {
			return atPath(err, memberName(key))
		}
		switch r.peek() {
		case ',':
			r.i++
		case '}':
			r.i++
			return nil
		default:
			return r.syntaxError("expected , or } after an object member")
		}
	}
}

// array reads an array, calling elem for each element with the reader at its
// start; elem must read it. A null is read as nothing; onStart is called when
// the array is not null, before any element.
func (r *jsonReader) array(onStart func(), elem func(i int) error) error {
	switch r.peek() {
	case '[':
	case 'n':
		return r.null("array")
	default:
		return r.kindError("array")
	}
	r.i++
	onStart()
	if r.peek() == ']' {
		r.i++
		return nil
	}
	for i := 0; ; i++ {
		r.peek()
		if err := elem(i); err != nil {
			return atPath(err, "["+strconv.Itoa(i)+"]")
		}
		switch r.peek() {
		case ',':
			r.i++
		case ']':
			r.i++
			return nil
		default:
			return r.syntaxError("expected , or ] after an array element")
		}
	}
}

// null reads a null where a want was expected; anything else is an error.
func (r *jsonReader) null(want string) error {
	raw, err := r.value()
	if err != nil {
		return err
	}
	if string(raw) != "null" {
		r.i -= len(raw)
		return r.kindError(want)
	}
	return nil
}

// skip moves past a value the decoder does not keep.
func (r *jsonReader) skip() error {
	_, err := r.value()
	return err
}

// skipString moves past the string that starts at the reader.
func (r *jsonReader) skipString() error {
	for j := r.i + 1; j < len(r.data); j++ {
		switch r.data[j] {
		case '\\':
			j++
		case '"':
			r.i = j + 1
			return nil
		}
	}
	return r.syntaxError("unterminated string")
}

// value moves past the value that starts at the reader and returns it raw.
func (r *jsonReader) value() ([]byte, error) {
	start := r.i
	if start >= len(r.data) {
		return nil, r.syntaxError("unexpected end of input")
	}
	switch r.data[start] {
	case '"':
		if err := r.skipString(); err != nil {
			return nil, err
		}
	case '{', '[':
		depth := 0
	scan:
		for r.i < len(r.data) {
			switch r.data[r.i] {
			case '"':
				if err := r.skipString(); err != nil {
					return nil, err
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					r.i++
					break scan
				}
			}
			r.i++
		}
		if depth != 0 {
			return nil, r.syntaxError("unterminated object or array")
		}
	default:
		for r.i < len(r.data) && !isSpace(r.data[r.i]) && r.data[r.i] != ',' && r.data[r.i] != '}' && r.data[r.i] != ']' {
			r.i++
		}
		if r.i == start {
			return nil, r.syntaxError("expected a value")
		}
	}
	return r.data[start:r.i], nil
}

// stringInto reads a string value into *dst. null leaves *dst alone, as
// encoding/json does; any other kind of value is an error.
func (r *jsonReader) stringInto(dst *string) error {
	raw, err := r.value()
	if err != nil {
		return err
	}
	if raw[0] == '"' {
		*dst, err = decodeString(raw)
		return err
	}
	if string(raw) == "null" {
		return nil
	}
	r.i -= len(raw)
	return r.kindError("string")
}

// int64Into reads an integer into *dst; null leaves *dst alone.
func (r *jsonReader) int64Into(dst *int64) error {
	raw, err := r.value()
	if err != nil || string(raw) == "null" {
		return err
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil {
		r.i -= len(raw)
		return r.kindError("integer")
	}
	*dst = n
	return nil
}

// intInto reads an integer into *dst; null leaves *dst alone.
func (r *jsonReader) intInto(dst *int) error {
	n := int64(*dst)
	if err := r.int64Into(&n); err != nil {
		return err
	}
	if n != int64(int(n)) {
		return r.syntaxError("integer out of range")
	}
	*dst = int(n)
	return nil
}

// float64Into reads a number into *dst; null leaves *dst alone.
func (r *jsonReader) float64Into(dst *float64) error {
	raw, err := r.value()
	if err != nil || string(raw) == "null" {
		return err
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil || raw[0] == '"' {
		r.i -= len(raw)
		return r.kindError("number")
	}
	*dst = f
	return nil
}

// boolInto reads true or false into *dst; null leaves *dst alone.
func (r *jsonReader) boolInto(dst *bool) error {
	raw, err := r.value()
	switch {
	case err != nil:
		return err
	case string(raw) == "true":
		*dst = true
	case string(raw) == "false":
		*dst = false
	case string(raw) != "null":
		r.i -= len(raw)
		return r.kindError("boolean")
	}
	return nil
}

// unmarshalerInto hands the next value to u's UnmarshalJSON.
func (r *jsonReader) unmarshalerInto(u json.Unmarshaler) error {
	start := r.i
	raw, err := r.value()
	if err != nil {
		return err
	}
	if err := u.UnmarshalJSON(raw); err != nil {
		return &decodeFailure{offset: start, err: err}
	}
	return nil
}

// decodeFailure is an error of the hand-written decoders: where it happened
// (the byte offset and the path of keys and indexes) and what it was.
type decodeFailure struct {
	path   []string // outermost first
	offset int
	err    error
}

func (e *decodeFailure) Error() string {
	var b strings.Builder
	for i, p := range e.path {
		if i > 0 && !strings.HasPrefix(p, "[") {
			b.WriteByte('.')
		}
		b.WriteString(p)
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	b.WriteString(e.err.Error())
	return b.String()
}

func (e *decodeFailure) Unwrap() error { return e.err }

// atPath adds a path segment in front of err's path.
func atPath(err error, segment string) error {
	var f *decodeFailure
	if errors.As(err, &f) {
		f.path = append([]string{segment}, f.path...)
		return f
	}
	return &decodeFailure{path: []string{segment}, offset: -1, err: err}
}

func (r *jsonReader) syntaxError(msg string) error {
	return &decodeFailure{offset: r.i, err: errors.New(msg)}
}

// kindError says that the value at the reader is not a want.
func (r *jsonReader) kindError(want string) error {
	got := "nothing"
	if r.i < len(r.data) {
		got = jsonKind(r.data[r.i])
	}
	return &decodeFailure{offset: r.i, err: fmt.Errorf("expected %s, got %s", want, got)}
}

// decodeString returns the JSON string literal raw as a Go string. The common
// case, no escapes and valid ASCII, is a plain copy; anything else is left to
// encoding/json.
func decodeString(raw []byte) (string, error) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", errMalformed
	}
	body := raw[1 : len(raw)-1]
	for _, c := range body {
		if c == '\\' || c == '"' || c < 0x20 || c >= utf8.RuneSelf {
			var s string
			err := json.Unmarshal(raw, &s)
			return s, err
		}
	}
	return string(body), nil
}

// keyName returns an object key (raw, with its quotes) without its quotes,
// decoded when it has escapes. Switching on string(keyName(k)) allocates
// nothing.
func keyName(raw []byte) []byte {
	if len(raw) >= 2 && bytes.IndexByte(raw, '\\') < 0 {
		return raw[1 : len(raw)-1]
	}
	s, err := decodeString(raw)
	if err != nil {
		return nil
	}
	return []byte(s)
}

// memberName returns an object key (raw, with its quotes) as a string. Keys
// without escapes, which is all of them in practice, cost no decoding.
func memberName(raw []byte) string {
	if len(raw) >= 2 && bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1])
	}
	s, err := decodeString(raw)
	if err != nil {
		return ""
	}
	return s
}
