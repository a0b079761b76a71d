package ordermsg

import (
	"cmp"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// RetryPolicy says how a request is retried. Only failures that are safe to
// repeat for a GET are retried: connection failures and timed-out attempts,
// responses whose body was cut off, 429, and 5xx other than 501.
//
// The wait before retry n (from 0) is drawn at random between half and all of
// MinWait·2ⁿ, kept within [MinWait, MaxWait]. A Retry-After header (seconds or
// an HTTP date) on a retried response replaces it; one longer than MaxWait is
// not slept through: the call returns the *APIError with RetryAfter set, so
// the caller decides.
type RetryPolicy struct {
	// MaxRetries is how many times a request is retried; 0 turns retrying off.
	MaxRetries int
	// MinWait is the first wait; 0 means the default's.
	MinWait time.Duration
	// MaxWait caps every wait, Retry-After's too; 0 means the default's.
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
	p.MinWait = cmp.Or(p.MinWait, def.MinWait)
	p.MaxWait = cmp.Or(p.MaxWait, max(def.MaxWait, p.MinWait))
	if p.MaxWait < p.MinWait {
		return p, invalidArgument("RetryPolicy.MaxWait is below MinWait")
	}
	return p, nil
}

// backoff returns the wait before retry n (0-based), with jitter drawn by rnd.
func (p RetryPolicy) backoff(n int, rnd func(limit int64) int64) time.Duration {
	base := p.MaxWait
	if n < 62 && p.MinWait <= p.MaxWait>>n {
		base = p.MinWait << n
	}
	half := base / 2
	wait := half + time.Duration(rnd(int64(base-half)+1))
	return min(max(wait, p.MinWait), p.MaxWait)
}

func retryableStatus(code int) bool {
	return code == http.StatusTooManyRequests || (code >= 500 && code <= 599 && code != http.StatusNotImplemented)
}

// final marks err as one that a retry cannot mend, without adding to its
// text.
func final(err error) error { return &finalError{err: err} }

type finalError struct{ err error }

func (e *finalError) Error() string { return e.err.Error() }
func (e *finalError) Unwrap() error { return e.err }

// retryable reports whether an attempt that ended with err is worth a
// retry: an *APIError (an answer, its body read) by its status; any other
// error as retryableError says.
func retryable(err error) bool {
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		return retryableStatus(apiErr.StatusCode)
	}
	return retryableError(err)
}

// retryableError reports whether a transport error is worth a retry: a TLS
// certificate problem, an oversized body, an error marked final (a refused
// redirect) or a download's cut after progress (resumed by a new series of
// retries instead, see getFile) is not.
func retryableError(err error) bool {
	var unknownAuthority x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var invalid x509.CertificateInvalidError
	var verification *tls.CertificateVerificationError
	var marked *finalError
	var resume *resumeError
	switch {
	case errors.As(err, &marked), errors.As(err, &resume), errors.Is(err, ErrBodyTooLarge),
		errors.Is(err, context.Canceled),
		errors.As(err, &unknownAuthority), errors.As(err, &hostname),
		errors.As(err, &invalid), errors.As(err, &verification):
		return false
	}
	return true
}

// retryAfter reads a Retry-After header given in seconds or as an HTTP date.
// A wait too long for a Duration saturates at the largest one: it is still a
// wait beyond any MaxWait, never "no header".
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
