// Package stallwatch cuts an HTTP exchange that receives nothing for a
// while, without limiting how long one that keeps receiving may take: the
// transport of the SDK's file downloads.
package stallwatch

import (
	"context"
	"errors"
	"io"
	"net/http"
	"time"
)

// ErrStalled ends an attempt that received nothing for the attempt timeout.
var ErrStalled = errors.New("nothing received for the attempt timeout")

// Transport is an http.RoundTripper that gives each attempt a context of its
// own, cut with ErrStalled when nothing arrives for Timeout, so that a
// stalled transfer can be retried and resumed while a large one has no
// overall time limit. Whatever the transport under it, the body is closed
// under its reader when that context ends.
type Transport struct {
	Next    http.RoundTripper // the transport under it
	Timeout time.Duration     // how long an attempt may receive nothing; 0 means forever

	// afterFunc is time.AfterFunc, or a fake clock's in tests.
	afterFunc func(time.Duration, func()) watchTimer
}

// watchTimer is the part of *time.Timer that a Transport uses.
type watchTimer interface {
	Stop() bool
	Reset(time.Duration) bool
}

// RoundTrip sends req through Next under the watch.
func (s *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithCancelCause(req.Context())
	var timer watchTimer
	if s.Timeout > 0 {
		afterFunc := s.afterFunc
		if afterFunc == nil {
			afterFunc = func(d time.Duration, f func()) watchTimer { return time.AfterFunc(d, f) }
		}
		timer = afterFunc(s.Timeout, func() { cancel(ErrStalled) })
	}
	resp, err := s.Next.RoundTrip(req.WithContext(ctx))
	if err != nil || resp == nil { // no response: net/http's Client says what went wrong
		if timer != nil {
			timer.Stop()
		}
		if err != nil && context.Cause(ctx) == ErrStalled {
			err = ErrStalled
		}
		cancel(nil)
		return resp, err
	}
	if resp.Body == nil { // as net/http's Client allows of a RoundTripper
		resp.Body = http.NoBody
	}
	b := &watchedBody{rc: resp.Body, ctx: ctx, cancel: cancel, timer: timer, timeout: s.Timeout}
	b.stop = context.AfterFunc(ctx, func() { b.rc.Close() })
	resp.Body = b
	return resp, nil
}

// watchedBody is a body under a Transport: each read that brings bytes puts
// the stall off, and a read that fails because the attempt stalled says so.
type watchedBody struct {
	rc      io.ReadCloser
	ctx     context.Context
	cancel  context.CancelCauseFunc
	timer   watchTimer // nil without a timeout
	timeout time.Duration
	stop    func() bool // stops closing rc when ctx ends
}

func (b *watchedBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if n > 0 && b.timer != nil {
		b.timer.Reset(b.timeout)
	}
	if err != nil && err != io.EOF && context.Cause(b.ctx) == ErrStalled {
		err = ErrStalled
	}
	return n, err
}

func (b *watchedBody) Close() error {
	b.stop()
	if b.timer != nil {
		b.timer.Stop()
	}
	b.cancel(nil)
	return b.rc.Close()
}
