// Package contract holds the SDK and its fake (package ordermsgtest) to the
// API's machine-readable description, ordermsgtest/openapi.yaml (which
// ordermsgtest.OpenAPIDocument returns).
//
// It is a module of its own so that the validator it uses
// (github.com/getkin/kin-openapi) never becomes a requirement of code that
// imports the SDK. Its tests drive every operation, option and include of
// the SDK against the fake through a Checker's transport, which records
// and validates each request and the response it got; broken copies of the
// document must fail that check. With ORDERMSG_CHECK_EXCHANGE_LOG set, they
// also check every exchange the other suites had with a fake (logged
// through ORDERMSG_EXCHANGE_LOG; see .ci/run).
package contract

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// Checker validates HTTP exchanges against an OpenAPI 3.1 document.
type Checker struct {
	router routers.Router
}

// Load parses and validates an OpenAPI 3.1 document, and returns a Checker
// for exchanges with the services at baseURLs (such as
// "http://127.0.0.1:41234"), which stand for the document's {base_url}.
func Load(ctx context.Context, document []byte, baseURLs ...string) (*Checker, error) {
	doc, err := openapi3.NewLoader().LoadFromData(document)
	if err != nil {
		return nil, fmt.Errorf("contract: loading the document: %w", err)
	}
	if !doc.IsOpenAPI31OrLater() {
		return nil, fmt.Errorf("contract: the document is OpenAPI %s, want 3.1", doc.OpenAPI)
	}
	if err := doc.Validate(ctx); err != nil {
		return nil, fmt.Errorf("contract: the document is not valid OpenAPI 3.1: %w", err)
	}
	doc.Servers = nil
	for _, u := range baseURLs {
		doc.Servers = append(doc.Servers, &openapi3.Server{URL: strings.TrimRight(u, "/")})
	}
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("contract: routing the document's paths: %w", err)
	}
	return &Checker{router: router}, nil
}

// Exchange is a request and the response it got, as a Checker's transport
// records it. Status is 0 when no response came (a transport error).
type Exchange struct {
	Request *http.Request
	Status  int
	Header  http.Header
	Body    []byte
}

// Check validates an exchange: the request, then the response if there is
// one and the request matched an operation.
func (c *Checker) Check(ctx context.Context, ex Exchange) error {
	_, err := c.check(ctx, ex)
	return err
}

// check is Check that also returns the operationId the request matched, or
// "".
func (c *Checker) check(ctx context.Context, ex Exchange) (string, error) {
	in, err := c.CheckRequest(ctx, ex.Request.Clone(ctx))
	if in == nil || in.Route == nil {
		return "", err
	}
	if ex.Status != 0 {
		err = errors.Join(err, c.CheckResponse(ctx, in, ex.Status, ex.Header, ex.Body))
	}
	return in.Route.Operation.OperationID, err
}

// CheckRequest validates a request: its operation (method and path), every
// query parameter (each must be declared by the operation, once), its
// headers and its credentials.
func (c *Checker) CheckRequest(ctx context.Context, r *http.Request) (*openapi3filter.RequestValidationInput, error) {
	route, pathParams, err := c.router.FindRoute(r)
	if err != nil {
		return nil, fmt.Errorf("%s %s: no operation of the document: %w", r.Method, r.URL.Path, err)
	}
	in := &openapi3filter.RequestValidationInput{
		Request:    r,
		PathParams: pathParams,
		Route:      route,
		Options: &openapi3filter.Options{
			MultiError:          true,
			SkipSettingDefaults: true,
			AuthenticationFunc:  checkBasicAuth,
		},
	}
	errs := []error{undeclaredQuery(route.Operation, r)}
	if err := openapi3filter.ValidateRequest(ctx, in); err != nil {
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return in, fmt.Errorf("request %s %s: %w", r.Method, r.URL.RequestURI(), err)
	}
	return in, nil
}

// CheckResponse validates the response to a request that CheckRequest
// accepted: its status, headers and body.
func (c *Checker) CheckResponse(ctx context.Context, req *openapi3filter.RequestValidationInput, status int, header http.Header, body []byte) error {
	out := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: req,
		Status:                 status,
		Header:                 header,
		Options:                &openapi3filter.Options{MultiError: true, IncludeResponseStatus: true},
	}
	out.SetBodyBytes(body)
	if err := openapi3filter.ValidateResponse(ctx, out); err != nil {
		return fmt.Errorf("response %d to %s: %w", status, req.Request.URL.RequestURI(), err)
	}
	return nil
}

