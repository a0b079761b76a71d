package jsontok

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Strings interns the strings of one decode, as encoding/json/v2 does: a page
// repeats its object kinds, statuses, labels and ids. The zero Strings is
// empty.
type Strings struct {
	table [1024]string
}

// Reset empties s, for the next decode.
func (s *Strings) Reset() { clear(s.table[:]) }

// Intern returns b as a string, the same one as an earlier equal b when it
// can. A nil *Strings returns a new string.
func (st *Strings) Intern(b []byte) string {
	if st == nil || len(b) < 2 || len(b) > 64 {
		return string(b)
	}
	h := uint64(len(b)) * 0x9e3779b97f4a7c15
	if len(b) >= 8 {
		h ^= binary.LittleEndian.Uint64(b) ^ binary.LittleEndian.Uint64(b[len(b)-8:])*0xc2b2ae3d27d4eb4f
	} else {
		for _, c := range b {
			h = (h ^ uint64(c)) * 0x100000001b3
		}
	}
	s := &st.table[(h^h>>29)*0xbf58476d1ce4e5b9>>54]
	if *s != string(b) {
		*s = string(b)
	}
	return *s
}

// ReadNull reads a JSON null when it is the next value, and reports whether
// it was.
func ReadNull(dec *jsontext.Decoder) (bool, error) {
	if dec.PeekKind() != 'n' {
		return false, nil
	}
	_, err := dec.ReadToken()
	return true, err
}

