package jsontok

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"unsafe"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// decoder reads in as the SDK's decoders do: from memory (the names and
// values read stay valid), duplicate names allowed by the decoder, and told
// by Object and UniqueNames.
func decoder(in string) *jsontext.Decoder {
	return jsontext.NewDecoder(bytes.NewBufferString(in), jsontext.AllowDuplicateNames(true))
}

// item is a wire type as gencodec writes its decoder with this package.
type item struct {
	ID      int64
	Name    string
	Price   float64
	Paid    bool
	Unknown jsontext.Value
}

// readItem decodes in as an item's generated decoder does.
func readItem(in string) (item, error) {
	var it item
	var st Strings
	dec := decoder(in)
	err := Object(dec, &it.Unknown, func(name []byte) (int, error) {
		switch string(name) {
		case "id":
			return 1, ReadInt(dec, &it.ID)
		case "name":
			return 2, ReadString(dec, &st, &it.Name)
		case "price":
			return 3, ReadFloat(dec, &it.Price)
		case "paid":
			return 4, ReadBool(dec, &it.Paid)
		}
		return 0, nil
	})
	return it, err
}

// v2item is item as encoding/json/v2 decodes it, for the errors to match.
type v2item struct {
	ID    int64   `json:"id"`
	Name  string  `json:"name"`
	Price float64 `json:"price"`
	Paid  bool    `json:"paid"`
}

func TestObjectReadsKnownMembersAndKeepsTheOthers(t *testing.T) {
	in := `{"x": [1, {"y": 2}], "id": 7, "name": "caf\u00e9", "price": 1.5, "z":"s", "paid": true}`
	it, err := readItem(in)
	if err != nil {
		t.Fatal(err)
	}
	want := item{ID: 7, Name: "café", Price: 1.5, Paid: true, Unknown: jsontext.Value(`{"x":[1, {"y": 2}],"z":"s"}`)}
	if it.ID != want.ID || it.Name != want.Name || it.Price != want.Price || it.Paid != want.Paid || string(it.Unknown) != string(want.Unknown) {
		t.Fatalf("decoded %+v (unknown %s); want %+v (unknown %s)", it, it.Unknown, want, want.Unknown)
	}
	// An escaped name is a known member's when unquoted.
	if it, err := readItem(`{"i\u0064": 9}`); err != nil || it.ID != 9 || it.Unknown != nil {
		t.Fatalf(`{"i\u0064": 9}: %+v, %v; want id 9`, it, err)
	}
	// null leaves the value as it is, as an object and as a member.
	dec := decoder(`null`)
	if err := Object(dec, nil, func([]byte) (int, error) { t.Fatal("a member of null"); return 0, nil }); err != nil {
		t.Fatal(err)
	}
	n, str, f, b := int64(3), "kept", 2.5, true
	for _, read := range []func(*jsontext.Decoder) error{
		func(d *jsontext.Decoder) error { return ReadInt(d, &n) },
		func(d *jsontext.Decoder) error { return ReadString(d, nil, &str) },
		func(d *jsontext.Decoder) error { return ReadFloat(d, &f) },
		func(d *jsontext.Decoder) error { return ReadBool(d, &b) },
	} {
		if err := read(decoder(`null`)); err != nil {
			t.Fatal(err)
		}
	}
	if n != 3 || str != "kept" || f != 2.5 || !b {
		t.Fatalf("null changed the values: %d %q %g %v", n, str, f, b)
	}
}

// Wrong kinds, out-of-range numbers and duplicate names are the errors
// encoding/json/v2 gives, at the same offset and JSON pointer.
func TestErrorsAreEncodingJSONV2s(t *testing.T) {
	for _, in := range []string{
		`[1]`,
		`"s"`,
		`{"id": "7"}`,
		`{"id": 1.5}`,
		`{"id": 99999999999999999999}`,
		`{"name": 3}`,
		`{"name": {"a": 1}}`,
		`{"price": "1"}`,
		`{"price": 1e999}`,
		`{"paid": "yes"}`,
		`{"paid": 0}`,
		`{"paid": [true]}`,
		`{"id": 1, "id": 2}`,
		`{"x": 1, "name": "a", "x": 2}`,
		`{"x": {"a": 1, "a": 2}}`,
		`{"x": [{"b": 1}, {"b": 1, "b": 2}]}`,
	} {
		_, got := readItem(in)
		want := json.Unmarshal([]byte(in), new(v2item), json.RejectUnknownMembers(false))
		if in == `{"x": {"a": 1, "a": 2}}` || in == `{"x": [{"b": 1}, {"b": 1, "b": 2}]}` {
			// v2 skips an unknown member without reading its names.
			want = json.Unmarshal([]byte(in), new(map[string]any))
		}
		if got == nil || want == nil {
			t.Errorf("%s: error %v; v2's %v", in, got, want)
			continue
		}
		if offset(got) != offset(want) || pointer(got) != pointer(want) || errors.Is(want, jsontext.ErrDuplicateName) != errors.Is(got, jsontext.ErrDuplicateName) {
			t.Errorf("%s: error %v at %d %q; v2's %v at %d %q", in, got, offset(got), pointer(got), want, offset(want), pointer(want))
		}
	}
}

