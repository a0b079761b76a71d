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
		{"neither: the spec's neutral name", "", nil, exitFailure, "error: ordermsg: GET " + list + ": 400 Bad Request: missing Acme-Api-Version header\n"},
		{"the flag", "", []string{"--version-header", "Acme-Api-Version: 1"}, exitOK, ""},
		{"the flag, without the space", "", []string{"--version-header=acme-api-version:1"}, exitOK, ""},
		{"the environment", "Acme-Api-Version: 1", nil, exitOK, ""},
		{"the flag wins", "Acme-Api-Version: 2", []string{"--version-header", "Acme-Api-Version: 1"}, exitOK, ""},
		{"the flag wins, wrongly", "Acme-Api-Version: 1", []string{"--version-header", "Acme-Api-Version: 2"}, exitFailure, "error: ordermsg: GET " + list + `: 400 Bad Request: unsupported Acme-Api-Version "2"; supported: 1` + "\n"},
	} {
		_, stderr, code := cli{env: conn(tc.env)}.run(context.Background(), append([]string{"orders", "list", "--count", "1"}, tc.args...)...)
		if code != tc.code || stderr != tc.stderr {
			t.Errorf("%s: exit %d, stderr %q; want %d, %q", tc.name, code, stderr, tc.code, tc.stderr)
		}
	}
}

// A malformed header is a usage error naming where it came from, before
// any request.
func TestMalformedVersionHeaderIsAUsageError(t *testing.T) {
	for _, tc := range []struct {
		env  string
		args []string
		want string
	}{
		{"", []string{"--version-header", "Acme-Api-Version"}, `error: --version-header "Acme-Api-Version": want "Name: value"`},
		{"", []string{"--version-header", ""}, `error: --version-header "": want "Name: value"`},
		{"", []string{"--version-header", "Acme Api Version: 1"}, `error: --version-header "Acme Api Version: 1": want`},
		{"", []string{"--version-header", "Acme-Api-Version:"}, `error: --version-header "Acme-Api-Version:": want`},
		{"", []string{"--version-header", "Authorization: Basic eA=="}, `error: --version-header "Authorization: Basic eA==": want`},
		{"Acme-Api-Version=1", nil, `error: ORDERMSG_VERSION_HEADER="Acme-Api-Version=1": want "Name: value"`},
	} {
		for _, cmd := range [][]string{{"orders", "list", "--demo"}, {"serve"}} {
			env := map[string]string{}
			if tc.env != "" {
				env[envVersionHeader] = tc.env
			}
			stdout, stderr, code := cli{env: env}.run(context.Background(), append(cmd, tc.args...)...)
			if code != exitUsage || !strings.HasPrefix(stderr, tc.want) || stdout != "" {
				t.Errorf("%v %v with %q: exit %d, stderr %q", cmd, tc.args, tc.env, code, stderr)
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
