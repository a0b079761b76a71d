package ordermsg

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// rawServer is a loopback TCP server that reads each request and hands the
// connection to answer, which writes whatever bytes it likes: faults that
// net/http's own server cannot produce. Closing it closes every connection
// and waits for every handler.
type rawServer struct {
	l        net.Listener
	requests atomic.Int32
	done     chan struct{} // closed by close: handlers that hold a connection let go
	wg       sync.WaitGroup
	mu       sync.Mutex
	conns    []net.Conn
}

func newRawServer(t *testing.T, answer func(s *rawServer, conn net.Conn, req *http.Request)) *rawServer {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &rawServer{l: l, done: make(chan struct{})}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			s.mu.Lock()
			s.conns = append(s.conns, conn)
			s.mu.Unlock()
			s.wg.Add(1)
			go func() {
				defer s.wg.Done()
				defer conn.Close()
				br := bufio.NewReader(conn)
				for {
					req, err := http.ReadRequest(br)
					if err != nil {
						return
					}
					s.requests.Add(1)
					answer(s, conn, req)
				}
			}()
		}
	}()
	t.Cleanup(s.close)
	return s
}

func (s *rawServer) url() string { return "http://" + s.l.Addr().String() }

func (s *rawServer) close() {
	select {
	case <-s.done:
		return
	default:
	}
	close(s.done)
	s.l.Close()
	s.mu.Lock()
	for _, c := range s.conns {
		c.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
}

// switchAndHold answers 101 Switching Protocols with the headers that make
// net/http hand the connection over as the body, then holds it for 5s (or
// until the server closes) and closes it: a client that waits for the server
// to let go takes 5s, which the tests' 2s bound catches.
func switchAndHold(s *rawServer, conn net.Conn, _ *http.Request) {
	io.WriteString(conn, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n")
	select {
	case <-s.done:
	case <-time.After(5 * time.Second):
	}
	conn.Close()
}

func TestSwitchingProtocolsEndsTheCallAtOnce(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t) }) // after the servers' own cleanups
	cases := map[string]struct {
		opts []Option
		ctx  func() (context.Context, context.CancelFunc)
	}{
		"attempt timeout 200ms": {
			opts: []Option{WithAttemptTimeout(200 * time.Millisecond)},
			ctx:  func() (context.Context, context.CancelFunc) { return context.Background(), func() {} },
		},
		"context deadline 500ms": {
			opts: []Option{WithAttemptTimeout(0)},
			ctx: func() (context.Context, context.CancelFunc) {
				return context.WithTimeout(context.Background(), 500*time.Millisecond)
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s := newRawServer(t, switchAndHold)
			c, err := NewClient(s.url(), testAPIKey, append(tc.opts, WithRetry(RetryPolicy{MaxRetries: 3, MinWait: time.Millisecond}))...)
			if err != nil {
				t.Fatal(err)
			}
			defer c.CloseIdleConnections()
			ctx, cancel := tc.ctx()
			defer cancel()
			start := time.Now()
			_, err = c.Orders.Get(ctx, 1, 2, nil)
			took := time.Since(start)
			var apiErr *APIError
			if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusSwitchingProtocols {
				t.Errorf("got %v, want an *APIError with status 101", err)
			}
			if n := s.requests.Load(); n != 1 {
				t.Errorf("%d requests, want 1: a 101 is not retried", n)
			}
			if took > 2*time.Second { // the server holds the connection until the test ends
				t.Errorf("the call took %v", took)
			}
		})
	}
}

