// Package jsonscan finds its way in JSON that a strict decoder refused: the
// elements of an array member of an object, and the members of an object
// that it holds once. It reads leniently, as far as the syntax allows:
// invalid UTF-8 and lone surrogate escapes in strings, which a strict
// decoder refuses, do not stop it, and duplicate names are allowed (and
// told). It decodes nothing: it says where values are.
package jsonscan

import (
	"bytes"

	"github.com/go-json-experiment/json/jsontext"
)

// Span is where a value starts and ends in a document: doc[Start:End].
type Span struct{ Start, End int64 }

// decoder reads doc leniently.
func decoder(doc []byte) *jsontext.Decoder {
	return jsontext.NewDecoder(bytes.NewReader(doc), jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true))
}

// ArrayMember finds, in doc, an object, the array that its member name
// holds, and that array's elements. It reports false when doc is not an
// object of a valid syntax, when the member is missing, given twice or not
// an array.
func ArrayMember(doc []byte, name string) (array Span, elements []Span, ok bool) {
	dec := decoder(doc)
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return Span{}, nil, false
	}
	found := false
	for dec.PeekKind() == '"' {
		tok, err := dec.ReadToken()
		if err != nil {
			return Span{}, nil, false
		}
		if tok.String() != name {
			if dec.SkipValue() != nil {
				return Span{}, nil, false
			}
			continue
		}
		if found || dec.PeekKind() != '[' {
			return Span{}, nil, false
		}
		found = true
		if _, err := dec.ReadToken(); err != nil {
			return Span{}, nil, false
		}
		array.Start = dec.InputOffset() - 1
		elements = []Span{}
		for dec.PeekKind() != ']' {
			v, err := dec.ReadValue()
			if err != nil {
				return Span{}, nil, false
			}
			end := dec.InputOffset()
			elements = append(elements, Span{end - int64(len(v)), end})
		}
		if _, err := dec.ReadToken(); err != nil {
			return Span{}, nil, false
		}
		array.End = dec.InputOffset()
	}
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '}' || !found {
		return Span{}, nil, false
	}
	return array, elements, true
}

// Members returns, for each of names, the value that the object doc holds
// under it when it holds it exactly once, else nil. It reads the members up
// to the first error of syntax; what it read so far counts.
func Members(doc []byte, names ...string) [][]byte {
	values := make([][]byte, len(names))
	counts := make([]int, len(names))
	dec := decoder(doc)
	if tok, err := dec.ReadToken(); err == nil && tok.Kind() == '{' {
	members:
		for dec.PeekKind() == '"' {
			tok, err := dec.ReadToken()
			if err != nil {
				break
			}
			member := tok.String() // before the next read, which ends tok
			v, err := dec.ReadValue()
			if err != nil {
				break
			}
			for i, name := range names {
				if member == name {
					counts[i]++
					values[i] = bytes.Clone(v)
					continue members
				}
			}
		}
	}
	for i, n := range counts {
		if n != 1 {
			values[i] = nil
		}
	}
	return values
}
