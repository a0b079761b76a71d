package ordermsg

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"math"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// RetryPolicy says how a request is retried. Only failures that are safe to
// repeat for a GET are retried: connection failures and timed-out attempts,
// responses whose body was cut off, 429, and 5xx other than 501.
//
// The wait before retry n (from 0) is drawn at random between half and all of
// MinWait·2ⁿ, capped at MaxWait, and never below MinWait. A Retry-After header
// (seconds or an HTTP date) on a retried response replaces that wait; when it
// asks for more than MaxWait the client does not sleep through it but returns
// the *APIError with RetryAfter set, so the caller decides.
type RetryPolicy struct {
	// MaxRetries is how many times a request is retried after its first
	// attempt. 0 turns retrying off.
	MaxRetries int
	// MinWait is the first wait; 0 means the default's.
	MinWait time.Duration
	// MaxWait caps every wait, including one asked for by Retry-After; 0
	// means the default's.
	MaxWait time.Duration
}

// DefaultRetryPolicy returns the policy of a client made without WithRetry:
// three retries, waits from 250ms up to 30s.
func DefaultRetryPolicy() RetryPolicy {
	return RetryPolicy{MaxRetries: 3, MinWait: 250 * time.Millisecond, MaxWait: 30 * time.Second}
}

// normalized fills zero waits from DefaultRetryPolicy and rejects nonsense.
func (p RetryPolicy) normalized() (RetryPolicy, error) {
	if p.MaxRetries < 0 || p.MinWait < 0 || p.MaxWait < 0 {
		return p, invalidArgument("RetryPolicy values must not be negative")
	}
	def := DefaultRetryPolicy()
	if p.MinWait == 0 {
		p.MinWait = def.MinWait
	}
	if p.MaxWait == 0 {
		p.MaxWait = max(def.MaxWait, p.MinWait)
	}
	if p.MaxWait < p.MinWait {
		return p, invalidArgument("RetryPolicy.MaxWait is below MinWait")
	}
	return p, nil
}

// backoff returns the wait before retry n (0-based), with jitter drawn by
// rnd, which returns a number in [0, limit).
func (p RetryPolicy) backoff(n int, rnd func(limit int64) int64) time.Duration {
	base := p.MaxWait
	if n < 62 && p.MinWait <= p.MaxWait>>n {
		base = p.MinWait << n
	}
	half := base / 2
	wait := half + time.Duration(rnd(int64(base-half)+1))
	return min(max(wait, p.MinWait), p.MaxWait)
}

// retryableStatus reports whether a response status is worth a retry.
func retryableStatus(code int) bool {
	return code == http.StatusTooManyRequests || (code >= 500 && code <= 599 && code != http.StatusNotImplemented)
}

// final marks err as one that a retry cannot mend, without adding to its
// text.
func final(err error) error { return &finalError{err: err} }

// finalError is an error marked by final.
type finalError struct{ err error }

func (e *finalError) Error() string { return e.err.Error() }
func (e *finalError) Unwrap() error { return e.err }

// retryableError reports whether a transport error is worth a retry: a
// connection that failed, dropped, timed out or cut a body short is; a TLS
// certificate problem, a refused redirect, an oversized body or an error
// marked final is not.
func retryableError(err error) bool {
	var unknownAuthority x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var invalid x509.CertificateInvalidError
	var verification *tls.CertificateVerificationError
	var marked *finalError
	switch {
	case errors.As(err, &marked), errors.Is(err, ErrBodyTooLarge),
		errors.Is(err, context.Canceled),
		errors.As(err, &unknownAuthority), errors.As(err, &hostname),
		errors.As(err, &invalid), errors.As(err, &verification):
		return false
	}
	return true
}

// retryAfter reads a Retry-After header given in seconds or as an HTTP date.
// A wait too long for a time.Duration (about 292 years), however many digits
// it has, saturates at the largest Duration: it is still a wait beyond any
// MaxWait, never "no header".
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	v := h.Get("Retry-After")
	if v == "" {
		return 0, false
	}
	if strings.Trim(v, "0123456789") == "" {
		secs, err := strconv.ParseInt(v, 10, 64)
		if err != nil || secs > math.MaxInt64/int64(time.Second) {
			return math.MaxInt64, true // too many digits for an int64, or for a Duration
		}
		return time.Duration(secs) * time.Second, true
	}
	when, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	return max(when.Sub(now), 0), true
}

// do sends req through hc with the client's retries: go-retryablehttp makes
// the attempts, for API calls and downloads alike, and k is its one retry
// decision (decideRetry, the CheckRetry) and wait (the Backoff). handle
// reads each response that decideRetry does not retry on its status, inside
// the attempt; an error from it (a body cut short) is decided on like a
// transport error. prepare, when set, readies the request before each retry
// (a download's Range). do returns nil once handle has taken a response as
// the answer, else the error that ended the call: the context's, when it is
// done.
func (k *call) do(hc *http.Client, req *retryablehttp.Request, handle func(*http.Response) error, prepare func(*http.Request) error) error {
	req.SetResponseHandler(func(resp *http.Response) error {
		err := handle(resp)
		k.answered = err == nil
		return err
	})
	rc := &retryablehttp.Client{
		HTTPClient: hc,
		Logger:     nil, // the library logs to stderr by default; the SDK logs only through WithLogger
		// decideRetry counts the retries (a download's count starts again
		// when an attempt brings bytes), so the library's count never ends
		// a call.
		RetryMax:   math.MaxInt,
		CheckRetry: k.decideRetry,
		Backoff: func(_, _ time.Duration, _ int, _ *http.Response) time.Duration {
			return k.wait
		},
		// Pass the last error through, instead of the library's "giving up
		// after N attempts".
		ErrorHandler: retryablehttp.PassthroughErrorHandler,
		PrepareRetry: prepare,
	}
	if _, err := rc.Do(req); err != nil {
		if ctxErr := req.Context().Err(); ctxErr != nil {
			return ctxErr
		}
		return err
	}
	return nil
}

// decideRetry is the CheckRetry of one call: it says whether the attempt that
// gave resp or err is retried, and fixes the wait before the retry. A
// response that the call's handler took as the answer is never retried.
func (k *call) decideRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	if err == nil && k.answered {
		return false, nil
	}
	p := k.c.retry
	status := 0
	var wait time.Duration
	if err != nil {
		if !retryableError(err) {
			return false, nil
		}
		wait = p.backoff(k.retries, rand.Int64N)
	} else {
		status = resp.StatusCode
		if !retryableStatus(status) {
			return false, nil
		}
		if ra, ok := retryAfter(resp.Header, time.Now()); ok {
			if ra > p.MaxWait {
				return false, nil
			}
			wait = ra
		} else {
			wait = p.backoff(k.retries, rand.Int64N)
		}
	}
	if k.retries >= p.MaxRetries {
		return false, nil
	}
	if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < wait {
		return false, nil
	}
	k.retries++
	k.wait = wait
	if k.c.logger != nil {
		args := []any{"method", http.MethodGet, "url", k.url, "attempt", k.retries + 1, "wait", wait}
		if err != nil {
			args = append(args, "error", causeText(err))
		} else {
			args = append(args, "status", status)
		}
		k.c.logger.DebugContext(ctx, "ordermsg: retrying request", args...)
	}
	return true, nil
}
