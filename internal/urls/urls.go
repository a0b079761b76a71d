// Package urls holds what the SDK decides from a URL: whether two share an
// origin (where the API key may go), whether a host is loopback (where plain
// http may carry it), and how a URL is shown in errors and logs (without
// what may be a secret).
package urls

import (
	"net"
	"net/url"
	"strings"
)

// SameOrigin reports whether a and b share an origin (RFC 6454): scheme,
// host (both without regard to case) and port, a missing one being the
// scheme's default.
func SameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) &&
		strings.EqualFold(a.Hostname(), b.Hostname()) &&
		effectivePort(a) == effectivePort(b)
}

func effectivePort(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	return map[string]string{"http": "80", "https": "443"}[strings.ToLower(u.Scheme)]
}

// IsLoopback reports whether host is localhost or a loopback address.
func IsLoopback(host string) bool {
	return strings.EqualFold(host, "localhost") || net.ParseIP(host).IsLoopback()
}

// Redact is u as errors and logs show it: without user info, query or
// fragment.
func Redact(u *url.URL) string {
	shown := url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path, RawPath: u.RawPath}
	if u.RawQuery != "" || u.Fragment != "" {
		return shown.String() + "?…"
	}
	return shown.String()
}

// RedactRaw is Redact of a URL in text form; one that does not parse is not
// shown.
func RedactRaw(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(a malformed URL)"
	}
	return Redact(u)
}

// RedactError redacts the URL that net/http's *url.Error shows whole (a
// link's query, or a refused redirect's Location), keeping the error under
// it.
func RedactError(err error) error {
	ue, ok := err.(*url.Error)
	if !ok {
		return err
	}
	return &url.Error{Op: ue.Op, URL: RedactRaw(ue.URL), Err: ue.Err}
}
