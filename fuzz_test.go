package ordermsg

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// The fuzz targets feed arbitrary bytes to the decoders the client uses on a
// response body. They must never panic, and what they accept must re-encode:
// encoding a decoded value, decoding that and encoding again gives the same
// JSON value (the encoding is a fixed point), and nothing is lost on the way:
// every member of the input, at any depth, known to the SDK or not, is in the
// first encoding. A typed value cannot tell an absent field from its zero
// value, so the first encoding of a partial record adds the zero fields and
// may leave out a member whose value is zero; for complete records the exact
// round trip is TestFixturesRoundTrip's and TestUnknownMembersRoundTrip's.

func addSeeds(f *testing.F, extra ...string) {
	files, _ := filepath.Glob("testdata/*.json")
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, s := range extra {
		f.Add([]byte(s))
	}
}

// fixedPoint checks the property for one input.
func fixedPoint[T any](t *testing.T, data []byte, decode func([]byte) (*T, error)) {
	v, err := decode(data)
	if err != nil {
		if v != nil {
			t.Fatalf("a value came back with the error %v", err)
		}
		return
	}
	first, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("decoded but does not encode: %v\ninput: %q", err, data)
	}
	again, err := decode(first)
	if err != nil {
		t.Fatalf("its own encoding does not decode: %v\nencoding: %s", err, first)
	}
	second, err := json.Marshal(again)
	if err != nil {
		t.Fatal(err)
	}
	var in, a, b any
	if json.Unmarshal(first, &a) != nil || json.Unmarshal(second, &b) != nil || !reflect.DeepEqual(a, b) {
		t.Fatalf("encoding is not stable:\n%s\n%s", first, second)
	}
	if err := json.Unmarshal(data, &in); err != nil {
		t.Fatalf("decoded, but encoding/json rejects the input: %v", err)
	}
	if path, lost := lostMember(in, a, "$"); lost {
		t.Fatalf("%s was lost:\ninput: %s\nencoding: %s", path, data, first)
	}
}

// lostMember returns the path of the first member of in, at any depth, that
// out lacks. Members whose value is zero are not looked for.
func lostMember(in, out any, path string) (string, bool) {
	switch in := in.(type) {
	case map[string]any:
		o, ok := out.(map[string]any)
		if !ok {
			return path, true
		}
		for k, v := range in {
			if isZeroJSON(v) {
				continue
			}
			ov, ok := o[k]
			if !ok {
				return path + "." + k, true
			}
			if p, lost := lostMember(v, ov, path+"."+k); lost {
				return p, true
			}
		}
	case []any:
		o, ok := out.([]any)
		if !ok || len(o) != len(in) {
			return path, true
		}
		for i := range in {
			if p, lost := lostMember(in[i], o[i], fmt.Sprintf("%s[%d]", path, i)); lost {
				return p, true
			}
		}
	}
	return "", false
}

// isZeroJSON reports whether v is null, false, 0, "", or an object of such
// values: what a typed field may leave out.
func isZeroJSON(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case bool:
		return !v
	case float64:
		return v == 0
	case string:
		return v == ""
	case map[string]any:
		for _, x := range v {
			if !isZeroJSON(x) {
				return false
			}
		}
		return true
	}
	return false
}

func FuzzDecodeOrder(f *testing.F) {
	addSeeds(f, `{"object":"order","id":1,"message":0,"user":null,"promo_code":{"object":"order_promo_code","id":2}}`,
		`{"object":"order","new":{"a":[1,{"b":null}]},"pricing":{"total":1,"fee":2},"items":[{"object":"order_item","extra":true}]}`,
		`{"object":"order","items":[{"object":"versadoc_order_item","attributes":null,"portal":-0}]}`)
	f.Fuzz(func(t *testing.T, data []byte) {
		fixedPoint(t, data, func(b []byte) (*Order, error) {
			v := new(Order)
			if err := decodeBody("u", b, v, decodeOptions); err != nil {
				return nil, err
			}
			return v, nil
		})
	})
}

