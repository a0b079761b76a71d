package jsonerr

import (
	"errors"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

func TestPathErrorWritesTheGoPath(t *testing.T) {
	detail, under := errors.New("detail"), errors.New("under")
	for _, tc := range []struct {
		at   jsontext.Pointer
		det  error
		want string
	}{
		{"/data/1/items/0/pricing", detail, "data[1].items[0].pricing: detail"},
		{"/data/01/x", detail, "data.01.x: detail"}, // 01 is a name, not an index
		{"/0", detail, "[0]: detail"},
		{"", detail, "detail"},
		{"/meta", nil, "meta: under"},
	} {
		e := &PathError{At: tc.at, Detail: tc.det, Err: under}
		if got := e.Error(); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.at, got, tc.want)
		}
		if !errors.Is(e, under) {
			t.Errorf("%q does not unwrap to the error under it", tc.at)
		}
	}
}

func TestLocateGivesTheOffsetAndWhatWasExpected(t *testing.T) {
	var v struct {
		Data []struct {
			ID int `json:"id"`
		} `json:"data"`
	}
	body := `{"data":[{"id":1},{"id":"2"}]}`
	err := json.Unmarshal([]byte(body), &v)
	offset, located := Locate(err)
	if offset != 24 || located.Error() != `data[1].id: expected integer, got string` || !errors.Is(located, err) {
		t.Errorf("wrong kind: %d, %v", offset, located)
	}
	err = json.Unmarshal([]byte(`{"data":[}`), &v)
	if offset, located := Locate(err); offset != 9 || !errors.Is(located, err) {
		t.Errorf("bad syntax: %d, %v", offset, located)
	}
	other := errors.New("other")
	if offset, located := Locate(other); offset != -1 || located != other {
		t.Errorf("another error: %d, %v", offset, located)
	}
}

func TestElementOffset(t *testing.T) {
	body := []byte(`{"meta":{"a":[1]}, "data": [ {"id":1} ,  5 ]}`)
	for _, tc := range []struct {
		name string
		i    int
		want int64
	}{
		{"data", 0, 29},
		{"data", 1, 41},
		{"data", 2, -1}, // past the end
		{"meta", 0, -1}, // not an array
		{"gone", 0, -1},
	} {
		if got := ElementOffset(body, tc.name, tc.i); got != tc.want {
			t.Errorf("%s[%d] at %d, want %d", tc.name, tc.i, got, tc.want)
		}
	}
}
