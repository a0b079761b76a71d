package ordermsg

import (
	"cmp"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/go-json-experiment/json"
	"github.com/hashicorp/go-retryablehttp"
	"github.com/ordermsg/ordermsg-go/internal/resources"
	"github.com/ordermsg/ordermsg-go/internal/urls"
	"golang.org/x/net/http/httpguts"
)

// Version is the version of this SDK, sent in the User-Agent header: the
// release this source is (before the first release, the first release's).
// The release script sets it with the modules' versions (RELEASING.md).
const Version = "0.1.0"

const (
	defaultUserAgent      = "ordermsg-go/" + Version
	defaultAttemptTimeout = 30 * time.Second
	defaultMaxBodySize    = 64 << 20
)

// Client talks to the Order and Message Read API. It is safe for concurrent
// use. Make one with NewClient.
//
// The Client holds its services, as go-github's does: OrdersService,
// MessagesService and the resource that NewClient makes for each are the
// only names of the feature files that this file, of the request path's
// layer below them, uses.
type Client struct {
	// Orders reads a website's orders.
	Orders *OrdersService
	// Messages reads a website's messages.
	Messages *MessagesService

	baseURL        *url.URL
	credentials    *credentials
	httpClient     *http.Client
	retry          RetryPolicy
	versionHeader  string
	versionValue   string
	versionHint    string // how to set another version header, for a 400's Hint (versionHeaderHint)
	userAgent      string
	logger         *slog.Logger
	attemptTimeout time.Duration
	maxBodySize    int64
	observer       *Observer             // WithObserver's; nil when nothing is observed
	apiSender      *retryablehttp.Client // sends every attempt of an API call (see initSenders)
	fileSender     *retryablehttp.Client // and of a download
}

// Option configures a Client; the With functions make them.
type Option func(*settings) error

// settings are what the options set: the client, and what only NewClient needs.
type settings struct {
	Client
	allowHTTP  bool // WithAllowHTTP was given
	timeoutSet bool // WithAttemptTimeout was given
}

// WithHTTPClient sets the HTTP client whose transport carries the requests,
// under the SDK's retries: httpmock's transport plugs in here. The client is
// copied, not changed; the copy gets the SDK's redirect policy and, unless
// hc sets a Timeout and WithAttemptTimeout is not given, the attempt timeout.
func WithHTTPClient(hc *http.Client) Option {
	return func(s *settings) error {
		if hc == nil {
			return invalidArgument("WithHTTPClient: nil client")
		}
		s.httpClient = hc
		return nil
	}
}

// WithRetry sets the retry policy. WithRetry(RetryPolicy{}) turns retrying
// off: tests on httpmock fixtures want it, so that an error fixture (a 429
// or a 5xx, such as ordermsgtest.ErrorResponder's) or a URL without a
// responder (httpmock's error, which the client takes for a network
// failure) comes back at once rather than after three retries and their
// backoff.
func WithRetry(p RetryPolicy) Option {
	return func(s *settings) error {
		np, err := p.normalized()
		s.retry = np
		return err
	}
}

// DefaultVersionHeader and DefaultAPIVersion are the version header a client
// sends without WithVersionHeader: Service-Api-Version: 1, as the API's
// documentation writes it. The word Service stands for the maker's name,
// which the real service expects instead: set it with WithVersionHeader.
const (
	DefaultVersionHeader = "Service-Api-Version"
	DefaultAPIVersion    = "1"
)

// WithVersionHeader sets the name and value of the version header sent with
// every request, in place of DefaultVersionHeader: DefaultAPIVersion. The
// API's documentation writes the name with the neutral word Service where
// the maker's name stands: give the real one, such as
// WithVersionHeader("Acme-Api-Version", "1"). CheckVersionHeader says which
// names and values are refused; NewClient returns its *VersionHeaderError.
func WithVersionHeader(name, value string) Option {
	return func(s *settings) error {
		if err := CheckVersionHeader(name, value); err != nil {
			return err
		}
		s.versionHeader, s.versionValue = http.CanonicalHeaderKey(name), value
		return nil
	}
}

