package ordermsgtest_test

import (
	"net/http"
	"testing"
)

// Every unknown id gets the same wording: "<what> <id as in the path> not
// found".
func TestNotFoundWordingIsUniform(t *testing.T) {
	srv := fake(t)
	cases := map[string]string{
		"/websites/999999/orders":    "website 999999 not found",
		"/websites/abc/orders":       "website abc not found",
		"/websites/0/messages":       "website 0 not found",
		path(srv, "orders/999999"):   "order 999999 not found",
		path(srv, "orders/x1"):       "order x1 not found",
		path(srv, "orders/0"):        "order 0 not found",
		path(srv, "messages/999999"): "message 999999 not found",
		path(srv, "messages/-4"):     "message -4 not found",
		"/websites/1/invoices":       "endpoint /websites/1/invoices not found",
		path(srv, "orders/1/items"):  "endpoint " + path(srv, "orders/1/items") + " not found",
	}
	for p, want := range cases {
		status, v := rawGet(t, srv, p)
		if status != http.StatusNotFound || v["message"] != want {
			t.Errorf("%s: %d %q, want 404 %q", p, status, v["message"], want)
		}
	}
}
