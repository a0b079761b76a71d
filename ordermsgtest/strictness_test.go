package ordermsgtest_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// Query values the spec leaves open: strict by default (400), served by the
// lenient mode as documented.
func TestStrictQuery(t *testing.T) {
	cases := []struct {
		name, path string
		// lenientLen is the number of records the lenient mode answers
		// with; -1 for a retrieve.
		lenientLen int
	}{
		{"unknown include", "orders?includes=user,nonsense", 25},
		{"unknown include on a retrieve", "messages/{id}?includes=order.nonsense", -1},
		{"count 0", "orders?count=0", 1},
		{"count above the maximum", "messages?count=101", ordermsgtest.MaxCount},
		{"count not an integer", "orders?count=lots", ordermsgtest.DefaultCount},
		{"page 0", "orders?page=0", ordermsgtest.DefaultCount},
		{"page negative", "messages?page=-3", ordermsgtest.DefaultCount},
		{"direction", "orders?direction=up", ordermsgtest.DefaultCount},
		{"sort", "messages?sort=title", ordermsgtest.DefaultCount},
	}
	lenient := ordermsgtest.NewServer(nil, ordermsgtest.WithStrictQuery(false))
	defer lenient.Close()
	explicit := ordermsgtest.NewServer(nil, ordermsgtest.WithStrictQuery(true))
	defer explicit.Close()
	msgID := strconv.FormatInt(lenient.Handler.Dataset().Website(lenient.WebsiteID).Messages[0].ID, 10)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := strings.ReplaceAll(tc.path, "{id}", msgID)
			for _, srv := range []*ordermsgtest.Server{fake(t), explicit} {
				if status, v := rawGet(t, srv, path(srv, "%s", p)); status != http.StatusBadRequest {
					t.Errorf("strict: %d %v, want 400", status, v)
				}
			}
			v := mustGet(t, lenient, path(lenient, "%s", p))
			if tc.lenientLen < 0 {
				if v["object"] != "message" || v["order"] == nil {
					t.Fatalf("lenient retrieve: %v", v)
				}
				return
			}
			if data := v["data"].([]any); len(data) != tc.lenientLen {
				t.Fatalf("lenient: %d records, want %d (meta %v)", len(data), tc.lenientLen, v["meta"])
			}
		})
	}
}

func TestLenientQueryKeepsTheKnownValues(t *testing.T) {
	srv := ordermsgtest.NewServer(nil, ordermsgtest.WithStrictQuery(false))
	defer srv.Close()
	v := mustGet(t, srv, path(srv, "orders?includes=nonsense,user&count=3&page=2&direction=asc&sort=id"))
	meta := v["meta"].(obj)["pagination"].(obj)
	if meta["per_page"] != 3.0 || meta["current_page"] != 2.0 {
		t.Fatalf("pagination %v", meta)
	}
	data := v["data"].([]any)
	first, second := data[0].(obj), data[1].(obj)
	if first["id"].(float64) >= second["id"].(float64) {
		t.Fatalf("not ascending by id: %v then %v", first["id"], second["id"])
	}
	expanded := 0
	for _, o := range data {
		switch u := o.(obj)["user"].(type) {
		case obj:
			expanded++
		case nil:
		default:
			t.Fatalf("include user was dropped: user %v", u)
		}
	}
	if expanded == 0 {
		t.Fatal("include user was dropped: no user expanded")
	}
	if status, v := rawGet(t, srv, path(srv, "orders?date_start=2024-1-2")); status != http.StatusBadRequest {
		t.Fatalf("malformed date: %d %v, want 400 in both modes", status, v)
	}
}
