package ordermsg_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// setEnv sets the three variables NewClientFromEnv reads; an empty value
// unsets one (as an empty variable counts as unset).
func setEnv(t *testing.T, baseURL, apiKey, versionHeader string) {
	t.Helper()
	t.Setenv(ordermsg.EnvBaseURL, baseURL)
	t.Setenv(ordermsg.EnvAPIKey, apiKey)
	t.Setenv(ordermsg.EnvVersionHeader, versionHeader)
}

// smallDataset is a website of a few records: these tests are about the
// client, not the data.
func smallDataset() *ordermsgtest.Dataset {
	return ordermsgtest.Generate(ordermsgtest.Config{Seed: 1, Websites: 1, OrdersPerWebsite: 3, MessagesPerWebsite: 3})
}

// listOne makes one call through c to the fake's website.
func listOne(c *ordermsg.Client, srv *ordermsgtest.Server) error {
	_, err := c.Orders.List(context.Background(), srv.WebsiteID, &ordermsg.ListOrdersOptions{Count: 1})
	return err
}

// A client from the environment reaches the service the variables name,
// with the version header ORDERMSG_VERSION_HEADER holds (its name in any
// case, white space around the name and the value dropped); a fake that requires that header refuses the client without
// the variable, whose error says to set the variable (not WithVersionHeader,
// which the client's user did not write).
func TestNewClientFromEnvSendsTheVersionHeader(t *testing.T) {
	for _, tc := range []struct{ env, name, value string }{
		{"Acme-Api-Version: 1", "Acme-Api-Version", "1"},
		{"  acme-api-version :\t1 ", "Acme-Api-Version", "1"},
		{"X-Version:1", "X-Version", "1"},
	} {
		srv := ordermsgtest.NewServer(smallDataset(), ordermsgtest.WithVersionHeader(tc.name, tc.value))
		setEnv(t, srv.URL, srv.APIKey, tc.env)
		c, err := ordermsg.NewClientFromEnv()
		if err != nil {
			t.Fatalf("%q: %v", tc.env, err)
		}
		if err := listOne(c, srv); err != nil {
			t.Errorf("%q: %v", tc.env, err)
		}

		setEnv(t, srv.URL, srv.APIKey, "")
		c, err = ordermsg.NewClientFromEnv()
		if err != nil {
			t.Fatal(err)
		}
		err = listOne(c, srv)
		var apiErr *ordermsg.APIError
		if !errors.Is(err, ordermsg.ErrBadRequest) || !errors.As(err, &apiErr) ||
			!strings.HasSuffix(apiErr.Hint, "set it in "+ordermsg.EnvVersionHeader+` ("Name: value")`) {
			t.Errorf("without %s: %v; want a hint that names the variable", ordermsg.EnvVersionHeader, err)
		}
		srv.Close()
	}
}