// undeclaredQuery reports query parameters the operation does not declare,
// and declared ones given more than once.
func undeclaredQuery(op *openapi3.Operation, r *http.Request) error {
	var declared []string
	for _, p := range op.Parameters {
		if p.Value != nil && p.Value.In == openapi3.ParameterInQuery {
			declared = append(declared, p.Value.Name)
		}
	}
	var errs []error
	for name, values := range r.URL.Query() {
		switch {
		case !slices.Contains(declared, name):
			errs = append(errs, fmt.Errorf("query parameter %q is not declared by %s", name, op.OperationID))
		case len(values) > 1:
			errs = append(errs, fmt.Errorf("query parameter %q is given %d times", name, len(values)))
		}
	}
	return errors.Join(errs...)
}

// checkBasicAuth holds the credentials to the spec's rule: HTTP Basic, the
// API key as the username, an empty password. OpenAPI's http/basic scheme
// cannot say the last two.
func checkBasicAuth(_ context.Context, in *openapi3filter.AuthenticationInput) error {
	s := in.SecurityScheme
	if s == nil || s.Type != "http" || !strings.EqualFold(s.Scheme, "basic") {
		return in.NewError(fmt.Errorf("unexpected security scheme %q", in.SecuritySchemeName))
	}
	user, password, ok := in.RequestValidationInput.Request.BasicAuth()
	switch {
	case !ok:
		return in.NewError(errors.New("no Basic credentials"))
	case user == "":
		return in.NewError(errors.New("empty API key"))
	case password != "":
		return in.NewError(errors.New("the password must be empty"))
	}
	return nil
}

// Report collects what a Checker's transport found; the zero Report is
// ready to use. It is safe for concurrent use.
type Report struct {
	mu         sync.Mutex
	violations []error
	operations map[string]int
	exchanges  []Exchange
}

// Violations returns every violation found so far.
func (r *Report) Violations() []error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.violations)
}

// Exchanges returns every exchange checked so far, in the order they ended.
func (r *Report) Exchanges() []Exchange {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.exchanges)
}

// Operations counts the checked exchanges by operationId and status, such
// as "listOrders 200".
func (r *Report) Operations() map[string]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make(map[string]int, len(r.operations))
	for k, v := range r.operations {
		out[k] = v
	}
	return out
}

// record adds an exchange, what checking it found, and its operation.
func (r *Report) record(ex Exchange, operationID string, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.exchanges = append(r.exchanges, ex)
	if err != nil {
		r.violations = append(r.violations, err)
	}
	if operationID != "" && ex.Status != 0 {
		if r.operations == nil {
			r.operations = map[string]int{}
		}
		r.operations[fmt.Sprintf("%s %d", operationID, ex.Status)]++
	}
}

// Transport returns a RoundTripper that checks every request before next
// sends it and every response next returns, adding what it finds to report.
// The exchange itself goes through unchanged, valid or not.
func (c *Checker) Transport(next http.RoundTripper, report *Report) http.RoundTripper {
	return &checkingTransport{checker: c, next: next, report: report}
}

type checkingTransport struct {
	checker *Checker
	next    http.RoundTripper
	report  *Report
}

func (t *checkingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	ctx := r.Context()
	ex := Exchange{Request: r.Clone(ctx)}
	resp, err := t.next.RoundTrip(r)
	if err == nil {
		var body []byte
		body, err = io.ReadAll(resp.Body)
		resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(body))
		if err != nil {
			// A body cut off by the network is not the server's answer:
			// the client sees the read error, and only the request is
			// checked.
			resp.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), errorReader{err}))
		} else {
			ex.Status, ex.Header, ex.Body = resp.StatusCode, resp.Header.Clone(), body
		}
	}
	operationID, checkErr := t.checker.check(ctx, ex)
	t.report.record(ex, operationID, checkErr)
	if resp == nil {
		return nil, err
	}
	return resp, nil
}

type errorReader struct{ err error }

func (e errorReader) Read([]byte) (int, error) { return 0, e.err }
