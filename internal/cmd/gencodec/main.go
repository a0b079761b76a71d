// Command gencodec writes codec.go, the JSON methods of the ordermsg
// package's wire types, from their struct definitions. `go generate` runs it
// in the package's folder (see the //go:generate line in types.go).
//
// A wire type is a struct type with a field named Unknown tagged
// `json:",embed"`: it keeps the members the SDK does not model. Each gets a
// decoder that reads its members token by token (decodeFrom: a switch on
// each member name, over decode.go's helpers), a twin type without methods
// (orderFields for Order, ...) that encoding/json/v2 encodes from the struct
// tags, and four methods: UnmarshalJSONFrom and MarshalJSONTo
// (encoding/json/v2), UnmarshalJSON and MarshalJSON (encoding/json, v1).
// The type named by -lenient gets decodeValues: its string fields from the
// members whose values are strings, any other member skipped.
//
// Usage:
//
//	gencodec [-o codec.go] [-lenient Type]
package main

import (
	"bytes"
	"cmp"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"log"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"text/template"
	"unicode"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("gencodec: ")
	out := flag.String("o", "codec.go", "the file to write")
	lenient := flag.String("lenient", "", "a struct type to get a lenient decodeValues method")
	flag.Parse()
	types, err := wireTypes(".", *out, *lenient)
	if err != nil {
		log.Fatal(err)
	}
	src, err := generate(types)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		log.Fatal(err)
	}
}

// wireType is a struct type that gets the generated methods.
type wireType struct {
	Name       string // Order, Page
	TypeParams string // "[T any]" for a generic type, else ""
	TypeArgs   string // "[T]" for a generic type, else ""
	Recv       string // the receiver's name
	Twin       string // orderFields
	Lenient    bool   // decodeValues only: strings that fit, unknown members skipped
	Members    []member
}

// member is a field that the generated decoder reads: its JSON name and the
// call that reads its value.
type member struct {
	Name, Read string
	Number     int // from 1: the bit jsontok.Object marks the member seen with
}

// wireTypes lists the wire types declared in the non-test Go files of dir,
// other than skip, in the order of the files' names and of their
// declarations.
func wireTypes(dir, skip, lenient string) ([]wireType, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") || filepath.Base(name) == filepath.Base(skip) {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	receivers := receiverNames(files)
	kinds := typeKinds(files)
	var types []wireType
	for _, f := range files {
		for _, decl := range f.Decls {
			gen, ok := decl.(*ast.GenDecl)
			if !ok || gen.Tok != token.TYPE {
				continue
			}
			for _, spec := range gen.Specs {
				ts := spec.(*ast.TypeSpec)
				st, ok := ts.Type.(*ast.StructType)
				if !ok || !hasUnknown(st) && ts.Name.Name != lenient {
					continue
				}
				t := wireType{Name: ts.Name.Name, Twin: lowerFirst(ts.Name.Name) + "Fields", Recv: receivers[ts.Name.Name], Lenient: ts.Name.Name == lenient}
				if t.Recv == "" {
					t.Recv = string(unicode.ToLower(rune(t.Name[0])))
				}
				if ts.TypeParams != nil {
					var params, args []string
					for _, field := range ts.TypeParams.List {
						for _, n := range field.Names {
							params = append(params, n.Name+" "+exprString(field.Type))
							args = append(args, n.Name)
						}
					}
					t.TypeParams = "[" + strings.Join(params, ", ") + "]"
					t.TypeArgs = "[" + strings.Join(args, ", ") + "]"
				}
				t.Members = members(st, t.Recv, kinds, t.Lenient, ts.TypeParams)
				if len(t.Members) > 63 {
					return nil, fmt.Errorf("%s has %d members; jsontok.Object tells at most 63 apart", t.Name, len(t.Members))
				}
				for i := range t.Members {
					t.Members[i].Number = i + 1
				}
				types = append(types, t)
			}
		}
	}
	if len(types) == 0 {
		return nil, fmt.Errorf("no struct type with an Unknown field tagged `json:\",embed\"` in %s", dir)
	}
	return types, nil
}