func FuzzDecodeMessage(f *testing.F) {
	addSeeds(f, `{"object":"message","file":null,"user":0,"order":{"object":"order","id":3,"user":4}}`,
		`{"object":"message","form":{"id":5,"fresh":"yes"},"order":{"object":"order","later":[2]},"x":1}`)
	f.Fuzz(func(t *testing.T, data []byte) {
		fixedPoint(t, data, func(b []byte) (*Message, error) {
			v := new(Message)
			if err := decodeBody("u", b, v, decodeOptions); err != nil {
				return nil, err
			}
			return v, nil
		})
	})
}

func FuzzDecodePage(f *testing.F) {
	addSeeds(f, `{"object":"list","data":[],"meta":{"pagination":{"total":0}}}`, `{"object":"list","data":[null]}`,
		`{"object":"list","data":[{"object":"order","z":1}],"meta":{"pagination":{"total":1,"cursor":"c"},"links":{}},"next":"n"}`,
		`{"object":"list","data":[{"object":"order","id":1,"t":"\ud800"},null,{"object":"order","id":2}],"meta":{"pagination":{"total":3}}}`)
	f.Fuzz(func(t *testing.T, data []byte) {
		fixedPoint(t, data, func(b []byte) (*Page[Order], error) { return decodePage[Order]("u", b, ObjectOrder, false, false) })
		// Going past bad records never panics either, and each one skipped
		// keeps its bytes as they stand in the body, in its place.
		p, err := decodePage[Order]("u", data, ObjectOrder, true, true)
		if err != nil {
			return
		}
		for i, e := range entries[Order, *Order](p) {
			if e.bad == nil {
				continue
			}
			if e.bad.Index != i || !bytes.Equal(data[e.bad.Offset:e.bad.Offset+int64(len(e.bad.Raw))], e.bad.Raw) {
				t.Fatalf("record %d skipped as %+v", i, e.bad)
			}
		}
	})
}

func FuzzDecodeFormSubmission(f *testing.F) {
	addSeeds(f, `{"object":"form_submission","fields":{"f1":{"id":"f1","values":{"first":"A","n":1}},"f2":{"values":[1]}}}`,
		`{"fields":{"f\u0031":{"values":"x","price_modifier":null}}}`, `{"fields":null}`,
		`{"fields":{"":{"id":"f1","hint":"h"},"f2":{"id":"f3"}},"extra":[]}`)
	f.Fuzz(func(t *testing.T, data []byte) {
		fixedPoint(t, data, func(b []byte) (*FormSubmission, error) {
			v := new(FormSubmission)
			if err := json.Unmarshal(b, v); err != nil {
				return nil, err
			}
			return v, nil
		})
	})
}

// FuzzCheckAsDecode holds the validators to the typed decoders for any
// bytes (checkedAsDecoded): as records and as pages, reading RawRecords
// refuses exactly what decoding refuses, with the same error, and names
// what it accepts as decoding does.
func FuzzCheckAsDecode(f *testing.F) {
	addSeeds(f, `{"object":"order","id":1,"date_created":null,"d\u0061te_created":"2024-05-02T11:00:00+00:00"}`,
		`{"object":"message","id":-0,"order":{"object":"order","id":1.5}}`,
		`{"object":"list","data":[{"object":"order","id":1,"items":[{"attributes":{"object":"x","fields":{"f":{"price_modifier":1e2}}}}]},null,[]],"meta":{"pagination":{"current_page":1}}}`,
		`{"object":"list","data":[{"object":"message","id":2,"form_submission":{"fields":{"f1":{"values":{"first":1,"first":2}},"f\u0031":{}}}}],"meta":{}}`)
	f.Fuzz(func(t *testing.T, data []byte) {
		checkedAsDecoded(t, data)
	})
}
