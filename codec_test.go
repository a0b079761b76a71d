package ordermsg

import (
	"bytes"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
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

// TestEveryDecoderGivesTheClientsResult: the wire types decode the same way
// whoever drives the decoder. A decoder the SDK did not make may stream its
// input (here one byte at a time, so that its buffer never holds a whole
// value) or carry lenient options; the methods then read their value whole
// and decode it the SDK's way, and FieldValues keeps its exact bytes in Raw.
func TestEveryDecoderGivesTheClientsResult(t *testing.T) {
	for _, tc := range []struct {
		file   string
		client func([]byte) (any, error)
		fresh  func() any
	}{
		{"orders_list_unknown.json", func(b []byte) (any, error) { return decodePage[Order]("u", b, ObjectOrder, false, false) }, func() any { return new(Page[Order]) }},
		{"messages_list_unknown.json", func(b []byte) (any, error) { return decodePage[Message]("u", b, ObjectMessage, false, false) }, func() any { return new(Page[Message]) }},
		{"message_full.json", func(b []byte) (any, error) { return decodeRecord[Message]("u", b, ObjectMessage, false) }, func() any { return new(Message) }},
		{"order_full.json", func(b []byte) (any, error) { return decodeRecord[Order]("u", b, ObjectOrder, false) }, func() any { return new(Order) }},
	} {
		in := fixture(t, tc.file)
		want, err := tc.client(in)
		if err != nil {
			t.Fatal(err)
		}
		for name, decode := range map[string]func(v any) error{
			"v2 streaming": func(v any) error { return json.UnmarshalRead(iotest.OneByteReader(bytes.NewReader(in)), v) },
			"v2 lenient options": func(v any) error {
				return json.Unmarshal(in, v, jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true), json.MatchCaseInsensitiveNames(true))
			},
			"v1 streaming": func(v any) error { return stdjson.NewDecoder(iotest.OneByteReader(bytes.NewReader(in))).Decode(v) },
			// The SDK's decoders used to be marked by this option: a
			// streaming decoder that carried it was taken for one of them.
			"v2 streaming with the old mark": func(v any) error {
				return json.UnmarshalRead(iotest.OneByteReader(bytes.NewReader(in)), v, jsontext.ReorderRawObjects(true))
			},
			"v2 streaming with unmarshalers of the caller's": func(v any) error {
				return json.UnmarshalRead(iotest.OneByteReader(bytes.NewReader(in)), v,
					json.WithUnmarshalers(json.UnmarshalFromFunc(func(*jsontext.Decoder, *struct{}) error { return nil })))
			},
		} {
			got := tc.fresh()
			if err := decode(got); err != nil {
				t.Errorf("%s, %s: %v", tc.file, name, err)
				continue
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s, %s: decoded differently from the client", tc.file, name)
			}
		}
	}
}

// TestFieldValuesKeepTheirBytesInOnePass: the values object is decoded in
// the same pass as the record around it, and Raw still holds its bytes
// exactly as sent (spaces, escapes, members of any type), wherever it sits,
// in memory of its own: not the input's.
func TestFieldValuesKeepTheirBytesInOnePass(t *testing.T) {
	values := `{ "first" : "A\u00e9" ,"number": 12, "x": [1, {"y": null}], "last":"L" }`
	for _, in := range []string{
		`{"f1":{"id":"f1","values":` + values + `},"f2":{"values":` + values + "\n}}",
		`{"f1":{"values"  :` + "\t" + values + `,"id":"f1"}}`,
	} {
		var ff FormFields
		input := []byte(in)
		if err := unmarshalJSON(input, &ff); err != nil {
			t.Fatal(err)
		}
		clear(input) // as the client does when it gives a body's buffer back
		for _, f := range ff {
			if string(f.Values.Raw) != values {
				t.Errorf("Raw = %s, want %s", f.Values.Raw, values)
			}
			if f.Values.First != "A\u00e9" || f.Values.Last != "L" || f.Values.Number != "" {
				t.Errorf("fields = %+v", f.Values)
			}
		}
	}
	// The fields of a form share one copy of their Raw values; an append to
	// one leaves the next as it is.
	var ff FormFields
	if err := unmarshalJSON([]byte(`{"f1":{"values":{"first":"A"}},"f2":{"values":{"first":"B"}}}`), &ff); err != nil {
		t.Fatal(err)
	}
	_ = append(ff[0].Values.Raw, "XXXXXXXX"...)
	if string(ff[1].Values.Raw) != `{"first":"B"}` {
		t.Errorf("an append to one Raw changed the next: %s", ff[1].Values.Raw)
	}
	var v FieldValues
	input := []byte(" " + values + " ")
	err := unmarshalJSON(input, &v)
	clear(input)
	if err != nil || string(v.Raw) != values || v.First != "A\u00e9" {
		t.Errorf("bare: %v, %+v", err, v)
	}
}

