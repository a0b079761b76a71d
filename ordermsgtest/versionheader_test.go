package ordermsgtest_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// A fake told to require the maker's header answers a client that sends
// it, and gives its 400 to one that sends the spec's neutral name only.
func TestWithVersionHeaderIsRequired(t *testing.T) {
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(small), ordermsgtest.WithVersionHeader("acme-api-version", "1"))
	defer srv.Close()
	ctx := context.Background()

	if name, value := srv.Handler.VersionHeader(); name != "Acme-Api-Version" || value != "1" {
		t.Errorf("VersionHeader() = %q, %q", name, value)
	}
	c, err := srv.Client()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Orders.List(ctx, srv.WebsiteID, nil); err != nil {
		t.Fatalf("a client sending the required header: %v", err)
	}

	for _, tc := range []struct {
		name string
		opts []ordermsg.Option
		want string
	}{
		{"the spec's neutral name", nil, "missing Acme-Api-Version header"},
		{"another value", []ordermsg.Option{ordermsg.WithVersionHeader("Acme-Api-Version", "2")}, "unsupported Acme-Api-Version value; supported: 1"},
	} {
		other, err := ordermsg.NewClient(srv.URL, srv.APIKey, tc.opts...)
		if err != nil {
			t.Fatal(err)
		}
		_, err = other.Orders.List(ctx, srv.WebsiteID, nil)
		var apiErr *ordermsg.APIError
		if !errors.Is(err, ordermsg.ErrBadRequest) || !errors.As(err, &apiErr) || apiErr.Message != tc.want {
			t.Errorf("%s: got %v; want the fake's 400 %q", tc.name, err, tc.want)
		}
	}
}

// The fake's 400 to a version header with another value never shows the
// value sent: it may be the key, given in the wrong place.
func TestFakeNeverShowsTheVersionValueSent(t *testing.T) {
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(small), ordermsgtest.WithVersionHeader("Acme-Api-Version", "1"))
	defer srv.Close()
	c, err := ordermsg.NewClient(srv.URL, srv.APIKey, ordermsg.WithVersionHeader("Acme-Api-Version", "sk_live_SECRETKEY"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Orders.List(context.Background(), srv.WebsiteID, nil)
	var apiErr *ordermsg.APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusBadRequest ||
		strings.Contains(err.Error(), "SECRET") || strings.Contains(string(apiErr.Body), "SECRET") {
		t.Errorf("the fake's answer: %v, body %s", err, apiErr.Body)
	}
}

// The default stays the spec's Service-Api-Version: 1, the SDK's default.
func TestDefaultVersionHeader(t *testing.T) {
	name, value := ordermsgtest.NewHandler(ordermsgtest.Generate(small)).VersionHeader()
	if name != ordermsg.DefaultVersionHeader || value != ordermsg.DefaultAPIVersion {
		t.Errorf("VersionHeader() = %q, %q", name, value)
	}
}

// A header the SDK refuses (ordermsg.CheckVersionHeader) is refused by the
// fake too, without a panic: Handler.Client and Server.Client return the
// error, and every request the fake gets is answered with a 501 that says
// it, never showing the value: a server error that a client with the
// default retry policy does not retry.
func TestWithVersionHeaderRefusesWhatTheSDKRefuses(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct{ name, value, want string }{
		{"Content-Length", "1", "ordermsgtest: WithVersionHeader: Content-Length cannot be the version header: net/http writes it"},
		{"authorization", "Basic SECRET", "ordermsgtest: WithVersionHeader: Authorization cannot be the version header: the client sets it"},
		{"Transfer-Encoding", "chunked", "ordermsgtest: WithVersionHeader: Transfer-Encoding cannot be the version header"},
		{"", "1", "ordermsgtest: WithVersionHeader: the name is empty"},
		{"Acme-Api-Version", "", "ordermsgtest: WithVersionHeader: the value is empty"},
		{"Acme-Api-Version", " SECRET ", "ordermsgtest: WithVersionHeader: the value has leading or trailing white space"},
		{"Acme Api Version", "SECRET", "ordermsgtest: WithVersionHeader: the name is not an HTTP token"},
	} {
		opt := ordermsgtest.WithVersionHeader(tc.name, tc.value)
		h := ordermsgtest.NewHandler(ordermsgtest.Generate(small), opt)
		if _, err := h.Client(); err == nil || !strings.HasPrefix(err.Error(), tc.want) || !errors.Is(err, ordermsg.ErrInvalidArgument) {
			t.Errorf("WithVersionHeader(%q, %q): Handler.Client() = %v", tc.name, tc.value, err)
		}
		srv := ordermsgtest.NewServer(ordermsgtest.Generate(small), opt)
		if _, err := srv.Client(); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("WithVersionHeader(%q, %q): Server.Client() = %v", tc.name, tc.value, err)
		}
		c, err := ordermsg.NewClient(srv.URL, srv.APIKey) // the default retry policy
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Orders.List(ctx, srv.WebsiteID, nil)
		var apiErr *ordermsg.APIError
		if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusNotImplemented || !errors.Is(err, ordermsg.ErrServer) ||
			!strings.HasPrefix(apiErr.Message, tc.want) {
			t.Errorf("WithVersionHeader(%q, %q): a request got %v", tc.name, tc.value, err)
		}
		if n := srv.Handler.Stats().Requests; n != 1 {
			t.Errorf("WithVersionHeader(%q, %q): %d requests, want 1: the answer was retried", tc.name, tc.value, n)
		}
		if strings.Contains(err.Error(), "SECRET") {
			t.Errorf("the fake's answer shows the value: %v", err)
		}
		srv.Close()
	}
}

// Handler.Client serves the handler through httpmock in one line, with the
// handler's version header, and the caller's options after its own.
func TestHandlerClient(t *testing.T) {
	ds := ordermsgtest.Generate(small)
	for _, opts := range [][]ordermsgtest.Option{nil, {ordermsgtest.WithVersionHeader("Acme-Api-Version", "1")}} {
		h := ordermsgtest.NewHandler(ds, opts...)
		c, err := h.Client(ordermsg.WithUserAgent("handler-client-test/1"))
		if err != nil {
			t.Fatal(err)
		}
		w := ds.Websites[0]
		n := 0
		for _, err := range c.Orders.All(context.Background(), w.ID, &ordermsg.ListOrdersOptions{Count: 25}) {
			if err != nil {
				t.Fatal(err)
			}
			n++
		}
		if n != len(w.Orders) || h.Stats().Requests != 3 {
			t.Errorf("walked %d of %d orders in %d requests; want all in 3", n, len(w.Orders), h.Stats().Requests)
		}
	}
}

// A caller's WithHTTPClient replaces the mock transport: options come
// after the handler's own.
func TestHandlerClientOptionsComeLast(t *testing.T) {
	h := ordermsgtest.NewHandler(ordermsgtest.Generate(small))
	refused := errors.New("the caller's transport")
	c, err := h.Client(ordermsg.WithHTTPClient(&http.Client{Transport: roundTripFunc(func(*http.Request) (*http.Response, error) { return nil, refused })}),
		ordermsg.WithRetry(ordermsg.RetryPolicy{MaxRetries: 0}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Orders.List(context.Background(), h.Dataset().Websites[0].ID, nil); !errors.Is(err, refused) && !strings.Contains(err.Error(), refused.Error()) {
		t.Errorf("got %v; want the caller's transport to answer", err)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
