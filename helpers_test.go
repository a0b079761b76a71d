package ordermsg

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
)

const (
	testBaseURL = "https://api.example.com"
	testAPIKey  = "sk_test_SECRET_4f9c2"
)

// fixture returns the bytes of testdata/name.
func fixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// newMockClient returns a client whose requests go to a fresh httpmock
// transport, with fast retries so that retry tests take milliseconds.
func newMockClient(t testing.TB, opts ...Option) (*Client, *httpmock.MockTransport) {
	t.Helper()
	mt := httpmock.NewMockTransport()
	all := append([]Option{
		WithHTTPClient(&http.Client{Transport: mt}),
		WithRetry(RetryPolicy{MaxRetries: 3, MinWait: time.Millisecond, MaxWait: 5 * time.Millisecond}),
	}, opts...)
	c, err := NewClient(testBaseURL, testAPIKey, all...)
	if err != nil {
		t.Fatal(err)
	}
	return c, mt
}

// capture registers a responder that records each request and answers with
// status and body.
func capture(mt *httpmock.MockTransport, method, url string, status int, body []byte) *[]*http.Request {
	var got []*http.Request
	mt.RegisterResponder(method, url, func(r *http.Request) (*http.Response, error) {
		got = append(got, r)
		resp := httpmock.NewBytesResponse(status, body)
		resp.Header.Set("Content-Type", "application/json")
		return resp, nil
	})
	return &got
}

// assertSameJSON fails unless a and b are the same JSON value.
func assertSameJSON(t testing.TB, a, b []byte) {
	t.Helper()
	var va, vb any
	if err := json.Unmarshal(a, &va); err != nil {
		t.Fatalf("left side: %v", err)
	}
	if err := json.Unmarshal(b, &vb); err != nil {
		t.Fatalf("right side: %v", err)
	}
	if !reflect.DeepEqual(va, vb) {
		t.Fatalf("JSON values differ:\n%s\nvs\n%s", a, b)
	}
}
