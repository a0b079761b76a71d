package jsonscan

import (
	"fmt"
	"testing"
)

func TestArrayMemberFindsEveryElementWhereItStands(t *testing.T) {
	doc := []byte(`{"a":{"data":1}, "data" : [ {"s":"\ud800"}, null ,"\u0000", [1,{}] ],"z":"` + "\xff" + `"}`)
	array, elems, ok := ArrayMember(doc, "data")
	if !ok {
		t.Fatal("not found")
	}
	if got := string(doc[array.Start:array.End]); got != `[ {"s":"\ud800"}, null ,"\u0000", [1,{}] ]` {
		t.Errorf("array %q", got)
	}
	var got []string
	for _, e := range elems {
		got = append(got, string(doc[e.Start:e.End]))
	}
	if fmt.Sprintf("%q", got) != `["{\"s\":\"\\ud800\"}" "null" "\"\\u0000\"" "[1,{}]"]` {
		t.Errorf("elements %q", got)
	}
}

func TestArrayMemberRefusesWhatIsNotOneArrayMemberOfAnObject(t *testing.T) {
	for _, doc := range []string{
		``, `[]`, `{"data":{}}`, `{"data":null}`, `{"other":[]}`,
		`{"data":[],"data":[]}`, // twice
		`{"data":[1,]}`,         // syntax
		`{"data":[1]`,           // cut short
		`{"data":[1],"x":}`,     // syntax after it
	} {
		if _, _, ok := ArrayMember([]byte(doc), "data"); ok {
			t.Errorf("%s: found", doc)
		}
	}
	if _, elems, ok := ArrayMember([]byte(`{"data":[]}`), "data"); !ok || elems == nil || len(elems) != 0 {
		t.Errorf("an empty array: %v, %v", elems, ok)
	}
}

func TestMembersGivesWhatIsThereOnce(t *testing.T) {
	for doc, want := range map[string]string{
		`{"id":7,"s":"\ud800","date_created":"2024-03-10T12:00:00+00:00"}`: `["7" "\"2024-03-10T12:00:00+00:00\""]`,
		`{"id":7,"id":8,"date_created":"x"}`:                               `["" "\"x\""]`,     // id twice
		`{"id":{"n":1},"x":[1,2`:                                           `["{\"n\":1}" ""]`, // cut after id
		`{"x":` + "\"\xff\"" + `,"id":-3}`:                                 `["-3" ""]`,        // invalid UTF-8 before it
		`[1,2]`:                                                            `["" ""]`,          // not an object
		`{"date_created":null}`:                                            `["" "null"]`,      // null is a value
	} {
		got := Members([]byte(doc), "id", "date_created")
		if s := fmt.Sprintf("%q", []string{string(got[0]), string(got[1])}); s != want {
			t.Errorf("%s: %s, want %s", doc, s, want)
		}
	}
}
