package main

import (
	"fmt"
	"go/types"
	"slices"
	"strings"
)

// features returns the exported API of pkg, one feature a line, sorted, in
// the format of Go's own api/ files:
//
//	pkg github.com/ordermsg/ordermsg-go, func NewClient(string, string, ...Option) (*Client, error)
//	pkg github.com/ordermsg/ordermsg-go, type APIError struct, StatusCode int
//	pkg github.com/ordermsg/ordermsg-go, method (*Page[$0]) HasNextPage() bool
//
// A type of another package is written with its package's name, an alias
// by its name, type parameters as $0, $1, … (their names may change), byte
// and rune as uint8 and int32, untyped constants' types as ideal-int,
// ideal-string, ….
// The constants named in valueless ("path.Name") are recorded without
// their value.
func features(pkg *types.Package, valueless map[string]bool) []string {
	w := &walker{pkg: pkg, valueless: valueless}
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		if obj := scope.Lookup(name); obj.Exported() {
			w.object(obj)
		}
	}
	slices.Sort(w.out)
	return slices.Compact(w.out)
}

type walker struct {
	pkg       *types.Package
	valueless map[string]bool
	out       []string
}

func (w *walker) emit(format string, args ...any) {
	w.out = append(w.out, "pkg "+w.pkg.Path()+", "+fmt.Sprintf(format, args...))
}

func (w *walker) object(obj types.Object) {
	switch obj := obj.(type) {
	case *types.Const:
		w.emit("const %s %s", obj.Name(), w.typ(obj.Type()))
		if !w.valueless[w.pkg.Path()+"."+obj.Name()] {
			w.emit("const %s = %s", obj.Name(), obj.Val().ExactString())
		}
	case *types.Var:
		w.emit("var %s %s", obj.Name(), w.typ(obj.Type()))
	case *types.Func:
		w.emit("func %s%s", obj.Name(), w.signature(obj.Signature()))
	case *types.TypeName:
		w.typeName(obj)
	}
}

func (w *walker) typeName(obj *types.TypeName) {
	name := obj.Name()
	if alias, ok := obj.Type().(*types.Alias); ok {
		w.emit("type %s = %s", name, w.typ(alias.Rhs()))
		return
	}
	named := obj.Type().(*types.Named)
	if tparams := named.TypeParams(); tparams.Len() > 0 {
		name += w.typeParams(tparams, true)
	}
	switch u := named.Underlying().(type) {
	case *types.Struct:
		w.emit("type %s struct", name)
		for f := range u.Fields() {
			switch {
			case !f.Exported():
			case f.Embedded():
				w.emit("type %s struct, embedded %s", name, w.typ(f.Type()))
			default:
				w.emit("type %s struct, %s %s", name, f.Name(), w.typ(f.Type()))
			}
		}
	case *types.Interface:
		w.iface(name, u)
		return // its methods are the interface's
	default:
		w.emit("type %s %s", name, w.typ(u))
	}

	// The methods of T, then those that only *T has. A method promoted from
	// an embedded type of another package is that type's API (its line
	// "embedded" says it is there), and changes with that package's
	// version, so only this package's methods are written.
	values := types.NewMethodSet(named)
	for sel := range values.Methods() {
		if w.own(sel.Obj()) {
			w.method(sel)
		}
	}
	for sel := range types.NewMethodSet(types.NewPointer(named)).Methods() {
		if w.own(sel.Obj()) && values.Lookup(sel.Obj().Pkg(), sel.Obj().Name()) == nil {
			w.method(sel)
		}
	}
}

// own reports whether obj is exported and declared in the package.
func (w *walker) own(obj types.Object) bool { return obj.Exported() && obj.Pkg() == w.pkg }

func (w *walker) method(sel *types.Selection) {
	sig := sel.Type().(*types.Signature)
	recv := w.typ(sig.Recv().Type())
	// The method set of a generic type has it without type arguments.
	base := sig.Recv().Type()
	if p, ok := base.(*types.Pointer); ok {
		base = p.Elem()
	}
	if named, ok := base.(*types.Named); ok && named.TypeParams().Len() > 0 && named.TypeArgs().Len() == 0 {
		recv += w.typeParams(named.TypeParams(), false)
	}
	w.emit("method (%s) %s%s", recv, sel.Obj().Name(), w.signature(sig))
}

func (w *walker) iface(name string, t *types.Interface) {
	var names []string
	complete := true
	for m := range t.Methods() {
		if !m.Exported() {
			complete = false
			continue
		}
		names = append(names, m.Name())
		w.emit("type %s interface, %s%s", name, m.Name(), w.signature(m.Signature()))
	}
	if embedded := w.embeddedTerms(t); len(embedded) > 0 {
		w.emit("type %s interface, %s", name, strings.Join(embedded, ", "))
	}
	if !complete {
		// Only this package can implement it, so it may grow methods.
		w.emit("type %s interface, unexported methods", name)
		return
	}
	slices.Sort(names)
	if len(names) == 0 {
		w.emit("type %s interface {}", name)
		return
	}
	w.emit("type %s interface { %s }", name, strings.Join(names, ", "))
}