// typeKinds names how the generated decoders read a value of each type
// declared in files: "string" for a string type, "decoder" for a type with a
// decodeFrom method (every wire type, and those that declare one),
// "method" for one with an UnmarshalJSONFrom method of its own.
func typeKinds(files []*ast.File) map[string]string {
	kinds := map[string]string{"string": "string"}
	for _, f := range files {
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					if ts, ok := spec.(*ast.TypeSpec); ok {
						if id, ok := ts.Type.(*ast.Ident); ok && id.Name == "string" {
							kinds[ts.Name.Name] = "string"
						} else if st, ok := ts.Type.(*ast.StructType); ok && hasUnknown(st) {
							kinds[ts.Name.Name] = "decoder"
						}
					}
				}
			case *ast.FuncDecl:
				if d.Recv == nil {
					continue
				}
				typ := d.Recv.List[0].Type
				if star, ok := typ.(*ast.StarExpr); ok {
					typ = star.X
				}
				if ix, ok := typ.(*ast.IndexExpr); ok {
					typ = ix.X
				}
				if id, ok := typ.(*ast.Ident); ok {
					switch d.Name.Name {
					case "decodeFrom":
						kinds[id.Name] = "decoder"
					case "UnmarshalJSONFrom":
						kinds[id.Name] = cmp.Or(kinds[id.Name], "method")
					}
				}
			}
		}
	}
	return kinds
}

// members lists the fields of st that its decoder reads, each with the call
// that reads it into recv's field.
func members(st *ast.StructType, recv string, kinds map[string]string, lenient bool, params *ast.FieldList) []member {
	kinds = maps.Clone(kinds)
	if params != nil {
		for _, p := range params.List {
			for _, n := range p.Names {
				kinds[n.Name] = "record" // a page's type argument: Order, Message
			}
		}
	}
	var ms []member
	for _, field := range st.Fields.List {
		tag := ""
		if field.Tag != nil {
			tag, _ = strconv.Unquote(field.Tag.Value)
		}
		name, opts, _ := strings.Cut(reflect.StructTag(tag).Get("json"), ",")
		if name == "-" && opts == "" || strings.Contains(opts, "embed") {
			continue
		}
		for _, n := range field.Names {
			if !n.IsExported() {
				continue
			}
			ptr := "&" + recv + "." + n.Name
			read := "json.UnmarshalDecode(dec, " + ptr + ")"
			switch typ := field.Type.(type) {
			case *ast.Ident:
				switch kind := kinds[typ.Name]; {
				case kind == "string" && lenient:
					read = "jsontok.ReadLenient(dec, &st.strs, " + ptr + ")"
				case kind == "string":
					read = "jsontok.ReadString(dec, &st.strs, " + ptr + ")"
				case typ.Name == "int64":
					read = "jsontok.ReadInt(dec, " + ptr + ")"
				case typ.Name == "float64":
					read = "jsontok.ReadFloat(dec, " + ptr + ")"
				case typ.Name == "bool":
					read = "jsontok.ReadBool(dec, " + ptr + ")"
				case kind == "decoder":
					read = recv + "." + n.Name + ".decodeFrom(dec, st)"
				case kind == "method":
					read = recv + "." + n.Name + ".UnmarshalJSONFrom(dec)"
				}
			case *ast.IndexExpr:
				if id, ok := typ.X.(*ast.Ident); ok && kinds[id.Name] == "decoder" {
					read = recv + "." + n.Name + ".decodeFrom(dec, st)"
				}
			case *ast.StarExpr:
				if id, ok := typ.X.(*ast.Ident); ok && kinds[id.Name] == "decoder" {
					read = "decodePtr(dec, st, " + ptr + ")"
				}
			case *ast.ArrayType:
				if id, ok := typ.Elt.(*ast.Ident); ok && typ.Len == nil && kinds[id.Name] == "decoder" {
					read = "decodeSlice(dec, st, " + ptr + ")"
				}
				if star, ok := typ.Elt.(*ast.StarExpr); ok && typ.Len == nil {
					if id, ok := star.X.(*ast.Ident); ok && kinds[id.Name] == "record" {
						read = "decodeRecords(dec, st, " + ptr + ")"
					}
				}
			}
			ms = append(ms, member{Name: cmp.Or(name, n.Name), Read: read})
		}
	}
	return ms
}

// hasUnknown reports whether st has a field Unknown tagged `json:",embed"`.
func hasUnknown(st *ast.StructType) bool {
	for _, field := range st.Fields.List {
		if field.Tag == nil || !slices.ContainsFunc(field.Names, func(n *ast.Ident) bool { return n.Name == "Unknown" }) {
			continue
		}
		tag, err := strconv.Unquote(field.Tag.Value)
		if err == nil && reflect.StructTag(tag).Get("json") == ",embed" {
			return true
		}
	}
	return false
}