// CheckVersionHeader reports whether name and value can be sent as the
// version header: name must be an HTTP token (letters, digits and
// !#$%&'*+-.^_`|~) that neither the client nor net/http sets, drops or acts
// on itself (Authorization, Accept, User-Agent, Host, Content-Length,
// Transfer-Encoding, Trailer, Connection, Keep-Alive, TE, Upgrade,
// Accept-Encoding, Range, If-Range, Expect, Cookie, Cookie2,
// Www-Authenticate, Referer, Content-Type, Content-Encoding,
// Content-Language, Content-Location, and every Proxy-* header: see
// reservedHeaders), and value a non-empty header value
// without control characters and without leading or trailing white space
// (net/http trims it on the wire, while httpmock's transport sees it: the
// two would disagree). WithVersionHeader, ParseVersionHeader (and so
// NewClientFromEnv and the command-line tool) and the fake's
// ordermsgtest.WithVersionHeader all use it.
//
// Its error is a *VersionHeaderError, which matches ErrInvalidArgument. It
// never shows value, which may be a key given in the wrong place, and names
// name only when it is one of the reserved headers above.
func CheckVersionHeader(name, value string) error {
	if reason := versionHeaderProblem(name, value); reason != "" {
		return &VersionHeaderError{Source: "WithVersionHeader", Reason: reason}
	}
	return nil
}

// versionHeaderProblem says what is wrong with name and value as the
// version header (CheckVersionHeader), or "" when nothing is.
func versionHeaderProblem(name, value string) string {
	switch canonical := http.CanonicalHeaderKey(name); {
	case name == "":
		return "the name is empty"
	case !httpguts.ValidHeaderFieldName(name):
		return "the name is not an HTTP token: letters, digits and !#$%&'*+-.^_`|~ only, without spaces or a colon"
	case reservedHeaders[canonical] != "":
		return canonical + " cannot be the version header: " + reservedHeaders[canonical]
	case strings.HasPrefix(canonical, "Proxy-"):
		return canonical + " cannot be the version header: " + proxyHeaders
	case value == "":
		return "the value is empty"
	case strings.Trim(value, " \t") != value:
		return "the value has leading or trailing white space, which net/http trims"
	case !httpguts.ValidHeaderFieldValue(value):
		return "the value contains a control character"
	default:
		return ""
	}
}

// Why each reserved header cannot carry the version: the client, or
// net/http beneath it, sets, drops or acts on it (read from net/http's
// request writing, its HTTP/2 header encoding, its transport and its
// redirects).
const (
	clientHeaders     = "the client sets it on every request"
	writtenHeaders    = "net/http writes it from the request itself and drops a value set by hand"
	connectionHeaders = "it is about the connection, which net/http manages; HTTP/2 drops or refuses it"
	proxyHeaders      = "it is for proxies, which net/http talks to itself"
	bodyHeaders       = "it describes a request's body, and net/http's redirects (301, 302, 303) drop it"
)

// reservedHeaders are the header names, canonical, that the version header
// may not take, with the reason; every Proxy-* name is refused too.
var reservedHeaders = map[string]string{
	"Authorization":     clientHeaders,
	"Accept":            clientHeaders,
	"User-Agent":        clientHeaders,
	"Host":              writtenHeaders,
	"Content-Length":    writtenHeaders,
	"Transfer-Encoding": writtenHeaders,
	"Trailer":           writtenHeaders,
	"Connection":        connectionHeaders,
	"Keep-Alive":        connectionHeaders,
	"Te":                connectionHeaders,
	"Upgrade":           connectionHeaders,
	"Accept-Encoding":   "net/http asks for gzip itself and, when it is set by hand, leaves the body compressed",
	"Range":             "it asks for part of the body, which downloads set themselves to resume",
	"If-Range":          "it goes with Range, which downloads set themselves to resume",
	"Expect":            "net/http acts on it (Expect: 100-continue) rather than pass it on",
	"Cookie":            "net/http's cookie jar and redirects rewrite or drop it",
	"Cookie2":           "net/http's redirects drop it",
	"Www-Authenticate":  "net/http's redirects to another host drop it, as they drop credentials",
	"Referer":           "it names the page a request came from, which net/http sets on a redirect, and drops on one from https to http",
	"Content-Type":      bodyHeaders,
	"Content-Encoding":  bodyHeaders,
	"Content-Language":  bodyHeaders,
	"Content-Location":  bodyHeaders,
}