func offset(err error) int64 {
	var sem *json.SemanticError
	var syn *jsontext.SyntacticError
	switch {
	case errors.As(err, &sem):
		return sem.ByteOffset
	case errors.As(err, &syn):
		return syn.ByteOffset
	}
	return -1
}

func pointer(err error) jsontext.Pointer {
	var sem *json.SemanticError
	var syn *jsontext.SyntacticError
	switch {
	case errors.As(err, &sem):
		return sem.JSONPointer
	case errors.As(err, &syn):
		return syn.JSONPointer
	}
	return "?"
}

// An error of the caller's member func gets the position of the member's
// value; one that has a position keeps it.
func TestAtValue(t *testing.T) {
	bad := errors.New("not a status")
	dec := decoder(`{"a": 1, "status":  "odd"}`)
	err := Object(dec, nil, func(name []byte) (int, error) {
		if string(name) == "status" {
			return 1, bad
		}
		return 0, nil
	})
	var sem *json.SemanticError
	if !errors.As(err, &sem) || !errors.Is(err, bad) || sem.ByteOffset != int64(strings.Index(`{"a": 1, "status":  "odd"}`, `"odd"`)) || sem.JSONPointer != "/status" {
		t.Fatalf("error %v (%+v); want the member's error at its value", err, sem)
	}
	kept := &json.SemanticError{ByteOffset: 1, Err: bad}
	if got := AtValue(decoder(`1`), kept); got != kept {
		t.Fatalf("AtValue changed an error with a position: %v", got)
	}
}

// ObjectSpans notes where each member's name and value are.
func TestObjectSpans(t *testing.T) {
	in := `{ "id" : 7 ,"x":{"a":[1]},  "name":"n"}`
	dec := decoder(in)
	var spans []MemberSpans
	var id int64
	err := ObjectSpans(dec, &spans, func(name []byte) (int, error) {
		if string(name) == "id" {
			return 1, ReadInt(dec, &id)
		}
		return 0, nil
	})
	if err != nil || id != 7 {
		t.Fatal(err, id)
	}
	var got []string
	for _, s := range spans {
		got = append(got, in[s.Name.Start:s.Name.End]+"="+in[s.Value.Start:s.Value.End])
	}
	if want := []string{`"id"=7`, `"x"={"a":[1]}`, `"name"="n"`}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("spans %q; want %q", got, want)
	}
}

// Many names move a NameSet from its array to its map; a name seen twice
// is told in both.
func TestNameSet(t *testing.T) {
	var s NameSet
	for i := range 40 {
		if s.Add(fmt.Appendf(nil, "n%d", i)) {
			t.Fatalf("n%d: told as seen on its first Add", i)
		}
	}
	for _, i := range []int{0, 15, 16, 39} {
		if !s.Add(fmt.Appendf(nil, "n%d", i)) {
			t.Fatalf("n%d: not told as seen on its second Add", i)
		}
	}
	// An object of more members than the array holds, with a duplicate
	// after the switch.
	var b strings.Builder
	b.WriteString("{")
	for i := range 20 {
		fmt.Fprintf(&b, `"m%d": %d, `, i, i)
	}
	b.WriteString(`"m3": 0}`)
	if _, err := readItem(b.String()); !errors.Is(err, jsontext.ErrDuplicateName) {
		t.Fatalf("a name twice among 21: %v", err)
	}
}