func TestWalkIntoSwitchingProtocolsEndsAtOnce(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t) }) // after the servers' own cleanups
	page1 := `{"object":"list","data":[{"object":"order","id":1},{"object":"order","id":2}],` +
		`"meta":{"pagination":{"total":4,"count":2,"per_page":2,"current_page":1,"total_pages":2}}}`
	s := newRawServer(t, func(s *rawServer, conn net.Conn, req *http.Request) {
		if req.URL.Query().Get("page") == "1" {
			fmt.Fprintf(conn, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(page1), page1)
			return
		}
		switchAndHold(s, conn, req)
	})
	// switched tells when the client has the 101 in hand.
	switched := make(chan struct{}, 10)
	base := http.DefaultTransport.(*http.Transport).Clone()
	defer base.CloseIdleConnections()
	hc := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		resp, err := base.RoundTrip(r)
		if err == nil && resp.StatusCode == http.StatusSwitchingProtocols {
			switched <- struct{}{}
		}
		return resp, err
	})}
	c, err := NewClient(s.url(), testAPIKey, WithAttemptTimeout(0), WithHTTPClient(hc))
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()

	t.Run("break while the next page is a 101", func(t *testing.T) {
		var start time.Time
		for range c.Orders.All(context.Background(), 1, nil) {
			<-switched // page 2, fetched ahead, was answered with the 101
			start = time.Now()
			break
		}
		if took := time.Since(start); took > 2*time.Second {
			t.Errorf("breaking out took %v", took)
		}
	})
	t.Run("deadline", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		defer cancel()
		start := time.Now()
		var ids []int64
		var errs []error
		for o, err := range c.Orders.All(ctx, 1, nil) {
			if err != nil {
				errs = append(errs, err)
				continue
			}
			ids = append(ids, o.ID)
		}
		var apiErr *APIError
		if len(ids) != 2 || len(errs) != 1 || !errors.As(errs[0], &apiErr) || apiErr.StatusCode != 101 {
			t.Errorf("ids %v, errors %v; want 1, 2 and the 101", ids, errs)
		}
		if took := time.Since(start); took > 2*time.Second {
			t.Errorf("the walk took %v", took)
		}
	})
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestStalledBodyEndsWithTheAttemptOrTheContext(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t) }) // after the server's own cleanup
	s := newRawServer(t, func(s *rawServer, conn net.Conn, _ *http.Request) {
		io.WriteString(conn, "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n{\"object\":")
		select { // stall for 5s, which the 2s bound below catches
		case <-s.done:
		case <-time.After(5 * time.Second):
		}
		conn.Close()
	})
	for name, opt := range map[string]Option{"attempt timeout": WithAttemptTimeout(200 * time.Millisecond), "context": WithAttemptTimeout(0)} {
		c, err := NewClient(s.url(), testAPIKey, opt, WithRetry(RetryPolicy{}))
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		if name == "attempt timeout" {
			ctx = context.Background()
		}
		start := time.Now()
		o, err := c.Orders.Get(ctx, 1, 2, nil)
		if took := time.Since(start); o != nil || err == nil || took > 2*time.Second {
			t.Errorf("%s: got %v, %v after %v", name, o, err, took)
		}
		cancel()
		c.CloseIdleConnections()
	}
}

// announceAndSendOne announces a 64 MiB body, sends one byte, and closes.
func announceAndSendOne(_ *rawServer, conn net.Conn, _ *http.Request) {
	io.WriteString(conn, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 67108864\r\n\r\n{")
	conn.Close()
}

func TestMemoryFollowsTheBytesNotTheAnnouncedLength(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t) }) // after the servers' own cleanups
	s := newRawServer(t, announceAndSendOne)
	c, err := NewClient(s.url(), testAPIKey, WithRetry(RetryPolicy{}))
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Go(func() { _, errs[i] = c.Orders.Get(context.Background(), 1, 2, nil) })
	}
	wg.Wait()
	runtime.ReadMemStats(&after)
	for _, err := range errs {
		if !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("got %v, want the cut body's error", err)
		}
	}
	// Pre-growing from Content-Length allocated 8 × 64 MiB here.
	if got := after.TotalAlloc - before.TotalAlloc; got > 16<<20 {
		t.Errorf("8 calls that received one byte each allocated %d MiB", got>>20)
	}
}

// logLines is a log output that hands each line to a channel.
type logLines chan string

func (l logLines) Write(p []byte) (int, error) {
	select {
	case l <- string(p):
	default:
	}
	return len(p), nil
}

// TestNetHTTPLogsAnUnsolicitedResponse holds what RELIABILITY.md says of
// net/http: bytes a server sends on an idle keep-alive connection make
// net/http print a line through the standard logger, which the SDK cannot
// silence; the call itself is not affected.
func TestNetHTTPLogsAnUnsolicitedResponse(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t) }) // after the server's own cleanup
	body := `{"object":"order","id":2}`
	s := newRawServer(t, func(s *rawServer, conn net.Conn, _ *http.Request) {
		fmt.Fprintf(conn, "HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%sHTTP/1.1 200 OK\r\n\r\nunasked", len(body), body)
	})
	lines := make(logLines, 10)
	defer log.SetOutput(log.Writer())
	log.SetOutput(lines)
	c, err := NewClient(s.url(), testAPIKey)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	if o, err := c.Orders.Get(context.Background(), 1, 2, nil); err != nil || o.ID != 2 {
		t.Fatalf("got %v, %v", o, err)
	}
	select {
	case line := <-lines:
		if !strings.Contains(line, "Unsolicited response received on idle HTTP channel") {
			t.Errorf("logged %q", line)
		}
	case <-time.After(10 * time.Second): // a guard, not a timing claim
		t.Error("net/http logged nothing: RELIABILITY.md should no longer warn of it")
	}
}
