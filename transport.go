package ordermsg

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// response is a finished response: its body is read in full (up to the caps)
// and closed.
type response struct {
	status int
	header http.Header
	body   []byte
}

// call is the state of one request across its attempts.
type call struct {
	c       *Client
	url     string
	retries int           // retries made so far
	wait    time.Duration // the wait before the next retry, fixed by decideRetry
	resp    *response     // the last response read by readBody
}

// send performs a GET of u with retries, and returns the response with its
// body read. go-retryablehttp runs the attempts; the SDK decides what is
// retried (decideRetry) and reads the body inside the attempt (readBody), so
// that a body cut off midway is retried like a dropped connection.
func (c *Client) send(ctx context.Context, u string) (*response, error) {
	k := &call{c: c, url: u}
	rc := &retryablehttp.Client{
		HTTPClient:   c.httpClient,
		Logger:       nil, // the library logs to stderr by default; the SDK logs only through WithLogger
		RetryWaitMin: c.retry.MinWait,
		RetryWaitMax: c.retry.MaxWait,
		RetryMax:     c.retry.MaxRetries,
		CheckRetry:   k.decideRetry,
		Backoff: func(_, _ time.Duration, _ int, _ *http.Response) time.Duration {
			return k.wait
		},
		// Pass the last response or error through, instead of the library's
		// "giving up after N attempts", which drops the status.
		ErrorHandler: retryablehttp.PassthroughErrorHandler,
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, fmt.Errorf("ordermsg: %w", err)
	}
	req.Header.Set("Authorization", c.credentials.authorization)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	req.Header.Set(c.versionHeader, c.versionValue)
	req.SetResponseHandler(k.readBody)

	resp, err := rc.Do(req)
	if err != nil {
		if resp != nil {
			resp.Body.Close()
		}
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, fmt.Errorf("ordermsg: GET %s: %w", u, ctxErr)
		}
		return nil, fmt.Errorf("ordermsg: GET %s: %w", u, err)
	}
	if k.resp == nil {
		// Retries ran out on a retryable status; readBody never saw it.
		if err := k.readBody(resp); err != nil {
			return nil, fmt.Errorf("ordermsg: GET %s: %w", u, err)
		}
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
// is dropped).
func (k *call) readBody(resp *http.Response) error {
	defer resp.Body.Close()
	ok := resp.StatusCode >= 200 && resp.StatusCode <= 299
	limit := int64(maxErrorBody)
	if ok {
		limit = k.c.maxBodySize
		if resp.ContentLength > limit {
			return fmt.Errorf("%w: Content-Length %d exceeds the limit of %d bytes", ErrBodyTooLarge, resp.ContentLength, limit)
		}
	}
	var buf bytes.Buffer
	if resp.ContentLength > 0 && resp.ContentLength <= limit {
		buf.Grow(int(resp.ContentLength))
	}
	n, err := buf.ReadFrom(io.LimitReader(resp.Body, limit+1))
	if err != nil && ok {
		return &bodyReadError{err: err}
	}
	body := buf.Bytes()
	if n > limit {
		if ok {
			return fmt.Errorf("%w: more than %d bytes", ErrBodyTooLarge, limit)
		}
		body = body[:limit]
	}
	k.resp = &response{status: resp.StatusCode, header: resp.Header, body: body}
	return nil
}
