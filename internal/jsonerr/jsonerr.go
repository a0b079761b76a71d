// Package jsonerr tells where and why a JSON document failed to decode: the
// byte offset, and the path written the way a Go programmer reads one
// (data[1].items[0].pricing), with what was wrong there.
package jsonerr

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
	"github.com/ordermsg/ordermsg-go/internal/jsontok"
)

// Locate reads a failure of encoding/json/v2, err (not nil): it returns the
// byte offset of the failing value (-1 when the decoder did not say) and an
// error that says what was wrong at which path, and unwraps to err.
func Locate(err error) (offset int64, located error) {
	var semantic *json.SemanticError
	var syntactic *jsontext.SyntacticError
	switch {
	case errors.As(err, &syntactic):
		return syntactic.ByteOffset, &PathError{At: syntactic.JSONPointer, Detail: syntactic.Err, Err: err}
	case errors.As(err, &semantic):
		detail := semantic.Err // what was wrong with a value of the right syntax
		if detail == nil && semantic.GoType != nil && semantic.JSONKind != 0 {
			detail = fmt.Errorf("expected %s, got %s", goKindName(semantic.GoType), jsontok.KindName(semantic.JSONKind))
		}
		return semantic.ByteOffset, &PathError{At: semantic.JSONPointer, Detail: detail, Err: err}
	}
	return -1, err
}

// PathError wraps encoding/json/v2's error, Err: it says Detail (else Err)
// at the path At.
type PathError struct {
	At          jsontext.Pointer
	Detail, Err error
}

// Error writes the path as Go reads it, then what was wrong there.
func (e *PathError) Error() string {
	var b strings.Builder
	for token := range e.At.Tokens() {
		if _, err := strconv.ParseUint(token, 10, 64); err == nil && !strings.HasPrefix(token, "0") || token == "0" {
			b.WriteString("[" + token + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(token)
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	return b.String() + cmp.Or(e.Detail, e.Err).Error()
}

// Unwrap returns Err.
func (e *PathError) Unwrap() error { return e.Err }

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

// ElementOffset is the offset in body, an object that decoded, of element i
// of the array that its member name holds; -1 when the member is not there,
// is not an array, or has no element i.
func ElementOffset(body []byte, name string, i int) int64 {
	dec := jsontext.NewDecoder(bytes.NewBuffer(body))
	if _, err := dec.ReadToken(); err != nil { // the object's '{'
		return -1
	}
	for dec.PeekKind() == '"' {
		tok, err := dec.ReadToken()
		if err != nil {
			return -1
		}
		if tok.String() != name {
			if err := dec.SkipValue(); err != nil {
				return -1
			}
			continue
		}
		if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '[' {
			return -1
		}
		for range i {
			if err := dec.SkipValue(); err != nil {
				return -1
			}
		}
		if dec.PeekKind() == ']' { // past the end
			return -1
		}
		rest := body[dec.InputOffset():]
		return int64(len(body) - len(bytes.TrimLeft(rest, " \t\r\n,")))
	}
	return -1
}
