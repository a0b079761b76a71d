package urls

import (
	"net/url"
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
