package ordermsg

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/hashicorp/go-retryablehttp"
	"github.com/ordermsg/ordermsg-go/internal/bodybuf"
	"github.com/ordermsg/ordermsg-go/internal/stallwatch"
	"github.com/ordermsg/ordermsg-go/internal/urls"
)

// This file is the request path of every request the client sends, an API
// call (Client.get) or a file download (Client.getFile), read top to
// bottom: build the request; send it through go-retryablehttp, whose
// Client.Do is the one attempt loop; read the body inside the attempt, in
// the request's response handler; decide, in CheckRetry, whether the
// attempt's error is retried after a wait or ends the call (see
// initSenders). The policy's numbers (RetryPolicy, the waits, Retry-After)
// are in retry.go.

// answer is a 2xx response to an API call, its body read in full and
// closed.
type answer struct {
	url      string // the request's URL, as errors show it
	body     []byte // in buf, a buffer of bodybuf's pool
	buf      *[]byte
	header   http.Header
	status   int
	received time.Time // when the body had been read
}

// decoded is called once the body has been decoded: the buffer goes back
// to the pool, for the next body, since nothing a decode returns holds a
// byte of it (the decoders copy what they keep, the raw JSON of a record or
// a page and a RawRecord's bytes too; TestLentBodiesAreNotRetained).
// Reading a page without allocating it pays (BENCHMARKS.md, "Decoding a
// list page against ogen"). Client.Get, which decodes into the caller's
// types, leaves its buffer to the collector instead.
func (a *answer) decoded() {
	if a.buf != nil {
		bodybuf.Put(a.buf)
		a.buf, a.body = nil, nil
	}
}

// report sets *into, when into is not nil, to the answer's Response.
func (a *answer) report(into *Response) {
	if into != nil {
		*into = Response{StatusCode: a.status, Header: a.header, ReceivedAt: a.received}
	}
}

// get is the request path of an API call: a GET for path (under the base
// URL) with query, whose 2xx answer it returns; any other answer is an
// *APIError, and a request that got no answer to return a requestError.
// The caller decodes the body: a body that is not the JSON expected is not
// retried. w, when not nil, watches the call's attempts and retries.
func (c *Client) get(ctx context.Context, w *callWatch, path string, query url.Values) (*answer, error) {
	if ctx == nil {
		return nil, invalidArgument("nil context")
	}
	// Build the request.
	endpoint := *c.baseURL
	endpoint.Path += path
	endpoint.RawQuery = encodeQuery(query)
	u := endpoint.String()
	req, err := retryablehttp.NewRequestWithContext(withCall(ctx, &call{url: u, watch: w}), http.MethodGet, u, nil)
	if err != nil {
		return nil, fmt.Errorf("ordermsg: %w", err)
	}
	req.Header.Set("Authorization", c.credentials.authorization)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	req.Header.Set(c.versionHeader, c.versionValue)

	// Read each attempt's body inside the attempt, so that a body cut off
	// midway is retried like a dropped connection: a 2xx body up to the
	// client's maximum, any other answer as the *APIError that CheckRetry
	// decides on.
	var got *answer
	buf := bodybuf.Get() // each attempt reads a 2xx body into it
	req.SetResponseHandler(w.handler(func(resp *http.Response) error {
		status, body, err := readBody(resp, c.maxBodySize, buf)
		switch {
		case err != nil:
			return err
		case status < 200 || status > 299:
			e := newAPIError(http.MethodGet, u, status, resp.Header, body)
			if status == http.StatusBadRequest && c.versionHeader == DefaultVersionHeader && mayBeAboutTheVersion(e) {
				e.Hint = c.versionHint
			}
			return e
		}
		got = &answer{url: u, body: body, buf: buf, header: resp.Header, status: status, received: time.Now()}
		return nil
	}))

	// Send it; decide.
	if _, err := c.apiSender.Do(req); err != nil {
		bodybuf.Put(buf)
		return nil, callFailed(ctx, u, err)
	}
	return got, nil
}