// WithUserAgent puts product (such as "my-app/1.2") before the SDK's own
// User-Agent. It must be a valid header value: no control characters.
func WithUserAgent(product string) Option {
	return func(s *settings) error {
		if !httpguts.ValidHeaderFieldValue(product) {
			return invalidArgument("WithUserAgent: the product must be a header value without control characters")
		}
		if product != "" {
			s.userAgent = product + " " + defaultUserAgent
		}
		return nil
	}
}

// WithLogger makes the client log retries at debug level. Log lines never
// carry credentials. Without it the client is silent.
func WithLogger(l *slog.Logger) Option {
	return func(s *settings) error {
		s.logger = l
		return nil
	}
}

// WithAllowHTTP allows a plain http:// base URL for a host that is not
// loopback. Without it such a URL is refused, since it would send the API
// key in the clear.
func WithAllowHTTP() Option {
	return func(s *settings) error {
		s.allowHTTP = true
		return nil
	}
}

// WithAttemptTimeout bounds each attempt of a request, body included, so that
// a server that never answers cannot hang a caller who set no deadline. A
// timed-out attempt is retried. The default is 30s; 0 turns it off.
func WithAttemptTimeout(d time.Duration) Option {
	return func(s *settings) error {
		if d < 0 {
			return invalidArgument("WithAttemptTimeout: negative duration")
		}
		s.attemptTimeout, s.timeoutSet = d, true
		return nil
	}
}

// WithMaxBodySize caps the size of a successful response body; a larger one
// fails with ErrBodyTooLarge instead of filling memory. The default is 64 MiB.
func WithMaxBodySize(n int64) Option {
	return func(s *settings) error {
		if n <= 0 {
			return invalidArgument("WithMaxBodySize: size must be positive")
		}
		s.maxBodySize = n
		return nil
	}
}

// NewClient returns a client for the API at baseURL (which may carry a path
// prefix, as in https://host/v1) that authenticates with apiKey.
//
// It refuses a base URL that is not an absolute http(s) URL or that carries
// credentials, a query or a fragment, plain http to a host that is not
// loopback unless WithAllowHTTP is given, and a key that HTTP Basic
// authentication cannot carry as a user-id: empty, with a colon or a control
// character, with leading or trailing white space, or a URL (the arguments
// swapped); and a base URL with the key in its host or path (a key of 8
// characters or more), which would show it wherever the URL is shown. Its errors match ErrInvalidArgument and never show the key, nor
// the base URL's userinfo or query.
//
// Without WithHTTPClient, requests go through a clone of
// http.DefaultTransport, or through http.DefaultTransport itself when it is
// not an *http.Transport (after httpmock.Activate, or when a tracing
// wrapper has replaced it).
func NewClient(baseURL, apiKey string, opts ...Option) (*Client, error) {
	if err := checkAPIKey(apiKey); err != nil {
		return nil, err
	}
	s := &settings{Client: Client{
		credentials:    &credentials{authorization: "Basic " + base64.StdEncoding.EncodeToString([]byte(apiKey+":"))},
		retry:          DefaultRetryPolicy(),
		versionHeader:  DefaultVersionHeader,
		versionValue:   DefaultAPIVersion,
		versionHint:    versionHeaderHint("with WithVersionHeader"),
		userAgent:      defaultUserAgent,
		attemptTimeout: defaultAttemptTimeout,
		maxBodySize:    defaultMaxBodySize,
	}}
	for _, opt := range opts {
		if err := opt(s); err != nil {
			return nil, err
		}
	}
	u, err := parseBaseURL(baseURL, apiKey, s.allowHTTP)
	if err != nil {
		return nil, err
	}
	c := &s.Client
	c.baseURL = u
	var hc http.Client
	if c.httpClient != nil {
		hc = *c.httpClient
	} else {
		hc.Transport = defaultTransport()
	}
	if s.timeoutSet || hc.Timeout == 0 {
		hc.Timeout = c.attemptTimeout
	}
	next := hc.CheckRedirect
	hc.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if err := c.redirect(req, via); err != nil || next == nil {
			return err
		}
		// The caller's refusal is not retried either: the same answer
		// would come again. ErrUseLastResponse is no refusal.
		err := next(req, via)
		if err != nil && !errors.Is(err, http.ErrUseLastResponse) {
			return final(err)
		}
		return err
	}
	c.httpClient = &hc
	c.initSenders()
	// The API's two resources: the path segment of each collection, and the
	// "object" of its records, as internal/resources names them for the
	// mirror and the tool too.
	c.Orders = &OrdersService{r: newResource[Order](c, resources.Orders)}
	c.Messages = &MessagesService{r: newResource[Message](c, resources.Messages)}
	return c, nil
}

