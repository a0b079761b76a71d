package ordermsg

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"

	"go.uber.org/goleak"
)

func TestNewClientRefusesBadInput(t *testing.T) {
	cases := []struct {
		name, base, key string
		opts            []Option
		wantErr         string
	}{
		{"empty key", testBaseURL, "", nil, "API key is empty"},
		{"blank key", testBaseURL, "  ", nil, "white space"},
		{"unparsable", "https://exa mple.com\x7f", testAPIKey, nil, "base URL"},
		{"no scheme", "api.example.com", testAPIKey, nil, "no scheme: begin it with https://"},
		{"host and port, no scheme", "127.0.0.1:8080", testAPIKey, nil, "no scheme: begin it with https:// (or http:// for a loopback host"},
		{"localhost and port, no scheme", "localhost:8080", testAPIKey, nil, "no scheme: begin it with https://"},
		{"ftp", "ftp://api.example.com", testAPIKey, nil, "absolute http or https URL"},
		{"no host", "https://", testAPIKey, nil, "no host"},
		{"credentials in URL", "https://user:pw@api.example.com", testAPIKey, nil, "must not carry credentials"},
		{"query", "https://api.example.com?x=1", testAPIKey, nil, "query or fragment"},
		{"plain http remote", "http://api.example.com", testAPIKey, nil, "plain http"},
		{"nil http client", testBaseURL, testAPIKey, []Option{WithHTTPClient(nil)}, "nil client"},
		{"bad retry", testBaseURL, testAPIKey, []Option{WithRetry(RetryPolicy{MaxRetries: -1})}, "negative"},
		{"bad version header", testBaseURL, testAPIKey, []Option{WithVersionHeader("X", "")}, "WithVersionHeader: the value is empty"},
		{"space in version header name", testBaseURL, testAPIKey, []Option{WithVersionHeader("Service Api Version", "1")}, "WithVersionHeader: the name is not an HTTP token"},
		{"NUL in version header value", testBaseURL, testAPIKey, []Option{WithVersionHeader("Service-Api-Version", "1\x00")}, "WithVersionHeader: the value contains a control character"},
		{"version header overwrites credentials", testBaseURL, testAPIKey, []Option{WithVersionHeader("authorization", "1")}, "Authorization cannot be the version header: the client sets it"},
		{"DEL in user agent", testBaseURL, testAPIKey, []Option{WithUserAgent("my-app\x7f/1")}, "WithUserAgent"},
		{"newline in user agent", testBaseURL, testAPIKey, []Option{WithUserAgent("my-app\r\nX-Evil: 1")}, "WithUserAgent"},
		{"negative attempt timeout", testBaseURL, testAPIKey, []Option{WithAttemptTimeout(-1)}, "WithAttemptTimeout"},
		{"bad body size", testBaseURL, testAPIKey, []Option{WithMaxBodySize(0)}, "WithMaxBodySize"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := NewClient(tc.base, tc.key, tc.opts...)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !errors.Is(err, ErrInvalidArgument) {
				t.Fatalf("NewClient = %v, %v; want an ErrInvalidArgument containing %q", c, err, tc.wantErr)
			}
			if strings.Contains(err.Error(), testAPIKey) {
				t.Fatalf("error leaks the key: %v", err)
			}
		})
	}
}

func TestNewClientAcceptsLoopbackHTTPAndAllowHTTP(t *testing.T) {
	for _, base := range []string{"http://127.0.0.1:8080", "http://localhost:1", "http://[::1]:9", "https://api.example.com/v1/"} {
		if _, err := NewClient(base, testAPIKey); err != nil {
			t.Errorf("%s: %v", base, err)
		}
	}
	if _, err := NewClient("http://api.example.com", testAPIKey, WithAllowHTTP()); err != nil {
		t.Errorf("WithAllowHTTP: %v", err)
	}
}

// Plain http to a host that is not loopback is the one refusal a caller can
// lift (WithAllowHTTP), so it has a sentinel of its own; no other refusal
// matches it.
func TestNewClientPlainHTTPMatchesErrPlainHTTP(t *testing.T) {
	_, err := NewClient("http://api.example.com", testAPIKey)
	if !errors.Is(err, ErrPlainHTTP) || !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("NewClient(http://api.example.com) = %v; want ErrPlainHTTP and ErrInvalidArgument", err)
	}
	for _, base := range []string{"127.0.0.1:8080", "ftp://api.example.com", "https://user@api.example.com"} {
		if _, err := NewClient(base, testAPIKey); !errors.Is(err, ErrInvalidArgument) || errors.Is(err, ErrPlainHTTP) {
			t.Errorf("NewClient(%s) = %v; want ErrInvalidArgument alone", base, err)
		}
	}
}

