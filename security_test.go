package ordermsg

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
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

func TestNewClientRefusesKeysBasicAuthCannotCarry(t *testing.T) {
	for name, key := range map[string]string{
		"empty":          "",
		"colon":          "sk_live:SECRET",
		"NUL":            "sk_live\x00SECRET",
		"newline":        "sk_live_SECRET\n",
		"DEL":            "sk_live\x7fSECRET",
		"leading space":  " sk_live_SECRET",
		"trailing space": "sk_live_SECRET ",
		"tab only":       "\t",
	} {
		c, err := NewClient(testBaseURL, key)
		if c != nil || !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("%s: got %v, %v; want an ErrInvalidArgument", name, c, err)
			continue
		}
		if strings.TrimSpace(key) != "" && strings.Contains(err.Error(), strings.TrimSpace(key)) {
			t.Errorf("%s: the error shows the key: %v", name, err)
		}
		if strings.Contains(err.Error(), "SECRET") {
			t.Errorf("%s: the error shows part of the key: %v", name, err)
		}
	}
}

func TestNewClientErrorsNeverEchoSecrets(t *testing.T) {
	const secret = "KEY_c0ffee_SECRET"
	cases := map[string]struct{ base, key string }{
		"userinfo and bad port": {"https://user:" + secret + "@api.example.com:bad", testAPIKey},
		"userinfo":              {"https://user:" + secret + "@api.example.com", testAPIKey},
		"key in the query":      {"https://api.example.com/?api_key=" + secret, testAPIKey},
		"key in plain http":     {"http://api.example.com/v1?api_key=" + secret, testAPIKey},
		"key in the fragment":   {"https://api.example.com#" + secret, testAPIKey},
		"arguments swapped":     {secret, "https://api.example.com"},
		"swapped, key in URL":   {secret, "https://user:" + secret + "@api.example.com"},
		"key as the base URL":   {secret, secret + "x"},
		"key with a colon":      {"user:" + secret, testAPIKey},
		"key in the path":       {"http://api.example.com/" + secret, secret},
		"key in the host":       {"http://" + secret + ".example.com", secret},
	}
	for name, tc := range cases {
		_, err := NewClient(tc.base, tc.key)
		if !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("%s: got %v, want an ErrInvalidArgument", name, err)
			continue
		}
		if strings.Contains(err.Error(), secret) || strings.Contains(err.Error(), "user:") {
			t.Errorf("%s: the error echoes a secret: %v", name, err)
		}
	}
}

// originServer is a loopback server that records, per request, the host it
// was asked for and the Authorization header it got. Its handler answers
// through route, or with an order.
type originServer struct {
	*httptest.Server
	mu    sync.Mutex
	seen  []string // "host path auth?" per request
	route func(w http.ResponseWriter, r *http.Request) bool
}

func newOriginServer(t *testing.T, tls bool) *originServer {
	s := &originServer{}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.seen = append(s.seen, fmt.Sprintf("%s%s auth=%t", r.Host, r.URL.Path, r.Header.Get("Authorization") != ""))
		route := s.route
		s.mu.Unlock()
		if route != nil && route(w, r) {
			return
		}
		w.Write(fixture(t, "order_plain.json"))
	})
	if tls {
		s.Server = httptest.NewTLSServer(h)
	} else {
		s.Server = httptest.NewServer(h)
	}
	t.Cleanup(s.Close)
	return s
}

func (s *originServer) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.seen...)
}

// testHostsClient resolves every host name to 127.0.0.1, so that api.test
// and evil.api.test reach loopback servers, and trusts their test
// certificates.
func testHostsClient() *http.Client {
	dialer := &net.Dialer{}
	return &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			_, port, _ := net.SplitHostPort(addr)
			return dialer.DialContext(ctx, network, net.JoinHostPort("127.0.0.1", port))
		},
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, // loopback test servers only
	}}
}

func portOf(s *httptest.Server) string {
	_, port, _ := net.SplitHostPort(s.Listener.Addr().String())
	return port
}

func TestKeyReachesOnlyItsOrigin(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t) }) // after the servers' own cleanups
	redirectTo := func(target string) func(w http.ResponseWriter, r *http.Request) bool {
		return func(w http.ResponseWriter, r *http.Request) bool {
			if r.URL.Path == "/websites/1/orders/2" {
				http.Redirect(w, r, target, http.StatusFound)
				return true
			}
			return false
		}
	}
	cases := []struct {
		name   string
		tls    bool
		base   func(a, b *originServer) string
		target func(a, b *originServer) string
		want   []string // the requests the servers saw, a's then b's
	}{
		{
			name:   "same origin keeps the key",
			base:   func(a, _ *originServer) string { return "http://127.0.0.1:" + portOf(a.Server) },
			target: func(_, _ *originServer) string { return "/elsewhere" },
			want:   []string{"/websites/1/orders/2 auth=true", "/elsewhere auth=true"},
		},
		{
			name:   "127.0.0.1, another port",
			base:   func(a, _ *originServer) string { return "http://127.0.0.1:" + portOf(a.Server) },
			target: func(_, b *originServer) string { return "http://127.0.0.1:" + portOf(b.Server) + "/b" },
			want:   []string{"/websites/1/orders/2 auth=true", "/b auth=false"},
		},
		{
			name:   "https api.test, another port",
			tls:    true,
			base:   func(a, _ *originServer) string { return "https://api.test:" + portOf(a.Server) },
			target: func(_, b *originServer) string { return "https://api.test:" + portOf(b.Server) + "/b" },
			want:   []string{"/websites/1/orders/2 auth=true", "/b auth=false"},
		},
		{
			name:   "https api.test to a subdomain, same port",
			tls:    true,
			base:   func(a, _ *originServer) string { return "https://api.test:" + portOf(a.Server) },
			target: func(a, _ *originServer) string { return "https://evil.api.test:" + portOf(a.Server) + "/evil" },
			want:   []string{"/websites/1/orders/2 auth=true", "/evil auth=false"},
		},
		{
			name: "back to the origin after leaving it",
			base: func(a, _ *originServer) string { return "http://127.0.0.1:" + portOf(a.Server) },
			target: func(a, b *originServer) string {
				b.route = redirectTo("http://127.0.0.1:" + portOf(a.Server) + "/back")
				return "http://127.0.0.1:" + portOf(b.Server) + "/websites/1/orders/2"
			},
			want: []string{"/websites/1/orders/2 auth=true", "/back auth=false", "/websites/1/orders/2 auth=false"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a, b := newOriginServer(t, tc.tls), newOriginServer(t, tc.tls)
			a.route = redirectTo(tc.target(a, b))
			hc := testHostsClient()
			defer hc.CloseIdleConnections()
			c, err := NewClient(tc.base(a, b), testAPIKey, WithHTTPClient(hc))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.Orders.Get(context.Background(), 1, 2, nil); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range append(a.requests(), b.requests()...) {
				got = append(got, r[strings.Index(r, "/"):])
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("requests:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			if tc.name == "https api.test to a subdomain, same port" && !strings.HasPrefix(a.requests()[1], "evil.api.test:") {
				t.Errorf("the redirect did not reach the subdomain: %v", a.requests())
			}
		})
	}
}