// getFile is the request path of a download (Client.Download): req, made
// ready by prepare before each attempt (an expired link is refused there,
// and a Range asks for the bytes not yet written), is sent through the
// client's retries as an API call is, and write reads each answer inside its
// attempt. An attempt that wrote bytes before it was cut ends its series of
// retries: write returns a *resumeError, and a new series starts at once
// from where the file stands, its first attempt counted as its first retry,
// so that a large file cut many times still arrives: the policy's retries
// bound the attempts in a row that bring nothing (with MaxRetries 0, a cut
// is not resumed). url is req's URL as errors show it: without secrets; w,
// when not nil, watches the call's attempts and retries.
func (c *Client) getFile(ctx context.Context, w *callWatch, req *http.Request, url string, prepare func(*http.Request) error, write func(*http.Response) error) error {
	cl := &call{url: url, prepare: prepare, watch: w}
	req = req.WithContext(withCall(ctx, cl))
	for resumed := 0; ; resumed = 1 {
		if err := prepare(req); err != nil {
			return err
		}
		rreq := &retryablehttp.Request{Request: req}
		rreq.SetResponseHandler(w.handler(write))
		cl.granted = resumed
		_, err := c.fileSender.Do(rreq)
		var resume *resumeError
		switch {
		case err == nil:
			return nil
		case errors.As(err, &resume) && ctx.Err() == nil && c.retry.MaxRetries > 0:
			w.retry(0, resume.err) // a retry without a wait: the observer counts it
			if c.logger != nil {
				c.logger.DebugContext(ctx, "ordermsg: resuming download", "method", http.MethodGet, "url", url, "error", causeText(resume.err))
			}
			continue
		}
		return callFailed(ctx, url, urls.RedactError(err))
	}
}

// resumeError is the error of a download attempt cut after it wrote bytes
// (see getFile).
type resumeError struct{ err error }

func (e *resumeError) Error() string { return e.err.Error() }
func (e *resumeError) Unwrap() error { return e.err }

// call is what go-retryablehttp's callbacks need to know of the call whose
// attempts they decide on. One retryablehttp.Client serves every call of a
// Client (see initSenders), so a call's state travels in its request's
// context, where CheckRetry and PrepareRetry find it.
type call struct {
	url     string                    // as errors and logs show it
	granted int                       // retries granted so far, a download's earlier series counted (see getFile)
	prepare func(*http.Request) error // a download's, run before each retry
	watch   *callWatch                // the call's observation, nil without an Observer
}

// callKey is the context key of a request's *call.
type callKey struct{}

// withCall returns ctx carrying cl.
func withCall(ctx context.Context, cl *call) context.Context {
	return context.WithValue(ctx, callKey{}, cl)
}

// callOf returns the call that ctx carries, nil for none.
func callOf(ctx context.Context) *call {
	cl, _ := ctx.Value(callKey{}).(*call)
	return cl
}

// initSenders makes the two go-retryablehttp clients that send every
// attempt of c, once, for c's lifetime: one for API calls through
// c.httpClient, one for downloads through the same client without its
// overall timeout (stallwatch.Transport catches stalls instead, so that a
// large file has no time limit as a whole). go-retryablehttp runs the
// attempt loop (its Client.Do): it sends an attempt; asks CheckRetry about
// a transport error, or hands the answer to the request's response
// handler, which reads the body, and asks CheckRetry about the handler's
// error (CheckRetry says no to an answer before its body is read, so that
// every answer reaches the handler); and, when CheckRetry says retry, runs
// PrepareRetry and the next attempt. PassthroughErrorHandler makes Do
// return the last attempt's error, not "giving up after N attempts";
// Logger is nil, as the library's default logs to stderr.
//
// Two limits of the library shape this. Its Client.Do closes the idle
// connections of the http.Client it is given whenever a call ends in an
// error (v0.7.8, client.go:811): idleKept hides them, so that a 404 does
// not make every other call and walk dial again. And its Backoff gets no
// context, so it cannot find the call's state: checkRetry, which does,
// makes the wait itself, and Backoff's is zero.
func (c *Client) initSenders() {
	api := *c.httpClient
	api.Transport = idleKept{next: transportOf(c.httpClient)}
	files := *c.httpClient
	files.Timeout = 0
	files.Transport = idleKept{next: &stallwatch.Transport{Next: transportOf(c.httpClient), Timeout: c.attemptTimeout}}
	sender := func(hc *http.Client) *retryablehttp.Client {
		return &retryablehttp.Client{
			HTTPClient:     hc,
			Logger:         nil,
			RetryMax:       c.retry.MaxRetries,
			CheckRetry:     c.checkRetry,
			Backoff:        func(time.Duration, time.Duration, int, *http.Response) time.Duration { return 0 },
			PrepareRetry:   prepareRetry,
			ErrorHandler:   retryablehttp.PassthroughErrorHandler,
			RequestLogHook: c.attemptHook(), // run before each attempt
		}
	}
	c.apiSender, c.fileSender = sender(&api), sender(&files)
}