// endpointCase is one call of the typed surface with the request it must send.
type endpointCase struct {
	name      string
	path      string // without the base URL
	fixture   string
	call      func(*Client) error
	wantQuery url.Values
}

func endpointCases() []endpointCase {
	ctx := context.Background()
	return []endpointCase{
		{
			name: "Orders.Get", path: "/websites/42/orders/5001", fixture: "order_full.json",
			call: func(c *Client) error {
				o, err := c.Orders.Get(ctx, 42, 5001, &GetOrderOptions{Includes: AllOrderIncludes()})
				if err == nil && o.ID != 5001 {
					err = fmt.Errorf("got order %d", o.ID)
				}
				return err
			},
			wantQuery: url.Values{"includes": {"additional_information,billing_address,items.attributes,items.portal,items.print_ready_files,message,notes,payment_transactions,portal,promo_code,shipments.shipping_address,shipments.shipping_carrier,shipments.shipping_method,user"}},
		},
		{
			name: "Orders.List", path: "/websites/42/orders", fixture: "orders_list.json",
			call: func(c *Client) error {
				p, err := c.Orders.List(ctx, 42, &ListOrdersOptions{
					Page: 3, Count: 50, DateStart: NewDate(2024, 1, 2), DateEnd: NewDate(2024, 12, 31),
					Direction: DirectionAsc, Sort: "date_created", Search: "ada & co/+=?",
					Status: OrderStatusNew, Includes: []OrderInclude{OrderIncludeUser, "custom.include"},
				})
				if err == nil && len(p.Data) != 2 {
					err = fmt.Errorf("got %d orders", len(p.Data))
				}
				return err
			},
			wantQuery: url.Values{
				"page": {"3"}, "count": {"50"}, "date_start": {"2024-01-02"}, "date_end": {"2024-12-31"},
				"direction": {"asc"}, "sort": {"date_created"}, "search": {"ada & co/+=?"},
				"status": {"new"}, "includes": {"user,custom.include"},
			},
		},
		{
			name: "Messages.Get", path: "/websites/42/messages/3001", fixture: "message_full.json",
			call: func(c *Client) error {
				m, err := c.Messages.Get(ctx, 42, 3001, &GetMessageOptions{Includes: AllMessageIncludes()})
				if err == nil && m.ID != 3001 {
					err = fmt.Errorf("got message %d", m.ID)
				}
				return err
			},
			wantQuery: url.Values{"includes": {"file,form,form_submission,order,order.items,payment_transactions,portal,user"}},
		},
		{
			name: "Messages.List", path: "/websites/42/messages", fixture: "messages_list.json",
			call: func(c *Client) error {
				p, err := c.Messages.List(ctx, 42, &ListMessagesOptions{
					Page: 1, Count: 25, DateStart: NewDate(2024, 6, 1), DateEnd: NewDate(2024, 6, 30),
					Direction: DirectionDesc, Sort: "id", Search: "hello world",
					MessageType: MessageTypeOnlineOrder, Includes: []MessageInclude{MessageIncludeUser},
				})
				if err == nil && len(p.Data) != 2 {
					err = fmt.Errorf("got %d messages", len(p.Data))
				}
				return err
			},
			wantQuery: url.Values{
				"page": {"1"}, "count": {"25"}, "date_start": {"2024-06-01"}, "date_end": {"2024-06-30"},
				"direction": {"desc"}, "sort": {"id"}, "search": {"hello world"},
				"message_type": {"online_order"}, "includes": {"user"},
			},
		},
	}
}

