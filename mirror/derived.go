package mirror

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// What the mirror derives from a record's JSON as sent, beside it in the
// record's row: its digest (column digest), which tells a change from a
// read that only re-signed file links, and a copy without NUL characters
// (column nul_free_json), which the views read.

// contentDigest is the digest of a record's JSON that says whether the
// record changed: a record is rewritten, and counted updated, exactly when
// its digest changes. It is the SHA-256 of the JSON as the server sent it,
// less what the server signs anew on every read of a file link: in every
// object, at any depth, whose "object" member is "file", the value of its
// "expires" member and the query string of its "url" member (from the first
// "?" on). Any other difference, however small (a status, a note, the order
// of members, a number's spelling), is a change. JSON that does not parse is
// digested whole.
func contentDigest(raw []byte) []byte {
	h := sha256.New()
	var spans []span
	if mayHoldFileObject(raw) {
		spans, _ = fileLinkSpans(raw) // none for JSON that does not parse
	}
	at := 0
	for _, s := range spans {
		h.Write(raw[at:s.from])
		// A NUL byte, which JSON text never holds, marks where a span
		// was left out, so that no two inputs run together.
		h.Write([]byte{0})
		h.Write(s.keep)
		at = s.to
	}
	h.Write(raw[at:])
	return h.Sum(nil)
}

// mayHoldFileObject reports whether raw may hold an object whose "object"
// is "file", for contentDigest to read it only then: when the string "file"
// is in raw as a value (not followed by the colon of a member name), or a
// \u escape could spell it.
func mayHoldFileObject(raw []byte) bool {
	if bytes.Contains(raw, []byte(`\u`)) {
		return true
	}
	for rest := raw; ; {
		i := bytes.Index(rest, []byte(`"file"`))
		if i < 0 {
			return false
		}
		rest = rest[i+len(`"file"`):]
		if after := bytes.TrimLeft(rest, " \t\r\n"); len(after) == 0 || after[0] != ':' {
			return true
		}
	}
}

// span is the bytes raw[from:to] of a record's JSON, which its digest
// replaces with keep.
type span struct {
	from, to int
	keep     []byte
}

// fileLinkSpans returns, in order, the spans of raw that contentDigest
// leaves out: the expires values of file objects, and their url values,
// which it replaces with the URL before its query string. It reads raw's
// first JSON value as a JSON decoder does (jsontext's, with bytes that are
// not UTF-8 and lone surrogates read past, and member names that repeat:
// the links of such a record, which the SDK refuses, are left out of its
// digest too), and fails where such a decoder fails; it does not decode:
// the digest of every record read passes here, and with a decoder it took
// about 1.4 times as long (BenchmarkRecordWork). FuzzFileLinkSpans holds
// it to the decoder.
func fileLinkSpans(raw []byte) ([]span, error) {
	s := linkScan{raw: raw}
	s.space()
	if err := s.value(0); err != nil {
		return nil, err
	}
	slices.SortFunc(s.spans, func(a, b span) int { return a.from - b.from })
	return s.spans, nil
}

// linkScan is fileLinkSpans' reading of raw: at is the next byte to read.
type linkScan struct {
	raw   []byte
	at    int
	spans []span
}

// maxDepth is how deeply arrays and objects may nest, as in jsontext.
const maxDepth = 10000

// errNotJSON is the error of fileLinkSpans for raw that is not JSON.
var errNotJSON = errors.New("mirror: not JSON")

// space reads past whitespace.
func (s *linkScan) space() {
	for s.at < len(s.raw) {
		switch s.raw[s.at] {
		case ' ', '\t', '\r', '\n':
			s.at++
		default:
			return
		}
	}
}

// next is the byte at s.at, 0 at the end.
func (s *linkScan) next() byte {
	if s.at < len(s.raw) {
		return s.raw[s.at]
	}
	return 0
}

