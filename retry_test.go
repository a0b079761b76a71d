package ordermsg

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"

	"go.uber.org/goleak"
)

// sequence answers the n-th request with statuses[n] (the last one repeats);
// a 200 carries body.
func sequence(statuses []int, body []byte, header http.Header) (httpmock.Responder, *atomic.Int32) {
	var n atomic.Int32
	return func(*http.Request) (*http.Response, error) {
		i := int(n.Add(1)) - 1
		status := statuses[min(i, len(statuses)-1)]
		resp := httpmock.NewBytesResponse(status, body)
		if status != 200 {
			resp = httpmock.NewStringResponse(status, fmt.Sprintf(`{"message":"attempt %d"}`, i+1))
		}
		for k, v := range header {
			resp.Header[k] = v
		}
		return resp, nil
	}, &n
}

const orderURL = testBaseURL + "/websites/1/orders/2"

func TestRetryableStatusesAreRetried(t *testing.T) {
	for _, status := range []int{429, 500, 502, 503, 504} {
		c, mt := newMockClient(t)
		r, n := sequence([]int{status, status, 200}, fixture(t, "order_plain.json"), nil)
		mt.RegisterResponder(http.MethodGet, orderURL, r)
		o, err := c.Orders.Get(context.Background(), 1, 2, nil)
		if err != nil || o.ID != 5002 || n.Load() != 3 {
			t.Errorf("%d: %v after %d calls", status, err, n.Load())
		}
	}
}

func TestNonRetryableStatusesAreNot(t *testing.T) {
	for _, status := range []int{400, 401, 403, 404, 501} {
		c, mt := newMockClient(t)
		r, n := sequence([]int{status, 200}, fixture(t, "order_plain.json"), nil)
		mt.RegisterResponder(http.MethodGet, orderURL, r)
		_, err := c.Orders.Get(context.Background(), 1, 2, nil)
		var apiErr *APIError
		if !errors.As(err, &apiErr) || apiErr.StatusCode != status || n.Load() != 1 {
			t.Errorf("%d: %v after %d calls", status, err, n.Load())
		}
	}
}

func TestExhaustedRetriesReturnLastAPIError(t *testing.T) {
	c, mt := newMockClient(t)
	r, n := sequence([]int{500, 502, 503}, nil, nil)
	mt.RegisterResponder(http.MethodGet, orderURL, r)
	_, err := c.Orders.Get(context.Background(), 1, 2, nil)
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 503 || apiErr.Message != "attempt 4" || n.Load() != 4 {
		t.Fatalf("got %v after %d calls", err, n.Load())
	}
	if strings.Contains(err.Error(), "giving up") {
		t.Errorf("library error leaked through: %v", err)
	}
}

func TestMaxRetriesZeroTurnsRetryingOff(t *testing.T) {
	c, mt := newMockClient(t, WithRetry(RetryPolicy{MaxRetries: 0}))
	r, n := sequence([]int{503, 200}, fixture(t, "order_plain.json"), nil)
	mt.RegisterResponder(http.MethodGet, orderURL, r)
	if _, err := c.Orders.Get(context.Background(), 1, 2, nil); !errors.Is(err, ErrServer) || n.Load() != 1 {
		t.Fatalf("got %v after %d calls", err, n.Load())
	}
}

func TestRetryAfterBeyondMaxWaitIsReturnedNotSlept(t *testing.T) {
	c, mt := newMockClient(t) // MaxWait 5ms
	r, n := sequence([]int{429, 200}, fixture(t, "order_plain.json"), http.Header{"Retry-After": {"120"}})
	mt.RegisterResponder(http.MethodGet, orderURL, r)
	_, err := c.Orders.Get(context.Background(), 1, 2, nil)
	var apiErr *APIError
	if !errors.As(err, &apiErr) || !errors.Is(err, ErrRateLimited) || apiErr.RetryAfter != 120*time.Second || n.Load() != 1 {
		t.Fatalf("got %v (RetryAfter %v) after %d calls", err, apiErr.RetryAfter, n.Load())
	}
}

func TestRetryAfterOfAnyLengthIsReturnedNotIgnored(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t) }) // after the servers' own cleanups
	for value, want := range map[string]time.Duration{
		"31536001":                31536001 * time.Second,
		"99999999999":             math.MaxInt64,
		"9223372036854775807":     math.MaxInt64,
		"92233720368547758070000": math.MaxInt64,
	} {
		var n atomic.Int32
		c, _ := newLoopbackClient(t, func(w http.ResponseWriter, r *http.Request) {
			n.Add(1)
			w.Header().Set("Retry-After", value)
			w.WriteHeader(http.StatusTooManyRequests)
		}, WithRetry(RetryPolicy{MaxRetries: 3, MinWait: time.Millisecond, MaxWait: time.Hour}))
		_, err := c.Orders.Get(context.Background(), 1, 2, nil)
		apiErr := new(APIError) // left as is when err is not one
		if !errors.As(err, &apiErr) || apiErr.RetryAfter != want || n.Load() != 1 {
			t.Errorf("Retry-After %s: got %v (RetryAfter %v) after %d requests; want RetryAfter %v after 1", value, err, apiErr.RetryAfter, n.Load(), want)
		}
	}
}

