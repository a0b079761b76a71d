package ordermsg

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestEveryWireTypeHasItsJSONMethods reads the package's source: every struct
// type with an Unknown field (the members the SDK does not model) must have
// the four JSON methods that keep them, or encoding/json (v1) and v2 would
// silently drop those members (run go generate when this fails). The list
// of types comes from the source, not from this test.
func TestEveryWireTypeHasItsJSONMethods(t *testing.T) {
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	methods := map[string]map[string]bool{} // type name -> method names
	var wire []string
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.TypeSpec:
				if st, ok := n.Type.(*ast.StructType); ok && hasUnknownField(st) {
					wire = append(wire, n.Name.Name)
				}
			case *ast.FuncDecl:
				if n.Recv != nil {
					recv := receiverType(n.Recv.List[0].Type)
					if methods[recv] == nil {
						methods[recv] = map[string]bool{}
					}
					methods[recv][n.Name.Name] = true
				}
			}
			return true
		})
	}
	if len(wire) < 20 {
		t.Fatalf("found %d types with an Unknown field: %v", len(wire), wire)
	}
	for _, typ := range wire {
		for _, m := range []string{"UnmarshalJSONFrom", "MarshalJSONTo", "UnmarshalJSON", "MarshalJSON"} {
			if !methods[typ][m] {
				t.Errorf("%s has an Unknown field but no %s method: run go generate", typ, m)
			}
		}
	}
}

// hasUnknownField reports whether st has a field Unknown.
func hasUnknownField(st *ast.StructType) bool {
	for _, field := range st.Fields.List {
		for _, n := range field.Names {
			if n.Name != "Unknown" {
				continue
			}
			tag := ""
			if field.Tag != nil {
				tag, _ = strconv.Unquote(field.Tag.Value)
			}
			return reflect.StructTag(tag).Get("json") == ",embed"
		}
	}
	return false
}

// receiverType is the name of a method's receiver type: Order for *Order,
// Page for *Page[T].
func receiverType(e ast.Expr) string {
	if star, ok := e.(*ast.StarExpr); ok {
		e = star.X
	}
	switch x := e.(type) {
	case *ast.IndexExpr:
		e = x.X
	case *ast.IndexListExpr:
		e = x.X
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}
