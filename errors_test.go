package ordermsg

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/jarcoal/httpmock"
	"go.uber.org/goleak"
)

func TestAPIErrorStatusesAndSentinels(t *testing.T) {
	cases := []struct {
		status   int
		body     string
		sentinel error
		message  string
	}{
		{400, `{"message":"count must be positive"}`, ErrBadRequest, "count must be positive"},
		{401, `{"error":"invalid api key"}`, ErrUnauthorized, "invalid api key"},
		{403, `{"error":{"message":"website not yours","code":7}}`, ErrForbidden, "website not yours"},
		{404, `<html>Not here</html>`, ErrNotFound, "Not Found"},
		{429, ``, ErrRateLimited, "Too Many Requests"},
		{500, `{"message":"  boom\n  again "}`, ErrServer, "boom again"},
		{501, `{}`, ErrServer, "Not Implemented"},
		{418, `{"message":""}`, nil, "I'm a teapot"},
	}
	for _, tc := range cases {
		c, mt := newMockClient(t, WithRetry(RetryPolicy{}))
		mt.RegisterResponder(http.MethodGet, testBaseURL+"/websites/1/orders/2", httpmock.NewStringResponder(tc.status, tc.body))
		o, err := c.Orders.Get(context.Background(), 1, 2, nil)
		if o != nil {
			t.Errorf("%d: returned a value with the error", tc.status)
		}
		var apiErr *APIError
		if !errors.As(err, &apiErr) {
			t.Fatalf("%d: %T %v is not an *APIError", tc.status, err, err)
		}
		if apiErr.StatusCode != tc.status || apiErr.Message != tc.message || apiErr.Method != "GET" ||
			apiErr.URL != testBaseURL+"/websites/1/orders/2" || string(apiErr.Body) != tc.body {
			t.Errorf("%d: %+v", tc.status, apiErr)
		}
		for _, s := range []error{ErrBadRequest, ErrUnauthorized, ErrForbidden, ErrNotFound, ErrRateLimited, ErrServer} {
			if errors.Is(err, s) != (s == tc.sentinel) {
				t.Errorf("%d: errors.Is(%v) = %v", tc.status, s, !(s == tc.sentinel))
			}
		}
		if !strings.Contains(err.Error(), tc.message) || strings.Contains(err.Error(), testAPIKey) {
			t.Errorf("%d: Error() = %q", tc.status, err)
		}
	}
}

func TestAPIErrorBodyIsCapped(t *testing.T) {
	c, mt := newMockClient(t)
	big := bytes.Repeat([]byte("x"), 1<<20)
	mt.RegisterResponder(http.MethodGet, testBaseURL+"/websites/1/orders/2", httpmock.NewBytesResponder(404, big))
	_, err := c.Orders.Get(context.Background(), 1, 2, nil)
	var apiErr *APIError
	if !errors.As(err, &apiErr) || len(apiErr.Body) != maxErrorBody {
		t.Fatalf("body kept: %d bytes, err %v", len(apiErr.Body), err)
	}
}

// Each kind of error that a request can end with is written once, where it
// arises: one "ordermsg:" prefix, the URL once, and no internal marker. The
// texts are asserted whole, so that any repeat or marker fails.
func TestRequestErrorsAreWrittenOnce(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t) }) // after the servers' own cleanups
	noRetry := WithRetry(RetryPolicy{})
	get := func(c *Client) error {
		_, err := c.Orders.Get(context.Background(), 1, 2, nil)
		return err
	}
	const orderPath = "/websites/1/orders/2"

	refusedAddr := ClosedLoopbackAddr(t)

	redirecting := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "ftp://user:pass@elsewhere/x?sig=s3cr3t", http.StatusFound)
	}))
	defer redirecting.Close()
	large := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Has("chunked") {
			w.(http.Flusher).Flush()
		}
		w.Write(bytes.Repeat([]byte("x"), 2000))
	}))
	defer large.Close()
	untrusted := httptest.NewUnstartedServer(http.NotFoundHandler())
	untrusted.Config.ErrorLog = log.New(io.Discard, "", 0) // the handshake the client refuses
	untrusted.StartTLS()
	defer untrusted.Close()
	upgraded := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://"+r.Host+"/plain", http.StatusFound)
	}))
	defer upgraded.Close()

	newClient := func(base string, opts ...Option) *Client {
		c, err := NewClient(base, testAPIKey, append([]Option{noRetry}, opts...)...)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.CloseIdleConnections)
		return c
	}
	cases := map[string]struct {
		err  error
		want string
	}{
		"refused redirect": {
			get(newClient(redirecting.URL)),
			"ordermsg: GET " + redirecting.URL + orderPath + `: refused redirect to ftp://elsewhere/x?…: the scheme "ftp" is not http or https`,
		},
		"redirect from https to http": {
			get(newClient(upgraded.URL, WithHTTPClient(upgraded.Client()))),
			"ordermsg: GET " + upgraded.URL + orderPath + ": refused redirect to http://" + strings.TrimPrefix(upgraded.URL, "https://") + "/plain: it goes from https to http",
		},
		"dial error": {
			get(newClient("http://" + refusedAddr)),
			"ordermsg: GET http://" + refusedAddr + orderPath + ": dial tcp " + refusedAddr + ": connect: connection refused",
		},
		"body too large, by its Content-Length": {
			get(newClient(large.URL, WithMaxBodySize(1024))),
			"ordermsg: GET " + large.URL + orderPath + ": response body too large: Content-Length 2000 exceeds the limit of 1024 bytes",
		},
		"body too large, chunked": {
			newClient(large.URL, WithMaxBodySize(1024)).Get(context.Background(), orderPath, url.Values{"chunked": {"1"}}, new(any)),
			"ordermsg: GET " + large.URL + orderPath + "?chunked=1: response body too large: more than 1024 bytes",
		},
		"TLS certificate": {
			get(newClient(untrusted.URL)),
			"ordermsg: GET " + untrusted.URL + orderPath + ": tls: failed to verify certificate: x509: certificate signed by unknown authority",
		},
	}
	for name, tc := range cases {
		if tc.err == nil || tc.err.Error() != tc.want {
			t.Errorf("%s:\n got %v\nwant %s", name, tc.err, tc.want)
		}
	}
	if err := cases["body too large, chunked"].err; !errors.Is(err, ErrBodyTooLarge) {
		t.Errorf("%v does not match ErrBodyTooLarge", err)
	}
	var urlErr *url.Error
	if err := cases["dial error"].err; !errors.As(err, &urlErr) || !errors.As(err, new(*net.OpError)) {
		t.Errorf("%v lost net/http's error under it", err)
	}
}

