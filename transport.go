package ordermsg

import (
	"context"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/go-querystring/query"
	"github.com/hashicorp/go-retryablehttp"
)

// response is a finished response: its body is read in full (up to the caps)
// and closed.
type response struct {
	status int
	header http.Header
	body   []byte
	// buf, when set, is the pooled buffer that body was read into (see
	// bodyPool): do gives it back once a decode that keeps nothing of the
	// body has succeeded.
	buf *[]byte
}

// call is the state of one request across its attempts.
type call struct {
	c          *Client
	url        string        // the request's URL as errors and logs show it
	retries    int           // retries made so far
	wait       time.Duration // the wait before the next retry, fixed by decideRetry
	answered   bool          // the handler took the last response as the answer
	resp       *response     // the last response read by readBody
	lend       bool          // a 2xx body is read into a pooled buffer (see bodyPool)
	gotHeaders func()        // when set, called once a 2xx response's headers are in, before its body is read
}

// send performs a GET of u with retries (call.do), and returns the response
// with its body read inside the attempt (readBody), so that a body cut off
// midway is retried like a dropped connection.
//
// With lend, a 2xx body is read into a buffer of bodyPool, which the caller
// gives back with release once it holds nothing of the body.
func (c *Client) send(ctx context.Context, u string, lend bool, gotHeaders func()) (*response, error) {
	k := &call{c: c, url: u, lend: lend, gotHeaders: gotHeaders}
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, fmt.Errorf("ordermsg: %w", err)
	}
	req.Header.Set("Authorization", c.credentials.authorization)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	req.Header.Set(c.versionHeader, c.versionValue)
	if err := k.do(c.httpClient, req, k.readBody, nil); err != nil {
		return nil, &requestError{url: u, err: err}
	}
	return k.resp, nil
}

// bodyReadError is a failure to read a response body to its end. It is
// retryable: the request is a GET.
type bodyReadError struct{ err error }

func (e *bodyReadError) Error() string { return "reading response body: " + e.err.Error() }
func (e *bodyReadError) Unwrap() error { return e.err }

// readBody reads and closes resp's body: a 2xx body up to the client's
// maximum (beyond it, ErrBodyTooLarge), any other up to maxErrorBody (the rest
// is dropped). A 1xx final answer (101 Switching Protocols: net/http hands
// over the raw connection as its body) is not read at all: the connection is
// closed and the status comes back as an *APIError. Whatever the body, the
// request's context (which carries the attempt timeout) bounds the read: when
// it ends, the body is closed under the reader.
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
	if ok && k.gotHeaders != nil {
		k.gotHeaders()
	}
	var buf *[]byte
	var body []byte
	var err error
	if ok && k.lend {
		buf = getBodyBuffer()
		body, err = readAtMostInto(*buf, resp.Body, limit+1)
		*buf = body[:0] // the buffer body is in: the pooled one, or a larger one that replaces it
	} else {
		body, err = readAtMost(resp.Body, limit+1)
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
	k.resp = &response{status: resp.StatusCode, header: resp.Header, body: body, buf: buf}
	return nil
}

// bodyPool holds the buffers that 2xx bodies are read into when the caller
// only lends the body to a decode that keeps none of it: a page or a record
// decoded without its raw JSON (strings, Unknown members and FieldValues.Raw
// are copies). Such a buffer comes back once the decode has succeeded, so
// that a walk reads its pages into the same few buffers instead of
// allocating, zeroing and collecting about twice each body's size per page:
// on a 100-order page with every include (500 KB) that was half of the bytes
// a List allocated and, with the page faults of fresh memory and the
// scavenger returning it, about a fifth of its CPU time.
var bodyPool = sync.Pool{New: func() any { return new([]byte) }}

// maxPooledBody is the largest buffer bodyPool keeps.
const maxPooledBody = 8 << 20

// bodyFree keeps a few buffers of up to maxFreeBody across garbage
// collections, which empty a sync.Pool: a program that allocates elsewhere
// collects often (decoding a page into map[string]any between two Lists, the
// SDK's List allocated 1.7 MB instead of 0.96 MB, its buffer lost every
// time). What it keeps for good is at most cap(bodyFree) × maxFreeBody.
var bodyFree = make(chan *[]byte, 2)