func TestEndpointsSendMethodPathQueryAndHeaders(t *testing.T) {
	for _, base := range []string{"https://api.example.com", "https://api.example.com/v1/"} {
		for _, tc := range endpointCases() {
			t.Run(tc.name+" "+base, func(t *testing.T) {
				mt := httpmock.NewMockTransport()
				c, err := NewClient(base, testAPIKey, WithHTTPClient(&http.Client{Transport: mt}), WithUserAgent("my-app/1.2"))
				if err != nil {
					t.Fatal(err)
				}
				wantURL := strings.TrimSuffix(base, "/") + tc.path
				got := capture(mt, http.MethodGet, wantURL, 200, fixture(t, tc.fixture))
				if err := tc.call(c); err != nil {
					t.Fatal(err)
				}
				if len(*got) != 1 {
					t.Fatalf("%d requests, want 1", len(*got))
				}
				r := (*got)[0]
				if r.Method != http.MethodGet {
					t.Errorf("method = %s", r.Method)
				}
				if u := *r.URL; u.Scheme+"://"+u.Host+u.Path != wantURL {
					t.Errorf("URL = %s, want %s", r.URL, wantURL)
				}
				if q := r.URL.Query(); q.Encode() != tc.wantQuery.Encode() {
					t.Errorf("query = %v\nwant    %v", q, tc.wantQuery)
				}
				user, pass, ok := r.BasicAuth()
				if !ok || user != testAPIKey || pass != "" {
					t.Errorf("basic auth = %q %q %v", user, pass, ok)
				}
				wantHeaders := map[string]string{
					"Service-Api-Version": "1",
					"Accept":              "application/json",
					"User-Agent":          "my-app/1.2 ordermsg-go/" + Version,
					"Authorization":       "Basic " + base64.StdEncoding.EncodeToString([]byte(testAPIKey+":")),
				}
				for k, v := range wantHeaders {
					if r.Header.Get(k) != v {
						t.Errorf("header %s = %q, want %q", k, r.Header.Get(k), v)
					}
				}
				if r.Body != nil && r.Body != http.NoBody {
					if n, _ := r.Body.Read(make([]byte, 1)); n != 0 {
						t.Error("GET carried a body")
					}
				}
			})
		}
	}
}

func TestVersionHeaderIsConfigurableAndUserAgentDefault(t *testing.T) {
	c, mt := newMockClient(t, WithVersionHeader("Acme-Api-Version", "2"))
	got := capture(mt, http.MethodGet, testBaseURL+"/websites/1/orders/2", 200, fixture(t, "order_plain.json"))
	if _, err := c.Orders.Get(context.Background(), 1, 2, nil); err != nil {
		t.Fatal(err)
	}
	h := (*got)[0].Header
	if h.Get("Acme-Api-Version") != "2" || h.Get("Service-Api-Version") != "" {
		t.Errorf("version header: %v", h)
	}
	if h.Get("User-Agent") != "ordermsg-go/"+Version {
		t.Errorf("User-Agent = %q", h.Get("User-Agent"))
	}
	if (*got)[0].URL.RawQuery != "" {
		t.Errorf("nil options sent a query: %q", (*got)[0].URL.RawQuery)
	}
}

// The version header cannot be a header that the client or net/http sets,
// drops or acts on: each is refused by NewClient, so no request is sent, in
// any case, with a
// *VersionHeaderError that names the reserved header and never the value.
func TestVersionHeaderRefusesReservedHeaders(t *testing.T) {
	reserved := []string{"Authorization", "Accept", "User-Agent", "Host", "Content-Length", "Transfer-Encoding", "Trailer",
		"Connection", "Keep-Alive", "TE", "Upgrade", "Accept-Encoding", "Range", "If-Range", "Expect", "Cookie", "Cookie2",
		"WWW-Authenticate", "Referer", "Content-Type", "Content-Encoding", "Content-Language", "Content-Location",
		"Proxy-Authorization", "Proxy-Connection", "Proxy-Anything"}
	for _, name := range reserved {
		for _, spelled := range []string{name, strings.ToLower(name), strings.ToUpper(name)} {
			c, err := NewClient(testBaseURL, testAPIKey, WithVersionHeader(spelled, "Basic c2VjcmV0"))
			var vh *VersionHeaderError
			if !errors.As(err, &vh) || !errors.Is(err, ErrInvalidArgument) || !strings.HasPrefix(vh.Reason, http.CanonicalHeaderKey(name)+" cannot be the version header: ") {
				t.Errorf("WithVersionHeader(%q): %v", spelled, err)
			}
			if strings.Contains(err.Error(), "c2VjcmV0") {
				t.Errorf("WithVersionHeader(%q): the error shows the value: %v", spelled, err)
			}
			if err := CheckVersionHeader(spelled, "1"); err == nil {
				t.Errorf("CheckVersionHeader(%q) = nil", spelled)
			}
			if c != nil {
				t.Errorf("WithVersionHeader(%q): a client was made", spelled)
			}
		}
	}
	for _, name := range []string{"Acme-Api-Version", "X-Api-Version", "Api-Version", "Proxy", "Service-Api-Version"} {
		if err := CheckVersionHeader(name, "1"); err != nil {
			t.Errorf("CheckVersionHeader(%q) = %v", name, err)
		}
	}
}

