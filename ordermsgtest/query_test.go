package ordermsgtest_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// Query values the spec leaves open, and dates not in the spec's form,
// answer 400.
func TestQueryValuesOutOfRangeAnswer400(t *testing.T) {
	cases := []struct{ name, path string }{
		{"unknown include", "orders?includes=user,nonsense"},
		{"unknown include on a retrieve", "messages/{id}?includes=order.nonsense"},
		{"count 0", "orders?count=0"},
		{"count above the maximum", "messages?count=101"},
		{"count not an integer", "orders?count=lots"},
		{"page 0", "orders?page=0"},
		{"page negative", "messages?page=-3"},
		{"direction", "orders?direction=up"},
		{"sort", "messages?sort=title"},
		{"malformed date", "orders?date_start=2024-1-2"},
	}
	srv := fake(t)
	msgID := strconv.FormatInt(srv.Handler.Dataset().Website(srv.WebsiteID).Messages[0].ID, 10)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := strings.ReplaceAll(tc.path, "{id}", msgID)
			if status, v := rawGet(t, srv, path(srv, "%s", p)); status != http.StatusBadRequest {
				t.Errorf("%d %v, want 400", status, v)
			}
		})
	}
}
