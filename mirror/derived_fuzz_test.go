package mirror

import (
	"bytes"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// FuzzFileLinkSpans holds fileLinkSpans, which reads JSON byte by byte, to
// decodedLinkSpans, which finds the same spans with jsontext's decoder: the
// same spans for every input, and none where the decoder fails.
func FuzzFileLinkSpans(f *testing.F) {
	for _, seed := range []string{
		`{"object":"file","url":"https://x/f?sig=1","expires":"a"}`,
		`[{"\u006fbject":"fil\u0065","\u0075rl":"https://x/f\u003fsig=1","expire\u0073":null}]`,
		`{"a":[1,-0.5e+3,true,false,null,{"object":"file","expires":2,"object":"file"}],"b":"\ud800` + "\xff" + `"}`,
		`{"items":[{"file":{"url":"u?","object":"file","expires":{}}}]} trailing`,
		` {"object" : "file" , "url" : "?" } `,
		`{"object":"file","url":"a?b","x":01}`,
		`{"object":"file","url":"a?b","x":1.}`,
		`{"object":"file","url":"a?b","x":"\x"}`,
		`{"object":"file","url":"a?b","x":"` + "\x01" + `"}`,
		`{"object":"file","url":"a?b",}`,
		`{"object":"file","url":"a?b" "x":1}`,
		`{"object":"file","url":"a?b","x":nul}`,
		`{"object":"file","url":"a?b","x":[1 2]}`,
		strings.Repeat("[", maxDepth-1) + `{"object":"file","url":"a?b"}` + strings.Repeat("]", maxDepth-1),
		strings.Repeat("[", maxDepth) + `{"object":"file","url":"a?b"}` + strings.Repeat("]", maxDepth),
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, gotErr := fileLinkSpans(raw)
		want, wantErr := decodedLinkSpans(raw)
		if (gotErr == nil) != (wantErr == nil) {
			t.Fatalf("%q: error %v, the decoder's %v", raw, gotErr, wantErr)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: spans %v, the decoder's %v", raw, got, want)
		}
	})
}

// The seeds at the depth limit hold: a file object inside as many arrays as
// a decoder allows is found, and one inside more is not.
func TestFileLinkSpansDepth(t *testing.T) {
	for _, c := range []struct {
		arrays int
		want   int
	}{{maxDepth - 1, 1}, {maxDepth, 0}} {
		raw := []byte(strings.Repeat("[", c.arrays) + `{"object":"file","url":"a?b"}` + strings.Repeat("]", c.arrays))
		got, _ := fileLinkSpans(raw)
		want, _ := decodedLinkSpans(raw)
		if len(got) != c.want || len(want) != c.want {
			t.Errorf("a file object in %d arrays: %d spans, the decoder's %d, want %d", c.arrays, len(got), len(want), c.want)
		}
	}
}

// decodedLinkSpans is what fileLinkSpans returns, found with jsontext's
// decoder (as the mirror did before it read the bytes itself).
func decodedLinkSpans(raw []byte) ([]span, error) {
	dec := jsontext.NewDecoder(bytes.NewBuffer(raw), jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true))
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
				member := memberOf(name)
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
					file = v.Kind() == '"' && (string(v) == `"file"` || unquoted(v) == "file")
				case memberExpires:
					links = append(links, at)
				case memberURL:
					if u := unquoted(v); v.Kind() == '"' && strings.Contains(u, "?") {
						at.keep = []byte(u[:strings.IndexByte(u, '?')])
						links = append(links, at)
					}
				}
			}
			if file {
				spans = append(spans, links...)
			}
			_, err := dec.ReadToken()
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
			_, err := dec.ReadToken()
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

// unquoted is the text of a JSON string value, "" for any other, read as
// the decoder reads it: the oracle's, apart from textOf.
func unquoted(v jsontext.Value) string {
	s, err := jsontext.AppendUnquote(nil, v)
	if err != nil {
		return ""
	}
	return string(s)
}