const maxFreeBody = 1 << 20

func getBodyBuffer() *[]byte {
	select {
	case b := <-bodyFree:
		return b
	default:
		return bodyPool.Get().(*[]byte)
	}
}

// release gives r's pooled buffer back. r.body must not be used after it.
func (r *response) release() {
	if b := r.buf; b != nil {
		r.buf, r.body = nil, nil
		if cap(*b) <= maxFreeBody {
			select {
			case bodyFree <- b:
				return
			default:
			}
		}
		if cap(*b) <= maxPooledBody {
			bodyPool.Put(b)
		}
	}
}

// readAtMostInto is readAtMost into buf's capacity first: a body that fits
// costs no allocation. One that does not continues as readAtMost does, in
// chunks that grow with the bytes that arrive, and ends up in one slice with
// an eighth of its size to spare, so that a buffer given back to the pool
// fits the next, slightly larger, page too.
func readAtMostInto(buf []byte, r io.Reader, limit int64) ([]byte, error) {
	r = io.LimitReader(r, limit)
	n, err := readFull(r, buf[:cap(buf)])
	if err != nil {
		return buf[:n], ignoreEOF(err)
	}
	// buf is full, or has no room at all.
	rest, err := readAtMost(r, limit-int64(n))
	if n == 0 {
		return rest, err
	}
	if len(rest) == 0 {
		return buf[:n], err
	}
	total := n + len(rest)
	out := make([]byte, 0, total+total/8)
	return append(append(out, buf[:n]...), rest...), err
}

// Chunk sizes of readAtMost: chunks double from the first size up to the
// largest, so a small body costs one small allocation and a large one wastes
// at most one largest chunk.
const (
	firstChunk   = 4 << 10
	largestChunk = 1 << 20
)

// readAtMost reads r to its end or to limit bytes, whichever comes first, and
// returns what it read, with the error that ended the read (nil at EOF).
// Memory grows with the bytes that arrive, never with what a Content-Length
// announces: the bytes go into chunks, then into one slice of the exact size,
// so a body of N bytes peaks at about 2N (chunks and result), where
// bytes.Buffer's doubling could reach 3N.
func readAtMost(r io.Reader, limit int64) ([]byte, error) {
	r = io.LimitReader(r, limit)
	var chunks [][]byte
	size, total := firstChunk, 0
	for {
		chunk := make([]byte, 0, size)
		n, err := readFull(r, chunk[:size])
		chunk = chunk[:n]
		total += n
		if len(chunks) == 0 && err != nil {
			return chunk, ignoreEOF(err)
		}
		chunks = append(chunks, chunk)
		if err != nil {
			out := make([]byte, 0, total)
			for _, c := range chunks {
				out = append(out, c...)
			}
			return out, ignoreEOF(err)
		}
		size = min(size*2, largestChunk)
	}
}

// readFull is io.ReadFull without its ErrUnexpectedEOF: a short read at the
// end of the body gives io.EOF.
func readFull(r io.Reader, buf []byte) (int, error) {
	n := 0
	for n < len(buf) {
		m, err := r.Read(buf[n:])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

func ignoreEOF(err error) error {
	if err == io.EOF {
		return nil
	}
	return err
}

// encodeOptions checks opts and encodes them as a query.
func encodeOptions(opts queryOptions) (url.Values, error) {
	if err := opts.validate(); err != nil {
		return nil, err
	}
	q, err := query.Values(opts)
	if err != nil {
		return nil, fmt.Errorf("ordermsg: encoding options: %w", err)
	}
	return q, nil
}

// encodeQuery encodes q as url.Values.Encode does (keys sorted), except that
// the commas between includes are sent as commas, as the spec's "comma
// separated list" reads, rather than as %2C. An include cannot hold a comma
// of its own (checkIncludes), so every comma there is a separator.
func encodeQuery(q url.Values) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(q)) {
		key := url.QueryEscape(k)
		for _, v := range q[k] {
			if b.Len() > 0 {
				b.WriteByte('&')
			}
			v = url.QueryEscape(v)
			if k == "includes" {
				v = strings.ReplaceAll(v, "%2C", ",")
			}
			b.WriteString(key)
			b.WriteByte('=')
			b.WriteString(v)
		}
	}
	return b.String()
}

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