// maxConcurrency is the most pages a walk fetches at once; the client's
// transport keeps as many idle connections per host, for the walk to reuse.
const maxConcurrency = 64

// defaultTransport is the transport of a client made without
// WithHTTPClient: a clone of http.DefaultTransport that keeps as many idle
// connections to the API as a walk has pages in flight (see
// WithConcurrency). A default transport that is not an *http.Transport (one
// that httpmock.Activate or a tracing wrapper put there) is used as it is.
func defaultTransport() http.RoundTripper {
	t, ok := http.DefaultTransport.(*http.Transport)
	if !ok {
		return http.DefaultTransport
	}
	t = t.Clone()
	t.MaxIdleConnsPerHost = maxConcurrency
	return t
}

// checkAPIKey refuses the keys NewClient's doc lists (RFC 7617: a user-id
// has no colon and no control character), without showing the key.
func checkAPIKey(key string) error {
	if u, err := url.Parse(key); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
		return invalidArgument("the API key looks like a URL: are the base URL and the key swapped?")
	}
	switch {
	case key == "":
		return invalidArgument("the API key is empty")
	case strings.TrimSpace(key) != key:
		return invalidArgument("the API key has leading or trailing white space")
	case strings.ContainsRune(key, ':'):
		return invalidArgument("the API key contains a colon, which HTTP Basic authentication cannot carry in a user-id")
	case strings.ContainsFunc(key, unicode.IsControl):
		return invalidArgument("the API key contains a control character")
	}
	return nil
}

// parseBaseURL checks and parses the base URL. Its errors show only its
// scheme, host and path, and only once it is an http(s) URL with a host and
// without the key: anything else may well be the key in the wrong place.
func parseBaseURL(raw, apiKey string, allowHTTP bool) (*url.URL, error) {
	u, err := url.Parse(raw)
	switch {
	case !strings.Contains(raw, "://") && (err != nil || u.Scheme != "http" && u.Scheme != "https"):
		// "127.0.0.1:8080" and "api.example.com" are a host without the scheme.
		return nil, invalidArgument("the base URL has no scheme: begin it with https:// (or http:// for a loopback host, as in http://127.0.0.1:8080)")
	case err != nil:
		return nil, invalidArgument("the base URL does not parse as a URL")
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, invalidArgument("the base URL must be an absolute http or https URL")
	case u.Host == "":
		return nil, invalidArgument("the base URL has no host")
	}
	shown := (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}).String()
	if strings.Contains(shown, apiKey) {
		shown = u.Scheme + "://[hidden]"
	}
	switch {
	case u.User != nil:
		return nil, invalidArgument("base URL %s must not carry credentials; pass the API key to NewClient", shown)
	case u.RawQuery != "" || u.ForceQuery || u.Fragment != "":
		return nil, invalidArgument("base URL %s must not have a query or fragment", shown)
	case u.Scheme == "http" && !allowHTTP && !urls.IsLoopback(u.Hostname()):
		return nil, &argumentError{kind: ErrPlainHTTP, msg: "ordermsg: base URL " + shown +
			": plain http to a host that is not loopback would send the API key in the clear; use https or WithAllowHTTP"}
	}
	if len(apiKey) >= minKeyInURL && strings.Contains(strings.ToLower(u.Host+u.Path), strings.ToLower(apiKey)) {
		return nil, invalidArgument("the base URL contains the API key: pass the key to NewClient only")
	}
	// One spelling for one base URL: the scheme and host in lower case, the
	// port as a plain number and only when it is not the scheme's default
	// (an empty port is the default), the path without dot segments or a
	// trailing slash.
	u.Scheme = strings.ToLower(u.Scheme)
	host := strings.ToLower(u.Hostname())
	if strings.Contains(host, ":") {
		host = "[" + host + "]" // an IPv6 literal
	}
	portText := u.Port()
	port, err := strconv.ParseUint(cmp.Or(portText, "0"), 10, 16)
	if err != nil {
		return nil, invalidArgument("base URL %s: the port is not a number from 0 to 65535", shown)
	}
	u.Host = host
	if portText != "" && !(u.Scheme == "http" && port == 80) && !(u.Scheme == "https" && port == 443) {
		u.Host = host + ":" + strconv.FormatUint(port, 10)
	}
	if u.Path != "" {
		u.Path = path.Clean(u.Path)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	return u, nil
}

