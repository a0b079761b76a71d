package main

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"testing"
)

// typeCheck type-checks src as the package example.com/p.
func typeCheck(t *testing.T, src string) *types.Package {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	conf := types.Config{Importer: importer.Default()}
	pkg, err := conf.Check("example.com/p", fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return pkg
}

func TestFeaturesAreGosAPIFormat(t *testing.T) {
	pkg := typeCheck(t, `package p

import "time"

const Version = "1.2.3"
const Max = 10
type Kind string
const KindA Kind = "a"
var ErrX error
func New(name string, b []byte, opts ...Option) (*Client, error) { return nil, nil }
type Option func(*Client)
type Client struct {
	Name string
	hidden int
	Inner
}
type Inner struct{ N int }
func (Inner) Promoted() {}
func (c *Client) Get(r rune) error { return nil }
type Page[T any] struct{ Data []*T }
func (p *Page[T]) Next() int { return 0 }
type Stamp struct{ time.Time }
type Sealed interface{ Open() error; seal() }
type Reader interface{ Read([]byte) (int, error) }
type Alias = Kind
type Raw struct{ A Alias; I any }
func unexported() {}
`)
	got := features(pkg, map[string]bool{"example.com/p.Version": true, "example.com/other.Max": true})
	want := []string{
		"pkg example.com/p, const KindA = \"a\"",
		"pkg example.com/p, const KindA Kind",
		"pkg example.com/p, const Max = 10",
		"pkg example.com/p, const Max ideal-int",
		"pkg example.com/p, const Version ideal-string", // no value: the release's own
		"pkg example.com/p, func New(string, []uint8, ...Option) (*Client, error)",
		"pkg example.com/p, method (*Client) Get(int32) error",
		"pkg example.com/p, method (*Page[$0]) Next() int",
		"pkg example.com/p, method (Client) Promoted()", // promoted within the package
		"pkg example.com/p, method (Inner) Promoted()",
		"pkg example.com/p, type Alias = Kind",
		"pkg example.com/p, type Client struct",
		"pkg example.com/p, type Client struct, Name string",
		"pkg example.com/p, type Client struct, embedded Inner",
		"pkg example.com/p, type Inner struct",
		"pkg example.com/p, type Inner struct, N int",
		"pkg example.com/p, type Kind string",
		"pkg example.com/p, type Option func(*Client)",
		"pkg example.com/p, type Page[$0 any] struct",
		"pkg example.com/p, type Page[$0 any] struct, Data []*$0",
		"pkg example.com/p, type Raw struct",
		"pkg example.com/p, type Raw struct, A Alias", // an alias by its name
		"pkg example.com/p, type Raw struct, I any",
		"pkg example.com/p, type Reader interface { Read }",
		"pkg example.com/p, type Reader interface, Read([]uint8) (int, error)",
		"pkg example.com/p, type Sealed interface, Open() error",
		"pkg example.com/p, type Sealed interface, unexported methods",
		// time.Time's methods are time's API, not this package's.
		"pkg example.com/p, type Stamp struct",
		"pkg example.com/p, type Stamp struct, embedded time.Time",
		"pkg example.com/p, var ErrX error",
	}
	if !slices.Equal(got, want) {
		gone, added := diff(want, got)
		t.Errorf("features differ:\nmissing %q\nunexpected %q", gone, added)
	}
}

func TestCompareNamesEveryLineThatDiffers(t *testing.T) {
	recorded := record{"p.txt": {"pkg p, func A()", "pkg p, func B()"}}
	current := record{"p.txt": {"pkg p, func A()", "pkg p, func C()"}, "q.txt": {"pkg q, func D()"}}
	problems := compare(recorded, current)
	if len(problems) != 2 {
		t.Fatalf("%d problems, want 2 (p.txt and q.txt): %q", len(problems), problems)
	}
	for _, want := range []string{"- pkg p, func B()", "+ pkg p, func C()"} {
		if !contains(problems[0], want) {
			t.Errorf("%q does not say %q", problems[0], want)
		}
	}
	if !contains(problems[1], "+ pkg q, func D()") {
		t.Errorf("a new package's record is not asked for: %q", problems[1])
	}
	if p := compare(current, current); p != nil {
		t.Errorf("the same record differs: %q", p)
	}
}
