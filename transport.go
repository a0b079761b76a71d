package ordermsg

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/google/go-querystring/query"
	"github.com/hashicorp/go-retryablehttp"
	"github.com/ordermsg/ordermsg-go/internal/bodybuf"
)

// Response is the HTTP response behind a successful call: set the Response
// field of a call's options to a *Response to receive it, as in
// ExampleResponse. Its body has been read and decoded; what is left is what
// the API's documentation does not describe, such as a request id or a rate
// limit in the headers.
type Response struct {
	// StatusCode is the HTTP status code: 2xx.
	StatusCode int
	// Header is the response's header.
	Header http.Header
	// ReceivedAt is when the body had been read in full, by this machine's
	// clock: which of two reads of a record is the later.
	ReceivedAt time.Time
}

// response is a response whose body is read (up to the caps) and closed.
type response struct {
	status   int
	header   http.Header
	body     []byte
	buf      *[]byte   // when set, the pooled buffer body is in (bodybuf.Get)
	received time.Time // when the body had been read
}

// release gives r's pooled buffer back. r.body must not be used after it.
func (r *response) release() {
	if r.buf != nil {
		bodybuf.Put(r.buf)
		r.buf, r.body = nil, nil
	}
}

// call is the state of one request across its attempts.
type call struct {
	c        *Client
	url      string        // the request's URL as errors and logs show it
	retries  int           // retries made so far
	wait     time.Duration // the wait before the next retry, fixed by decideRetry
	answered bool          // the handler took the last response as the answer
	resp     *response     // the last response read by readBody
	lend     bool          // a 2xx body is read into a pooled buffer (see Client.do)
}

// do sends a GET for path with query and hands a 2xx body to decode; into,
// when not nil, receives the response once decode has returned nil. The body
// is read inside the attempt (readBody), so that one cut off midway is
// retried like a dropped connection. With lend, decode promises to keep
// nothing of the body once it returns nil (the decoders of pages and records
// without KeepRawJSON copy strings, Unknown members and FieldValues.Raw), and
// the body is read into a pooled buffer that goes back to the pool then.
func (c *Client) do(ctx context.Context, path string, query url.Values, lend bool, into *Response, decode func(url string, body []byte) error) error {
	if ctx == nil {
		return invalidArgument("nil context")
	}
	endpoint := *c.baseURL
	endpoint.Path += path
	endpoint.RawQuery = encodeQuery(query)
	u := endpoint.String()
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return fmt.Errorf("ordermsg: %w", err)
	}
	req.Header.Set("Authorization", c.credentials.authorization)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	req.Header.Set(c.versionHeader, c.versionValue)
	k := &call{c: c, url: u, lend: lend}
	if err := k.do(c.httpClient, req, k.readBody, nil); err != nil {
		return &requestError{url: u, err: err}
	}
	r := k.resp
	if r.status < 200 || r.status > 299 {
		e := newAPIError(http.MethodGet, u, r)
		switch r.status {
		case http.StatusTooManyRequests, http.StatusServiceUnavailable:
			e.RetryAfter, _ = retryAfter(r.header, time.Now())
		case http.StatusBadRequest:
			if c.versionHeader == DefaultVersionHeader && mayBeAboutTheVersion(e) {
				e.Hint = defaultVersionHeaderHint
			}
		}
		return e
	}
	if err := decode(u, r.body); err != nil {
		return err // the body may be in the error: its buffer is not reused
	}
	r.release()
	if into != nil {
		*into = Response{StatusCode: r.status, Header: r.header, ReceivedAt: r.received}
	}
	return nil
}

// bodyReadError is a failure to read a response body to its end (retried).
type bodyReadError struct{ err error }

func (e *bodyReadError) Error() string { return "reading response body: " + e.err.Error() }
func (e *bodyReadError) Unwrap() error { return e.err }

// readBody reads and closes resp's body: a 2xx body up to the client's
// maximum (beyond it, ErrBodyTooLarge), any other up to maxErrorBody. A 1xx
// final answer (a 101 hands over the raw connection as its body) is closed
// unread and comes back as an *APIError. The request's context, with the
// attempt timeout, closes the body under a read that outlasts it.
func (k *call) readBody(resp *http.Response) error {
	defer resp.Body.Close()
	if resp.StatusCode < 200 {
		k.resp = &response{status: resp.StatusCode, header: resp.Header}
		return nil
	}
	if resp.Request != nil {
		stop := context.AfterFunc(resp.Request.Context(), func() { resp.Body.Close() })
		defer stop()
	}
	ok := resp.StatusCode <= 299
	limit := int64(maxErrorBody)
	if ok {
		limit = k.c.maxBodySize
		if resp.ContentLength > limit {
			return bodyTooLarge("Content-Length %d exceeds the limit of %d bytes", resp.ContentLength, limit)
		}
	}
	var buf *[]byte
	var body []byte
	var err error
	if ok && k.lend {
		buf = bodybuf.Get()
		body, err = bodybuf.ReadInto(*buf, resp.Body, limit+1)
		*buf = body[:0] // the pooled buffer, or a larger one that replaces it
	} else {
		body, err = bodybuf.ReadAtMost(resp.Body, limit+1)
	}
	if err != nil && ok {
		return &bodyReadError{err: err}
	}
	if int64(len(body)) > limit {
		if ok {
			return bodyTooLarge("more than %d bytes", limit)
		}
		body = body[:limit]
	}
	k.resp = &response{status: resp.StatusCode, header: resp.Header, body: body, buf: buf, received: time.Now()}
	return nil
}

// encodeOptions checks opts and encodes them as a query.
func encodeOptions(opts queryOptions) (url.Values, error) {
	if err := opts.validate(); err != nil {
		return nil, err
	}
	return query.Values(opts) // only a Date's EncodeValues can fail, and validate checked the dates
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
