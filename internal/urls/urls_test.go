package urls

import (
	"errors"
	"net/url"
	"strings"
	"testing"
)

func TestSameOrigin(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"https://api.test", "https://api.test/v1/x?y=1", true},
		{"https://api.test", "https://API.test:443/", true},
		{"http://127.0.0.1", "http://127.0.0.1:80/a", true},
		{"HTTPS://api.test", "https://api.test", true},
		{"https://[::1]:8443", "https://[::1]:8443/p", true},
		{"https://api.test", "http://api.test", false},
		{"https://api.test:8443", "https://api.test:8444", false},
		{"http://127.0.0.1:1000", "http://127.0.0.1:1001", false},
		{"https://api.test", "https://evil.api.test", false},
		{"https://api.test", "https://api.test.evil", false},
		{"https://api.test", "ws://api.test", false},
		{"http://api.test", "http://api.test:443", false},
	} {
		a, _ := url.Parse(tc.a)
		b, _ := url.Parse(tc.b)
		if got := SameOrigin(a, b); got != tc.want {
			t.Errorf("SameOrigin(%s, %s) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestRedactShowsNoSecret(t *testing.T) {
	for raw, want := range map[string]string{
		"https://user:pw@files.test/a/b.pdf?sig=secret#frag": "https://files.test/a/b.pdf?…",
		"https://files.test/a%2Fb":                           "https://files.test/a%2Fb",
		"http://[::1]:8080/x#only-a-fragment":                "http://[::1]:8080/x?…",
		"https://files.test/%zz?key=secret":                  "(a malformed URL)",
	} {
		if got := RedactRaw(raw); got != want {
			t.Errorf("RedactRaw(%q) = %q, want %q", raw, got, want)
		}
	}
	cause := errors.New("refused")
	err := RedactError(&url.Error{Op: "Get", URL: "https://files.test/x?sig=secret", Err: cause})
	if strings.Contains(err.Error(), "secret") || !errors.Is(err, cause) {
		t.Errorf("RedactError: %v", err)
	}
	if other := errors.New("other"); RedactError(other) != other {
		t.Error("RedactError changed an error that is not a *url.Error")
	}
}

func TestIsLoopback(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost": true, "LocalHost": true, "127.0.0.1": true, "127.9.9.9": true, "::1": true,
		"10.0.0.1": false, "localhost.evil.test": false, "example.com": false, "": false,
	} {
		if got := IsLoopback(host); got != want {
			t.Errorf("IsLoopback(%q) = %v, want %v", host, got, want)
		}
	}
}