// transportOf is hc's transport, http.DefaultTransport when it has none.
func transportOf(hc *http.Client) http.RoundTripper {
	if hc.Transport == nil {
		return http.DefaultTransport
	}
	return hc.Transport
}

// idleKept is a transport without CloseIdleConnections, for the HTTP
// clients that go-retryablehttp is given (see initSenders): their
// CloseIdleConnections then does nothing, and the connections stay pooled
// for the next call. Client.CloseIdleConnections still reaches them.
type idleKept struct{ next http.RoundTripper }

func (t idleKept) RoundTrip(req *http.Request) (*http.Response, error) { return t.next.RoundTrip(req) }

// checkRetry is the senders' CheckRetry: when retryWait grants a retry,
// it counts it, logs it and waits, a wait that the context ends early.
func (c *Client) checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	cl := callOf(ctx)
	if cl != nil && err != nil {
		// An attempt that failed before its response handler ran (no
		// answer, or one that net/http returns with the error of a refused
		// redirect) ends here; a handler's has ended already.
		status := 0
		if resp != nil {
			status = resp.StatusCode
		}
		cl.watch.attemptDone(status, err)
	}
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	if cl == nil {
		return false, nil
	}
	w, ok := c.retryWait(ctx, cl, resp, err)
	if !ok {
		return false, nil
	}
	cl.granted++
	cl.watch.retry(w, err)
	if c.logger != nil {
		args := []any{"method", http.MethodGet, "url", cl.url, "attempt", cl.granted + 1, "wait", w}
		var apiErr *APIError
		if errors.As(err, &apiErr) {
			args = append(args, "status", apiErr.StatusCode)
		} else {
			args = append(args, "error", causeText(err))
		}
		c.logger.DebugContext(ctx, "ordermsg: retrying request", args...)
	}
	wait := time.NewTimer(w)
	defer wait.Stop()
	select {
	case <-ctx.Done():
		return false, ctx.Err()
	case <-wait.C:
		return true, nil
	}
}

// retryWait says whether cl's attempt that ended with err (resp is its
// answer, nil when there was none) is retried, and after what wait: what
// retryable allows, within MaxRetries, unless a Retry-After asks for
// longer than MaxWait (the *APIError, with RetryAfter, is then returned),
// or the context's deadline comes before the wait would end (the last
// error is then returned at once). RetryMax says the same limit to the
// library, so that a retry granted here is one that is made.
func (c *Client) retryWait(ctx context.Context, cl *call, resp *http.Response, err error) (time.Duration, bool) {
	p := c.retry
	if err == nil || !retryable(err) || cl.granted >= p.MaxRetries {
		return 0, false
	}
	w := p.backoff(cl.granted, rand.Int64N)
	if resp != nil && retryableStatus(resp.StatusCode) {
		if ra, ok := retryAfter(resp.Header, time.Now()); ok {
			w = ra
		}
	}
	if w > p.MaxWait {
		return 0, false // only a Retry-After can ask for more
	}
	if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < w {
		return 0, false
	}
	return w, true
}

// prepareRetry is the senders' PrepareRetry: a download's prepare.
func prepareRetry(req *http.Request) error {
	if cl := callOf(req.Context()); cl != nil && cl.prepare != nil {
		return cl.prepare(req)
	}
	return nil
}