// TestPageRecordOfAnotherKindIsPointedAt: a record that is null or of
// another kind fails the page with its path and the offset where it starts.
func TestPageRecordOfAnotherKindIsPointedAt(t *testing.T) {
	for _, tc := range []struct{ bad, want string }{
		{`{"object": "message", "id": 2}`, `data[1]: object is "message", want "order"`},
		{`null`, `data[1]: expected object, got null`},
	} {
		body := `{"meta": {}, "data": [{"object": "order", "id": 1} ,` + "\n\t" + tc.bad + `], "object": "list"}`
		_, err := decodePage[Order]("u", []byte(body), ObjectOrder, false, false)
		var de *DecodeError
		if !errors.As(err, &de) || !strings.Contains(err.Error(), tc.want) {
			t.Fatalf("%s: got %v, want %s", tc.bad, err, tc.want)
		}
		if want := int64(strings.Index(body, tc.bad)); de.Offset != want {
			t.Errorf("%s: offset %d, want %d", tc.bad, de.Offset, want)
		}
		var semantic *json.SemanticError // every decode error wraps encoding/json/v2's
		if !errors.As(err, &semantic) || semantic.ByteOffset != de.Offset || semantic.JSONPointer != "/data/1" {
			t.Errorf("%s: no *json.SemanticError at /data/1 in %#v", tc.bad, err)
		}
	}
}

// TestManyMembersStillTellDuplicates: past a few names, an object's unknown
// member names and a form's field keys are kept in a map (so that many cost
// linear time, BenchmarkDecodeManyMembers); a name twice is still an error
// there, whether the second comes early or late.
func TestManyMembersStillTellDuplicates(t *testing.T) {
	for _, n := range []int{3, 17, 40, 1000} {
		for _, second := range []int{1, n - 1} {
			var unknown, fields strings.Builder
			for i := range n {
				fmt.Fprintf(&unknown, `,"x%d":%d`, i, i)
				fmt.Fprintf(&fields, `"f%d":{"id":"f%d"},`, i, i)
			}
			fmt.Fprintf(&unknown, `,"x%d":0`, second)
			fmt.Fprintf(&fields, `"f%d":{"id":"f%d"}`, second, second)
			for what, body := range map[string]string{
				"unknown member": `{"object":"order"` + unknown.String() + `}`,
				"form field":     `{"object":"order","billing_address":{"fields":{` + fields.String() + `}}}`,
			} {
				_, err := decodeRecord[Order]("u", []byte(body), ObjectOrder, false)
				if !errors.Is(err, jsontext.ErrDuplicateName) {
					t.Errorf("%d names, %s x%d twice: %v", n, what, second, err)
				}
				if ok := strings.Replace(body, fmt.Sprintf(`"x%d":0`, second), `"y":0`, 1); what == "unknown member" {
					if _, err := decodeRecord[Order]("u", []byte(ok), ObjectOrder, false); err != nil {
						t.Errorf("%d names, no duplicate: %v", n, err)
					}
				}
			}
		}
	}
}

// BenchmarkDecodeManyMembers decodes an order with n unknown members and a
// form of n fields, for n = 1,000 and 64,000, and reports the time per
// member, so that a hostile body cannot make a decode quadratic: names are
// checked for duplicates in a map past a few. Measured: 0.8 and 1.6 – 2.3
// µs per member (the larger heap costs the collector more); with a list
// instead, 64 times the members took 46 times as long per member.
func BenchmarkDecodeManyMembers(b *testing.B) {
	for _, n := range []int{1_000, 64_000} {
		var body bytes.Buffer
		body.WriteString(`{"object":"order"`)
		for i := range n {
			fmt.Fprintf(&body, `,"x%d":%d`, i, i)
		}
		body.WriteString(`,"billing_address":{"fields":{`)
		for i := range n {
			if i > 0 {
				body.WriteByte(',')
			}
			fmt.Fprintf(&body, `"f%d":{"id":"f%d"}`, i, i)
		}
		body.WriteString(`}}}`)
		b.Run(fmt.Sprintf("members=%d", n), func(b *testing.B) {
			b.SetBytes(int64(body.Len()))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := decodeRecord[Order]("u", body.Bytes(), ObjectOrder, false); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(2*n), "ns/member")
		})
	}
}