func TestRefusedRedirectsAreNotRetried(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t) }) // after the servers' own cleanups
	plain := newOriginServer(t, false)
	cases := []struct {
		from   bool // from https, else from http
		target string
	}{
		{false, "ws://127.0.0.1:1/socket"},
		{false, "file:///etc/passwd"},
		{false, "gopher://127.0.0.1:70/1"},
		{false, "javascript:alert(1)"},
		{true, "wss://127.0.0.1:1/socket"},
		{true, "http://127.0.0.1:" + portOf(plain.Server) + "/downgrade"},
		{false, "https://127.0.0.1:" + portOf(plain.Server) + "/upgrade"},
	}
	for _, tc := range cases {
		origin := newOriginServer(t, tc.from)
		origin.route = func(w http.ResponseWriter, r *http.Request) bool {
			http.Redirect(w, r, tc.target, http.StatusFound)
			return true
		}
		c, err := NewClient(origin.URL, testAPIKey, WithHTTPClient(origin.Client()),
			WithRetry(RetryPolicy{MaxRetries: 3, MinWait: time.Millisecond, MaxWait: time.Millisecond}))
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Orders.Get(context.Background(), 1, 2, nil)
		if err == nil || !strings.Contains(err.Error(), "refused redirect") {
			t.Errorf("%s: got %v, want a refused redirect", tc.target, err)
		}
		if n := len(origin.requests()); n != 1 {
			t.Errorf("%s: %d requests, want 1 (no retry)", tc.target, n)
		}
		c.CloseIdleConnections()
	}
	if n := len(plain.requests()); n != 0 {
		t.Errorf("a change of scheme reached the plain server %d times", n)
	}
}

// The caller's own CheckRedirect (WithHTTPClient) that refuses a redirect
// is not retried: the same answer would come again. One that says
// http.ErrUseLastResponse gets the redirect itself, an *APIError.
func TestCallersRedirectRefusalIsNotRetried(t *testing.T) {
	origin := newOriginServer(t, false)
	origin.route = func(w http.ResponseWriter, r *http.Request) bool {
		http.Redirect(w, r, "/elsewhere", http.StatusFound)
		return true
	}
	for name, check := range map[string]func(*http.Request, []*http.Request) error{
		"refused":  func(*http.Request, []*http.Request) error { return errors.New("no redirects here") },
		"the last": func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	} {
		before := len(origin.requests())
		hc := origin.Client()
		hc.CheckRedirect = check
		c, err := NewClient(origin.URL, testAPIKey, WithHTTPClient(hc),
			WithRetry(RetryPolicy{MaxRetries: 3, MinWait: time.Millisecond, MaxWait: time.Millisecond}))
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Orders.Get(context.Background(), 1, 2, nil)
		var apiErr *APIError
		switch {
		case name == "refused" && (err == nil || !strings.Contains(err.Error(), "no redirects here")):
			t.Errorf("%s: got %v, want the caller's refusal", name, err)
		case name == "the last" && (!errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusFound):
			t.Errorf("%s: got %v, want the 302 as an *APIError", name, err)
		}
		if n := len(origin.requests()) - before; n != 1 {
			t.Errorf("%s: %d requests, want 1 (no retry)", name, n)
		}
		c.CloseIdleConnections()
	}
}

func TestRedirectLoopStopsAtTheTenthAndIsNotRetried(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t) }) // after the server's own cleanup
	loop := newOriginServer(t, false)
	loop.route = func(w http.ResponseWriter, r *http.Request) bool {
		http.Redirect(w, r, r.URL.Path, http.StatusFound)
		return true
	}
	c, err := NewClient(loop.URL, testAPIKey, WithRetry(RetryPolicy{MaxRetries: 3, MinWait: time.Millisecond, MaxWait: time.Millisecond}))
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	_, err = c.Orders.Get(context.Background(), 1, 2, nil)
	if err == nil || !strings.Contains(err.Error(), "stopped after 10 redirects") {
		t.Errorf("got %v", err)
	}
	if n := len(loop.requests()); n != 10 {
		t.Errorf("%d requests, want 10: the first and 9 redirects, once", n)
	}
}