// value reads one JSON value, inside depth arrays and objects.
func (s *linkScan) value(depth int) error {
	switch c := s.next(); {
	case c == '{':
		return s.object(depth + 1)
	case c == '[':
		return s.array(depth + 1)
	case c == '"':
		return s.string()
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	case c == '-' || '0' <= c && c <= '9':
		return s.number()
	}
	return errNotJSON
}

// object reads an object, the depth-th array or object, and keeps the
// spans of its file links when its "object" is "file".
func (s *linkScan) object(depth int) error {
	var file bool
	var links []span
	err := s.list(depth, '}', func() error {
		from := s.at
		if err := s.string(); err != nil {
			return err
		}
		member := memberOf(jsontext.Value(s.raw[from:s.at]))
		s.space()
		if s.next() != ':' {
			return errNotJSON
		}
		s.at++
		s.space()
		if c := s.next(); c == '{' || c == '[' {
			return s.value(depth)
		}
		from = s.at
		if err := s.value(depth); err != nil {
			return err
		}
		v, at := jsontext.Value(s.raw[from:s.at]), span{from: from, to: s.at}
		switch member {
		case memberObject:
			file = v.Kind() == '"' && string(textOf(v)) == "file"
		case memberExpires:
			links = append(links, at)
		case memberURL:
			if u := textOf(v); v.Kind() == '"' {
				if i := bytes.IndexByte(u, '?'); i >= 0 {
					at.keep = u[:i]
					links = append(links, at)
				}
			}
		}
		return nil
	})
	if err == nil && file {
		s.spans = append(s.spans, links...)
	}
	return err
}

// array reads an array, the depth-th array or object.
func (s *linkScan) array(depth int) error {
	return s.list(depth, ']', func() error { return s.value(depth) })
}

// list reads the depth-th array or object, from its opening bracket to its
// closing one, each element or member with read.
func (s *linkScan) list(depth int, closing byte, read func() error) error {
	if depth > maxDepth {
		return errNotJSON
	}
	s.at++ // [ or {
	s.space()
	if s.next() == closing {
		s.at++
		return nil
	}
	for {
		if err := read(); err != nil {
			return err
		}
		s.space()
		switch s.next() {
		case ',':
			s.at++
			s.space()
		case closing:
			s.at++
			return nil
		default:
			return errNotJSON
		}
	}
}

// string reads a string: any byte but a control character, a quote or a
// backslash, and escapes of JSON.
func (s *linkScan) string() error {
	if s.next() != '"' {
		return errNotJSON
	}
	raw := s.raw
	for i := s.at + 1; i < len(raw); {
		switch c := raw[i]; {
		case c == '"':
			s.at = i + 1
			return nil
		case c == '\\':
			if i+1 >= len(raw) {
				return errNotJSON
			}
			switch raw[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(raw) || !isHex(raw[i+2]) || !isHex(raw[i+3]) || !isHex(raw[i+4]) || !isHex(raw[i+5]) {
					return errNotJSON
				}
				i += 6
			default:
				return errNotJSON
			}
		case c < ' ':
			return errNotJSON
		default:
			i++
		}
	}
	return errNotJSON
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

// literal reads the literal word.
func (s *linkScan) literal(word string) error {
	if !bytes.HasPrefix(s.raw[s.at:], []byte(word)) {
		return errNotJSON
	}
	s.at += len(word)
	return nil
}

// number reads a number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *linkScan) number() error {
	if s.next() == '-' {
		s.at++
	}
	switch c := s.next(); {
	case c == '0':
		s.at++
	case '1' <= c && c <= '9':
		s.digits()
	default:
		return errNotJSON
	}
	if s.next() == '.' {
		s.at++
		if !s.digits() {
			return errNotJSON
		}
	}
	if c := s.next(); c == 'e' || c == 'E' {
		s.at++
		if c := s.next(); c == '+' || c == '-' {
			s.at++
		}
		if !s.digits() {
			return errNotJSON
		}
	}
	return nil
}

// digits reads past digits, and reports whether there was one.
func (s *linkScan) digits() bool {
	from := s.at
	for s.at < len(s.raw) && '0' <= s.raw[s.at] && s.raw[s.at] <= '9' {
		s.at++
	}
	return s.at > from
}

