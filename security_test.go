package ordermsg

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"go.uber.org/goleak"
)

// secretForms are the ways the API key could leak.
var secretForms = []string{testAPIKey, base64.StdEncoding.EncodeToString([]byte(testAPIKey + ":"))}

func assertNoSecret(t *testing.T, what string, values ...any) {
	t.Helper()
	for _, v := range values {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s"} {
			s := fmt.Sprintf(verb, v)
			for _, secret := range secretForms {
				if strings.Contains(s, secret) {
					t.Errorf("%s: %s shows the key: %s", what, verb, s)
				}
			}
		}
	}
}

func TestKeyNeverInErrorsValuesOrLogs(t *testing.T) {
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	fast := WithRetry(RetryPolicy{MaxRetries: 1, MinWait: time.Millisecond, MaxWait: time.Millisecond})

	// Failures through httpmock: statuses and bodies.
	c, mt := newMockClient(t, WithLogger(logger), fast)
	mt.RegisterResponder(http.MethodGet, testBaseURL+"/websites/1/orders/1", httpmock.NewStringResponder(401, `{"message":"bad key `+testAPIKey+`"}`))
	mt.RegisterResponder(http.MethodGet, testBaseURL+"/websites/1/orders/2", httpmock.NewStringResponder(503, `oops`))
	mt.RegisterResponder(http.MethodGet, testBaseURL+"/websites/1/orders/3", httpmock.NewStringResponder(200, `{"object":"order","id":"x"}`))
	mt.RegisterResponder(http.MethodGet, testBaseURL+"/websites/1/orders/4", httpmock.NewErrorResponder(fmt.Errorf("connection reset")))
	mt.RegisterResponder(http.MethodGet, testBaseURL+"/websites/1/orders/5", httpmock.NewBytesResponder(200, fixture(t, "order_full.json")))
	ctx := context.Background()
	for id := int64(1); id <= 4; id++ {
		_, err := c.Orders.Get(ctx, 1, id, nil)
		if err == nil {
			t.Fatalf("order %d: no error", id)
		}
		if id == 1 {
			// The server echoed the key in its message: that is the
			// server's doing, and the SDK keeps the body as received.
			continue
		}
		assertNoSecret(t, fmt.Sprintf("error of order %d", id), err)
	}
	o, err := c.Orders.Get(ctx, 1, 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	assertNoSecret(t, "order", o, *o, c, *c, c.Orders, c.Messages)

	// Failures on real connections: refused, timed out, redirected.
	l, _ := net.Listen("tcp", "127.0.0.1:0")
	refused := "http://" + l.Addr().String()
	l.Close()
	hung := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	defer hung.Close()
	secure := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://127.0.0.1:1/", http.StatusFound)
	}))
	defer secure.Close()
	for name, base := range map[string]string{"refused": refused, "timeout": hung.URL, "redirect": secure.URL} {
		cl, err := NewClient(base, testAPIKey, WithLogger(logger), fast, WithAttemptTimeout(50*time.Millisecond), WithHTTPClient(secure.Client()))
		if err != nil {
			t.Fatal(err)
		}
		_, err = cl.Orders.List(ctx, 1, nil)
		if err == nil {
			t.Fatalf("%s: no error", name)
		}
		assertNoSecret(t, name, err)
	}
	for _, secret := range secretForms {
		if strings.Contains(logs.String(), secret) {
			t.Errorf("the logs show the key:\n%s", logs.String())
		}
	}
	if !strings.Contains(logs.String(), "retrying") {
		t.Error("no retry was logged, so the log check proved nothing")
	}
}

func TestInputCannotChangeThePath(t *testing.T) {
	c, mt := newMockClient(t)
	var got []*http.Request
	mt.RegisterNoResponder(func(r *http.Request) (*http.Response, error) {
		got = append(got, r)
		return httpmock.NewBytesResponse(200, fixture(t, "orders_list.json")), nil
	})
	hostile := "../../admin/x?y=1#z /%2e%2e"
	_, err := c.Orders.List(context.Background(), 9223372036854775807, &ListOrdersOptions{
		Search: hostile, Sort: hostile, Direction: Direction(hostile), Status: OrderStatus(hostile),
		Includes: []OrderInclude{"a/../b"},
	})
	if err != nil {
		t.Fatal(err)
	}
	r := got[0]
	if r.URL.Path != "/websites/9223372036854775807/orders" || r.URL.EscapedPath() != r.URL.Path {
		t.Errorf("path = %q (escaped %q)", r.URL.Path, r.URL.EscapedPath())
	}
	q := r.URL.Query()
	if q.Get("search") != hostile || q.Get("sort") != hostile || q.Get("includes") != "a/../b" || r.URL.Fragment != "" {
		t.Errorf("query did not carry the values as given: %v", q)
	}
}

func TestNothingOutlivesACall(t *testing.T) {
	defer goleak.VerifyNone(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write(fixture(t, "order_plain.json"))
	}))
	defer srv.Close()
	c, err := NewClient(srv.URL, testAPIKey)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Orders.Get(context.Background(), 1, 2, nil); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Orders.Get(ctx, 1, 2, nil); err == nil {
		t.Fatal("a cancelled context should fail")
	}
	c.CloseIdleConnections()
}