// receiverNames returns, for each type, the receiver's name in the first
// method declared on it, so that the generated methods use the same.
func receiverNames(files []*ast.File) map[string]string {
	names := map[string]string{}
	for _, f := range files {
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || len(fn.Recv.List[0].Names) == 0 {
				continue
			}
			typ := fn.Recv.List[0].Type
			if star, ok := typ.(*ast.StarExpr); ok {
				typ = star.X
			}
			switch x := typ.(type) {
			case *ast.IndexExpr:
				typ = x.X
			case *ast.IndexListExpr:
				typ = x.X
			}
			if id, ok := typ.(*ast.Ident); ok && names[id.Name] == "" && fn.Recv.List[0].Names[0].Name != "_" {
				names[id.Name] = fn.Recv.List[0].Names[0].Name
			}
		}
	}
	return names
}

// exprString writes a type parameter's constraint as source.
func exprString(e ast.Expr) string {
	var b bytes.Buffer
	if err := format.Node(&b, token.NewFileSet(), e); err != nil {
		log.Fatal(err)
	}
	return b.String()
}

func lowerFirst(s string) string { return string(unicode.ToLower(rune(s[0]))) + s[1:] }

var codec = template.Must(template.New("codec").Parse(`// Code generated by gencodec (internal/cmd/gencodec) from the struct definitions; DO NOT EDIT.

package ordermsg

import (
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/ordermsg/ordermsg-go/internal/jsontok"
)

// The JSON methods of the wire types: each struct type with an Unknown field
// tagged ",embed" has a decoder that reads its members token by token
// (decodeFrom, with the readers of internal/jsontok), and a
// twin type without methods that encoding/json/v2 encodes from the struct
// tags, unknown members included. UnmarshalJSONFrom and MarshalJSONTo are
// encoding/json/v2's streaming methods: a nested value is coded in the same
// pass as its parent, never re-scanned. MarshalJSON and UnmarshalJSON make
// encoding/json (v1) give the same results as the client.
{{range .}}{{if .Lenient}}
// decodeValues fills the string fields of {{.Recv}} whose values are strings.
func ({{.Recv}} *{{.Name}}) decodeValues(dec *jsontext.Decoder, st *decodeState) error {
	return jsontok.Object(dec, nil, func(name []byte) (int, error) {
		switch string(name) { {{- range .Members}}
		case {{printf "%q" .Name}}:
			return {{.Number}}, {{.Read}}{{end}}
		}
		return 0, nil
	})
}
{{else}}
type {{.Twin}}{{.TypeParams}} {{.Name}}{{.TypeArgs}}

// UnmarshalJSONFrom decodes {{.Recv}} from dec, keeping the members it does not model.
func ({{.Recv}} *{{.Name}}{{.TypeArgs}}) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	return decodeTop(dec, {{.Recv}})
}

func ({{.Recv}} *{{.Name}}{{.TypeArgs}}) decodeFrom(dec *jsontext.Decoder, st *decodeState) error {
	return jsontok.Object(dec, &{{.Recv}}.Unknown, func(name []byte) (int, error) {
		switch string(name) { {{- range .Members}}
		case {{printf "%q" .Name}}:
			return {{.Number}}, {{.Read}}{{end}}
		}
		return 0, nil
	})
}

// MarshalJSONTo encodes {{.Recv}} to enc with its unknown members.
func ({{.Recv}} *{{.Name}}{{.TypeArgs}}) MarshalJSONTo(enc *jsontext.Encoder) error {
	return json.MarshalEncode(enc, (*{{.Twin}}{{.TypeArgs}})({{.Recv}}))
}

// MarshalJSON encodes {{.Recv}} with its unknown members.
func ({{.Recv}} {{.Name}}{{.TypeArgs}}) MarshalJSON() ([]byte, error) { return marshalJSON(&{{.Recv}}) }

// UnmarshalJSON decodes data into {{.Recv}}, keeping the members it does not model.
func ({{.Recv}} *{{.Name}}{{.TypeArgs}}) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, {{.Recv}}) }
{{end}}{{end}}`))

// generate returns the source of codec.go for types, gofmt-formatted.
func generate(types []wireType) ([]byte, error) {
	var b bytes.Buffer
	if err := codec.Execute(&b, types); err != nil {
		return nil, err
	}
	return format.Source(b.Bytes())
}
