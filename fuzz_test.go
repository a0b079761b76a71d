package ordermsg

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// The fuzz targets feed arbitrary bytes to the decoders the client uses on a
// response body. They must never panic, and what they accept must re-encode:
// encoding a decoded value, decoding that and encoding again gives the same
// JSON value (the encoding is a fixed point). A typed value cannot hold a key
// its type lacks, so the first encoding of a partial record adds the zero
// fields; for complete records the exact round trip is
// TestFixturesRoundTrip's.

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
	var a, b any
	if json.Unmarshal(first, &a) != nil || json.Unmarshal(second, &b) != nil || !reflect.DeepEqual(a, b) {
		t.Fatalf("encoding is not stable:\n%s\n%s", first, second)
	}
}

func FuzzDecodeOrder(f *testing.F) {
	addSeeds(f, `{"object":"order","id":1,"message":0,"user":null,"promo_code":{"object":"order_promo_code","id":2}}`,
		`{"object":"order","items":[{"object":"versadoc_order_item","attributes":null,"portal":-0}]}`)
	f.Fuzz(func(t *testing.T, data []byte) {
		fixedPoint(t, data, func(b []byte) (*Order, error) {
			v := new(Order)
			if err := decodeBody("u", b, v, codecOptions); err != nil {
				return nil, err
			}
			return v, nil
		})
	})
}

func FuzzDecodeMessage(f *testing.F) {
	addSeeds(f, `{"object":"message","file":null,"user":0,"order":{"object":"order","id":3,"user":4}}`)
	f.Fuzz(func(t *testing.T, data []byte) {
		fixedPoint(t, data, func(b []byte) (*Message, error) {
			v := new(Message)
			if err := decodeBody("u", b, v, codecOptions); err != nil {
				return nil, err
			}
			return v, nil
		})
	})
}

func FuzzDecodePage(f *testing.F) {
	addSeeds(f, `{"object":"list","data":[],"meta":{"pagination":{"total":0}}}`, `{"object":"list","data":[null]}`)
	f.Fuzz(func(t *testing.T, data []byte) {
		fixedPoint(t, data, func(b []byte) (*Page[Order], error) { return decodePage[Order]("u", b, ObjectOrder, false) })
	})
}

func FuzzDecodeFormSubmission(f *testing.F) {
	addSeeds(f, `{"object":"form_submission","fields":{"f1":{"id":"f1","values":{"first":"A","n":1}},"f2":{"values":[1]}}}`,
		`{"fields":{"f\u0031":{"values":"x","price_modifier":null}}}`, `{"fields":null}`)
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
