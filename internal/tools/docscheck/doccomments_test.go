package docscheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"strings"
	"testing"
)

// maxDocLines is the most lines a doc comment may run to outside a
// package's doc.go: what a declaration does, not the narrative of its edge
// cases, which belongs in docs/ or RELIABILITY.md, where a user looks.
const maxDocLines = 20

// TestDocCommentsAreShort holds every hand-written Go file of every module
// to maxDocLines: the doc comment of a package clause, a function or method,
// a type, a const or var (grouped or not), and a struct field or interface
// method, exported or not. A package's doc.go is exempt (the package doc
// lives there), and so are generated files and testdata folders.
func TestDocCommentsAreShort(t *testing.T) {
	files := repoFiles(t)
	checked := 0
	for p, read := range files {
		if !strings.HasSuffix(p, ".go") || path.Base(p) == "doc.go" || strings.Contains("/"+p, "/testdata/") {
			continue
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, read(), parser.ParseComments)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		if ast.IsGenerated(f) {
			continue
		}
		checked++
		for _, long := range longDocComments(fset, f) {
			t.Errorf("%s:%d: the doc comment of %s runs to %d lines, over %d: keep what it does, move the rest to docs/ or RELIABILITY.md",
				p, fset.Position(long.doc.Pos()).Line, long.of, lines(fset, long.doc), maxDocLines)
		}
	}
	if checked < 100 {
		t.Fatalf("checked only %d Go files", checked)
	}
}

// docComment is a doc comment and what it documents.
type docComment struct {
	of  string
	doc *ast.CommentGroup
}

// longDocComments returns the doc comments of f over maxDocLines.
func longDocComments(fset *token.FileSet, f *ast.File) []docComment {
	var long []docComment
	check := func(of string, doc *ast.CommentGroup) {
		if doc != nil && lines(fset, doc) > maxDocLines {
			long = append(long, docComment{of, doc})
		}
	}
	check("package "+f.Name.Name, f.Doc)
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			check(n.Name.Name, n.Doc)
		case *ast.GenDecl:
			check(n.Tok.String()+" declaration", n.Doc)
		case *ast.TypeSpec:
			check(n.Name.Name, n.Doc)
		case *ast.ValueSpec:
			check(n.Names[0].Name, n.Doc)
		case *ast.Field:
			if len(n.Names) > 0 {
				check(n.Names[0].Name, n.Doc)
			}
		}
		return true
	})
	return long
}

// lines is the number of lines doc spans.
func lines(fset *token.FileSet, doc *ast.CommentGroup) int {
	return fset.Position(doc.End()).Line - fset.Position(doc.Pos()).Line + 1
}

// TestLongDocCommentsAreFound: the check finds a long comment of each kind
// of declaration, and passes one of maxDocLines lines.
func TestLongDocCommentsAreFound(t *testing.T) {
	comment := func(n int) string { return strings.Repeat("// x\n", n) }
	src := comment(maxDocLines+1) + "package p\n\n" +
		comment(maxDocLines+1) + "func F() {}\n\n" +
		comment(maxDocLines+1) + "type T struct {\n" + comment(maxDocLines+1) + "\tF int\n}\n\n" +
		"const (\n" + comment(maxDocLines+1) + "\tC = 1\n)\n\n" +
		comment(maxDocLines) + "var V = 1\n"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, long := range longDocComments(fset, f) {
		got = append(got, long.of)
	}
	if want := "package p,F,type declaration,F,C"; strings.Join(got, ",") != want {
		t.Errorf("found %v, want %s", got, want)
	}
}
