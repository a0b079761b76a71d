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
	validate := flag.String("validate", "", "comma-separated types whose values, at any depth, get validators")
	flag.Parse()
	var roots []string
	if *validate != "" {
		roots = strings.Split(*validate, ",")
	}
	types, err := wireTypes(".", *out, *lenient, roots)
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
	Validated  bool   // gets a validator: a -validate type holds it
	Root       bool   // a -validate type: its validator checks one member at a time too
	Members    []member
}

// member is a field that the generated decoder reads: its JSON name, the
// call that reads its value, and the call that checks it as that call reads
// it, keeping nothing.
type member struct {
	Name, Read, Check string
	Number            int // from 1: the bit jsontok.Object marks the member seen with
}

// wireTypes lists the wire types declared in the non-test Go files of dir,
// other than skip, in the order of the files' names and of their
// declarations; those that the roots hold are marked Validated.
func wireTypes(dir, skip, lenient string, roots []string) ([]wireType, error) {
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
	held, err := heldTypes(files, roots)
	if err != nil {
		return nil, err
	}
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
				t.Root = slices.Contains(roots, t.Name)
				if t.Validated = held[t.Name]; t.Validated {
					if t.TypeParams != "" {
						return nil, fmt.Errorf("%s is generic: only a type without type parameters gets a validator", t.Name)
					}
					for _, m := range t.Members {
						if m.Check == "" {
							return nil, fmt.Errorf("%s.%s: no validator reads it", t.Name, m.Name)
						}
					}
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

// heldTypes returns the roots and the types declared in files that their
// values hold, at any depth: through the fields of a struct (but those the
// JSON leaves out), pointers, slices, type arguments and the types that
// named types are made of.
func heldTypes(files []*ast.File, roots []string) (map[string]bool, error) {
	decls := map[string]*ast.TypeSpec{}
	for _, f := range files {
		for _, decl := range f.Decls {
			if gen, ok := decl.(*ast.GenDecl); ok && gen.Tok == token.TYPE {
				for _, spec := range gen.Specs {
					ts := spec.(*ast.TypeSpec)
					decls[ts.Name.Name] = ts
				}
			}
		}
	}
	held := map[string]bool{}
	var hold func(e ast.Expr)
	hold = func(e ast.Expr) {
		switch e := e.(type) {
		case *ast.Ident:
			ts, ok := decls[e.Name]
			if !ok || held[e.Name] {
				return
			}
			held[e.Name] = true
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				hold(ts.Type)
				return
			}
			for _, field := range st.Fields.List {
				if tag := jsonTag(field); tag != "-" && tag != ",embed" {
					hold(field.Type)
				}
			}
		case *ast.StarExpr:
			hold(e.X)
		case *ast.ArrayType:
			hold(e.Elt)
		case *ast.IndexExpr:
			hold(e.X)
			hold(e.Index)
		case *ast.IndexListExpr:
			hold(e.X)
			for _, x := range e.Indices {
				hold(x)
			}
		}
	}
	for _, root := range roots {
		if decls[root] == nil {
			return nil, fmt.Errorf("-validate %s: no such type", root)
		}
		hold(ast.NewIdent(root))
	}
	return held, nil
}

// jsonTag is the json key of a field's tag: "" when none.
func jsonTag(field *ast.Field) string {
	if field.Tag == nil {
		return ""
	}
	tag, _ := strconv.Unquote(field.Tag.Value)
	return reflect.StructTag(tag).Get("json")
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
		name, opts, _ := strings.Cut(jsonTag(field), ",")
		if name == "-" && opts == "" || strings.Contains(opts, "embed") {
			continue
		}
		for _, n := range field.Names {
			if !n.IsExported() {
				continue
			}
			ptr := "&" + recv + "." + n.Name
			typeName := exprString(field.Type)
			read, check := "json.UnmarshalDecode(dec, "+ptr+")", "validateAs["+typeName+"](dec, st)"
			own := "(*" + typeName + ")(nil).validateFrom(dec, st)" // the type's own validator
			switch typ := field.Type.(type) {
			case *ast.Ident:
				switch kind := kinds[typ.Name]; {
				case kind == "string" && lenient:
					read, check = "jsontok.ReadLenient(dec, &st.strs, "+ptr+")", "jsontok.CheckLenient(dec)"
				case kind == "string":
					read, check = "jsontok.ReadString(dec, &st.strs, "+ptr+")", "jsontok.CheckString(dec)"
				case typ.Name == "int64":
					read, check = "jsontok.ReadInt(dec, "+ptr+")", "jsontok.CheckInt(dec)"
				case typ.Name == "float64":
					read, check = "jsontok.ReadFloat(dec, "+ptr+")", "jsontok.CheckFloat(dec)"
				case typ.Name == "bool":
					read, check = "jsontok.ReadBool(dec, "+ptr+")", "jsontok.CheckBool(dec)"
				case kind == "decoder":
					read, check = recv+"."+n.Name+".decodeFrom(dec, st)", own
				case kind == "method":
					read, check = recv+"."+n.Name+".UnmarshalJSONFrom(dec)", own
				}
			case *ast.IndexExpr:
				if id, ok := typ.X.(*ast.Ident); ok && kinds[id.Name] == "decoder" {
					read, check = recv+"."+n.Name+".decodeFrom(dec, st)", own
				}
			case *ast.StarExpr:
				if id, ok := typ.X.(*ast.Ident); ok && kinds[id.Name] == "decoder" {
					read, check = "decodePtr(dec, st, "+ptr+")", "validatePtr["+id.Name+"](dec, st)"
				}
			case *ast.ArrayType:
				if id, ok := typ.Elt.(*ast.Ident); ok && typ.Len == nil && kinds[id.Name] == "decoder" {
					read, check = "decodeSlice(dec, st, "+ptr+")", "validateSlice["+id.Name+"](dec, st)"
				}
				if star, ok := typ.Elt.(*ast.StarExpr); ok && typ.Len == nil {
					if id, ok := star.X.(*ast.Ident); ok && kinds[id.Name] == "record" {
						read, check = "decodeRecords(dec, st, "+ptr+")", "" // a page's records: a page gets no validator
					}
				}
			}
			ms = append(ms, member{Name: cmp.Or(name, n.Name), Read: read, Check: check})
		}
	}
	return ms
}

