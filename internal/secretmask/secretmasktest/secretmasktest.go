// Package secretmasktest writes a secret in the spellings that
// secretmask masks, for tests that make a server quote it.
package secretmasktest

import (
	"encoding/base64"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"unicode/utf16"
)

// Spelling is a secret written one way, named for the way.
type Spelling struct {
	Name string
	Text string
}

// Spellings are the ways a text may spell key, each written by other code
// than the mask's own (the standard library where it has one): itself,
// query and path escaped (%XX in upper and lower case), every byte as
// %XX, every character as \uXXXX (in either case), a mixture of these by
// character, JSON's short escapes, and base64 in both alphabets, padded or
// not, of key and of key followed by a colon.
func Spellings(key string) []Spelling {
	sp := []Spelling{
		{"itself", key},
		{"query escaped", url.QueryEscape(key)},
		{"query escaped, %xx", percentEscape.ReplaceAllStringFunc(url.QueryEscape(key), strings.ToLower)},
		{"path escaped", url.PathEscape(key)},
		{"every byte %XX", percentAll(key, true)},
		{"every byte %xx", percentAll(key, false)},
		{`every character \uXXXX`, jsonAll(key, true)},
		{`every character \uxxxx`, jsonAll(key, false)},
		{"mixed by character", mixed(key)},
		{"JSON short escapes", strings.NewReplacer(`\`, `\\`, `"`, `\"`, `/`, `\/`).Replace(key)},
	}
	for _, plain := range []struct{ name, text string }{{"", key}, {" of KEY:", key + ":"}} {
		for _, enc := range []struct {
			name string
			enc  *base64.Encoding
		}{{"base64", base64.StdEncoding}, {"base64url", base64.URLEncoding}, {"base64 unpadded", base64.RawStdEncoding}, {"base64url unpadded", base64.RawURLEncoding}} {
			sp = append(sp, Spelling{enc.name + plain.name, enc.enc.EncodeToString([]byte(plain.text))})
		}
	}
	return sp
}

// percentEscape is a %XX escape.
var percentEscape = regexp.MustCompile(`%[0-9A-F]{2}`)

// percentAll writes every byte of s as %XX, in upper or lower case.
func percentAll(s string, upper bool) string {
	format := "%%%02x"
	if upper {
		format = "%%%02X"
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		fmt.Fprintf(&b, format, s[i])
	}
	return b.String()
}

// jsonEscape writes r as \uXXXX, a surrogate pair beyond U+FFFF.
func jsonEscape(r rune, upper bool) string {
	format := `\u%04x`
	if upper {
		format = `\u%04X`
	}
	if r > 0xFFFF {
		r1, r2 := utf16.EncodeRune(r)
		return fmt.Sprintf(format+format, r1, r2)
	}
	return fmt.Sprintf(format, r)
}

// jsonAll writes every character of s as \uXXXX.
func jsonAll(s string, upper bool) string {
	var b strings.Builder
	for _, r := range s {
		b.WriteString(jsonEscape(r, upper))
	}
	return b.String()
}

// mixed writes the characters of s in turn as themselves, URL-encoded
// (upper case), JSON-escaped (lower case), URL-encoded (lower case) and
// JSON-escaped (upper case).
func mixed(s string) string {
	var b strings.Builder
	i := 0
	for _, r := range s {
		switch c := string(r); i % 5 {
		case 0:
			b.WriteString(c)
		case 1:
			b.WriteString(percentAll(c, true))
		case 2:
			b.WriteString(jsonEscape(r, false))
		case 3:
			b.WriteString(percentAll(c, false))
		case 4:
			b.WriteString(jsonEscape(r, true))
		}
		i++
	}
	return b.String()
}