// A value with leading or trailing white space (or only white space) is
// refused, without being shown: net/http trims it on the wire, httpmock's
// transport does not, so a test and production would disagree. White space
// inside the value is the value's.
func TestVersionHeaderRefusesSurroundingWhiteSpace(t *testing.T) {
	for _, value := range []string{" ", "\t", "  ", " 1 ", "1 ", "\t1", "SECRET\t"} {
		err := CheckVersionHeader("Acme-Api-Version", value)
		var vh *VersionHeaderError
		if !errors.As(err, &vh) || vh.Reason != "the value has leading or trailing white space, which net/http trims" || strings.Contains(err.Error(), "SECRET") {
			t.Errorf("CheckVersionHeader(%q) = %v", value, err)
		}
		if _, err := NewClient(testBaseURL, testAPIKey, WithVersionHeader("Acme-Api-Version", value)); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("WithVersionHeader(%q): %v", value, err)
		}
	}
	if err := CheckVersionHeader("Acme-Api-Version", "2024-01 beta"); err != nil {
		t.Errorf("white space inside the value: %v", err)
	}
}

// A name that is not one of the reserved headers is never shown: it may be
// the key, given where the header goes.
func TestVersionHeaderErrorNeverShowsTheNameOrValue(t *testing.T) {
	for _, tc := range [][2]string{{"sk live SECRET", "1"}, {"sk_SECRET_key", ""}, {"sk_SECRET_key", "bad\nSECRET"}, {"", "SECRET"}, {"sk:SECRET", "1"}} {
		err := CheckVersionHeader(tc[0], tc[1])
		if err == nil || strings.Contains(err.Error(), "SECRET") {
			t.Errorf("CheckVersionHeader(%q, %q) = %v", tc[0], tc[1], err)
		}
	}
}

// A 400 to a request that sent the documentation's neutral name says to set
// the maker's name, and how, without guessing it; a request that sent
// another name, or another status, gets no such hint.
func TestBadRequestWithTheDefaultVersionHeaderHints(t *testing.T) {
	for _, tc := range []struct {
		name   string
		opts   []Option
		status int
		hint   bool
	}{
		{"default name, 400", nil, 400, true},
		{"default name given explicitly, 400", []Option{WithVersionHeader("service-api-version", "1")}, 400, true},
		{"the maker's name, 400", []Option{WithVersionHeader("Acme-Api-Version", "1")}, 400, false},
		{"default name, 404", nil, 404, false},
	} {
		c, mt := newMockClient(t, append([]Option{WithRetry(RetryPolicy{})}, tc.opts...)...)
		mt.RegisterResponder(http.MethodGet, testBaseURL+"/websites/1/orders/2", httpmock.NewStringResponder(tc.status, `{"message":"missing version header"}`))
		_, err := c.Orders.Get(context.Background(), 1, 2, nil)
		var apiErr *APIError
		if !errors.As(err, &apiErr) {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := apiErr.Hint != ""; got != tc.hint {
			t.Errorf("%s: hint %q", tc.name, apiErr.Hint)
		}
		want := "ordermsg: GET " + testBaseURL + "/websites/1/orders/2: " + fmt.Sprint(tc.status) + " " + http.StatusText(tc.status) + ": missing version header"
		if tc.hint {
			want += "; the request sent the version header under the documentation's neutral name, Service-Api-Version, " +
				"where Service stands for the maker's name: if the service expects its real name, set it with WithVersionHeader"
		}
		if err.Error() != want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, err, want)
		}
	}
}