// embeddedTerms are the type terms an interface (a constraint) embeds.
func (w *walker) embeddedTerms(t *types.Interface) []string {
	var terms []string
	for e := range t.EmbeddedTypes() {
		switch e := e.(type) {
		case *types.Interface:
			terms = append(terms, w.embeddedTerms(e)...)
		case *types.Union:
			var alts []string
			for term := range e.Terms() {
				tilde := ""
				if term.Tilde() {
					tilde = "~"
				}
				alts = append(alts, tilde+w.typ(term.Type()))
			}
			terms = append(terms, strings.Join(alts, " | "))
		default:
			terms = append(terms, w.typ(e))
		}
	}
	slices.Sort(terms)
	return terms
}

func (w *walker) signature(sig *types.Signature) string {
	var b strings.Builder
	if tparams := sig.TypeParams(); tparams.Len() > 0 {
		b.WriteString(w.typeParams(tparams, true))
	}
	b.WriteString(w.params(sig.Params(), sig.Variadic()))
	switch res := sig.Results(); res.Len() {
	case 0:
	case 1:
		b.WriteString(" " + w.typ(res.At(0).Type()))
	default:
		b.WriteString(" " + w.params(res, false))
	}
	return b.String()
}

func (w *walker) typeParams(list *types.TypeParamList, constraints bool) string {
	var parts []string
	for tp := range list.TypeParams() {
		s := w.typ(tp)
		if constraints {
			s += " " + w.typ(tp.Constraint())
		}
		parts = append(parts, s)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func (w *walker) params(t *types.Tuple, variadic bool) string {
	var parts []string
	for i := range t.Len() {
		typ := t.At(i).Type()
		if variadic && i == t.Len()-1 {
			parts = append(parts, "..."+w.typ(typ.(*types.Slice).Elem()))
			continue
		}
		parts = append(parts, w.typ(typ))
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// name is a declared type with its package's name, when it is another
// package's, and its type arguments.
func (w *walker) name(obj *types.TypeName, args *types.TypeList) string {
	s := obj.Name()
	if pkg := obj.Pkg(); pkg != nil && pkg != w.pkg {
		s = pkg.Name() + "." + s
	}
	if args.Len() > 0 {
		var parts []string
		for a := range args.Types() {
			parts = append(parts, w.typ(a))
		}
		s += "[" + strings.Join(parts, ", ") + "]"
	}
	return s
}

func (w *walker) typ(t types.Type) string {
	switch t := t.(type) {
	case *types.Basic:
		switch t.Kind() {
		case types.UnsafePointer:
			return "unsafe.Pointer"
		case types.UntypedBool:
			return "ideal-bool"
		case types.UntypedInt:
			return "ideal-int"
		case types.UntypedRune:
			return "ideal-rune"
		case types.UntypedFloat:
			return "ideal-float"
		case types.UntypedComplex:
			return "ideal-complex"
		case types.UntypedString:
			return "ideal-string"
		case types.Byte:
			return "uint8"
		case types.Rune:
			return "int32"
		}
		return t.Name()
	case *types.Array:
		return fmt.Sprintf("[%d]%s", t.Len(), w.typ(t.Elem()))
	case *types.Slice:
		return "[]" + w.typ(t.Elem())
	case *types.Struct:
		var fields []string
		for f := range t.Fields() {
			if f.Embedded() {
				fields = append(fields, w.typ(f.Type()))
			} else {
				fields = append(fields, f.Name()+" "+w.typ(f.Type()))
			}
		}
		if len(fields) == 0 {
			return "struct{}"
		}
		return "struct{ " + strings.Join(fields, "; ") + " }"
	case *types.Pointer:
		return "*" + w.typ(t.Elem())
	case *types.Signature:
		return "func" + w.signature(t)
	case *types.Interface:
		var parts []string
		for m := range t.Methods() {
			parts = append(parts, m.Name())
		}
		slices.Sort(parts)
		parts = append(parts, w.embeddedTerms(t)...)
		if len(parts) == 0 {
			return "interface{}"
		}
		return "interface{ " + strings.Join(parts, ", ") + " }"
	case *types.Map:
		return "map[" + w.typ(t.Key()) + "]" + w.typ(t.Elem())
	case *types.Chan:
		prefix := map[types.ChanDir]string{types.SendRecv: "chan ", types.SendOnly: "chan<- ", types.RecvOnly: "<-chan "}[t.Dir()]
		return prefix + w.typ(t.Elem())
	case *types.Alias:
		// By its own name: what it stands for may differ between Go
		// releases (encoding/json's RawMessage is jsontext.Value on 1.27).
		return w.name(t.Obj(), t.TypeArgs())
	case *types.Named:
		return w.name(t.Obj(), t.TypeArgs())
	case *types.TypeParam:
		return fmt.Sprintf("$%d", t.Index())
	case *types.Tuple:
		return w.params(t, false)
	}
	return t.String()
}
