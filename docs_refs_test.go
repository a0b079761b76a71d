package ordermsg_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDocsNameOnlyWhatExists holds the project's documents to the code: every
// test, benchmark, example or fuzz target that README.md, RELIABILITY.md or
// BENCHMARKS.md names is a function of some _test.go file in the repository
// (any module), and every Go or YAML file they name exists. A renamed or
// deleted test otherwise leaves a promise that nothing checks.
func TestDocsNameOnlyWhatExists(t *testing.T) {
	declared := map[string]bool{}
	files := map[string]bool{} // paths from the top, and bare names
	funcDecl := regexp.MustCompile(`(?m)^func ((?:Test|Benchmark|Example|Fuzz)\w*)\(`)
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		files[filepath.ToSlash(path)] = true
		files[d.Name()] = true
		if strings.HasSuffix(path, "_test.go") {
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, m := range funcDecl.FindAllSubmatch(src, -1) {
				declared[string(m[1])] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	named := regexp.MustCompile(`\b(?:Test|Benchmark|Example|Fuzz)[A-Z_][A-Za-z0-9_]*`)
	fileRef := regexp.MustCompile(`[A-Za-z0-9_./-]+\.(?:go|yaml)\b`)
	for _, doc := range []string{"README.md", "RELIABILITY.md", "BENCHMARKS.md"} {
		text, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range named.FindAllString(string(text), -1) {
			if !declared[name] {
				t.Errorf("%s names %s, which no _test.go file declares", doc, name)
			}
		}
		for _, ref := range fileRef.FindAllString(string(text), -1) {
			if ref = strings.TrimPrefix(ref, "/"); !files[ref] && !files[strings.TrimPrefix(ref, "./")] {
				t.Errorf("%s names the file %s, which does not exist", doc, ref)
			}
		}
	}
}
