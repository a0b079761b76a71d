// Package secretmask masks secrets in a text, such as an error's message
// that a server or a driver may have written with a secret in it: every
// spelling that decodes to a secret, and the start of one that a cut split.
// It knows nothing of what the text is about; its caller says what the
// secrets are and decides which are long enough to mask.
//
// A secret's spellings are:
//   - the secret itself;
//   - URL-encoded, as query and path escaping write it and more: any byte
//     as %XX, hex digits in either case, and '+' for a space;
//   - JSON-escaped: any character as \uXXXX (a UTF-16 surrogate pair
//     beyond U+FFFF), hex digits in either case, or as its short escape
//     (\" \\ \/ \b \f \n \r \t);
//   - base64, of the secret and of the secret followed by a colon (the
//     credentials of HTTP Basic authentication), in the standard and the
//     URL alphabets, padded or not.
//
// The first three mix freely, character by character: each character of
// the secret may be written as itself, URL-encoded or JSON-escaped.
package secretmask

import (
	"cmp"
	"encoding/base64"
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Replacement stands, in a masked text, for each run of bytes that held a
// secret: a spelling, or pieces of spellings that touch or overlap.
const Replacement = "xxxxx"

// CutMark marks where a text was cut to a length: the SDK ends a server's
// message it cut with it. Text masks the piece just before each CutMark
// that is the start of a spelling of a secret, however short, for the cut
// may have split a secret there. Such a piece can also be ordinary text
// that happens to start a spelling (a letter before an ellipsis): it is
// masked all the same, a cut text having lost its end anyway.
const CutMark = "…"

// Mask masks a set of secrets. A nil *Mask masks nothing.
type Mask struct {
	secrets []*secret
}

// New returns the Mask of secrets; an empty one is ignored. Every secret
// given is masked, however short: the caller decides which are worth it
// (masking a secret of a few characters garbles ordinary text).
func New(secrets ...string) *Mask {
	m := &Mask{}
	for _, s := range secrets {
		if s != "" {
			m.secrets = append(m.secrets, newSecret(s))
		}
	}
	return m
}

// Text is text with every spelling of each secret, and every piece of one
// just before a CutMark, replaced by Replacement.
func (m *Mask) Text(text string) string {
	if m == nil {
		return text
	}
	var spans []span
	for _, s := range m.secrets {
		spans = s.spellings(text, spans)
		spans = s.cutPieces(text, spans)
	}
	if len(spans) == 0 {
		return text
	}
	slices.SortFunc(spans, func(a, b span) int { return cmp.Compare(a.start, b.start) })
	var b strings.Builder
	done := 0 // text[:done] is written
	for i := 0; i < len(spans); {
		start, end := spans[i].start, spans[i].end
		for i++; i < len(spans) && spans[i].start <= end; i++ {
			end = max(end, spans[i].end)
		}
		b.WriteString(text[done:start])
		b.WriteString(Replacement)
		done = end
	}
	b.WriteString(text[done:])
	return b.String()
}

// span is text[start:end], to be masked.
type span struct{ start, end int }

// secret is a secret, ready to be looked for.
type secret struct {
	chars   []char
	encoded []string // the base64 spellings
	// first lists the bytes a spelling may start with.
	first [256]bool
	// longest is the length of the longest spelling.
	longest int
}

// char is a character of a secret: the bytes of a rune, or a byte that is
// not UTF-8 (r is then -1, and has no JSON escape).
type char struct {
	bytes string
	r     rune
	// short is its two-character JSON escape, if it has one.
	short string
	// utf16[:units] are the code units \uXXXX writes.
	utf16 [2]rune
	units int
}

func newSecret(s string) *secret {
	sec := &secret{}
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			r = -1
		}
		c := char{bytes: s[i : i+n], r: r, utf16: [2]rune{r}, units: 1}
		if letter, ok := jsonShort[r]; ok {
			c.short = `\` + string(letter)
		}
		if r > 0xFFFF {
			c.utf16[0], c.utf16[1] = utf16.EncodeRune(r)
			c.units = 2
		}
		sec.chars = append(sec.chars, c)
		// Each byte as %XX, or the rune as a surrogate pair: 12 bytes.
		sec.longest += max(3*n, 12)
		i += n
	}
	for _, plain := range []string{s, s + ":"} {
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
			if e := enc.EncodeToString([]byte(plain)); !slices.Contains(sec.encoded, e) {
				sec.encoded = append(sec.encoded, e)
				sec.first[e[0]] = true
				sec.longest = max(sec.longest, len(e))
			}
		}
	}
	sec.first[s[0]] = true
	sec.first['%'] = true
	sec.first['\\'] = true
	if s[0] == ' ' {
		sec.first['+'] = true
	}
	return sec
}

// spellings appends to spans every spelling of the secret in text: from
// each byte where one starts, the longest.
func (s *secret) spellings(text string, spans []span) []span {
	for p := 0; p < len(text); p++ {
		if !s.first[text[p]] {
			continue
		}
		if end, _ := s.at(text, p); end > p {
			spans = append(spans, span{p, end})
		}
	}
	return spans
}

// cutPieces appends to spans, for each CutMark in text, the longest piece
// just before it that is the start of a spelling of the secret.
func (s *secret) cutPieces(text string, spans []span) []span {
	for from := 0; ; {
		i := strings.Index(text[from:], CutMark)
		if i < 0 {
			return spans
		}
		cut := from + i
		for p := max(0, cut-s.longest); p < cut; p++ {
			if end, partial := s.at(text[:cut], p); partial || end == cut {
				spans = append(spans, span{p, cut})
				break
			}
		}
		from = cut + len(CutMark)
	}
}

// at returns the end of the longest spelling of the secret that starts at
// text[p], or -1; partial reports whether text[p:], not empty, is the
// start of a spelling that the end of text cut.
func (s *secret) at(text string, p int) (end int, partial bool) {
	end = -1
	for _, e := range s.encoded {
		switch rest := text[p:]; {
		case strings.HasPrefix(rest, e):
			end = max(end, p+len(e))
		case rest != "" && strings.HasPrefix(e, rest):
			partial = true
		}
	}
	// The ends each spelling of the characters so far reaches, each once.
	var buf1, buf2 [16]int
	ends, next := append(buf1[:0], p), buf2[:0]
	for _, c := range s.chars {
		next = next[:0]
		for _, q := range ends {
			var cut bool
			if next, cut = c.spellings(text, q, next); cut && len(text) > p {
				partial = true
			}
		}
		if ends, next = next, ends; len(ends) == 0 {
			break
		}
	}
	for _, e := range ends {
		end = max(end, e)
	}
	return end, partial
}

// spellings appends to ends, once each, the end of each spelling of c
// that starts at text[p], and reports whether the text ends where one
// starts or inside one.
func (c char) spellings(text string, p int, ends []int) (_ []int, partial bool) {
	// Byte by byte, each as itself or URL-encoded.
	var buf1, buf2 [8]int
	at, next := append(buf1[:0], p), buf2[:0]
	for i := 0; i < len(c.bytes) && len(at) > 0; i++ {
		next = next[:0]
		for _, q := range at {
			var cut bool
			if next, cut = byteSpellings(text, q, c.bytes[i], next); cut {
				partial = true
			}
		}
		at, next = next, at
	}
	for _, e := range at {
		ends = addEnd(ends, e)
	}
	if c.r < 0 {
		return ends, partial
	}
	// JSON: the short escape, or \uXXXX (two of them beyond U+FFFF).
	if c.short != "" {
		switch e, ok, cut := literal(text, p, c.short); {
		case ok:
			ends = addEnd(ends, e)
		case cut:
			partial = true
		}
	}
	q := p
	for _, u := range c.utf16[:c.units] {
		e, ok, cut := literal(text, q, `\u`)
		if ok {
			e, ok, cut = hex(text, e, uint32(u), 4)
		}
		if !ok {
			return ends, partial || cut
		}
		q = e
	}
	return addEnd(ends, q), partial
}

// addEnd appends e to ends unless ends holds it.
func addEnd(ends []int, e int) []int {
	if slices.Contains(ends, e) {
		return ends
	}
	return append(ends, e)
}

// jsonShort is the letter of the two-character JSON escape of a rune.
var jsonShort = map[rune]byte{'"': '"', '\\': '\\', '/': '/', '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't'}

// byteSpellings appends to ends, once each, the end of each spelling of
// b that starts at text[p]: b itself, %XX, or + for a space. It reports
// whether the text ends where one starts or inside one.
func byteSpellings(text string, p int, b byte, ends []int) (_ []int, partial bool) {
	if p >= len(text) {
		return ends, true
	}
	if text[p] == b || b == ' ' && text[p] == '+' {
		ends = addEnd(ends, p+1)
	}
	if text[p] == '%' {
		switch e, ok, cut := hex(text, p+1, uint32(b), 2); {
		case ok:
			ends = addEnd(ends, e)
		case cut:
			partial = true
		}
	}
	return ends, partial
}

// literal reports whether text[p:] starts with want (ok, and where it
// ends), or is a start of it that the end of text cut.
func literal(text string, p int, want string) (end int, ok, cut bool) {
	rest := text[min(p, len(text)):]
	if strings.HasPrefix(rest, want) {
		return p + len(want), true, false
	}
	return 0, false, len(rest) < len(want) && strings.HasPrefix(want, rest)
}

// hex reports whether text[p:] starts with the given number of hex digits
// (in either case) that write v (ok, and where they end), or with a start
// of them that the end of text cut.
func hex(text string, p int, v uint32, digits int) (end int, ok, cut bool) {
	for i := range digits {
		if p+i >= len(text) {
			return 0, false, true
		}
		want := v >> (4 * (digits - 1 - i)) & 0xF
		if d, isHex := hexDigit(text[p+i]); !isHex || d != want {
			return 0, false, false
		}
	}
	return p + digits, true, false
}

func hexDigit(c byte) (uint32, bool) {
	switch {
	case '0' <= c && c <= '9':
		return uint32(c - '0'), true
	case 'a' <= c && c <= 'f':
		return uint32(c-'a') + 10, true
	case 'A' <= c && c <= 'F':
		return uint32(c-'A') + 10, true
	}
	return 0, false
}
