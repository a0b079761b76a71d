package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ordermsg/ordermsg-go/internal/safefile"
)

// maxNameBytes bounds a file name written under the output directory, well
// inside the 255 bytes file systems allow, leaving room for a disambiguating
// suffix (the download's temporary name is short whatever the name; see
// safefile.TempName).
const maxNameBytes = 180

// safeName turns a filename sent by the server into one path component that
// is safe on Linux, macOS and Windows. The rule (documented in files
// download --help):
//
//  1. Invalid UTF-8, NUL, control, format (such as bidi overrides) and
//     other unprintable characters but the ASCII space, / and \, the
//     characters Windows refuses (< > : " | ? *), and ~ (kept for
//     uniqueNames) become _.
//  2. Leading and trailing spaces and dots are removed, so ".", "..", and
//     hidden names are impossible.
//  3. An empty result becomes "file".
//  4. A name longer than 180 bytes is cut, keeping its extension when short.
//  5. A Windows device name (CON, PRN, AUX, NUL, COM0–9, LPT0–9, also with
//     the superscript digits ¹ ² ³, with any extension, in any case, in
//     fullwidth forms too) gets a leading _. This comes after the cut, which
//     can make one ("CON", 200 spaces, "x.pdf" is cut to "CON.pdf").
func safeName(name string) string {
	name = strings.ToValidUTF8(name, "_")
	name = strings.Map(func(r rune) rune {
		if !unicode.IsPrint(r) || strings.ContainsRune(`/\<>:"|?*~`, r) || r == utf8.RuneError {
			return '_'
		}
		return r
	}, name)
	name = strings.Trim(name, " .")
	if name == "" {
		return "file"
	}
	name = truncateKeepingExt(name, maxNameBytes)
	if reservedName(name) {
		name = truncateKeepingExt("_"+name, maxNameBytes) // starts with _: no device name
	}
	return name
}

// reservedName reports whether name is a Windows device name, which cannot
// be a file's name there whatever its extension. Case, fullwidth forms and
// superscript digits are folded first: ＣＯＮ, aux and COM¹ are device names
// to Windows or to a tool on the way.
func reservedName(name string) bool {
	stem, _, _ := strings.Cut(strings.Map(foldWidth, name), ".")
	stem = strings.ToUpper(strings.TrimRight(stem, " "))
	switch stem {
	case "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$":
		return true
	}
	if len(stem) == 4 && (strings.HasPrefix(stem, "COM") || strings.HasPrefix(stem, "LPT")) {
		return stem[3] >= '0' && stem[3] <= '9'
	}
	return false
}

// foldWidth maps a fullwidth ASCII form (U+FF01–U+FF5E) and the ideographic
// space to ASCII, and a superscript digit to its digit; any other rune is
// kept.
func foldWidth(r rune) rune {
	switch {
	case r >= '\uff01' && r <= '\uff5e':
		return r - 0xfee0
	case r == '\u3000':
		return ' '
	case r == '¹':
		return '1'
	case r == '²':
		return '2'
	case r == '³':
		return '3'
	case r == '⁰':
		return '0'
	case r >= '⁴' && r <= '⁹':
		return '4' + r - '⁴'
	}
	return r
}

// truncateKeepingExt cuts name to at most n bytes at a rune boundary, keeping
// an extension of up to 16 bytes.
func truncateKeepingExt(name string, n int) string {
	if len(name) <= n {
		return name
	}
	ext := filepath.Ext(name)
	if len(ext) > 16 {
		ext = ""
	}
	return strings.TrimRight(safefile.CutName(name[:len(name)-len(ext)], n-len(ext)), " .") + ext
}

// uniqueNames gives each file of one directory its safe name. When the
// directory gets more than one file, a name that could land on another's
// carries "~<file id>" before its extension: one equal to another but for
// ASCII case, and any name outside ASCII (file systems disagree on the case
// and the Unicode normalization of those). Safe names never hold "~", and
// file ids differ (orderJobs drops a repeated one), so no two results can
// name the same file, whatever the file system and whatever order the files
// are fetched in.
func uniqueNames(names []string, ids []int64) []string {
	out := make([]string, len(names))
	count := map[string]int{}
	for i, n := range names {
		out[i] = safeName(n)
		count[strings.ToLower(out[i])]++
	}
	if len(out) < 2 {
		return out
	}
	for i, n := range out {
		if count[strings.ToLower(n)] > 1 || !isASCII(n) {
			ext := filepath.Ext(n)
			suffix := fmt.Sprintf("~%d", ids[i])
			out[i] = safefile.CutName(strings.TrimSuffix(n, ext), maxNameBytes-len(suffix)-len(ext)) + suffix + ext
		}
	}
	return out
}

func isASCII(s string) bool {
	for i := range len(s) {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
