package main

import (
	"fmt"
	"regexp"
	"strings"
)

// breaking returns a problem for each feature of the record at the last
// release (released) that the code (current) no longer has, unless
// CHANGELOG.md names its identifier under a "Breaking changes" heading of a
// section above the last release's. A feature changed incompatibly is one
// gone and another added, so it needs the same line.
func breaking(released, current record, changelog []byte, last string) []string {
	have := map[string]bool{}
	for _, features := range current {
		for _, f := range features {
			have[f] = true
		}
	}
	var gone []string
	for _, features := range released {
		for _, f := range features {
			if !have[f] {
				gone = append(gone, f)
			}
		}
	}
	if len(gone) == 0 {
		return nil
	}
	notes, err := breakingNotes(string(changelog), last)
	if err != nil {
		return []string{err.Error()}
	}
	var problems []string
	for _, f := range gone {
		pkg, id := identifier(f)
		if !names(notes, id) {
			problems = append(problems, fmt.Sprintf("%s (package %s) was removed or changed since %s, and CHANGELOG.md does not say so: name `%s` in a line under \"### Breaking changes\" of the Unreleased section\n  - %s", id, pkg, last, id, f))
		}
	}
	return problems
}

// breakingNotes is the text under the "Breaking changes" headings (level 3)
// of every level-2 section of changelog above the one of release last
// ("## [0.1.0] - 2026-01-02" for v0.1.0).
func breakingNotes(changelog, last string) (string, error) {
	release := regexp.MustCompile(`^##\s+\[?` + regexp.QuoteMeta(strings.TrimPrefix(last, "v")) + `\]?(\s|$)`)
	var notes strings.Builder
	in := false
	for line := range strings.SplitSeq(changelog, "\n") {
		switch {
		case release.MatchString(line):
			return notes.String(), nil
		case strings.HasPrefix(line, "## "):
			in = false
		case strings.HasPrefix(line, "### "):
			in = strings.Contains(strings.ToLower(line), "breaking")
		case in:
			notes.WriteString(line + "\n")
		}
	}
	return "", fmt.Errorf("CHANGELOG.md has no section \"## [%s]\" for the last release, %s", strings.TrimPrefix(last, "v"), last)
}

// identifier returns the package path of a feature and the identifier it
// is about: Name, Type.Field or Type.Method.
func identifier(feature string) (pkg, id string) {
	pkg, rest, _ := strings.Cut(strings.TrimPrefix(feature, "pkg "), ", ")
	kind, rest, _ := strings.Cut(rest, " ")
	name := leadingName(rest)
	switch kind {
	case "method": // method (*Page[$0]) HasNextPage() bool
		recv, method, _ := strings.Cut(strings.TrimPrefix(rest, "("), ") ")
		return pkg, leadingName(strings.TrimLeft(recv, "*")) + "." + leadingName(method)
	case "type": // type Name[…] struct, Field T; type Name interface, Method(…)
		_, member, ok := strings.Cut(rest, ", ")
		switch {
		case !ok || member == "unexported methods":
			return pkg, name
		case strings.HasPrefix(member, "embedded "):
			embedded := strings.TrimLeft(strings.TrimPrefix(member, "embedded "), "*")
			if _, after, ok := strings.Cut(embedded, "."); ok {
				embedded = after
			}
			return pkg, name + "." + leadingName(embedded)
		}
		return pkg, name + "." + leadingName(member)
	}
	return pkg, name
}

// leadingName is the identifier at the start of s.
func leadingName(s string) string {
	end := strings.IndexFunc(s, func(r rune) bool {
		return !(r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 0x7f)
	})
	if end < 0 {
		return s
	}
	return s[:end]
}

// names reports whether notes name id (Type.Member) or, for a member, its
// type: as a whole word, so that `Options` names Options.Count but
// `Options.Page` does not.
func names(notes, id string) bool {
	for {
		re := regexp.MustCompile(`(^|[^\w.])` + regexp.QuoteMeta(id) + `($|[^\w.]|\.[^\w])`)
		if re.MatchString(notes) {
			return true
		}
		i := strings.LastIndex(id, ".")
		if i < 0 {
			return false
		}
		id = id[:i]
	}
}