// A colon in the variable's value is the value's: the header is split at
// the first colon only. (A server of its own, not the fake: the API's
// description knows no version but 1, and the suites' exchanges with the
// fake are held to it.)
func TestNewClientFromEnvKeepsAColonInTheValue(t *testing.T) {
	got := make(chan string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- r.Header.Get("X-Version")
		http.NotFound(w, r)
	}))
	defer srv.Close()
	setEnv(t, srv.URL, "key", "X-Version:2024-01:beta")
	c, err := ordermsg.NewClientFromEnv(ordermsg.WithRetry(ordermsg.RetryPolicy{}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Orders.Get(context.Background(), 1, 2, nil); !errors.Is(err, ordermsg.ErrNotFound) {
		t.Fatalf("got %v, want the server's 404", err)
	}
	if v := <-got; v != "2024-01:beta" {
		t.Errorf("X-Version: %q, want 2024-01:beta", v)
	}
}

// Without ORDERMSG_VERSION_HEADER the client sends the default header, which
// the fake requires by default.
func TestNewClientFromEnvDefaultsTheVersionHeader(t *testing.T) {
	srv := ordermsgtest.NewServer(smallDataset())
	defer srv.Close()
	setEnv(t, srv.URL, srv.APIKey, "")
	c, err := ordermsg.NewClientFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	if err := listOne(c, srv); err != nil {
		t.Error(err)
	}
}

// The caller's options apply after the environment's: a WithVersionHeader
// among them replaces the variable's header.
func TestNewClientFromEnvCallerOptionsComeLast(t *testing.T) {
	srv := ordermsgtest.NewServer(smallDataset(), ordermsgtest.WithVersionHeader("Other-Version", "1"))
	defer srv.Close()
	setEnv(t, srv.URL, srv.APIKey, "Acme-Api-Version: 1")
	c, err := ordermsg.NewClientFromEnv(ordermsg.WithVersionHeader("Other-Version", "1"))
	if err != nil {
		t.Fatal(err)
	}
	if err := listOne(c, srv); err != nil {
		t.Error(err)
	}
}

// An unset or empty base URL or key is an error that names each variable
// missing, before any request, and never shows the key.
func TestNewClientFromEnvNamesTheUnsetVariable(t *testing.T) {
	for _, tc := range []struct{ baseURL, apiKey, want string }{
		{"", "SECRET-KEY", "ordermsg: NewClientFromEnv: ORDERMSG_BASE_URL is empty or not set"},
		{"https://api.example.com", "", "ordermsg: NewClientFromEnv: ORDERMSG_API_KEY is empty or not set"},
		{"", "", "ordermsg: NewClientFromEnv: ORDERMSG_BASE_URL and ORDERMSG_API_KEY are empty or not set"},
	} {
		setEnv(t, tc.baseURL, tc.apiKey, "Acme-Api-Version: 1")
		c, err := ordermsg.NewClientFromEnv()
		if c != nil || !errors.Is(err, ordermsg.ErrInvalidArgument) || err.Error() != tc.want || strings.Contains(err.Error(), "SECRET") {
			t.Errorf("base URL %q, key set %v: %v", tc.baseURL, tc.apiKey != "", err)
		}
	}
}

// NewClient's refusals hold for the environment's values too.
func TestNewClientFromEnvChecksWhatNewClientChecks(t *testing.T) {
	for _, tc := range []struct{ baseURL, apiKey string }{
		{"ftp://api.example.com", "k"},
		{"http://api.example.com", "k"},
		{"https://api.example.com", "SECRET:KEY"},
	} {
		setEnv(t, tc.baseURL, tc.apiKey, "")
		if c, err := ordermsg.NewClientFromEnv(); c != nil || !errors.Is(err, ordermsg.ErrInvalidArgument) || strings.Contains(err.Error(), "SECRET") {
			t.Errorf("%q: %v", tc.baseURL, err)
		}
	}
	// WithAllowHTTP, the caller's, lifts the refusal of plain http.
	setEnv(t, "http://api.example.com", "k", "")
	if _, err := ordermsg.NewClientFromEnv(ordermsg.WithAllowHTTP()); err != nil {
		t.Error(err)
	}
}

// versionHeaderRefusals are headers, as "Name: value", that
// ParseVersionHeader and so NewClientFromEnv refuse, with the start of the
// reason. None of their values may be shown: SECRET stands for a key given
// in the wrong place.
var versionHeaderRefusals = []struct{ header, reason string }{
	{"SECRET", `no colon: want "Name: value"`},
	{"Acme-Api-Version=SECRET", `no colon: want "Name: value"`},
	{": SECRET", "the name is empty; want "},
	{"Acme Api Version: SECRET", "the name is not an HTTP token"},
	{"Acme-Api-Version:", "the value is empty; want "},
	{"Acme-Api-Version:  \t ", "the value is empty; want "},
	{"Acme-Api-Version: bad\x01SECRET", "the value contains a control character; want "},
	{"Authorization: Basic SECRET", "Authorization cannot be the version header: "},
	{"accept-encoding: SECRET", "Accept-Encoding cannot be the version header: "},
	{"Proxy-Version: SECRET", "Proxy-Version cannot be the version header: "},
}

// ParseVersionHeader refuses what has no colon and what CheckVersionHeader
// refuses, with a *VersionHeaderError that says what is wanted and never
// shows the value.
func TestParseVersionHeaderRefusals(t *testing.T) {
	for _, tc := range versionHeaderRefusals {
		name, value, err := ordermsg.ParseVersionHeader(tc.header)
		var vh *ordermsg.VersionHeaderError
		if !errors.As(err, &vh) || vh.Source != "ParseVersionHeader" || !strings.HasPrefix(vh.Reason, tc.reason) ||
			!strings.HasSuffix(vh.Reason, `want "Name: value" with the name your API documentation gives, such as "Acme-Api-Version: 1"`) ||
			!errors.Is(err, ordermsg.ErrInvalidArgument) || strings.Contains(err.Error(), "SECRET") || name != "" || value != "" {
			t.Errorf("ParseVersionHeader(%q) = %q, %q, %v", tc.header, name, value, err)
		}
	}
	name, value, err := ordermsg.ParseVersionHeader(" acme-api-version : 2024-01 beta ")
	if name != "Acme-Api-Version" || value != "2024-01 beta" || err != nil {
		t.Errorf("ParseVersionHeader = %q, %q, %v", name, value, err)
	}
}

// NewClientFromEnv refuses an ORDERMSG_VERSION_HEADER that
// ParseVersionHeader refuses, naming the variable, before any request.
func TestNewClientFromEnvRefusesABadVersionHeader(t *testing.T) {
	for _, tc := range versionHeaderRefusals {
		setEnv(t, "https://api.example.com", "k", tc.header)
		c, err := ordermsg.NewClientFromEnv()
		var vh *ordermsg.VersionHeaderError
		if c != nil || !errors.As(err, &vh) || vh.Source != ordermsg.EnvVersionHeader || !strings.HasPrefix(vh.Reason, tc.reason) ||
			!strings.HasPrefix(err.Error(), "ordermsg: ORDERMSG_VERSION_HEADER: "+tc.reason) || strings.Contains(err.Error(), "SECRET") {
			t.Errorf("%s=%q: %v", ordermsg.EnvVersionHeader, tc.header, err)
		}
	}
}