func TestDecideRetryHonoursRetryAfter(t *testing.T) {
	c, _ := newMockClient(t, WithRetry(RetryPolicy{MaxRetries: 2, MinWait: time.Millisecond, MaxWait: time.Hour}))
	date := time.Now().Add(90 * time.Second).UTC().Format(http.TimeFormat)
	for header, want := range map[string]time.Duration{"7": 7 * time.Second, date: 90 * time.Second} {
		resp := &http.Response{StatusCode: 503, Header: http.Header{"Retry-After": {header}}}
		// The handler's error for the answer, which CheckRetry decides on.
		answer := newAPIError(http.MethodGet, orderURL, resp.StatusCode, resp.Header, nil)
		wait, retry := c.retryWait(context.Background(), &call{url: orderURL}, resp, answer)
		if !retry || wait > want || wait < want-2*time.Second {
			t.Errorf("Retry-After %q: retry=%v wait=%v, want about %v", header, retry, wait, want)
		}
	}
}

func TestDeadlineSoonerThanWaitReturnsLastErrorAtOnce(t *testing.T) {
	c, mt := newMockClient(t, WithRetry(RetryPolicy{MaxRetries: 3, MinWait: time.Hour, MaxWait: time.Hour}))
	r, n := sequence([]int{503, 200}, fixture(t, "order_plain.json"), nil)
	mt.RegisterResponder(http.MethodGet, orderURL, r)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := c.Orders.Get(ctx, 1, 2, nil)
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 503 || n.Load() != 1 {
		t.Fatalf("got %v after %d calls", err, n.Load())
	}
}

func TestCancelStopsBackoffWait(t *testing.T) {
	c, mt := newMockClient(t, WithRetry(RetryPolicy{MaxRetries: 3, MinWait: time.Hour, MaxWait: time.Hour}))
	served := make(chan struct{}, 1)
	mt.RegisterResponder(http.MethodGet, orderURL, func(*http.Request) (*http.Response, error) {
		served <- struct{}{}
		return httpmock.NewStringResponse(503, ""), nil
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := c.Orders.Get(ctx, 1, 2, nil)
		done <- err
	}()
	<-served
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second): // a guard, not a timing claim: the wait is an hour
		t.Fatal("cancel did not stop the backoff wait")
	}
}

// hijack answers with the raw bytes of reply and closes the connection.
func hijack(w http.ResponseWriter, reply string) {
	conn, buf, err := w.(http.Hijacker).Hijack()
	if err != nil {
		panic(err)
	}
	buf.WriteString(reply)
	buf.Flush()
	conn.Close()
}

func newLoopbackClient(t *testing.T, h http.HandlerFunc, opts ...Option) (*Client, *httptest.Server) {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	all := append([]Option{WithRetry(RetryPolicy{MaxRetries: 2, MinWait: time.Millisecond, MaxWait: 5 * time.Millisecond})}, opts...)
	c, err := NewClient(srv.URL, testAPIKey, all...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.CloseIdleConnections)
	return c, srv
}

func TestConnectionFailuresAndCutBodiesAreRetried(t *testing.T) {
	body := string(fixture(t, "order_plain.json"))
	faults := map[string]func(w http.ResponseWriter){
		"dropped connection": func(w http.ResponseWriter) { hijack(w, "") },
		"cut-off body": func(w http.ResponseWriter) {
			hijack(w, fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body[:len(body)/2]))
		},
	}
	for name, fault := range faults {
		t.Run(name, func(t *testing.T) {
			var n atomic.Int32
			c, _ := newLoopbackClient(t, func(w http.ResponseWriter, r *http.Request) {
				if n.Add(1) == 1 {
					fault(w)
					return
				}
				io.WriteString(w, body)
			})
			o, err := c.Orders.Get(context.Background(), 1, 2, nil)
			if err != nil || o.ID != 5002 || n.Load() != 2 {
				t.Fatalf("got %v after %d calls", err, n.Load())
			}
		})
	}
}

func TestCutBodyEveryTimeIsAnErrorNotAValue(t *testing.T) {
	c, _ := newLoopbackClient(t, func(w http.ResponseWriter, r *http.Request) {
		hijack(w, "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"object\":")
	})
	o, err := c.Orders.Get(context.Background(), 1, 2, nil)
	if o != nil || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("got %v, %v", o, err)
	}
}

func TestHungServerTimesOutPerAttemptAndRetries(t *testing.T) {
	var n atomic.Int32
	release := make(chan struct{})
	defer close(release)
	c, _ := newLoopbackClient(t, func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			select {
			case <-r.Context().Done():
			case <-release:
			}
			return
		}
		w.Write(fixture(t, "order_plain.json"))
	}, WithAttemptTimeout(time.Second))
	o, err := c.Orders.Get(context.Background(), 1, 2, nil)
	if err != nil || o.ID != 5002 || n.Load() != 2 {
		t.Fatalf("got %v after %d calls", err, n.Load())
	}
}

