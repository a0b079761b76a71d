package mirror

import (
	"bytes"
	"crypto/sha256"
	"io"
	"slices"
	"strings"
	"sync"

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
// which it replaces with the URL before its query string.
func fileLinkSpans(raw []byte) ([]span, error) {
	dec := decoders.Get().(*jsontext.Decoder)
	defer decoders.Put(dec)
	// Bytes that are not UTF-8, and lone surrogates, are read past: the
	// digest of a record the SDK refused leaves its links out too.
	dec.Reset(bytes.NewBuffer(raw), jsontext.AllowInvalidUTF8(true))
	var spans []span
	var value func() error
	value = func() error {
		switch dec.PeekKind() {
		case '{':
			if _, err := dec.ReadToken(); err != nil {
				return err
			}
			var file bool
			var links []span
			for dec.PeekKind() == '"' {
				name, err := dec.ReadValue()
				if err != nil {
					return err
				}
				member := memberOf(name) // before the next read, which reuses name's memory
				if k := dec.PeekKind(); k == '{' || k == '[' {
					if err := value(); err != nil {
						return err
					}
					continue
				}
				v, err := dec.ReadValue()
				if err != nil {
					return err
				}
				end := int(dec.InputOffset())
				at := span{from: end - len(v), to: end}
				switch member {
				case memberObject:
					file = v.Kind() == '"' && (string(v) == `"file"` || unquote(v) == "file")
				case memberExpires:
					links = append(links, at)
				case memberURL:
					if u := unquote(v); v.Kind() == '"' && strings.Contains(u, "?") {
						at.keep = []byte(u[:strings.IndexByte(u, '?')])
						links = append(links, at)
					}
				}
			}
			if file {
				spans = append(spans, links...)
			}
			_, err := dec.ReadToken() // '}', or the error that ended the loop
			return err
		case '[':
			if _, err := dec.ReadToken(); err != nil {
				return err
			}
			for k := dec.PeekKind(); k != ']' && k != 0; k = dec.PeekKind() {
				if err := value(); err != nil {
					return err
				}
			}
			_, err := dec.ReadToken() // ']', or the error that ended the loop
			return err
		}
		_, err := dec.ReadValue()
		return err
	}
	if err := value(); err != nil {
		return nil, err
	}
	slices.SortFunc(spans, func(a, b span) int { return a.from - b.from })
	return spans, nil
}

// decoders are the decoders of fileLinkSpans, kept for the next call.
var decoders = sync.Pool{New: func() any { return new(jsontext.Decoder) }}

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
	n := string(name) // no copy: compared only
	if strings.IndexByte(n, '\\') >= 0 {
		n = `"` + unquote(name) + `"`
	}
	switch n {
	case `"object"`:
		return memberObject
	case `"expires"`:
		return memberExpires
	case `"url"`:
		return memberURL
	}
	return memberOther
}

// unquote is the text of a JSON string value, "" for any other.
func unquote(v jsontext.Value) string {
	s, err := jsontext.AppendUnquote(nil, v)
	if err != nil {
		return ""
	}
	return string(s)
}

// nulFreeJSON is the record's JSON with every NUL character (\u0000) in a
// string, member names included, replaced by U+FFFD, for the views to read;
// nil when it has none, which is nearly always. PostgreSQL keeps \u0000 in a
// json value but fails every query that takes text out of such a value
// ("unsupported Unicode escape sequence"), and text columns cannot hold a
// NUL: the column json keeps the record as sent, and the views read this
// copy when there is one (in SQLite too, so that both give the same rows).
func nulFreeJSON(raw []byte) []byte {
	if !bytes.Contains(raw, []byte(`\u0000`)) {
		return nil
	}
	dec := jsontext.NewDecoder(bytes.NewBuffer(raw))
	var out bytes.Buffer
	enc := jsontext.NewEncoder(&out)
	changed := false
	for {
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

// nulFree is s with every NUL character replaced by U+FFFD, as the mirror
// stores the text of a record's field in a column (PostgreSQL's text cannot
// hold a NUL).
func nulFree(s string) string { return strings.ReplaceAll(s, "\x00", "\uFFFD") }