// hasUnknown reports whether st has a field Unknown tagged `json:",embed"`.
func hasUnknown(st *ast.StructType) bool {
	for _, field := range st.Fields.List {
		if slices.ContainsFunc(field.Names, func(n *ast.Ident) bool { return n.Name == "Unknown" }) && jsonTag(field) == ",embed" {
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
//
// Each type that the records hold also has a validator, which checks a
// value exactly as decodeFrom decodes it and keeps nothing: validateFrom,
// and for a record validateMember, one member. Neither reads its receiver,
// which may be nil.
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
{{if .Validated}}
// validateValues checks the members of a value of {{.Name}} as decodeValues reads them.
func (*{{.Name}}) validateValues(dec *jsontext.Decoder) error {
	return jsontok.Object(dec, nil, func(name []byte) (int, error) {
		switch string(name) { {{- range .Members}}
		case {{printf "%q" .Name}}:
			return {{.Number}}, {{.Check}}{{end}}
		}
		return 0, nil
	})
}
{{end}}{{else}}
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
{{if .Root}}
// validateFrom checks a value of {{.Name}} as decodeFrom decodes it.
func (*{{.Name}}) validateFrom(dec *jsontext.Decoder, st *decodeState) error {
	return jsontok.Object(dec, nil, func(name []byte) (int, error) { return (*{{.Name}})(nil).validateMember(dec, st, name) })
}

// validateMember checks the value of a member of {{.Name}} as decodeFrom
// reads it, and returns the member's number; a member it does not model is
// left unread (0).
func (*{{.Name}}) validateMember(dec *jsontext.Decoder, st *decodeState, name []byte) (int, error) {
	switch string(name) { {{- range .Members}}
	case {{printf "%q" .Name}}:
		return {{.Number}}, {{.Check}}{{end}}
	}
	return 0, nil
}
{{else if .Validated}}
// validateFrom checks a value of {{.Name}} as decodeFrom decodes it.
func (*{{.Name}}) validateFrom(dec *jsontext.Decoder, st *decodeState) error {
	return jsontok.Object(dec, nil, func(name []byte) (int, error) {
		switch string(name) { {{- range .Members}}
		case {{printf "%q" .Name}}:
			return {{.Number}}, {{.Check}}{{end}}
		}
		return 0, nil
	})
}
{{end}}
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