// The hint is given only when the 400 does not point elsewhere: its message
// or body mentions a version or the header's name, in any case, or it has
// no message at all. A message about something else gets none.
func TestVersionHeaderHintOnlyWhenTheBadRequestMayBeAboutIt(t *testing.T) {
	for body, hint := range map[string]bool{
		`{"message":"missing version header"}`:                       true,
		`{"error":"Unsupported API VERSION"}`:                        true,
		`{"message":"header service-api-version is not recognised"}`: true,
		`{"message":"bad request","detail":"see Acme-Api-Version"}`:  true,
		`Version header required`:                                    true,
		``:                                                           true,
		"  \n":                                                       true,
		`{}`:                                                         true,
		`{"object":"error","status":400}`:                            true,
		`{"message":"date_start must be a date"}`:                    false,
		`{"message":"count must be an integer from 1 to 100"}`: false,
		`{"error":{"message":"unknown include: mesage"}}`:      false,
		`count must be an integer`:                             false,
		`<html><body>Bad Request</body></html>`:                false,
	} {
		c, mt := newMockClient(t, WithRetry(RetryPolicy{}))
		mt.RegisterResponder(http.MethodGet, testBaseURL+"/websites/1/orders/2", httpmock.NewStringResponder(400, body))
		_, err := c.Orders.Get(context.Background(), 1, 2, nil)
		var apiErr *APIError
		if !errors.As(err, &apiErr) {
			t.Fatalf("%q: %v", body, err)
		}
		if got := apiErr.Hint != ""; got != hint {
			t.Errorf("body %q: hint %q, want one: %v", body, apiErr.Hint, hint)
		}
		if got := strings.Contains(err.Error(), "WithVersionHeader"); got != hint {
			t.Errorf("body %q: %v", body, err)
		}
	}
}

func TestCallerErrorsSendNoRequest(t *testing.T) {
	c, mt := newMockClient(t)
	mt.RegisterNoResponder(httpmock.NewStringResponder(200, "{}"))
	ctx := context.Background()
	calls := map[string]func() error{
		"website 0":       func() error { _, err := c.Orders.Get(ctx, 0, 1, nil); return err },
		"order -1":        func() error { _, err := c.Orders.Get(ctx, 1, -1, nil); return err },
		"message 0":       func() error { _, err := c.Messages.Get(ctx, 1, 0, nil); return err },
		"list website -5": func() error { _, err := c.Messages.List(ctx, -5, nil); return err },
		"negative page":   func() error { _, err := c.Orders.List(ctx, 1, &ListOrdersOptions{Page: -1}); return err },
		"negative count":  func() error { _, err := c.Messages.List(ctx, 1, &ListMessagesOptions{Count: -1}); return err },
		"bad date": func() error {
			_, err := c.Orders.List(ctx, 1, &ListOrdersOptions{DateStart: NewDate(2024, 2, 30)})
			return err
		},
		"include with comma": func() error {
			_, err := c.Orders.Get(ctx, 1, 2, &GetOrderOptions{Includes: []OrderInclude{"a,b"}})
			return err
		},
		"empty include": func() error {
			_, err := c.Messages.Get(ctx, 1, 2, &GetMessageOptions{Includes: []MessageInclude{""}})
			return err
		},
		"raw path outside":  func() error { return c.Get(ctx, "https://evil.example/x", nil, &struct{}{}) },
		"raw dot segments":  func() error { return c.Get(ctx, "/websites/../admin", nil, &struct{}{}) },
		"raw query in path": func() error { return c.Get(ctx, "/websites/1/orders?x=1", nil, &struct{}{}) },
		"nil context": func() error {
			//lint:ignore SA1012 the nil context is the point of the test
			_, err := c.Orders.Get(nil, 1, 2, nil) //nolint:staticcheck
			return err
		},
	}
	for name, call := range calls {
		if err := call(); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("%s: got %v, want an error matching ErrInvalidArgument", name, err)
		}
	}
	if n := mt.GetTotalCallCount(); n != 0 {
		t.Errorf("%d requests sent for bad input", n)
	}
}

func TestRawGet(t *testing.T) {
	c, mt := newMockClient(t)
	got := capture(mt, http.MethodGet, testBaseURL+"/websites/1/orders/2", 200, fixture(t, "order_full.json"))
	var v map[string]any
	if err := c.Get(context.Background(), "/websites/1/orders/2", url.Values{"includes": {"notes"}}, &v); err != nil {
		t.Fatal(err)
	}
	if v["object"] != "order" || (*got)[0].URL.Query().Get("includes") != "notes" {
		t.Errorf("raw get: %v %v", v["object"], (*got)[0].URL)
	}
	if user, _, _ := (*got)[0].BasicAuth(); user != testAPIKey {
		t.Error("raw get did not authenticate")
	}
}

