package docscheck

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// top is the repository's top, from this package's folder.
const top = "../../.."

// repoFiles walks the repository from its top and returns every file's
// path, slash-separated and relative to the top, with a function to read
// it. It reads nothing outside the repository.
func repoFiles(t *testing.T) map[string]func() []byte {
	t.Helper()
	repo := os.DirFS(top)
	if _, err := fs.Stat(repo, "go.work"); err != nil {
		t.Fatalf("%s is not the repository's top: %v", top, err)
	}
	files := map[string]func() []byte{}
	err := fs.WalkDir(repo, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return fs.SkipDir
		}
		if !d.IsDir() {
			files[p] = func() []byte {
				b, err := fs.ReadFile(repo, p)
				if err != nil {
					t.Fatal(err)
				}
				return b
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// repoDocs are the repository's Markdown files that are references: every
// .md file but CHANGELOG.md, which is a history and may name what is gone.
func repoDocs(files map[string]func() []byte) []string {
	var docs []string
	for p := range files {
		if strings.HasSuffix(p, ".md") && p != "CHANGELOG.md" {
			docs = append(docs, p)
		}
	}
	return docs
}

// TestDocsNameOnlyWhatExists holds the project's documents to the code: every
// test, benchmark, example or fuzz target that a Markdown file of the
// repository names (README.md, RELIABILITY.md, BENCHMARKS.md,
// CONTRIBUTING.md, RELEASING.md, SECURITY.md, the files under docs/, any
// other) is a function of some _test.go file in the repository (any
// module), and every Go, YAML, SQL, shell or Markdown file they name exists
// in the repository: a name with a folder at that path (from the top or
// from a module's folder), a bare name anywhere. A renamed or deleted test
// otherwise leaves a promise that nothing checks. Only files inside the
// repository are read, so that a clone on its own passes.
func TestDocsNameOnlyWhatExists(t *testing.T) {
	files := repoFiles(t)
	declared := map[string]bool{}
	funcDecl := regexp.MustCompile(`(?m)^func ((?:Test|Benchmark|Example|Fuzz)\w*)\(`)
	for p, read := range files {
		if strings.HasSuffix(p, "_test.go") {
			for _, m := range funcDecl.FindAllSubmatch(read(), -1) {
				declared[string(m[1])] = true
			}
		}
	}
	exists := func(ref string) bool {
		for p := range files {
			if p == ref || strings.HasSuffix(p, "/"+ref) {
				return true
			}
		}
		return false
	}
	docs := repoDocs(files)
	for _, want := range []string{"README.md", "RELIABILITY.md", "BENCHMARKS.md", "CONTRIBUTING.md", "RELEASING.md", "SECURITY.md"} {
		if files[want] == nil {
			t.Errorf("%s is missing", want)
		}
	}
	named := regexp.MustCompile(`\b(?:Test|Benchmark|Example|Fuzz)[A-Z_][A-Za-z0-9_]*`)
	fileRef := regexp.MustCompile(`[A-Za-z0-9_./-]+\.(?:go|yaml|sql|sh|md)\b`)
	for _, doc := range docs {
		text := files[doc]()
		for _, name := range named.FindAllString(string(text), -1) {
			if !declared[name] {
				t.Errorf("%s names %s, which no _test.go file declares", doc, name)
			}
		}
		for _, at := range fileRef.FindAllIndex(text, -1) {
			if rest := text[at[1]:]; len(rest) > 1 && rest[0] == '.' && unicode.IsLetter(rune(rest[1])) {
				continue // a host name, such as vuln.go.dev
			}
			ref := strings.TrimPrefix(strings.TrimPrefix(string(text[at[0]:at[1]]), "./"), "/")
			if strings.HasPrefix(ref, "../") { // a link from docs/ to the top
				ref = path.Clean(path.Join(path.Dir(doc), ref))
			}
			if !exists(ref) {
				t.Errorf("%s names the file %s, which does not exist", doc, ref)
			}
		}
	}
}

// TestDocsLinksResolve: every relative link of every Markdown file of the
// repository (CHANGELOG.md included) leads to a file or folder of the
// repository, and a link with a fragment (#section) to a heading of the
// target, as GitHub makes its anchors, or to an <a id> there. A moved
// section otherwise leaves links that lead nowhere.
func TestDocsLinksResolve(t *testing.T) {
	files := repoFiles(t)
	dirs := map[string]bool{}
	for p := range files {
		for d := path.Dir(p); d != "."; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	anchorsOf := map[string]map[string]bool{}
	checked := 0
	for p, read := range files {
		if !strings.HasSuffix(p, ".md") {
			continue
		}
		for _, m := range link.FindAllStringSubmatch(proseOf(string(read())), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, fragment, _ := strings.Cut(target, "#")
			if file == "" {
				file = p
			} else {
				file = path.Clean(path.Join(path.Dir(p), file))
			}
			checked++
			if files[file] == nil && !dirs[file] {
				t.Errorf("%s links to %s, which is not in the repository", p, target)
				continue
			}
			if fragment == "" {
				continue
			}
			if anchorsOf[file] == nil {
				if files[file] == nil || !strings.HasSuffix(file, ".md") {
					t.Errorf("%s links to %s: a fragment of what is not a Markdown file", p, target)
					continue
				}
				anchorsOf[file] = markdownAnchors(string(files[file]()))
			}
			if !anchorsOf[file][fragment] {
				t.Errorf("%s links to %s: %s has no heading or <a id> %q", p, target, file, fragment)
			}
		}
	}
	if checked < 10 {
		t.Fatalf("checked %d links: the pattern no longer finds them", checked)
	}
}

// proseOf is a Markdown text without its fenced code blocks, where a
// bracket and a parenthesis are code, not a link.
func proseOf(md string) string {
	var out strings.Builder
	fenced := false
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if !fenced {
			out.WriteString(line + "\n")
		}
	}
	return out.String()
}

// markdownAnchors are the fragments that lead into a Markdown text: each
// heading's, as GitHub makes them (the text lowercased, code marks and
// punctuation other than - and _ dropped, spaces made hyphens; a repeated
// one gets -1, -2, …), and each <a id="…">.
func markdownAnchors(md string) map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	for _, m := range regexp.MustCompile(`<a id="([^"]+)">`).FindAllStringSubmatch(md, -1) {
		anchors[m[1]] = true
	}
	for _, line := range strings.Split(proseOf(md), "\n") {
		title, ok := strings.CutPrefix(strings.TrimLeft(line, "#"), " ")
		if !ok || !strings.HasPrefix(line, "#") {
			continue
		}
		var slug strings.Builder
		for _, r := range strings.ToLower(title) {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
				slug.WriteRune(r)
			case r == ' ':
				slug.WriteRune('-')
			}
		}
		s := slug.String()
		if n := seen[s]; n > 0 {
			anchors[fmt.Sprintf("%s-%d", s, n)] = true
		} else {
			anchors[s] = true
		}
		seen[s]++
	}
	return anchors
}