// minKeyInURL is the length from which an API key found in the base URL is
// taken for the key put there by mistake: a shorter one could be a word of
// the path by chance.
const minKeyInURL = 8

// redirect is the client's redirect policy. It refuses, without retry, a
// scheme other than http(s), a change of scheme (https to http would expose
// the request; http to https is another origin, where the key would not go,
// so the answer could only be a puzzling 401), and an eleventh request. It
// drops Authorization from every hop from the first off the client's origin
// on: net/http keeps it for the same host on another port or scheme, and for
// subdomains.
func (c *Client) redirect(req *http.Request, via []*http.Request) error {
	from := via[len(via)-1].URL
	var why string
	switch {
	case req.URL.Scheme != "http" && req.URL.Scheme != "https":
		why = fmt.Sprintf("the scheme %q is not http or https", req.URL.Scheme)
	case req.URL.Scheme != from.Scheme:
		why = fmt.Sprintf("it goes from %s to %s", from.Scheme, req.URL.Scheme)
	case len(via) >= 10:
		why = "stopped after 10 redirects"
	}
	if why != "" {
		return final(fmt.Errorf("refused redirect to %s: %s", urls.Redact(req.URL), why))
	}
	elsewhere := func(r *http.Request) bool { return !urls.SameOrigin(r.URL, c.baseURL) }
	if elsewhere(req) || slices.ContainsFunc(via, elsewhere) {
		req.Header.Del("Authorization")
	}
	return nil
}

// credentials holds the Authorization header value. It sits behind a pointer
// so that fmt, printing a Client at any depth, prints an address, never the
// key; printed itself, it is [redacted].
type credentials struct{ authorization string }

func (*credentials) String() string   { return "[redacted]" }
func (*credentials) GoString() string { return "[redacted]" }

// String describes the client without its API key.
func (c *Client) String() string {
	if c == nil {
		return "ordermsg.Client(nil)"
	}
	return fmt.Sprintf("ordermsg.Client{BaseURL: %q, APIKey: [redacted]}", c.baseURL.String())
}

// GoString is String, so %#v never shows the API key either.
func (c *Client) GoString() string { return c.String() }

// Format prints String for every verb, so no formatting of a Client, however
// deep, reveals the API key.
func (c Client) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, c.String()) }

// Get reads path (such as "/websites/1/orders/2", relative to the base URL)
// with the query and decodes the JSON response into v: the escape hatch for
// what the typed methods do not cover, with their retries and errors.
func (c *Client) Get(ctx context.Context, path string, query url.Values, v any) error {
	segments := strings.Split(path, "/")
	if !strings.HasPrefix(path, "/") || strings.ContainsAny(path, "?#\\") || slices.Contains(segments, ".") || slices.Contains(segments, "..") {
		return invalidArgument("Get: path %q must start with / and have no query, fragment or dot segments", path)
	}
	var w *callWatch
	if c.observer != nil {
		ctx, w = c.watch(ctx, c.rawGetOperation(path))
	}
	a, err := c.get(ctx, w, path, query)
	if err == nil {
		err = newDecodeError(a.url, json.Unmarshal(a.body, v, codecOptions))
	}
	w.done(0, err)
	return err
}

// BaseURL returns the base URL the client was made for in one spelling:
// scheme and host in lower case, the port unless it is the scheme's
// default, and the path without a trailing slash. It never carries
// credentials: NewClient refuses a base URL with userinfo, a query, or the
// API key in it.
func (c *Client) BaseURL() string { return c.baseURL.String() }

// CloseIdleConnections closes the idle keep-alive connections of the
// client's transport. A program that is done with the client may call it.
func (c *Client) CloseIdleConnections() { c.httpClient.CloseIdleConnections() }