func TestBodyTooLargeIsTypedAndNotRetried(t *testing.T) {
	for name, chunked := range map[string]bool{"content-length": false, "chunked": true} {
		var n atomic.Int32
		c, _ := newLoopbackClient(t, func(w http.ResponseWriter, r *http.Request) {
			n.Add(1)
			if chunked {
				w.(http.Flusher).Flush()
			}
			w.Write([]byte(`{"object":"order","description":"` + strings.Repeat("x", 4096) + `"}`))
		}, WithMaxBodySize(1024))
		_, err := c.Orders.Get(context.Background(), 1, 2, nil)
		if !errors.Is(err, ErrBodyTooLarge) || n.Load() != 1 {
			t.Errorf("%s: got %v after %d calls", name, err, n.Load())
		}
	}
}

func TestRedirectToOtherHostDropsCredentials(t *testing.T) {
	var sawAuth atomic.Value
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sawAuth.Store(r.Header.Get("Authorization"))
		w.Write(fixture(t, "order_plain.json"))
	}))
	defer other.Close()
	otherURL := strings.Replace(other.URL, "127.0.0.1", "localhost", 1)
	c, _ := newLoopbackClient(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, otherURL+r.URL.Path, http.StatusFound)
	})
	if _, err := c.Orders.Get(context.Background(), 1, 2, nil); err != nil {
		t.Fatal(err)
	}
	if got, _ := sawAuth.Load().(string); got != "" {
		t.Errorf("credentials sent to another host: %q", got)
	}
}

func TestRedirectFromHTTPSToHTTPIsRefused(t *testing.T) {
	var plainHits atomic.Int32
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { plainHits.Add(1) }))
	defer plain.Close()
	var tlsHits atomic.Int32
	secure := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tlsHits.Add(1)
		http.Redirect(w, r, plain.URL+r.URL.Path, http.StatusMovedPermanently)
	}))
	defer secure.Close()
	c, err := NewClient(secure.URL, testAPIKey, WithHTTPClient(secure.Client()))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Orders.Get(context.Background(), 1, 2, nil)
	if err == nil || !strings.Contains(err.Error(), "https to http") || plainHits.Load() != 0 || tlsHits.Load() != 1 {
		t.Fatalf("got %v; plain hits %d, tls hits %d", err, plainHits.Load(), tlsHits.Load())
	}
}

func TestBackoffGrowsWithJitterWithinBounds(t *testing.T) {
	p := RetryPolicy{MaxRetries: 10, MinWait: 100 * time.Millisecond, MaxWait: 2 * time.Second}
	lowest := func(int64) int64 { return 0 }
	highest := func(limit int64) int64 { return limit - 1 }
	want := []struct{ lo, hi time.Duration }{
		{100 * time.Millisecond, 100 * time.Millisecond}, // half of 100ms is below MinWait
		{100 * time.Millisecond, 200 * time.Millisecond},
		{200 * time.Millisecond, 400 * time.Millisecond},
		{400 * time.Millisecond, 800 * time.Millisecond},
		{800 * time.Millisecond, 1600 * time.Millisecond},
		{time.Second, 2 * time.Second},
		{time.Second, 2 * time.Second},
	}
	for n, w := range want {
		if lo, hi := p.backoff(n, lowest), p.backoff(n, highest); lo != w.lo || hi != w.hi {
			t.Errorf("retry %d: [%v, %v], want [%v, %v]", n, lo, hi, w.lo, w.hi)
		}
	}
	if got := p.backoff(200, highest); got != p.MaxWait {
		t.Errorf("huge retry number: %v", got)
	}
}

func TestRetryAfterParsing(t *testing.T) {
	now := time.Date(2024, 1, 1, 12, 0, 0, 0, time.UTC)
	cases := map[string]struct {
		want time.Duration
		ok   bool
	}{
		"":                              {0, false},
		"30":                            {30 * time.Second, true},
		"-1":                            {0, false},
		"31536001":                      {31536001 * time.Second, true},
		"9223372036":                    {9223372036 * time.Second, true},
		"9223372037":                    {math.MaxInt64, true}, // beyond a Duration: saturates
		"9223372036854775807":           {math.MaxInt64, true},
		"99999999999999999999999":       {math.MaxInt64, true}, // beyond an int64
		"1e9":                           {0, false},
		"soon":                          {0, false},
		"Mon, 01 Jan 2024 12:00:45 GMT": {45 * time.Second, true},
		"Mon, 01 Jan 2024 11:00:00 GMT": {0, true},
	}
	for in, tc := range cases {
		got, ok := retryAfter(http.Header{"Retry-After": {in}}, now)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%q: %v %v, want %v %v", in, got, ok, tc.want, tc.ok)
		}
	}
}