// The members of a file object that contentDigest looks at.
const (
	memberOther = iota
	memberObject
	memberExpires
	memberURL
)

// memberOf tells which of the members contentDigest looks at the member
// name (a JSON string as sent) is.
func memberOf(name jsontext.Value) int {
	switch string(textOf(name)) { // no copy: compared only
	case "object":
		return memberObject
	case "expires":
		return memberExpires
	case "url":
		return memberURL
	}
	return memberOther
}

// textOf is the text of v, a JSON string as sent, empty for any other (and
// for a string that is not UTF-8): its bytes between the quotes when they
// are ASCII without an escape (no copy), else the string unquoted.
func textOf(v jsontext.Value) []byte {
	if len(v) >= 2 && v[0] == '"' && plainASCII(v) {
		return v[1 : len(v)-1]
	}
	text, err := jsontext.AppendUnquote(nil, v)
	if err != nil {
		return nil
	}
	return text
}

// plainASCII reports whether b holds only ASCII bytes and no backslash.
func plainASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf || c == '\\' {
			return false
		}
	}
	return true
}

// maxViewDepth is the deepest nesting of arrays and objects that SQLite's
// JSON functions read: a record nested deeper ("malformed JSON") would fail
// every query of a view that meets it, for every website.
const maxViewDepth = 1000

// viewJSON is the record's JSON as the views read it when that cannot be
// the record as sent, for the column nul_free_json; nil when it can, which
// is nearly always. In it, every NUL character (\u0000) in a string, member
// names included, is U+FFFD: PostgreSQL keeps \u0000 in a json value but
// fails every query that takes text out of such a value ("unsupported
// Unicode escape sequence"), and text columns cannot hold a NUL. And every
// array or object nested deeper than maxViewDepth is null. The column json
// keeps the record as sent; the views of both databases read this copy
// when there is one, so that both give the same rows.
func viewJSON(raw []byte) []byte {
	if !bytes.Contains(raw, []byte(`\u0000`)) && !deeperThan(raw, maxViewDepth) {
		return nil
	}
	dec := jsontext.NewDecoder(bytes.NewBuffer(raw))
	var out bytes.Buffer
	enc := jsontext.NewEncoder(&out)
	changed := false
	for {
		if k := dec.PeekKind(); (k == '[' || k == '{') && dec.StackDepth() >= maxViewDepth {
			if _, err := dec.ReadValue(); err != nil {
				return nil
			}
			if err := enc.WriteToken(jsontext.Null); err != nil {
				return nil
			}
			changed = true
			continue
		}
		tok, err := dec.ReadToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil
		}
		if tok.Kind() == '"' {
			if s := tok.String(); strings.Contains(s, "\x00") {
				tok, changed = jsontext.String(nulFree(s)), true
			}
		}
		if err := enc.WriteToken(tok); err != nil {
			return nil
		}
	}
	if !changed {
		return nil // a \\u0000: a backslash, then the letters u0000
	}
	return bytes.TrimSpace(out.Bytes())
}

// deeperThan reports whether raw, JSON, nests arrays and objects more than
// limit deep. Fewer brackets than that, as in nearly every record, say no
// without a scan.
func deeperThan(raw []byte, limit int) bool {
	if bytes.Count(raw, []byte{'['})+bytes.Count(raw, []byte{'{'}) <= limit {
		return false
	}
	depth, inString := 0, false
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; {
		case inString && c == '\\':
			i++ // the escaped byte
		case c == '"':
			inString = !inString
		case inString:
		case c == '[' || c == '{':
			if depth++; depth > limit {
				return true
			}
		case c == ']' || c == '}':
			depth--
		}
	}
	return false
}

// nulFree is s with every NUL character replaced by U+FFFD, as the mirror
// stores the text of a record's field in a column (PostgreSQL's text cannot
// hold a NUL).
func nulFree(s string) string { return strings.ReplaceAll(s, "\x00", "\uFFFD") }
