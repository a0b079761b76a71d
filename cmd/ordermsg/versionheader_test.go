package main

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// --version-header and ORDERMSG_VERSION_HEADER set the header the CLI
// sends; the flag wins over the environment.
func TestVersionHeaderFlagAndEnvironment(t *testing.T) {
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 5, Websites: 1, OrdersPerWebsite: 3, MessagesPerWebsite: 3}),
		ordermsgtest.WithVersionHeader("Acme-Api-Version", "1"))
	t.Cleanup(srv.Close)
	conn := func(header string) map[string]string {
		env := map[string]string{envBaseURL: srv.URL, envAPIKey: srv.APIKey, envWebsiteID: fmt.Sprint(srv.WebsiteID)}
		if header != "" {
			env[envVersionHeader] = header
		}
		return env
	}
	list := fmt.Sprintf("%s/websites/%d/orders?count=1", srv.URL, srv.WebsiteID) // the URL of orders list --count 1
	for _, tc := range []struct {
		name, env string
		args      []string
		code      int
		stderr    string
	}{
		{"neither: the spec's neutral name", "", nil, exitFailure, "error: ordermsg: GET " + list + ": 400 Bad Request: missing Acme-Api-Version header; " +
			"the request sent the version header under the documentation's neutral name, Service-Api-Version, where Service stands for the maker's name: " +
			"if the service expects its real name, set it with --version-header or ORDERMSG_VERSION_HEADER\n"},
		{"the flag", "", []string{"--version-header", "Acme-Api-Version: 1"}, exitOK, ""},
		{"the flag, without the space", "", []string{"--version-header=acme-api-version:1"}, exitOK, ""},
		{"the environment", "Acme-Api-Version: 1", nil, exitOK, ""},
		{"the flag wins", "Acme-Api-Version: 2", []string{"--version-header", "Acme-Api-Version: 1"}, exitOK, ""},
		{"the flag wins, wrongly", "Acme-Api-Version: 1", []string{"--version-header", "Acme-Api-Version: 2"}, exitFailure, "error: ordermsg: GET " + list + ": 400 Bad Request: unsupported Acme-Api-Version value; supported: 1\n"},
	} {
		_, stderr, code := cli{env: conn(tc.env)}.run(context.Background(), append([]string{"orders", "list", "--count", "1"}, tc.args...)...)
		if code != tc.code || stderr != tc.stderr {
			t.Errorf("%s: exit %d, stderr %q; want %d, %q", tc.name, code, stderr, tc.code, tc.stderr)
		}
	}
}

// A malformed header is a usage error naming where it came from and what
// is wrong, before any request, and never showing the value: it may be the
// key, swapped with the header or given as Authorization. A header that
// HTTP or the client owns is refused by the tool as by the SDK and the fake.
func TestMalformedVersionHeaderIsAUsageError(t *testing.T) {
	const want = `; want "Name: value" with the name your API documentation gives, such as "Acme-Api-Version: 1"` + "\n"
	for _, tc := range []struct {
		env  string
		args []string
		want string
	}{
		{"", []string{"--version-header", "sk_live_SECRET"}, `error: --version-header: no colon: want "Name: value"`},
		{"", []string{"--version-header", ""}, `error: --version-header: no colon: want "Name: value"`},
		{"", []string{"--version-header", "Acme Api SECRET: 1"}, "error: --version-header: the name is not an HTTP token: letters, digits and !#$%&'*+-.^_`|~ only, without spaces or a colon" + want},
		{"", []string{"--version-header", "SECRET-Api-Version:"}, "error: --version-header: the value is empty" + want},
		{"", []string{"--version-header", "Acme-Api-Version: 1\x01SECRET"}, "error: --version-header: the value contains a control character" + want},
		{"", []string{"--version-header", "Authorization: Basic SECRET=="}, "error: --version-header: Authorization cannot be the version header: the client sets it on every request" + want},
		{"", []string{"--version-header", "content-length: 1"}, "error: --version-header: Content-Length cannot be the version header: net/http writes it from the request itself and drops a value set by hand" + want},
		{"", []string{"--version-header", "Transfer-Encoding: chunked"}, "error: --version-header: Transfer-Encoding cannot be the version header: "},
		{"", []string{"--version-header", "Connection: close"}, "error: --version-header: Connection cannot be the version header: "},
		{"", []string{"--version-header", "Cookie: SECRET"}, "error: --version-header: Cookie cannot be the version header: "},
		{"", []string{"--version-header", "Range: bytes=0-"}, "error: --version-header: Range cannot be the version header: "},
		{"", []string{"--version-header", "Proxy-Authorization: Basic SECRET"}, "error: --version-header: Proxy-Authorization cannot be the version header: "},
		{"SECRET=1", nil, `error: ORDERMSG_VERSION_HEADER: no colon: want "Name: value"`},
		{"Authorization: Basic SECRET", nil, "error: ORDERMSG_VERSION_HEADER: Authorization cannot be the version header: "},
		{"Accept-Encoding: gzip", nil, "error: ORDERMSG_VERSION_HEADER: Accept-Encoding cannot be the version header: "},
	} {
		for _, cmd := range [][]string{{"orders", "list", "--demo"}, {"serve"}} {
			env := map[string]string{}
			if tc.env != "" {
				env[envVersionHeader] = tc.env
			}
			stdout, stderr, code := cli{env: env}.run(context.Background(), append(cmd, tc.args...)...)
			if code != exitUsage || !strings.HasPrefix(stderr, tc.want) || stdout != "" || strings.Contains(stderr, "SECRET") {
				t.Errorf("%v %q with %q: exit %d, stderr %q", cmd, tc.args, tc.env, code, stderr)
			}
		}
	}
}

// --demo's fake requires the header the CLI sends, so a demo run works
// whatever the header setting.
func TestDemoWorksWithTheConfiguredHeader(t *testing.T) {
	stdout, stderr, code := cli{env: map[string]string{envVersionHeader: "Acme-Api-Version: 1"}}.run(context.Background(), "orders", "list", "--demo", "--count", "1")
	if code != exitOK || !strings.Contains(stdout, `"object":"list"`) {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}
