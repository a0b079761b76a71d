package webhook

import (
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/ordermsg/ordermsg-go/internal/urls"
)

// DefaultTimeout bounds one delivery attempt, from connecting to reading
// the answer's status, when Endpoint.Timeout is zero.
const DefaultTimeout = 10 * time.Second

// DefaultConcurrency is how many deliveries to one endpoint may be in
// flight at once when Endpoint.Concurrency is zero.
const DefaultConcurrency = 16

// DefaultName names the endpoint when Endpoint.Name is empty: the one that
// the command's --webhook-url gives.
const DefaultName = "default"

// namePattern is what an endpoint's name may be: it becomes part of a
// River queue's name.
var namePattern = regexp.MustCompile(`^[a-z0-9_]{1,64}$`)

// Endpoint is where changes are delivered, and how.
type Endpoint struct {
	// Name tells endpoints apart: each has its own cursor and its own
	// River queue. Lower-case letters, digits and _, at most 64; empty is
	// DefaultName.
	Name string
	// URL receives each change as a POST. It is https://, or http:// to a
	// loopback host (localhost, 127.0.0.0/8, ::1), as the SDK allows.
	URL string
	// Secret signs each delivery.
	Secret Secret
	// Timeout bounds one attempt; zero is DefaultTimeout.
	Timeout time.Duration
	// Concurrency bounds the deliveries in flight; zero is
	// DefaultConcurrency.
	Concurrency int
}

// Queue is the River queue of the endpoint's deliveries: "webhook_" and
// its name. A slow endpoint fills its own queue only.
func (e Endpoint) Queue() string { return "webhook_" + e.name() }

func (e Endpoint) name() string {
	if e.Name == "" {
		return DefaultName
	}
	return e.Name
}

func (e Endpoint) timeout() time.Duration {
	if e.Timeout == 0 {
		return DefaultTimeout
	}
	return e.Timeout
}

func (e Endpoint) concurrency() int {
	if e.Concurrency == 0 {
		return DefaultConcurrency
	}
	return e.Concurrency
}

// check refuses an endpoint that cannot be delivered to, before anything
// is sent. Its errors show the URL without user info, query or fragment.
func (e Endpoint) check() error {
	if !namePattern.MatchString(e.name()) {
		return fmt.Errorf("webhook: endpoint name %q: want lower-case letters, digits and _, at most 64", e.Name)
	}
	if err := CheckURL(e.URL); err != nil {
		return err
	}
	switch {
	case e.Secret.IsZero():
		return fmt.Errorf("webhook: endpoint %s has no secret", e.name())
	case e.Timeout < 0:
		return fmt.Errorf("webhook: endpoint %s: Timeout %s must not be negative", e.name(), e.Timeout)
	case e.Concurrency < 0:
		return fmt.Errorf("webhook: endpoint %s: Concurrency %d must not be negative", e.name(), e.Concurrency)
	}
	return nil
}

// CheckURL refuses a URL that a delivery must not go to: one that is not
// absolute https://, or http:// to a host that is not loopback (the body
// and its signature would cross the network in the clear), as the SDK
// refuses plain http for the API.
func CheckURL(raw string) error {
	if raw == "" {
		return errors.New("webhook: the URL is empty: want https://HOST/PATH (or http:// to a loopback host)")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("webhook: the URL %s does not parse: want https://HOST/PATH", urls.RedactRaw(raw))
	}
	shown := urls.Redact(u)
	switch scheme := strings.ToLower(u.Scheme); {
	case u.Host == "":
		return fmt.Errorf("webhook: the URL %s has no host: want https://HOST/PATH (or http:// to a loopback host)", shown)
	case scheme == "https":
		return nil
	case scheme == "http" && urls.IsLoopback(u.Hostname()):
		return nil
	case scheme == "http":
		return fmt.Errorf("webhook: the URL %s: plain http to a host that is not loopback would send the changes and their signatures in the clear; use https", shown)
	default:
		return fmt.Errorf("webhook: the URL %s: scheme %q: want https (or http to a loopback host)", shown, u.Scheme)
	}
}

// String names the endpoint and its URL without user info, query or
// fragment, which may hold a token, for %v and logs.
func (e Endpoint) String() string {
	return "webhook " + e.name() + " " + urls.RedactRaw(e.URL)
}

// GoString is String, for %#v.
func (e Endpoint) GoString() string { return e.String() }

// LogValue is String, for log/slog.
func (e Endpoint) LogValue() slog.Value { return slog.StringValue(e.String()) }