// KindName names a JSON kind for error messages.
func KindName(k jsontext.Kind) string {
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

// Object reads an object, or null (which leaves the value as it is),
// calling member with each name; member reads the value and returns the
// member's number (1 to 63), or returns 0 for a member to keep in unknown as
// sent (nil: skip it). A name seen twice is an error, as the decoder would
// give it.
func Object(dec *jsontext.Decoder, unknown *jsontext.Value, member func(name []byte) (int, error)) error {
	return object(dec, unknown, nil, member)
}

// Span is the bytes [Start, End) of a decoder's input.
type Span struct{ Start, End int64 }

// MemberSpans are where a member of an object is in a decoder's input: its
// name, quoted as sent, and its value.
type MemberSpans struct{ Name, Value Span }

// ObjectSpans reads an object as Object does, skipping the members that
// member does not read, and appends to *spans where each member is, in
// order. The decoder must hold its whole input in memory (see ValueStart).
func ObjectSpans(dec *jsontext.Decoder, spans *[]MemberSpans, member func(name []byte) (int, error)) error {
	return object(dec, nil, spans, member)
}

// ValueStart is the input offset at which the next value starts: after the
// white space, and the colon or comma, that the decoder has not read yet. It
// reads them from the decoder's unread buffer, which holds them when the
// decoder's input is in memory.
func ValueStart(dec *jsontext.Decoder) int64 {
	b := dec.UnreadBuffer()
	n := 0
	for n < len(b) && (b[n] == ' ' || b[n] == '\t' || b[n] == '\r' || b[n] == '\n' || b[n] == ':' || b[n] == ',') {
		n++
	}
	return dec.InputOffset() + int64(n)
}

// object is Object, which with spans not nil also notes where each member is.
func object(dec *jsontext.Decoder, unknown *jsontext.Value, spans *[]MemberSpans, member func(name []byte) (int, error)) error {
	switch dec.PeekKind() {
	case 'n':
		_, err := dec.ReadToken()
		return err
	case '{':
	default:
		return WrongKind(dec, "object")
	}
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	var seen uint64    // the numbers of the known members read
	var others NameSet // the names of the other members read
	for dec.PeekKind() != '}' {
		quoted, err := dec.ReadValue()
		if err != nil {
			return err
		}
		at := dec.InputOffset() - int64(len(quoted))
		var valueAt int64
		if spans != nil {
			valueAt = ValueStart(dec)
		}
		name := quoted[1 : len(quoted)-1]
		n, err := member(name)
		if n == 0 && err == nil && bytes.IndexByte(name, '\\') >= 0 {
			name, _ = jsontext.AppendUnquote(nil, quoted) // no case of the switch has a backslash
			n, err = member(name)
		}
		if err != nil {
			return AtValue(dec, err)
		}
		if n > 0 && seen&(1<<n) != 0 || n == 0 && others.Add(name) {
			return Duplicate(dec, at)
		}
		if n > 0 {
			seen |= 1 << n
		} else if val, err := ReadValue(dec); err != nil {
			return err
		} else if unknown != nil {
			u := bytes.TrimSuffix(*unknown, []byte("}"))
			if len(u) == 0 {
				u = append(u, '{')
			} else if u[len(u)-1] != '{' {
				u = append(u, ',')
			}
			u = append(append(u, quoted...), ':')
			*unknown = append(append(u, val...), '}')
		}
		if spans != nil {
			*spans = append(*spans, MemberSpans{Name: Span{at, at + int64(len(quoted))}, Value: Span{valueAt, dec.InputOffset()}})
		}
	}
	_, err := dec.ReadToken()
	return err
}

// Duplicate is the error of a member name read twice, the second time at
// offset at, as the decoder gives it.
func Duplicate(dec *jsontext.Decoder, at int64) error {
	return &jsontext.SyntacticError{ByteOffset: at, JSONPointer: dec.StackPointer(), Err: jsontext.ErrDuplicateName}
}

// NameSet holds the names of an object's members: in an array while they
// are few (no allocation), then in a map, so that an object of many members
// costs linear time. The zero NameSet is empty.
type NameSet struct {
	few [16][]byte
	n   int // of few
	set map[string]struct{}
}

// Add adds name, which must not change afterwards, and reports whether it
// was in s already.
func (s *NameSet) Add(name []byte) bool {
	if s.set == nil {
		list := s.few[:s.n]
		if slices.ContainsFunc(list, func(o []byte) bool { return bytes.Equal(o, name) }) {
			return true
		}
		if s.n < len(s.few) {
			s.few[s.n] = name
			s.n++
			return false
		}
		s.set = make(map[string]struct{}, 2*(len(list)+1))
		for _, o := range list {
			s.set[string(o)] = struct{}{}
		}
		s.set[string(name)] = struct{}{}
		return false
	}
	if _, ok := s.set[string(name)]; ok {
		return true
	}
	s.set[string(name)] = struct{}{}
	return false
}

// ReadValue reads the next value whole and checks its names (UniqueNames);
// it returns the value with an error about its names.
func ReadValue(dec *jsontext.Decoder) (jsontext.Value, error) {
	val, err := dec.ReadValue()
	if err == nil {
		err = UniqueNames(dec, val)
	}
	return val, err
}

// UniqueNames checks that no object in val, the value dec has just read,
// has a name twice, which a decoder that allows duplicate names does not.
func UniqueNames(dec *jsontext.Decoder, val jsontext.Value) error {
	if k := val.Kind(); k != '{' && k != '[' {
		return nil
	}
	_, err := jsontext.NewDecoder(bytes.NewBuffer(val)).ReadValue()
	var syntactic *jsontext.SyntacticError
	if errors.As(err, &syntactic) {
		syntactic.ByteOffset += dec.InputOffset() - int64(len(val))
		syntactic.JSONPointer = dec.StackPointer() + syntactic.JSONPointer
	}
	return err
}

// AtValue gives err, from a method that decoded the value of the member just
// read, the position of that value, unless it has one.
func AtValue(dec *jsontext.Decoder, err error) error {
	var semantic *json.SemanticError
	var syntactic *jsontext.SyntacticError
	if errors.As(err, &semantic) || errors.As(err, &syntactic) || errors.Is(err, io.ErrUnexpectedEOF) {
		return err
	}
	b := dec.UnreadBuffer()
	skip := len(b) - len(bytes.TrimLeft(b, " \t\r\n:"))
	return &json.SemanticError{ByteOffset: dec.InputOffset() + int64(skip), JSONPointer: dec.StackPointer(), Err: err}
}

// WrongKind reads the next value, of another kind than want (only the '{'
// or '[' that begins an object or array, as v2 does), and returns the error
// that says so.
func WrongKind(dec *jsontext.Decoder, want string) error {
	var val jsontext.Value
	var err error
	if k := dec.PeekKind(); k == '{' || k == '[' {
		_, err = dec.ReadToken()
		val = jsontext.Value{byte(k)}
	} else {
		val, err = dec.ReadValue()
	}
	if err != nil {
		return err
	}
	return BadValue(dec, val, fmt.Errorf("expected %s, got %s", want, KindName(val.Kind())))
}

// BadValue is the error err about val, the value just read.
func BadValue(dec *jsontext.Decoder, val jsontext.Value, err error) error {
	return &json.SemanticError{ByteOffset: dec.InputOffset() - int64(len(val)), JSONPointer: dec.StackPointer(), JSONKind: val.Kind(), Err: err}
}

// readScalar reads the next value for a field of kind want ('"', '0' or 't'
// for a bool): nil, with no error, for null.
func readScalar(dec *jsontext.Decoder, want jsontext.Kind, name string) (jsontext.Value, error) {
	if want == 't' {
		if k := dec.PeekKind(); k != 't' && k != 'f' && k != 'n' {
			return nil, WrongKind(dec, name) // v2 reads a bool's token, a string's or number's value
		}
	}
	val, err := dec.ReadValue()
	switch k := val.Kind(); {
	case err != nil || k == 'n':
		return nil, err
	case k != want && !(want == 't' && k == 'f'):
		return nil, BadValue(dec, val, fmt.Errorf("expected %s, got %s", name, KindName(k)))
	}
	return val, nil
}

// ReadString reads a string, interned in st, into *s; null leaves *s as it
// is.
func ReadString[S ~string](dec *jsontext.Decoder, st *Strings, s *S) error {
	val, err := readScalar(dec, '"', "string")
	if val == nil {
		return err
	}
	b := val[1 : len(val)-1]
	if bytes.IndexByte(b, '\\') >= 0 {
		b, _ = jsontext.AppendUnquote(nil, val)
	}
	*s = S(st.Intern(b))
	return nil
}

// ReadLenient reads a string, or skips a value of any other kind.
func ReadLenient(dec *jsontext.Decoder, st *Strings, s *string) error {
	if dec.PeekKind() != '"' {
		_, err := ReadValue(dec)
		return err
	}
	return ReadString(dec, st, s)
}

// ReadInt reads an integer into *n; null leaves *n as it is.
func ReadInt(dec *jsontext.Decoder, n *int64) error {
	val, err := readScalar(dec, '0', "integer")
	if val == nil {
		return err
	}
	if *n, err = strconv.ParseInt(string(val), 10, 64); err != nil {
		*n = 0
		return BadValue(dec, val, err.(*strconv.NumError).Err)
	}
	return nil
}

// ReadFloat reads a number into *f; null leaves *f as it is.
func ReadFloat(dec *jsontext.Decoder, f *float64) error {
	val, err := readScalar(dec, '0', "number")
	if val == nil {
		return err
	}
	if *f, err = strconv.ParseFloat(string(val), 64); err != nil {
		*f = 0
		return BadValue(dec, val, err.(*strconv.NumError).Err)
	}
	return nil
}

// ReadBool reads true or false into *b; null leaves *b as it is.
func ReadBool(dec *jsontext.Decoder, b *bool) error {
	val, err := readScalar(dec, 't', "bool")
	if val != nil {
		*b = val.Kind() == 't'
	}
	return err
}

// CheckString reads a string, or null, as ReadString does, and keeps
// nothing.
func CheckString(dec *jsontext.Decoder) error {
	_, err := readScalar(dec, '"', "string")
	return err
}

// CheckLenient reads a string, or skips a value of any other kind, as
// ReadLenient does, and keeps nothing.
func CheckLenient(dec *jsontext.Decoder) error {
	if dec.PeekKind() != '"' {
		_, err := ReadValue(dec)
		return err
	}
	return CheckString(dec)
}

// CheckInt reads an integer, or null, as ReadInt does, and keeps nothing.
func CheckInt(dec *jsontext.Decoder) error {
	var n int64
	return ReadInt(dec, &n)
}

// CheckFloat reads a number, or null, as ReadFloat does, and keeps nothing.
func CheckFloat(dec *jsontext.Decoder) error {
	var f float64
	return ReadFloat(dec, &f)
}

// CheckBool reads true, false or null, as ReadBool does, and keeps nothing.
func CheckBool(dec *jsontext.Decoder) error {
	var b bool
	return ReadBool(dec, &b)
}