func TestClientNeverPrintsKey(t *testing.T) {
	c, _ := newMockClient(t)
	for _, s := range []string{
		fmt.Sprintf("%v", c), fmt.Sprintf("%+v", c), fmt.Sprintf("%#v", c), fmt.Sprintf("%s", c),
		fmt.Sprintf("%v", *c), fmt.Sprintf("%+v", *c), fmt.Sprintf("%#v", *c),
		fmt.Sprintf("%+v", c.Orders), fmt.Sprintf("%#v", c.Messages), fmt.Sprint(c),
	} {
		if strings.Contains(s, testAPIKey) || strings.Contains(s, base64.StdEncoding.EncodeToString([]byte(testAPIKey+":"))) {
			t.Errorf("printed key: %s", s)
		}
	}
}

func TestSilentWithoutLoggerAndLogsRetriesWithout(t *testing.T) {
	var buf bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c, mt := newMockClient(t, WithLogger(logger))
	n := 0
	mt.RegisterResponder(http.MethodGet, testBaseURL+"/websites/1/orders/2", func(*http.Request) (*http.Response, error) {
		n++
		if n == 1 {
			return httpmock.NewStringResponse(503, `{"message":"busy"}`), nil
		}
		return httpmock.NewBytesResponse(200, fixture(t, "order_plain.json")), nil
	})
	if _, err := c.Orders.Get(context.Background(), 1, 2, nil); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if !strings.Contains(out, "retrying") || !strings.Contains(out, "status=503") || !strings.Contains(out, "attempt=2") {
		t.Errorf("retry log line missing: %q", out)
	}
	if strings.Contains(out, testAPIKey) || strings.Contains(out, "Basic ") {
		t.Errorf("log leaks credentials: %q", out)
	}
}

func TestAttemptTimeoutOption(t *testing.T) {
	c, err := NewClient(testBaseURL, testAPIKey, WithHTTPClient(&http.Client{Timeout: time.Minute}))
	if err != nil {
		t.Fatal(err)
	}
	if c.httpClient.Timeout != time.Minute {
		t.Errorf("a caller's own Timeout should be kept: %v", c.httpClient.Timeout)
	}
	c, _ = NewClient(testBaseURL, testAPIKey, WithAttemptTimeout(time.Second))
	if c.httpClient.Timeout != time.Second {
		t.Errorf("WithAttemptTimeout: %v", c.httpClient.Timeout)
	}
	if _, err := NewClient(testBaseURL, testAPIKey, WithAttemptTimeout(-1)); err == nil {
		t.Error("negative timeout accepted")
	}
}

func TestIncludesAreSentWithLiteralCommas(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t) }) // after the servers' own cleanups
	var raw atomic.Value
	c, _ := newLoopbackClient(t, func(w http.ResponseWriter, r *http.Request) {
		raw.Store(r.URL.RawQuery)
		w.Write(fixture(t, "order_plain.json"))
	})
	_, err := c.Orders.Get(context.Background(), 1, 2, &GetOrderOptions{
		Includes: []OrderInclude{OrderIncludeUser, OrderIncludeItemsPortal, "odd&name=x"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := raw.Load(), "includes=user,items.portal,odd%26name%3Dx"; got != want {
		t.Errorf("query = %q, want %q", got, want)
	}
	if err := c.Get(context.Background(), "/websites/1/orders/2", url.Values{"search": {"a,b"}, "includes": {"notes,user"}}, &struct{}{}); err != nil {
		t.Fatal(err)
	}
	if got, want := raw.Load(), "includes=notes,user&search=a%2Cb"; got != want {
		t.Errorf("raw Get query = %q, want %q (only includes keeps its commas)", got, want)
	}
}

// A client made without WithHTTPClient sends through http.DefaultTransport
// even when it is not an *http.Transport (httpmock.Activate, a tracing
// wrapper): NewClient uses it as it is rather than panic.
func TestNewClientTakesADefaultTransportThatIsNotAnHTTPTransport(t *testing.T) {
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder(http.MethodGet, testBaseURL+"/websites/1/orders/2",
		httpmock.NewBytesResponder(200, fixture(t, "order_plain.json")))
	saved := http.DefaultTransport
	http.DefaultTransport = mt
	t.Cleanup(func() { http.DefaultTransport = saved })

	c, err := NewClient(testBaseURL, testAPIKey)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Orders.Get(context.Background(), 1, 2, nil); err != nil {
		t.Fatal(err)
	}
	if n := mt.GetTotalCallCount(); n != 1 {
		t.Errorf("http.DefaultTransport served %d requests, want 1", n)
	}
}
