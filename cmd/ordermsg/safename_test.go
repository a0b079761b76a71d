package main

import (
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// hostileNames are filenames a server could send to escape or clobber.
var hostileNames = []string{
	"../../x", "../../../etc/passwd", "/etc/passwd", "/", "..", ".", "...", "", " ", "a/b/c.pdf",
	`..\..\windows\system32\x.dll`, `C:\x.pdf`, "nul\x00byte.pdf", "line\nbreak.pdf", "tab\tname", "\x1b[31mred.pdf",
	"evil\u202efdp.exe", "CON", "con.pdf", "Lpt1.txt", "COM9", "aux .pdf", ".hidden", "trailing. ", "a~1.pdf",
	"Front.pdf", "front.pdf", "FRONT.PDF", "caf\u00e9.pdf", "cafe\u0301.pdf", "\u212a.pdf", "k.pdf",
	strings.Repeat("long", 100) + ".pdf", strings.Repeat("é", 200), "\xff\xfe.pdf",
	"CON" + strings.Repeat(" ", 200) + "x.pdf", "COM\u00b9.pdf", "\uff23\uff2f\uff2e.pdf", "LPT\uff11",
}

func TestSafeNameIsOneHarmlessComponent(t *testing.T) {
	for _, in := range hostileNames {
		got := safeName(in)
		switch {
		case got == "" || got == "." || got == ".." || strings.HasPrefix(got, "."):
			t.Errorf("safeName(%q) = %q", in, got)
		case strings.ContainsAny(got, "/\\\x00~<>:\"|?*") || !utf8.ValidString(got):
			t.Errorf("safeName(%q) = %q holds a forbidden character", in, got)
		case len(got) > maxNameBytes:
			t.Errorf("safeName(%q) is %d bytes", in, len(got))
		case !filepath.IsLocal(got) || filepath.Base(got) != got:
			t.Errorf("safeName(%q) = %q is not one local component", in, got)
		case reservedName(got):
			t.Errorf("safeName(%q) = %q is a device name", in, got)
		}
		for _, r := range got {
			if r < 0x20 || r == 0x7f || r == '\u202e' {
				t.Errorf("safeName(%q) = %q keeps control character %U", in, got, r)
			}
		}
	}
	if got := safeName("front.pdf"); got != "front.pdf" {
		t.Errorf("a plain name changed: %q", got)
	}
	if got := safeName(strings.Repeat("x", 300) + ".pdf"); !strings.HasSuffix(got, ".pdf") {
		t.Errorf("a long name lost its extension: %q", got)
	}
}

func TestUniqueNamesNeverCollide(t *testing.T) {
	ids := make([]int64, len(hostileNames))
	for i := range ids {
		ids[i] = int64(1000 + i)
	}
	got := uniqueNames(hostileNames, ids)
	seen := map[string]string{}
	for i, n := range got {
		key := strings.ToLower(n)
		if prev, ok := seen[key]; ok {
			t.Errorf("%q and %q both became %q", prev, hostileNames[i], n)
		}
		seen[key] = hostileNames[i]
		if len(n) > 255-30 {
			t.Errorf("%q is too long for a temporary name beside it", n)
		}
	}
	if one := uniqueNames([]string{"café.pdf"}, []int64{7}); one[0] != "café.pdf" {
		t.Errorf("a lone file's name changed: %q", one[0])
	}
}

// Windows device names are found after the cut to 180 bytes (which can make
// one), whatever their case, width, or superscript digit.
func TestSafeNameTamesDeviceNamesAfterTheCut(t *testing.T) {
	pad := strings.Repeat(" ", 200)
	for in, want := range map[string]string{
		"CON" + pad + "x.pdf":    "_CON.pdf",
		"aux" + pad + "x.txt":    "_aux.txt",
		"LPT1" + pad + "x.pdf":   "_LPT1.pdf",
		"nul" + pad + "x":        "_nul",
		"aux.txt":                "_aux.txt",
		"LPT1.pdf":               "_LPT1.pdf",
		"con .tar.gz":            "_con .tar.gz",
		"COM\u00b9":              "_COM\u00b9",              // COM¹
		"lpt\u00b3.pdf":          "_lpt\u00b3.pdf",          // lpt³
		"\uff23\uff2f\uff2e.pdf": "_\uff23\uff2f\uff2e.pdf", // fullwidth CON
		"\uff4e\uff55\uff4c":     "_\uff4e\uff55\uff4c",     // fullwidth nul
		"COM\uff17.txt":          "_COM\uff17.txt",          // fullwidth digit 7
		"CONSOLE.pdf":            "CONSOLE.pdf",
		"COM10.pdf":              "COM10.pdf",
		"LPT.pdf":                "LPT.pdf",
		"COM\u00b9\u00b9.pdf":    "COM\u00b9\u00b9.pdf",
	} {
		got := safeName(in)
		if got != want {
			t.Errorf("safeName(%q) = %q, want %q", in, got, want)
		}
	}
}