// newAPIError is the error of an answer whose status is not 2xx; a 429 or
// 503 gets its Retry-After.
func newAPIError(method, url string, status int, header http.Header, body []byte) *APIError {
	e := &APIError{
		StatusCode: status,
		Method:     method,
		URL:        url,
		Message:    errorMessage(status, body),
		Body:       body,
		Header:     header,
	}
	if status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable {
		e.RetryAfter, _ = retryAfter(header, time.Now())
	}
	return e
}

// versionHeaderHint is the Hint of a 400 to a request that sent
// DefaultVersionHeader, ending with how the client's user sets another:
// "with WithVersionHeader", or the variable NewClientFromEnv reads.
func versionHeaderHint(how string) string {
	return "the request sent the version header under the documentation's neutral name, " +
		DefaultVersionHeader + ", where Service stands for the maker's name: if the service expects its real name, set it " + how
}

// mayBeAboutTheVersion reports whether e, a 400, may be the service's
// refusal of the version header: its body (which holds its message)
// mentions a version, as DefaultVersionHeader's name does too, or it says
// nothing: no message, and a body that is empty or JSON. A message, or a
// body of text, that does not mention a version points elsewhere.
func mayBeAboutTheVersion(e *APIError) bool {
	if bytes.Contains(bytes.ToLower(e.Body), []byte("version")) {
		return true
	}
	body := bytes.TrimSpace(e.Body)
	return e.Message == http.StatusText(e.StatusCode) && (len(body) == 0 || jsontext.Value(body).IsValid())
}

// bodyReadError is a failure to read a response body to its end (retried).
type bodyReadError struct{ err error }

func (e *bodyReadError) Error() string { return "reading response body: " + e.err.Error() }
func (e *bodyReadError) Unwrap() error { return e.err }

// readBody reads and closes resp's body: a 2xx body up to limit (beyond it,
// ErrBodyTooLarge), into buf when it is not nil (buf then holds the slice
// read), any other up to maxErrorBody. A 1xx final answer (a 101
// hands over the raw connection as its body) is closed unread. The
// request's context, with the attempt timeout, closes the body under a read
// that outlasts it.
func readBody(resp *http.Response, limit int64, buf *[]byte) (status int, body []byte, err error) {
	defer resp.Body.Close()
	if resp.StatusCode < 200 {
		return resp.StatusCode, nil, nil
	}
	if resp.Request != nil {
		stop := context.AfterFunc(resp.Request.Context(), func() { resp.Body.Close() })
		defer stop()
	}
	ok := resp.StatusCode <= 299
	if ok && resp.ContentLength > limit {
		return 0, nil, bodyTooLarge("Content-Length %d exceeds the limit of %d bytes", resp.ContentLength, limit)
	}
	if !ok {
		limit = maxErrorBody
	}
	if ok && buf != nil {
		body, err = bodybuf.ReadInto(*buf, resp.Body, limit+1)
		*buf = body[:0] // the pooled buffer, or a larger one that replaces it
	} else {
		body, err = bodybuf.ReadAtMost(resp.Body, limit+1)
	}
	if err != nil && ok {
		return 0, nil, &bodyReadError{err: err}
	}
	if int64(len(body)) > limit {
		if ok {
			return 0, nil, bodyTooLarge("more than %d bytes", limit)
		}
		body = body[:limit]
	}
	return resp.StatusCode, body, nil
}

// encodeQuery is url.Values.Encode, except that the commas between includes
// are sent as commas, as the spec's "comma separated list" reads, not as %2C.
// An include cannot hold a comma of its own (checkIncludes).
func encodeQuery(q url.Values) string {
	var pairs []string
	for _, k := range slices.Sorted(maps.Keys(q)) {
		for _, v := range q[k] {
			v = url.QueryEscape(v)
			if k == "includes" {
				v = strings.ReplaceAll(v, "%2C", ",")
			}
			pairs = append(pairs, url.QueryEscape(k)+"="+v)
		}
	}
	return strings.Join(pairs, "&")
}
