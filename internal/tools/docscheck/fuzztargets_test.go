package docscheck

import (
	"regexp"
	"strings"
	"testing"
)

// TestEveryFuzzTargetIsFuzzed: .ci/fuzz, which CI runs briefly and a
// maintainer at length (CONTRIBUTING.md), names every fuzz target of every
// module, so that a new target is not left to its seed corpus alone.
func TestEveryFuzzTargetIsFuzzed(t *testing.T) {
	files := repoFiles(t)
	script := files[".ci/fuzz"]
	if script == nil {
		t.Fatal(".ci/fuzz is missing")
	}
	fuzzed := string(script())
	target := regexp.MustCompile(`(?m)^func (Fuzz\w*)\(\w+ \*testing\.F\)`)
	n := 0
	for p, read := range files {
		if !strings.HasSuffix(p, "_test.go") {
			continue
		}
		for _, m := range target.FindAllSubmatch(read(), -1) {
			n++
			if !regexp.MustCompile(`\b` + string(m[1]) + `\b`).MatchString(fuzzed) {
				t.Errorf("%s: %s is not fuzzed by .ci/fuzz", p, m[1])
			}
		}
	}
	if n == 0 {
		t.Fatal("found no fuzz target")
	}
}