func TestDecodeErrors(t *testing.T) {
	cases := map[string]string{
		"empty":             ``,
		"html":              `<!doctype html><p>maintenance</p>`,
		"truncated":         `{"object":"order","id":5001,"currency":"us`,
		"id is a string":    `{"object":"order","id":"abc"}`,
		"array for object":  `{"object":"order","id":1,"pricing":[1,2]}`,
		"top-level array":   `[{"object":"order"}]`,
		"null":              `null`,
		"wrong kind":        `{"object":"message","id":1}`,
		"no kind":           `{"id":1}`,
		"bad ref":           `{"object":"order","id":1,"message":"3001"}`,
		"bad timestamp":     `{"object":"order","id":1,"date_created":"last tuesday"}`,
		"items not a list":  `{"object":"order","id":1,"items":{"a":1}}`,
		"fields not object": `{"object":"order","id":1,"billing_address":{"object":"form_submission","fields":[1]}}`,
	}
	for name, body := range cases {
		t.Run(name, func(t *testing.T) {
			c, mt := newMockClient(t)
			mt.RegisterResponder(http.MethodGet, testBaseURL+"/websites/1/orders/2", httpmock.NewStringResponder(200, body))
			o, err := c.Orders.Get(context.Background(), 1, 2, nil)
			if o != nil {
				t.Fatalf("a value came back with the error: %+v", o)
			}
			var de *DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("%T %v is not a *DecodeError", err, err)
			}
			if de.URL != testBaseURL+"/websites/1/orders/2" || !strings.Contains(err.Error(), de.URL) {
				t.Errorf("URL not named: %v", err)
			}
			if mt.GetTotalCallCount() != 1 {
				t.Errorf("a decode error was retried: %d calls", mt.GetTotalCallCount())
			}
		})
	}
}

func TestDecodeErrorOffset(t *testing.T) {
	c, mt := newMockClient(t)
	mt.RegisterResponder(http.MethodGet, testBaseURL+"/websites/1/orders/2", httpmock.NewStringResponder(200, `{"object":"order","id":"abc"}`))
	_, err := c.Orders.Get(context.Background(), 1, 2, nil)
	var de *DecodeError
	if !errors.As(err, &de) || de.Offset <= 0 || !strings.Contains(err.Error(), "at byte") {
		t.Fatalf("offset missing: %v", err)
	}
}

func TestListDecodeErrors(t *testing.T) {
	for name, body := range map[string]string{
		"not a list":  `{"object":"order","data":[]}`,
		"null record": `{"object":"list","data":[null],"meta":{"pagination":{}}}`,
		"data object": `{"object":"list","data":{},"meta":{}}`,
	} {
		c, mt := newMockClient(t)
		mt.RegisterResponder(http.MethodGet, testBaseURL+"/websites/1/messages", httpmock.NewStringResponder(200, body))
		p, err := c.Messages.List(context.Background(), 1, nil)
		var de *DecodeError
		if p != nil || !errors.As(err, &de) {
			t.Errorf("%s: %v %v", name, p, err)
		}
	}
}

func TestDecodeErrorNamesThePath(t *testing.T) {
	c, mt := newMockClient(t)
	body := `{"object":"list","data":[{"object":"order","id":1},{"object":"order","id":2,"items":[{"object":"order_item","pricing":[1]}]}],"meta":{}}`
	mt.RegisterResponder(http.MethodGet, testBaseURL+"/websites/1/orders", httpmock.NewStringResponder(200, body))
	_, err := c.Orders.List(context.Background(), 1, nil)
	var de *DecodeError
	if !errors.As(err, &de) || !strings.Contains(err.Error(), "data[1].items[0].pricing: expected object, got array") ||
		de.Offset != int64(strings.Index(body, "[1]")) {
		t.Fatalf("err = %v (offset %d)", err, de.Offset)
	}
}
