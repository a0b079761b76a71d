package stallwatch

import (
	"context"
	"errors"
	"io"
	"net/http"
	"sync"
	"testing"
	"time"
)

// clock is a fake clock: its timers fire when Advance reaches them.
type clock struct {
	mu     sync.Mutex
	now    time.Duration
	timers []*fakeTimer
}

type fakeTimer struct {
	c        *clock
	deadline time.Duration
	armed    bool
	f        func()
}

func (c *clock) afterFunc(d time.Duration, f func()) watchTimer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{c: c, deadline: c.now + d, armed: true, f: f}
	c.timers = append(c.timers, t)
	return t
}

func (t *fakeTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := t.armed
	t.armed = false
	return was
}

func (t *fakeTimer) Reset(d time.Duration) bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := t.armed
	t.armed, t.deadline = true, t.c.now+d
	return was
}

// Advance moves the clock on by d and runs the timers that are due.
func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now += d
	var due []func()
	for _, t := range c.timers {
		if t.armed && t.deadline <= c.now {
			t.armed = false
			due = append(due, t.f)
		}
	}
	c.mu.Unlock()
	for _, f := range due {
		f()
	}
}

// armed counts the timers that have not fired or been stopped.
func (c *clock) armed() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, t := range c.timers {
		if t.armed {
			n++
		}
	}
	return n
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// body is a response body that the test feeds: Read returns what send
// gives, and blocks until then; Close makes Read fail.
type body struct {
	r      *io.PipeReader
	w      *io.PipeWriter
	closed chan struct{}
	once   sync.Once
}

func newBody() *body {
	r, w := io.Pipe()
	return &body{r: r, w: w, closed: make(chan struct{})}
}

func (b *body) Read(p []byte) (int, error) { return b.r.Read(p) }

func (b *body) Close() error {
	b.once.Do(func() { close(b.closed) })
	return b.r.CloseWithError(errors.New("body closed"))
}

// send feeds s to the reader, in the background: a pipe's write waits for
// the read.
func (b *body) send(s string) { go b.w.Write([]byte(s)) }

// watched returns a Transport with a fake clock over a response whose body
// the test feeds, and the context Next saw.
func watched(timeout time.Duration) (*Transport, *clock, *body, chan context.Context) {
	c, b := &clock{}, newBody()
	seen := make(chan context.Context, 1)
	next := roundTripper(func(r *http.Request) (*http.Response, error) {
		seen <- r.Context()
		return &http.Response{StatusCode: http.StatusOK, Body: b}, nil
	})
	return &Transport{Next: next, Timeout: timeout, afterFunc: c.afterFunc}, c, b, seen
}

func get(t *testing.T, tr *Transport) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, "http://file.invalid/f", nil)
	resp, err := tr.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func read(t *testing.T, r io.Reader, want string) {
	t.Helper()
	p := make([]byte, 64)
	n, err := r.Read(p)
	if err != nil || string(p[:n]) != want {
		t.Fatalf("Read: %q, %v; want %q", p[:n], err, want)
	}
}

// Each read that brings bytes puts the stall off: a transfer that keeps
// receiving runs longer than the timeout in all, and one that then
// receives nothing for the timeout fails with ErrStalled, its body closed
// under the reader.
func TestReadsPutTheStallOff(t *testing.T) {
	tr, c, b, _ := watched(10 * time.Second)
	resp := get(t, tr)
	for _, chunk := range []string{"a", "b", "c"} {
		c.Advance(6 * time.Second) // 18 s in all by the third: more than the timeout
		b.send(chunk)
		read(t, resp.Body, chunk)
	}
	c.Advance(9 * time.Second)
	select {
	case <-b.closed:
		t.Fatal("the body was closed 9 s after the last bytes, within the 10 s timeout")
	default:
	}
	c.Advance(time.Second)
	<-b.closed
	if _, err := resp.Body.Read(make([]byte, 1)); err != ErrStalled {
		t.Fatalf("Read after a stall: %v; want ErrStalled", err)
	}
}

// A stall before the response is the round trip's ErrStalled.
func TestStallBeforeTheResponse(t *testing.T) {
	c := &clock{}
	started := make(chan struct{})
	tr := &Transport{Timeout: time.Second, afterFunc: c.afterFunc, Next: roundTripper(func(r *http.Request) (*http.Response, error) {
		close(started)
		<-r.Context().Done()
		return nil, r.Context().Err()
	})}
	errc := make(chan error)
	go func() {
		req, _ := http.NewRequest(http.MethodGet, "http://file.invalid/f", nil)
		_, err := tr.RoundTrip(req)
		errc <- err
	}()
	<-started
	c.Advance(time.Second)
	if err := <-errc; err != ErrStalled {
		t.Fatalf("RoundTrip: %v; want ErrStalled", err)
	}
	if n := c.armed(); n != 0 {
		t.Fatalf("%d timers still armed", n)
	}
}

// An attempt that ends otherwise (the caller's context, an error of the
// transport under it) keeps its own error, and stops its timer.
func TestOtherEndsKeepTheirError(t *testing.T) {
	c := &clock{}
	boom := errors.New("boom")
	tr := &Transport{Timeout: time.Second, afterFunc: c.afterFunc, Next: roundTripper(func(*http.Request) (*http.Response, error) { return nil, boom })}
	req, _ := http.NewRequest(http.MethodGet, "http://file.invalid/f", nil)
	if _, err := tr.RoundTrip(req); err != boom {
		t.Fatalf("RoundTrip: %v; want the transport's error", err)
	}
	if n := c.armed(); n != 0 {
		t.Fatalf("%d timers still armed after a failed round trip", n)
	}

	tr, c, b, _ := watched(time.Second)
	ctx, cancel := context.WithCancel(context.Background())
	req, _ = http.NewRequestWithContext(ctx, http.MethodGet, "http://file.invalid/f", nil)
	resp, err := tr.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	<-b.closed // closed under its reader by the context's end
	if _, err := resp.Body.Read(make([]byte, 1)); err == nil || err == ErrStalled {
		t.Fatalf("Read after the caller's cancel: %v; want the body's own error", err)
	}
	resp.Body.Close()
	if n := c.armed(); n != 0 {
		t.Fatalf("%d timers still armed after Close", n)
	}
}

// Close stops the timer, ends the attempt's context and closes the body;
// a timeout of 0 arms no timer, and a nil body reads as empty.
func TestCloseAndNoTimeout(t *testing.T) {
	tr, c, b, seen := watched(time.Second)
	resp := get(t, tr)
	ctx := <-seen
	if err := resp.Body.Close(); err != nil {
		t.Fatal(err)
	}
	<-b.closed
	if ctx.Err() == nil || context.Cause(ctx) == ErrStalled || c.armed() != 0 {
		t.Fatalf("after Close: context %v (cause %v), %d timers armed; want it ended, not stalled, no timer", ctx.Err(), context.Cause(ctx), c.armed())
	}

	tr, c, b, _ = watched(0)
	resp = get(t, tr)
	b.send("x")
	read(t, resp.Body, "x")
	if len(c.timers) != 0 {
		t.Fatalf("a timeout of 0 armed %d timers", len(c.timers))
	}
	resp.Body.Close()

	tr = &Transport{Next: roundTripper(func(*http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: http.StatusNoContent}, nil
	})}
	resp = get(t, tr)
	if n, err := resp.Body.Read(make([]byte, 1)); n != 0 || err != io.EOF {
		t.Fatalf("a nil body read %d, %v; want an empty body", n, err)
	}
}
