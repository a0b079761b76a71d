package ordermsgtest_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// The fake reads a path as it was written, decoded and split at its
// slashes, whatever net/http's ServeMux would make of it: slashes at the
// ends do not count, a dot or an empty segment is an id like any other,
// nothing is redirected, and a wrong method or an unknown path gets the
// fake's own 405 or 404.
func TestRoutesReadThePathAsWritten(t *testing.T) {
	srv := fake(t)
	site := strconv.FormatInt(srv.WebsiteID, 10)
	order := strconv.FormatInt(srv.Handler.Dataset().Website(srv.WebsiteID).Orders[0].ID, 10)
	const readOnly = "the API is read-only; use GET"
	cases := []struct {
		method, path string
		status       int
		// message is the error's; "" for a success, or a HEAD's empty body.
		message string
	}{
		{"GET", "/websites/{w}/orders/", 200, ""},
		{"GET", "//websites/{w}/orders//", 200, ""},
		{"GET", "/websites/{w}/orders/{o}/", 200, ""},
		{"GET", "/websites/{w}/orders%2F{o}", 200, ""},
		{"GET", "/websites/x{w}/orders", 404, "website x{w} not found"},
		{"HEAD", "/websites/{w}/orders", 405, ""},
		{"POST", "/websites/{w}/orders", 405, readOnly},
		{"DELETE", "/nowhere", 405, readOnly},
		{"POST", "/openapi.yaml", 405, readOnly},
		{"GET", "/", 404, "endpoint / not found"},
		{"GET", "/openapi.yaml/", 404, "endpoint /openapi.yaml/ not found"},
		{"GET", "/websites/{w}/orders/.", 404, "order . not found"},
		{"GET", "/websites/{w}/orders/%2E%2E", 404, "order .. not found"},
		{"GET", "/websites/{w}/../{w}/orders", 404, "endpoint /websites/{w}/../{w}/orders not found"},
		{"GET", "/websites//orders", 404, "website  not found"},
		{"GET", "/websites/{w}//orders", 404, "endpoint /websites/{w}//orders not found"},
		{"GET", "/files", 404, "endpoint /files not found"},
		{"GET", "/files/", 403, "invalid link"},
		{"GET", "/files/./1", 403, "invalid link"},
	}
	noRedirects := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, tc := range cases {
		p := strings.NewReplacer("{w}", site, "{o}", order).Replace(tc.path)
		want := strings.ReplaceAll(tc.message, "{w}", site)
		req, _ := http.NewRequest(tc.method, srv.URL+p, nil)
		req.SetBasicAuth(srv.APIKey, "")
		req.Header.Set(ordermsgtest.VersionHeader, ordermsgtest.APIVersion)
		resp, err := noRedirects.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var body struct{ Message string }
		if tc.method != http.MethodHead && resp.StatusCode != http.StatusOK {
			if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
				t.Errorf("%s %s: %d, body: %v", tc.method, p, resp.StatusCode, err)
			}
		}
		resp.Body.Close()
		if resp.StatusCode != tc.status || body.Message != want {
			t.Errorf("%s %s: %d %q, want %d %q", tc.method, p, resp.StatusCode, body.Message, tc.status, want)
		}
		if allow := resp.Header.Get("Allow"); (tc.status == http.StatusMethodNotAllowed) != (allow == http.MethodGet) {
			t.Errorf("%s %s: Allow %q", tc.method, p, allow)
		}
	}
}
