package ordermsg_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// TestDocsNameOnlyWhatExists holds the project's documents to the code: every
// test, benchmark, example or fuzz target that README.md, RELIABILITY.md,
// BENCHMARKS.md, CONTRIBUTING.md, RELEASING.md, SECURITY.md or the design
// notes (DESIGN.md, in the shared folder beside the repository, checked when
// it is there) name is a function of some _test.go file in the repository
// (any module), and every Go, YAML, SQL, shell or Markdown file they name
// exists: a name with a folder at that path (from the top or from a module's
// folder), a bare name anywhere. A renamed or deleted test otherwise leaves a
// promise that nothing checks. (CHANGELOG.md is a history: it may name what
// is gone.)
func TestDocsNameOnlyWhatExists(t *testing.T) {
	declared := map[string]bool{}
	var paths []string // every file, from the top
	funcDecl := regexp.MustCompile(`(?m)^func ((?:Test|Benchmark|Example|Fuzz)\w*)\(`)
	walk := func(root string, each func(path string, src func() ([]byte, error))) {
		root, err := filepath.EvalSymlinks(root) // WalkDir does not follow a linked root
		if err != nil {
			t.Fatal(err)
		}
		err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == ".git" {
				return filepath.SkipDir
			}
			if !d.IsDir() {
				rel, _ := filepath.Rel(root, path)
				each(filepath.ToSlash(rel), func() ([]byte, error) { return os.ReadFile(path) })
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	walk(".", func(path string, src func() ([]byte, error)) {
		paths = append(paths, path)
		if strings.HasSuffix(path, "_test.go") {
			b, err := src()
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range funcDecl.FindAllSubmatch(b, -1) {
				declared[string(m[1])] = true
			}
		}
	})
	exists := func(ref string, among []string) bool {
		for _, p := range among {
			if p == ref || strings.HasSuffix(p, "/"+ref) {
				return true
			}
		}
		return false
	}
	docs := map[string][]string{"README.md": paths, "RELIABILITY.md": paths, "BENCHMARKS.md": paths,
		"CONTRIBUTING.md": paths, "RELEASING.md": paths, "SECURITY.md": paths}
	// The design notes live in the shared folder, beside the spec they name.
	const design = "../shared/DESIGN.md"
	if _, err := os.Stat(design); err == nil {
		shared := slices.Clone(paths)
		walk("../shared", func(path string, _ func() ([]byte, error)) { shared = append(shared, path) })
		docs[design] = shared
	} else {
		t.Logf("%s is not beside the repository: the design notes are not checked", design)
	}
	named := regexp.MustCompile(`\b(?:Test|Benchmark|Example|Fuzz)[A-Z_][A-Za-z0-9_]*`)
	fileRef := regexp.MustCompile(`[A-Za-z0-9_./-]+\.(?:go|yaml|sql|sh|md)\b`)
	for doc, among := range docs {
		text, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range named.FindAllString(string(text), -1) {
			if !declared[name] {
				t.Errorf("%s names %s, which no _test.go file declares", doc, name)
			}
		}
		for _, at := range fileRef.FindAllStringIndex(string(text), -1) {
			if rest := text[at[1]:]; len(rest) > 1 && rest[0] == '.' && unicode.IsLetter(rune(rest[1])) {
				continue // a host name, such as vuln.go.dev
			}
			ref := strings.TrimPrefix(strings.TrimPrefix(string(text[at[0]:at[1]]), "./"), "/")
			if ref != "DESIGN.md" && !exists(ref, among) {
				t.Errorf("%s names the file %s, which does not exist", doc, ref)
			}
		}
	}
}