// Each Check accepts exactly what its Read accepts.
func TestChecksAcceptWhatReadsAccept(t *testing.T) {
	inputs := []string{`"s"`, `"a\"b"`, `null`, `7`, `-0`, `1.5`, `1e3`, `1e999`, `99999999999999999999`, `true`, `false`, `[1]`, `{"a":1}`, `{"a":1,"a":2}`}
	type pair struct {
		name        string
		read, check func(*jsontext.Decoder) error
	}
	pairs := []pair{
		{"string", func(d *jsontext.Decoder) error { var s string; return ReadString(d, nil, &s) }, CheckString},
		{"lenient", func(d *jsontext.Decoder) error { var s string; return ReadLenient(d, nil, &s) }, CheckLenient},
		{"int", func(d *jsontext.Decoder) error { var n int64; return ReadInt(d, &n) }, CheckInt},
		{"float", func(d *jsontext.Decoder) error { var f float64; return ReadFloat(d, &f) }, CheckFloat},
		{"bool", func(d *jsontext.Decoder) error { var b bool; return ReadBool(d, &b) }, CheckBool},
	}
	for _, p := range pairs {
		for _, in := range inputs {
			r, c := p.read(decoder(in)), p.check(decoder(in))
			if (r == nil) != (c == nil) {
				t.Errorf("%s %s: read %v, check %v", p.name, in, r, c)
			}
		}
	}
	// ReadLenient skips a value of another kind, whole, its names checked.
	var s string
	if err := ReadLenient(decoder(`{"a":1,"a":2}`), nil, &s); !errors.Is(err, jsontext.ErrDuplicateName) {
		t.Fatalf("ReadLenient of an object with a name twice: %v", err)
	}
	if err := ReadLenient(decoder(`[1, 2]`), nil, &s); err != nil || s != "" {
		t.Fatalf("ReadLenient of an array: %q, %v; want it skipped", s, err)
	}
}

// A failed number leaves 0, not a part of it.
func TestFailedNumbersLeaveZero(t *testing.T) {
	n, f := int64(5), 5.0
	if err := ReadInt(decoder(`99999999999999999999`), &n); err == nil || n != 0 {
		t.Fatalf("ReadInt of an overflow: %d, %v", n, err)
	}
	if err := ReadFloat(decoder(`1e999`), &f); err == nil || f != 0 {
		t.Fatalf("ReadFloat of an overflow: %g, %v", f, err)
	}
}

func TestReadNullAndKindName(t *testing.T) {
	dec := decoder(`null 1`)
	if ok, err := ReadNull(dec); !ok || err != nil {
		t.Fatalf("ReadNull of null: %v, %v", ok, err)
	}
	if ok, err := ReadNull(dec); ok || err != nil || dec.PeekKind() != '0' {
		t.Fatalf("ReadNull of 1: %v, %v; want false and the 1 left", ok, err)
	}
	for k, want := range map[jsontext.Kind]string{'"': "string", '[': "array", '{': "object", 't': "bool", 'f': "bool", 'n': "null", '0': "number", 0: "nothing"} {
		if got := KindName(k); got != want {
			t.Errorf("KindName(%q) = %q; want %q", k, got, want)
		}
	}
}

// Intern gives back an equal string, the same one for equal bytes between
// two Resets; a nil Strings, and bytes too short or long to be worth it,
// give new strings.
func TestIntern(t *testing.T) {
	same := func(a, b string) bool { return unsafe.StringData(a) == unsafe.StringData(b) }
	var st Strings
	words := []string{"order", "message", "paid", "completed", strings.Repeat("x", 64)}
	first := map[string]string{}
	for _, w := range words {
		first[w] = st.Intern([]byte(w))
	}
	for _, w := range words {
		got := st.Intern(bytes.Clone([]byte(w)))
		if got != w || !same(got, first[w]) {
			t.Errorf("Intern(%q) again: %q, same string %v; want the first one", w, got, same(got, first[w]))
		}
	}
	long := strings.Repeat("y", 65)
	if a, b := st.Intern([]byte(long)), st.Intern([]byte(long)); a != long || same(a, b) {
		t.Errorf("65 bytes: %q, interned %v; want an equal string, not interned", a, same(a, b))
	}
	var none *Strings
	if a, b := none.Intern([]byte("paid")), none.Intern([]byte("paid")); a != "paid" || same(a, b) {
		t.Errorf("nil Strings: %q, interned %v", a, same(a, b))
	}
	st.Reset()
	if got := st.Intern([]byte("order")); got != "order" || same(got, first["order"]) {
		t.Errorf("after Reset: %q, the string of before %v; want a new one", got, same(got, first["order"]))
	}
	// Many different strings, colliding in the table, each come back equal.
	for i := range 5000 {
		w := fmt.Sprintf("id-%d", i)
		if got := st.Intern([]byte(w)); got != w {
			t.Fatalf("Intern(%q) = %q", w, got)
		}
	}
}
