package secretmask

import (
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ordermsg/ordermsg-go/internal/secretmask/secretmasktest"
)

// spellings are the ways a text may spell key, by name.
func spellings(key string) map[string]string {
	sp := map[string]string{}
	for _, s := range secretmasktest.Spellings(key) {
		sp[s.Name] = s.Text
	}
	return sp
}

// keys are keys with the characters that escaping changes, that a
// regular expression reads, and that are not ASCII.
var keys = map[string]string{
	"url specials":   "sk_live+4/AbC=9%2F?&#~ key",
	"regexp":         `a.b*c+d?(e)[f]{g}|h^$\1`,
	"json specials":  `k"e\y/"\\/u0041`,
	"non-ASCII":      "clé-ключ-鍵-😀-secret",
	"hex looking":    "deadbeefCAFE0123",
	"plain":          "0123456789abcdefghij",
	"percent inside": "%41%42%43%44%45",
}

// TestMaskHidesEverySpelling: each spelling of each key, quoted in a text,
// is masked, and the text around it is kept.
func TestMaskHidesEverySpelling(t *testing.T) {
	for kname, key := range keys {
		m := New(key)
		for sname, sp := range spellings(key) {
			text := "the key " + sp + " is not allowed"
			if got, want := m.Text(text), "the key xxxxx is not allowed"; got != want {
				t.Errorf("%s, %s %q: got %q, want %q", kname, sname, sp, got, want)
			}
		}
	}
}

// TestMaskHidesPiecesACutSplit: a spelling cut at any byte, just before the
// cut mark, is masked from its first byte, and what follows the mark is
// kept; without the mark, the same start is ordinary text.
func TestMaskHidesPiecesACutSplit(t *testing.T) {
	for kname, key := range keys {
		m := New(key)
		for sname, sp := range spellings(key) {
			for i := 1; i < len(sp); i++ {
				text := "rejected: " + sp[:i] + CutMark + " (retry after 1s)"
				if got, want := m.Text(text), "rejected: xxxxx"+CutMark+" (retry after 1s)"; got != want {
					t.Fatalf("%s, %s cut after %d bytes: got %q, want %q", kname, sname, i, got, want)
				}
			}
		}
	}
	if got := New("0123456789abcdef").Text("ends with 0123"); got != "ends with 0123" {
		t.Errorf("a start of the key without the cut mark: %q, want it kept", got)
	}
}

// TestMaskOverlapsAndRepeats: spellings that touch or overlap, of one key
// or of two, become one Replacement; a text made only of the key becomes
// Replacement alone.
func TestMaskOverlapsAndRepeats(t *testing.T) {
	for _, c := range []struct {
		secrets   []string
		text, out string
	}{
		{[]string{"abcabcab"}, "abcabcabcabcab", "xxxxx"}, // overlapping occurrences
		{[]string{"abcdefgh"}, "abcdefghabcdefgh and abcdefgh", "xxxxx and xxxxx"},
		{[]string{"abcdefgh", "efghijkl"}, "<abcdefghijkl>", "<xxxxx>"},
		{[]string{"abcdefgh"}, "abcd%65fgh%61bcdefgh", "xxxxx"},
		{[]string{"abcdefgh"}, "abcabcdefgh", "abcxxxxx"},
		{[]string{"%41%41%41%41"}, "%2541%2541%2541%2541 %41%41%41%41", "xxxxx xxxxx"},
		{[]string{"abcdefgh"}, "abcdefgh", "xxxxx"},
		{[]string{"abcdefgh", ""}, "abcdefgh", "xxxxx"},
	} {
		if got := New(c.secrets...).Text(c.text); got != c.out {
			t.Errorf("%q in %q: got %q, want %q", c.secrets, c.text, got, c.out)
		}
	}
	var none *Mask
	if got := none.Text("abc"); got != "abc" {
		t.Errorf("nil Mask: %q", got)
	}
}

