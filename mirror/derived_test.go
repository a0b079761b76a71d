package mirror

import (
	"bytes"
	"strings"
	"testing"
)

// The digest leaves out exactly the parts of file links that the server
// signs anew on every read, wherever a file object is and whatever the
// order of its members; every other difference is a change.
func TestContentDigest(t *testing.T) {
	const base = `{"object":"order","id":7,"status":"new","items":[{"object":"versadoc_order_item","print_ready_files":[` +
		`{"object":"print_ready_file","id":9,"file":{"object":"file","id":3,"filename":"a.pdf","url":"https://files.example/f/3?sig=AAA&x=1","expires":"2024-01-01T00:00:00+00:00"}},` +
		`{"object":"print_ready_file","id":10,"file":{"url":"https://files.example/f/4?sig=CCC","expires":"2024-01-01T00:00:00+00:00","id":4,"object":"file"}}]}],` +
		`"note":{"url":"https://example.com/?a=1","expires":"x"}}`
	same := []string{
		// Re-signed links, the object member first or last.
		`{"object":"order","id":7,"status":"new","items":[{"object":"versadoc_order_item","print_ready_files":[` +
			`{"object":"print_ready_file","id":9,"file":{"object":"file","id":3,"filename":"a.pdf","url":"https://files.example/f/3?sig=BBB&x=2","expires":"2025-06-01T00:00:00+00:00"}},` +
			`{"object":"print_ready_file","id":10,"file":{"url":"https://files.example/f/4?sig=DDD","expires":"2030-01-01T00:00:00+00:00","id":4,"object":"file"}}]}],` +
			`"note":{"url":"https://example.com/?a=1","expires":"x"}}`,
		// The ? escaped, and an expires that is not a string.
		`{"object":"order","id":7,"status":"new","items":[{"object":"versadoc_order_item","print_ready_files":[` +
			`{"object":"print_ready_file","id":9,"file":{"object":"file","id":3,"filename":"a.pdf","url":"https://files.example/f/3\u003fsig=EEE","expires":null}},` +
			`{"object":"print_ready_file","id":10,"file":{"url":"https://files.example/f/4?","expires":1,"id":4,"object":"file"}}]}],` +
			`"note":{"url":"https://example.com/?a=1","expires":"x"}}`,
	}
	note := `"note":{"url":"https://example.com/?a=1","expires":"x"}`
	changed := []struct{ name, old, new string }{
		{"a status", `"status":"new"`, `"status":"paid"`},
		{"a file's path", `f/3?sig=AAA`, `f/5?sig=AAA`},
		{"a file's name", `"filename":"a.pdf"`, `"filename":"b.pdf"`},
		{"a link outside a file object", note, `"note":{"url":"https://example.com/?a=2","expires":"x"}`},
		{"an expires outside a file object", note, `"note":{"url":"https://example.com/?a=1","expires":"y"}`},
	}
	want := contentDigest([]byte(base))
	if len(want) != 32 {
		t.Fatalf("digest of %d bytes", len(want))
	}
	for i, s := range same {
		if got := contentDigest([]byte(s)); !bytes.Equal(got, want) {
			t.Errorf("re-signed links %d: the digest changed", i)
		}
	}
	for _, c := range changed {
		s := strings.Replace(base, c.old, c.new, 1)
		if s == base {
			t.Fatalf("%s: the test changed nothing", c.name)
		}
		if bytes.Equal(contentDigest([]byte(s)), want) {
			t.Errorf("%s: the digest did not change", c.name)
		}
	}
	// A lone surrogate, or bytes that are not UTF-8, are read past.
	bad := strings.Replace(base, `"status":"new"`, `"status":"\ud800`+"\xff"+`"`, 1)
	resigned := strings.Replace(strings.Replace(bad, "sig=AAA", "sig=ZZZ", 1), "2024-01-01T00:00:00+00:00", "2031-01-01T00:00:00+00:00", 1)
	if !bytes.Equal(contentDigest([]byte(bad)), contentDigest([]byte(resigned))) {
		t.Error("a record with a lone surrogate: re-signed links change the digest")
	}
	// Member names and "file" spelt with escapes.
	escaped := `[{"\u006fbject":"fil\u0065","\u0075rl":"https://x/f?sig=1","expire\u0073":"a"}]`
	resignedEscaped := `[{"\u006fbject":"fil\u0065","\u0075rl":"https://x/f?sig=2","expire\u0073":"b"}]`
	if !bytes.Equal(contentDigest([]byte(escaped)), contentDigest([]byte(resignedEscaped))) {
		t.Error("a file object spelt with escapes: re-signed links change the digest")
	}
	// JSON that does not parse is digested whole.
	if bytes.Equal(contentDigest([]byte(`{"a":`)), contentDigest([]byte(`{"a":1`))) {
		t.Error("two broken inputs share a digest")
	}
}

// The views' copy of a record replaces every \u0000, in values and in
// member names, by U+FFFD, and exists only for a record that has one.
func TestViewJSONReplacesNULs(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"a":"x"}`, ""},
		{`{"a":"x\\u0000"}`, ""}, // a backslash, then u0000
		{`{"a":"x\u0000y","b\u0000":[1,"\u0000"],"c":"\\\u0000"}`, `{"a":"x` + "\uFFFD" + `y","b` + "\uFFFD" + `":[1,"` + "\uFFFD" + `"],"c":"\\` + "\uFFFD" + `"}`},
	} {
		if got := string(viewJSON([]byte(c.in))); got != c.want {
			t.Errorf("viewJSON(%s) = %s, want %s", c.in, got, c.want)
		}
	}
}

// The views' copy of a record replaces every array or object nested deeper
// than SQLite reads (1,000 levels) by null, and exists only for a record
// that has one; brackets in strings do not count.
func TestViewJSONCutsWhatSQLiteCannotRead(t *testing.T) {
	nested := func(n int, inner string) string { return strings.Repeat("[", n) + inner + strings.Repeat("]", n) }
	for _, c := range []struct{ name, in, want string }{
		{"1,000 levels", `{"a":` + nested(maxViewDepth-1, "1") + `}`, ""},
		{"brackets in strings", `{"a":"` + strings.Repeat("[{", 2*maxViewDepth) + `","b":"\\\"[["}`, ""},
		{"1,001 levels", `{"a":` + nested(maxViewDepth, `{"b":2}`) + `,"c":[3]}`, `{"a":` + nested(maxViewDepth-1, "null") + `,"c":[3]}`},
		{"deep and a NUL", `{"n":"\u0000","a":` + nested(maxViewDepth+5, "") + `}`, `{"n":"` + "\uFFFD" + `","a":` + nested(maxViewDepth-1, "null") + `}`},
	} {
		got := string(viewJSON([]byte(c.in)))
		if got != c.want {
			t.Errorf("%s: viewJSON = %.80s… (%d bytes), want %.80s… (%d bytes)", c.name, got, len(got), c.want, len(c.want))
		}
		if got != "" && deeperThan([]byte(got), maxViewDepth) {
			t.Errorf("%s: the copy still nests deeper than %d", c.name, maxViewDepth)
		}
	}
}
