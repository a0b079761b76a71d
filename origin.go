package ordermsg

import (
	"net/url"
	"strings"
)

// sameOrigin reports whether a and b share an origin in the sense of RFC 6454:
// the same scheme, host and port. Scheme and host compare without regard to
// case, and a missing port is the scheme's default, so https://h and
// https://h:443 are one origin, while a subdomain or another port is not.
// The API key goes only to the client's own origin (DESIGN.md, rule 8).
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) &&
		strings.EqualFold(a.Hostname(), b.Hostname()) &&
		effectivePort(a) == effectivePort(b)
}

// effectivePort is u's port, or its scheme's default port when u names none.
func effectivePort(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
		return "443"
	case "http":
		return "80"
	}
	return ""
}