// TestMaskKeepsOrdinaryText: texts of every kind an error may hold (URLs,
// escapes, base64, JSON, a regular expression, another key) are unchanged
// for keys of 8 characters or more that they do not spell, the regexp
// key's metacharacters included.
func TestMaskKeepsOrdinaryText(t *testing.T) {
	texts := []string{
		`ordermsg: GET http://127.0.0.1:41234/websites/77/orders?page=2&per_page=100%20: 401 Unauthorized: invalid key`,
		`{"message":"the key \u0041\u0062 is wrong","error":{"code":"E\/1"}}`,
		`Authorization: Basic c2tfdGVzdF9vdGhlcjo= and c2tfdGVzdF9vdGhlcg`,
		`aXbXcXdXeXfXgXhX1 a.b.c.d.e.f.g.h.1 abcdefgh1 (e)[f]{g}|h^$`,
		"clé ключ 鍵 😀 secret cle-ключ",
		"1003, …, 1051 and 5 more… and " + CutMark + " 0123456789abcdefghiJ",
		"sk_live 4/AbC=9/?&#~ key sk_live+4%2FAbC%3D9%252F",
	}
	for kname, key := range keys {
		m := New(key)
		for _, text := range texts {
			if strings.Contains(text, key) {
				continue
			}
			if got := m.Text(text); got != text {
				t.Errorf("%s: %q became %q", kname, text, got)
			}
		}
	}
}

// TestMaskSecretNotUTF8: a secret whose bytes are not UTF-8 is masked as
// itself and URL-encoded, byte by byte, and cut inside a multi-byte
// character of a UTF-8 secret, the start of the character is masked too.
func TestMaskSecretNotUTF8(t *testing.T) {
	key := "ab\xffcd\xfeefgh"
	m := New(key)
	for _, sp := range []string{key, spellings(key)["every byte %XX"], url.QueryEscape(key)} {
		if got := m.Text("[" + sp + "]"); got != "[xxxxx]" {
			t.Errorf("%q: got %q", sp, got)
		}
	}
	utf := "ключ-секрет"
	for i := 1; i < len(utf); i++ {
		if got := New(utf).Text("k=" + utf[:i] + CutMark); got != "k=xxxxx"+CutMark {
			t.Errorf("cut after %d bytes: %q", i, got)
		}
	}
}

// FuzzMaskHidesEverySpelling: a spelling of a key of 8 characters or more,
// chosen by a seed, put anywhere in any text, never survives the mask;
// cut anywhere before a cut mark, its piece is masked.
func FuzzMaskHidesEverySpelling(f *testing.F) {
	f.Add("before ", " after", "sk_live+4/AbC=9", uint8(0), uint(3))
	f.Add("%", "\\u00", "clé-ключ-😀", uint8(7), uint(5))
	f.Add("", "", `a.b*c+d?(e)`, uint8(12), uint(0))
	f.Fuzz(func(t *testing.T, before, after, key string, which uint8, cut uint) {
		// The mask's own text could spell anew a key made of x: such keys
		// are left out; so are keys that hold the cut mark, and those
		// that are not UTF-8, which JSON cannot spell.
		if !utf8.ValidString(key) || utf8.RuneCountInString(key) < 8 || strings.ContainsAny(key, "xX") || strings.Contains(key, CutMark) {
			t.Skip()
		}
		all := secretmasktest.Spellings(key)
		sp := all[int(which)%len(all)].Text
		if strings.Contains(sp, "x") {
			t.Skip()
		}
		m := New(key)
		if got := m.Text(before + sp + after); strings.Contains(got, sp) {
			t.Fatalf("%q survives in %q", sp, got)
		}
		if strings.Contains(before, CutMark) || strings.Contains(after, CutMark) {
			return
		}
		piece := sp[:1+int(cut%uint(len(sp)))]
		got := m.Text(before + piece + CutMark + after)
		head, _, found := strings.Cut(got, CutMark)
		if !found || !strings.HasSuffix(head, Replacement) {
			t.Fatalf("the piece %q before the cut survives in %q", piece, got)
		}
	})
}
