package ordermsg

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/jarcoal/httpmock"
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
