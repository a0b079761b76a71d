package ordermsg_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
	"go.uber.org/goleak"
)

// fastRetry retries quickly, so that tests of cut downloads take no time.
var fastRetry = ordermsg.WithRetry(ordermsg.RetryPolicy{MaxRetries: 3, MinWait: time.Millisecond, MaxWait: 2 * time.Millisecond})

// fakeClock is a clock that tests move by hand.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{now: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// fileServer starts the fake with fl and returns it with a client.
func fileServer(t *testing.T, fl ordermsgtest.FileLinks, opts ...ordermsg.Option) (*ordermsgtest.Server, *ordermsg.Client) {
	t.Helper()
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 3, Websites: 1, OrdersPerWebsite: 40, MessagesPerWebsite: 60}),
		ordermsgtest.WithFileLinks(fl))
	t.Cleanup(srv.Close)
	c, err := srv.Client(append([]ordermsg.Option{fastRetry}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return srv, c
}

// versadocOrder reads an order with print-ready files: the first whose
// second entry is a success when ok, or a failure when not.
func versadocOrder(t *testing.T, srv *ordermsgtest.Server, c *ordermsg.Client, ok bool) *ordermsg.Order {
	t.Helper()
	for _, o := range srv.Handler.Dataset().Websites[0].Orders {
		if len(o.Items) > 0 && o.Items[0].IsVersadoc() && (o.Items[0].PrintReadyFiles[1].File != nil) == ok {
			got, err := c.Orders.Get(context.Background(), srv.WebsiteID, o.ID,
				&ordermsg.GetOrderOptions{Includes: []ordermsg.OrderInclude{ordermsg.OrderIncludeItemsPrintReadyFiles}})
			if err != nil {
				t.Fatal(err)
			}
			return got
		}
	}
	t.Fatal("no such versadoc order in the dataset")
	return nil
}

func firstFile(t *testing.T, srv *ordermsgtest.Server, c *ordermsg.Client) *ordermsg.File {
	t.Helper()
	f, err := versadocOrder(t, srv, c, true).Items[0].PrintReadyFiles[0].Downloadable()
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestDownloadFromSecondOriginSendsNoKey(t *testing.T) {
	srv, c := fileServer(t, ordermsgtest.FileLinks{SeparateOrigin: true})
	f := firstFile(t, srv, c)
	if !strings.HasPrefix(f.URL, srv.FilesURL) || srv.FilesURL == srv.URL {
		t.Fatalf("link %s is not on the second origin %s", f.URL, srv.FilesURL)
	}
	var buf bytes.Buffer
	n, err := c.Download(context.Background(), f, &buf, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := srv.Handler.FileContent(f.ID); n != int64(len(want)) || !bytes.Equal(buf.Bytes(), want) {
		t.Fatalf("got %d bytes, want the file's %d", n, len(want))
	}
	if st := srv.Handler.FileStats(); st.Requests != 1 || st.Authorized != 0 {
		t.Fatalf("file host stats %+v: want 1 request and no Authorization", st)
	}
}

func TestDownloadFromTheAPIOriginSendsTheKey(t *testing.T) {
	srv, c := fileServer(t, ordermsgtest.FileLinks{})
	if _, err := c.Download(context.Background(), firstFile(t, srv, c), io.Discard, nil); err != nil {
		t.Fatal(err)
	}
	if st := srv.Handler.FileStats(); st.Authorized != 1 {
		t.Fatalf("file host stats %+v: the API's own origin should get the key", st)
	}
}

func TestDownloadRedirectToAnotherOriginDropsTheKey(t *testing.T) {
	// Both servers are on 127.0.0.1, on two ports: net/http alone would
	// forward Authorization, since it compares host names only.
	var gotAuth atomic.Value
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotAuth.Store(r.Header.Get("Authorization"))
		io.WriteString(w, "payload")
	}))
	defer other.Close()
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "" {
			t.Error("the API's own origin got no key")
		}
		http.Redirect(w, r, other.URL+"/elsewhere", http.StatusFound)
	}))
	defer api.Close()
	c, err := ordermsg.NewClient(api.URL, "secret-key")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := c.Download(context.Background(), &ordermsg.File{ID: 1, URL: api.URL + "/file"}, &buf, nil); err != nil {
		t.Fatal(err)
	}
	if buf.String() != "payload" {
		t.Fatalf("got %q", buf.String())
	}
	if a, _ := gotAuth.Load().(string); a != "" {
		t.Fatalf("the other origin got Authorization %q", a)
	}
}

func TestDownloadExpiredLinkIsNotRequested(t *testing.T) {
	clock := newFakeClock()
	srv, c := fileServer(t, ordermsgtest.FileLinks{Now: clock.Now, TTL: time.Hour})
	f := firstFile(t, srv, c)
	clock.Advance(time.Hour)
	_, err := c.Download(context.Background(), f, io.Discard, ordermsg.DownloadOptionsWithClock(clock.Now))
	if !errors.Is(err, ordermsg.ErrLinkExpired) {
		t.Fatalf("err = %v, want ErrLinkExpired", err)
	}
	if st := srv.Handler.FileStats(); st.Requests != 0 {
		t.Fatalf("an expired link was requested: %+v", st)
	}

	// The documented way out: read the record again for a fresh link.
	o := versadocOrder(t, srv, c, true)
	fresh, _ := o.Items[0].PrintReadyFiles[0].Downloadable()
	if fresh.ID != f.ID || fresh.URL == f.URL {
		t.Fatalf("re-read gave %+v; want the same file with a new link", fresh)
	}
	var buf bytes.Buffer
	if _, err := c.Download(context.Background(), fresh, &buf, ordermsg.DownloadOptionsWithClock(clock.Now)); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), srv.Handler.FileContent(f.ID)) {
		t.Fatal("the refreshed download differs from the file")
	}
}

func TestDownloadLinkExpiringDuringRetriesStops(t *testing.T) {
	clock := newFakeClock()
	srv, c := fileServer(t, ordermsgtest.FileLinks{Now: clock.Now, TTL: time.Hour, CutAfter: []int64{1000}})
	f := firstFile(t, srv, c)
	// The caller's clock is valid for the first attempt, then past expiry.
	var calls atomic.Int32
	now := func() time.Time {
		if calls.Add(1) == 1 {
			return clock.Now()
		}
		return clock.Now().Add(2 * time.Hour)
	}
	var buf bytes.Buffer
	n, err := c.Download(context.Background(), f, &buf, ordermsg.DownloadOptionsWithClock(now))
	if !errors.Is(err, ordermsg.ErrLinkExpired) {
		t.Fatalf("err = %v, want ErrLinkExpired", err)
	}
	if st := srv.Handler.FileStats(); st.Requests != 1 || n != 1000 {
		t.Fatalf("%d bytes, stats %+v: want the one cut attempt and no retry", n, st)
	}
}

func TestDownloadForbiddenAfterExpiryIsLinkExpired(t *testing.T) {
	clock := newFakeClock()
	srv, c := fileServer(t, ordermsgtest.FileLinks{Now: clock.Now, TTL: time.Hour})
	f := firstFile(t, srv, c)
	clock.Advance(2 * time.Hour) // the host's clock runs ahead of the caller's
	before := func() time.Time { return f.Expires.Add(-time.Minute) }
	_, err := c.Download(context.Background(), f, io.Discard, ordermsg.DownloadOptionsWithClock(before))
	if !errors.Is(err, ordermsg.ErrForbidden) || errors.Is(err, ordermsg.ErrLinkExpired) {
		t.Fatalf("err = %v: a 403 before expiry (by the caller's clock) is ErrForbidden only", err)
	}
	// By the time the 403 arrives the caller's clock has passed expiry too.
	var calls atomic.Int32
	now := func() time.Time {
		if calls.Add(1) == 1 {
			return f.Expires.Add(-time.Minute)
		}
		return f.Expires.Add(time.Minute)
	}
	_, err = c.Download(context.Background(), f, io.Discard, ordermsg.DownloadOptionsWithClock(now))
	if !errors.Is(err, ordermsg.ErrLinkExpired) || !errors.Is(err, ordermsg.ErrForbidden) {
		t.Fatalf("err = %v, want ErrLinkExpired and ErrForbidden", err)
	}
	if strings.Contains(err.Error(), "sig=") {
		t.Fatalf("the error shows the link's signature: %v", err)
	}
}

func TestDownloadCutAtSeveralPointsEndsByteIdentical(t *testing.T) {
	const size = 100_000
	cuts := []int64{1, 4095, 4096, 50_000, size - 1}
	for _, noRange := range []bool{false, true} {
		t.Run(fmt.Sprintf("noRange=%v", noRange), func(t *testing.T) {
			// Each response is cut at the next point counted from the start
			// of the file, so every attempt brings some bytes.
			var bodyCuts []int64
			prev := int64(0)
			for _, at := range cuts {
				if noRange {
					bodyCuts = append(bodyCuts, at)
				} else {
					bodyCuts = append(bodyCuts, at-prev)
				}
				prev = at
			}
			srv, c := fileServer(t, ordermsgtest.FileLinks{Size: size, NoRange: noRange, CutAfter: bodyCuts})
			f := firstFile(t, srv, c)
			var buf bytes.Buffer
			n, err := c.Download(context.Background(), f, &buf, nil)
			if err != nil {
				t.Fatal(err)
			}
			if n != size || !bytes.Equal(buf.Bytes(), srv.Handler.FileContent(f.ID)) {
				t.Fatalf("got %d bytes, not byte-identical to the file", n)
			}
			st := srv.Handler.FileStats()
			if st.Requests != int64(len(cuts))+1 || st.Ranged != int64(len(cuts)) {
				t.Fatalf("stats %+v: want %d requests, all but the first with Range", st, len(cuts)+1)
			}
		})
	}
}

func TestDownloadFileOverTheCapLeavesNothing(t *testing.T) {
	srv, c := fileServer(t, ordermsgtest.FileLinks{Size: 10_000})
	f := firstFile(t, srv, c)
	dir := t.TempDir()
	_, err := c.DownloadFile(context.Background(), f, filepath.Join(dir, "out.pdf"), &ordermsg.DownloadOptions{MaxBytes: 9_999})
	if !errors.Is(err, ordermsg.ErrBodyTooLarge) {
		t.Fatalf("err = %v, want ErrBodyTooLarge", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("left behind: %v", entries)
	}
	if st := srv.Handler.FileStats(); st.Requests != 1 {
		t.Fatalf("an oversized file was retried: %+v", st)
	}
}

func TestDownloadEndlessBodyStopsAtTheCap(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		chunk := bytes.Repeat([]byte("x"), 4096)
		for r.Context().Err() == nil { // chunked, no length announced
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	c, _ := ordermsg.NewClient(srv.URL, "k")
	path := filepath.Join(t.TempDir(), "endless")
	n, err := c.DownloadFile(context.Background(), &ordermsg.File{ID: 1, URL: srv.URL + "/f"}, path, &ordermsg.DownloadOptions{MaxBytes: 1 << 20})
	if !errors.Is(err, ordermsg.ErrBodyTooLarge) || n > 1<<20 {
		t.Fatalf("n = %d, err = %v: want ErrBodyTooLarge within the cap", n, err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a partial file was left at %s", path)
	}
}

// rawServer answers every connection on a loopback listener with resp.
func rawServer(t *testing.T, resp string) (string, *atomic.Int32) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	var conns atomic.Int32
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			conns.Add(1)
			go func() {
				defer conn.Close()
				buf := make([]byte, 4096)
				conn.Read(buf) // the request
				io.WriteString(conn, resp)
			}()
		}
	}()
	return "http://" + ln.Addr().String(), &conns
}

func TestDownloadShortBodyIsRetriedThenFails(t *testing.T) {
	url, conns := rawServer(t, "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly forty bytes of the hundred promised.")
	c, _ := ordermsg.NewClient(url, "k", fastRetry)
	var buf bytes.Buffer
	_, err := c.Download(context.Background(), &ordermsg.File{ID: 1, URL: url + "/f"}, &buf, nil)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("err = %v, want a cut body", err)
	}
	if conns.Load() != 4 {
		t.Fatalf("%d attempts, want 1 + 3 retries", conns.Load())
	}
}

func TestDownloadSwitchingProtocolsIsAnError(t *testing.T) {
	url, _ := rawServer(t, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: evil\r\nConnection: Upgrade\r\n\r\n")
	c, _ := ordermsg.NewClient(url, "k", fastRetry)
	_, err := c.Download(context.Background(), &ordermsg.File{ID: 1, URL: url + "/f"}, io.Discard, nil)
	var apiErr *ordermsg.APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("err = %v, want an APIError for 101", err)
	}
}

// holdingServer answers every connection on a loopback listener with resp,
// then holds it open for 5s or until the test ends: a client that waits for
// the server to let go takes 5s, which the tests' 2s bound catches.
func holdingServer(t *testing.T, resp string) (string, *atomic.Int32) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	var conns atomic.Int32
	wg.Go(func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			conns.Add(1)
			wg.Go(func() {
				defer conn.Close()
				buf := make([]byte, 4096)
				conn.Read(buf) // the request
				io.WriteString(conn, resp)
				select {
				case <-done:
				case <-time.After(5 * time.Second):
				}
			})
		}
	})
	t.Cleanup(func() {
		close(done)
		ln.Close()
		wg.Wait()
	})
	return "http://" + ln.Addr().String(), &conns
}

func TestDownloadSwitchingProtocolsHeldOpenEndsAtOnce(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t) }) // after the servers' own cleanups
	cases := map[string]struct {
		timeout  time.Duration // the attempt timeout
		deadline time.Duration // the context's
	}{
		"attempt timeout 200ms":  {timeout: 200 * time.Millisecond},
		"context deadline 500ms": {deadline: 500 * time.Millisecond},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			url, conns := holdingServer(t, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: evil\r\nConnection: Upgrade\r\n\r\n")
			c, err := ordermsg.NewClient(url, "k", fastRetry, ordermsg.WithAttemptTimeout(tc.timeout))
			if err != nil {
				t.Fatal(err)
			}
			defer c.CloseIdleConnections()
			ctx := context.Background()
			if tc.deadline > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tc.deadline)
				defer cancel()
			}
			start := time.Now()
			_, err = c.Download(ctx, &ordermsg.File{ID: 1, URL: url + "/f"}, io.Discard, nil)
			took := time.Since(start)
			var apiErr *ordermsg.APIError
			if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusSwitchingProtocols {
				t.Errorf("err = %v, want an *APIError with status 101", err)
			}
			if n := conns.Load(); n != 1 {
				t.Errorf("%d requests, want 1: a 101 is not retried", n)
			}
			if took > 2*time.Second {
				t.Errorf("the download took %v", took)
			}
		})
	}
}

// roundTripFunc is an http.RoundTripper made of a function.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestDownloadBodyReadEndsWithTheContextWhateverTheTransport(t *testing.T) {
	// A transport that, unlike net/http's, does not end a body read when
	// the request's context ends: a body that never sends a byte.
	pr, pw := io.Pipe()
	defer pw.Close()
	hc := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: http.StatusOK, Header: http.Header{}, Body: pr, ContentLength: -1, Request: r}, nil
	})}
	c, err := ordermsg.NewClient("http://127.0.0.1:1", "k", ordermsg.WithHTTPClient(hc), ordermsg.WithAttemptTimeout(0))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := c.Download(ctx, &ordermsg.File{ID: 1, URL: "http://127.0.0.1:1/f"}, io.Discard, nil)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want the context's deadline", err)
		}
	case <-time.After(5 * time.Second):
		pw.CloseWithError(errors.New("the test gave up")) // let the download end
		t.Fatalf("the download outlived its context by seconds: %v", <-done)
	}
}

func TestDownloadWrongContentRangeIsAnError(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Range") == "" {
			w.Header().Set("Content-Length", "10")
			w.WriteHeader(http.StatusOK)
			io.WriteString(w, "01234")
			return
		}
		w.Header().Set("Content-Range", "bytes 0-9/10") // not what was asked
		w.WriteHeader(http.StatusPartialContent)
		io.WriteString(w, "0123456789")
	}))
	defer srv.Close()
	c, _ := ordermsg.NewClient(srv.URL, "k", fastRetry)
	var buf bytes.Buffer
	_, err := c.Download(context.Background(), &ordermsg.File{ID: 1, URL: srv.URL + "/f"}, &buf, nil)
	if err == nil || !strings.Contains(err.Error(), "Content-Range") || buf.String() != "01234" {
		t.Fatalf("err = %v, wrote %q: want a Content-Range error after the first 5 bytes", err, buf.String())
	}
	if msg := err.Error(); strings.Count(msg, "ordermsg:") != 1 || strings.Count(msg, srv.URL) != 1 || strings.Contains(msg, "retryable") {
		t.Errorf("%q: want one prefix, the URL once, no internal marker", msg)
	}
}

func TestDownloadFileChangedBetweenAttemptsFails(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", fmt.Sprintf(`"v%d"`, n.Add(1)))
		w.Header().Set("Content-Length", "10")
		io.WriteString(w, "01234") // cut
	}))
	defer srv.Close()
	c, _ := ordermsg.NewClient(srv.URL, "k", fastRetry)
	_, err := c.Download(context.Background(), &ordermsg.File{ID: 1, URL: srv.URL + "/f"}, io.Discard, nil)
	if err == nil || !strings.Contains(err.Error(), "changed") || n.Load() != 2 {
		t.Fatalf("err = %v after %d requests: want the change found on the second", err, n.Load())
	}
}

func TestDownloadRefusesBadInputBeforeAnyRequest(t *testing.T) {
	srv, c := fileServer(t, ordermsgtest.FileLinks{})
	for name, f := range map[string]*ordermsg.File{
		"nil file": nil,
		"file URL": {ID: 1, URL: "file:///etc/passwd"},
		"relative": {ID: 1, URL: "/files/1/x"},
		"empty":    {ID: 1},
	} {
		if _, err := c.Download(context.Background(), f, io.Discard, nil); !errors.Is(err, ordermsg.ErrInvalidArgument) {
			t.Errorf("%s: %v, want ErrInvalidArgument", name, err)
		}
	}
	if _, err := c.Download(context.Background(), firstFile(t, srv, c), nil, nil); !errors.Is(err, ordermsg.ErrInvalidArgument) {
		t.Errorf("nil writer: %v, want ErrInvalidArgument", err)
	}
	if _, err := c.DownloadFile(context.Background(), firstFile(t, srv, c), "", nil); !errors.Is(err, ordermsg.ErrInvalidArgument) {
		t.Errorf("empty path: %v, want ErrInvalidArgument", err)
	}
	if st := srv.Handler.FileStats(); st.Requests != 0 {
		t.Fatalf("bad input reached the file host: %+v", st)
	}
}

func TestFailedPrintReadyFileIsReportedNotDownloaded(t *testing.T) {
	srv, c := fileServer(t, ordermsgtest.FileLinks{})
	prf := versadocOrder(t, srv, c, false).Items[0].PrintReadyFiles[1]
	f, err := prf.Downloadable()
	if f != nil || !errors.Is(err, ordermsg.ErrNoFile) || !strings.Contains(err.Error(), string(prf.Status)) {
		t.Fatalf("Downloadable() = %v, %v; want ErrNoFile naming status %q", f, err, prf.Status)
	}
}

func TestDownloadStalledAttemptIsResumed(t *testing.T) {
	var attempts atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if attempts.Add(1) == 1 {
			w.Header().Set("Content-Length", "10")
			io.WriteString(w, "01234")
			w.(http.Flusher).Flush()
			<-r.Context().Done() // then nothing, until the client gives up
			return
		}
		if r.Header.Get("Range") != "bytes=5-" {
			t.Errorf("Range = %q", r.Header.Get("Range"))
		}
		w.Header().Set("Content-Range", "bytes 5-9/10")
		w.WriteHeader(http.StatusPartialContent)
		io.WriteString(w, "56789")
	}))
	defer srv.Close()
	c, _ := ordermsg.NewClient(srv.URL, "k", fastRetry, ordermsg.WithAttemptTimeout(100*time.Millisecond))
	var buf bytes.Buffer
	start := time.Now()
	if _, err := c.Download(context.Background(), &ordermsg.File{ID: 1, URL: srv.URL + "/f"}, &buf, nil); err != nil {
		t.Fatal(err)
	}
	if buf.String() != "0123456789" || time.Since(start) > 5*time.Second {
		t.Fatalf("got %q after %v", buf.String(), time.Since(start))
	}
}

func TestDownloadAttemptWithNoAnswerIsRetried(t *testing.T) {
	var attempts atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if attempts.Add(1) == 1 {
			<-r.Context().Done() // no answer, until the client gives up
			return
		}
		io.WriteString(w, "0123456789")
	}))
	defer srv.Close()
	c, _ := ordermsg.NewClient(srv.URL, "k", fastRetry, ordermsg.WithAttemptTimeout(100*time.Millisecond))
	var buf bytes.Buffer
	if _, err := c.Download(context.Background(), &ordermsg.File{ID: 1, URL: srv.URL + "/f"}, &buf, nil); err != nil {
		t.Fatal(err)
	}
	if buf.String() != "0123456789" || attempts.Load() != 2 {
		t.Fatalf("got %q after %d attempts, want the file after 2", buf.String(), attempts.Load())
	}
}

// A RoundTripper may answer with a nil Body, which net/http's Client reads
// as an empty one: so does Download.
func TestDownloadThroughATransportThatGivesNoBody(t *testing.T) {
	hc := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: http.StatusOK, Header: http.Header{}, Request: r}, nil
	})}
	c, err := ordermsg.NewClient("http://127.0.0.1:1", "k", ordermsg.WithHTTPClient(hc))
	if err != nil {
		t.Fatal(err)
	}
	n, err := c.Download(context.Background(), &ordermsg.File{ID: 1, URL: "http://127.0.0.1:1/f"}, io.Discard, nil)
	if n != 0 || err != nil {
		t.Fatalf("n = %d, err = %v: want an empty file", n, err)
	}
}

func TestDownloadLeavesNothingRunning(t *testing.T) {
	defer goleak.VerifyNone(t)
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 3, Websites: 1, OrdersPerWebsite: 40, MessagesPerWebsite: 60}),
		ordermsgtest.WithFileLinks(ordermsgtest.FileLinks{SeparateOrigin: true, CutAfter: []int64{5000}}))
	defer srv.Close()
	c, err := srv.Client(fastRetry)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	f := firstFile(t, srv, c)
	if _, err := c.Download(context.Background(), f, io.Discard, nil); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Download(ctx, f, io.Discard, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestDownloadThroughInjectedFaultsEndsByteIdentical(t *testing.T) {
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 3, Websites: 1, OrdersPerWebsite: 40, MessagesPerWebsite: 60}),
		ordermsgtest.WithFileLinks(ordermsgtest.FileLinks{SeparateOrigin: true, Size: 200_000}),
		ordermsgtest.WithFaults(ordermsgtest.Faults{Seed: 9, Rate: 0.4, SlowDelay: time.Millisecond}))
	defer srv.Close()
	c, err := srv.Client(ordermsg.WithRetry(ordermsg.RetryPolicy{MaxRetries: 10, MinWait: time.Millisecond, MaxWait: 2 * time.Millisecond}))
	if err != nil {
		t.Fatal(err)
	}
	opts := &ordermsg.ListMessagesOptions{Includes: []ordermsg.MessageInclude{ordermsg.MessageIncludeFile}}
	n := 0
	for m, err := range c.Messages.All(context.Background(), srv.WebsiteID, opts) {
		if err != nil {
			t.Fatal(err)
		}
		if m.File.Expanded == nil {
			continue
		}
		var buf bytes.Buffer
		if _, err := c.Download(context.Background(), m.File.Expanded, &buf, nil); err != nil {
			t.Fatalf("file %d: %v", m.File.Expanded.ID, err)
		}
		if !bytes.Equal(buf.Bytes(), srv.Handler.FileContent(m.File.Expanded.ID)) {
			t.Fatalf("file %d differs", m.File.Expanded.ID)
		}
		n++
	}
	st := srv.Handler.Stats()
	if n == 0 || st.Faults[ordermsgtest.FaultCutBody] == 0 || st.Faults[ordermsgtest.FaultDrop] == 0 {
		t.Fatalf("%d files, faults %v: want cuts and drops among them", n, st.Faults)
	}
}

func TestDownloadErrorsShowNoSecretsOfTheLink(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	c, _ := ordermsg.NewClient(srv.URL, "k")
	u := strings.Replace(srv.URL, "http://", "http://user:hunter2@", 1) + "/f?sig=s3cr3t#frag"
	_, err := c.Download(context.Background(), &ordermsg.File{ID: 1, URL: u}, io.Discard, nil)
	if !errors.Is(err, ordermsg.ErrNotFound) {
		t.Fatalf("err = %v, want ErrNotFound", err)
	}
	for _, secret := range []string{"hunter2", "s3cr3t", "frag"} {
		if strings.Contains(err.Error(), secret) {
			t.Errorf("the error shows %q: %v", secret, err)
		}
	}
}

// linkSecrets are the parts of a file link that errors and logs must not
// show: user info, query and fragment.
var linkSecrets = []string{"alice", "hunter2", "s3cr3t", "frag"}

func TestDownloadTransportErrorsAndRetryLogsShowNoSecretsOfTheLink(t *testing.T) {
	refusedAddr := ordermsg.ClosedLoopbackAddr(t)
	redirecting := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", "ftp://alice:hunter2@files.example/f?sig=s3cr3t#frag")
		w.WriteHeader(http.StatusFound)
	}))
	defer redirecting.Close()
	cases := map[string]struct {
		host     string
		retried  bool
		wantNext any // what errors.As must still find under the error
	}{
		"connection refused": {host: refusedAddr, retried: true, wantNext: new(*net.OpError)},
		"refused redirect":   {host: strings.TrimPrefix(redirecting.URL, "http://")},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var logs bytes.Buffer
			logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
			c, err := ordermsg.NewClient("http://"+tc.host, "k", fastRetry, ordermsg.WithLogger(logger))
			if err != nil {
				t.Fatal(err)
			}
			link := "http://alice:hunter2@" + tc.host + "/f?sig=s3cr3t#frag"
			_, err = c.Download(context.Background(), &ordermsg.File{ID: 1, URL: link}, io.Discard, nil)
			var urlErr *url.Error
			if !errors.As(err, &urlErr) {
				t.Fatalf("err = %v, want the *url.Error kept under it", err)
			}
			if tc.wantNext != nil && !errors.As(err, tc.wantNext) {
				t.Errorf("err = %v, lost the transport's error under it", err)
			}
			if got := strings.Contains(logs.String(), "retrying"); got != tc.retried {
				t.Errorf("retry log lines: %v, want %v:\n%s", got, tc.retried, logs.String())
			}
			for _, secret := range linkSecrets {
				if strings.Contains(err.Error(), secret) {
					t.Errorf("the error shows %q: %v", secret, err)
				}
				if strings.Contains(logs.String(), secret) {
					t.Errorf("the log shows %q:\n%s", secret, logs.String())
				}
			}
		})
	}
}

// Each kind of error a download can end with is written once, where it
// arises: one "ordermsg:" prefix, the link once and without its secrets,
// no internal marker. The texts are asserted whole.
func TestDownloadErrorsAreWrittenOnce(t *testing.T) {
	refusedAddr := ordermsg.ClosedLoopbackAddr(t)
	var changes atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/redirect":
			w.Header().Set("Location", "ftp://alice:hunter2@files.example/f?sig=s3cr3t#frag")
			w.WriteHeader(http.StatusFound)
		case "/short":
			w.Header().Set("Content-Length", "10")
			io.WriteString(w, "01234")
		case "/changing":
			w.Header().Set("ETag", fmt.Sprintf(`"v%d"`, changes.Add(1)))
			w.Header().Set("Content-Length", "10")
			io.WriteString(w, "01234")
		case "/stalled":
			w.Header().Set("Content-Length", "10")
			io.WriteString(w, "01234")
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		case "/forbidden":
			w.WriteHeader(http.StatusForbidden)
		case "/gzip-short", "/gzip-bad":
			body := gzipped(t, []byte("0123456789"))
			if r.URL.Path == "/gzip-bad" {
				body[len(body)-5]++ // the checksum fails
			}
			w.Header().Set("Content-Encoding", "gzip")
			w.Header().Set("Content-Length", fmt.Sprint(len(body)))
			if r.URL.Path == "/gzip-short" {
				body = body[:len(body)/2]
			}
			w.Write(body)
		case "/chunked":
			w.(http.Flusher).Flush()
			w.Write(make([]byte, 100))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	c, err := ordermsg.NewClient(srv.URL, "k", ordermsg.WithRetry(ordermsg.RetryPolicy{MaxRetries: 1, MinWait: time.Millisecond, MaxWait: time.Millisecond}),
		ordermsg.WithAttemptTimeout(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	expires := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	after := ordermsg.DownloadOptionsWithClock(func() time.Time { return expires.Add(time.Minute) })
	var clockCalls atomic.Int32
	expiresOnTheWay := ordermsg.DownloadOptionsWithClock(func() time.Time {
		if clockCalls.Add(1) == 1 {
			return expires.Add(-time.Minute)
		}
		return expires.Add(time.Minute)
	})
	download := func(link string, opts *ordermsg.DownloadOptions) error {
		_, err := c.Download(context.Background(), &ordermsg.File{ID: 7, URL: link}, io.Discard, opts)
		return err
	}
	downloadExpiring := func(link string, opts *ordermsg.DownloadOptions) error {
		f := &ordermsg.File{ID: 7, URL: link, Expires: ordermsg.Timestamp{Time: expires}}
		_, err := c.Download(context.Background(), f, io.Discard, opts)
		return err
	}
	secret := func(base, path string) string {
		return strings.Replace(base, "http://", "http://alice:hunter2@", 1) + path + "?sig=s3cr3t#frag"
	}
	cases := map[string]struct {
		err  error
		want string
	}{
		"connection refused": {
			download(secret("http://"+refusedAddr, "/f"), nil),
			"ordermsg: GET http://" + refusedAddr + "/f?…: dial tcp " + refusedAddr + ": connect: connection refused",
		},
		"refused redirect": {
			download(secret(srv.URL, "/redirect"), nil),
			"ordermsg: GET " + srv.URL + `/redirect?…: refused redirect to ftp://files.example/f?…: the scheme "ftp" is not http or https`,
		},
		"cut body, retries spent": {
			download(srv.URL+"/short", nil),
			"ordermsg: GET " + srv.URL + "/short: reading response body: unexpected EOF",
		},
		"cut gzip body, retries spent": {
			download(srv.URL+"/gzip-short", nil),
			"ordermsg: GET " + srv.URL + "/gzip-short: reading response body: unexpected EOF",
		},
		"gzip body that does not decode": {
			download(srv.URL+"/gzip-bad", nil),
			"ordermsg: GET " + srv.URL + "/gzip-bad: the body sent with Content-Encoding gzip does not decode: gzip: invalid checksum",
		},
		"file changed": {
			download(srv.URL+"/changing", nil),
			"ordermsg: GET " + srv.URL + "/changing: the file changed on the server during the download",
		},
		"stalled, retries spent": {
			download(srv.URL+"/stalled", nil),
			"ordermsg: GET " + srv.URL + "/stalled: reading response body: nothing received for the attempt timeout",
		},
		"over the cap, by its length": {
			download(srv.URL+"/short", &ordermsg.DownloadOptions{MaxBytes: 5}),
			"ordermsg: GET " + srv.URL + "/short: response body too large: the file is 10 bytes, over the limit of 5",
		},
		"over the cap, chunked": {
			download(srv.URL+"/chunked", &ordermsg.DownloadOptions{MaxBytes: 50}),
			"ordermsg: GET " + srv.URL + "/chunked: response body too large: more than 50 bytes",
		},
		"status": {
			download(srv.URL+"/missing", nil),
			"ordermsg: GET " + srv.URL + "/missing: 404 Not Found",
		},
		"expired link": {
			downloadExpiring(srv.URL+"/f", after),
			"ordermsg: file link expired: file 7 expired at 2026-03-01T12:00:00Z; read its record again for a fresh link",
		},
		"link refused after it expired": {
			downloadExpiring(srv.URL+"/forbidden", expiresOnTheWay),
			"ordermsg: GET " + srv.URL + "/forbidden: 403 Forbidden: file link expired: file 7 expired at 2026-03-01T12:00:00Z; read its record again for a fresh link",
		},
	}
	for name, tc := range cases {
		if tc.err == nil || tc.err.Error() != tc.want {
			t.Errorf("%s:\n got %v\nwant %s", name, tc.err, tc.want)
		}
	}
	if err := cases["link refused after it expired"].err; !errors.Is(err, ordermsg.ErrLinkExpired) || !errors.Is(err, ordermsg.ErrForbidden) {
		t.Errorf("%v: want ErrLinkExpired and ErrForbidden", err)
	}
	for _, name := range []string{"over the cap, by its length", "over the cap, chunked"} {
		if err := cases[name].err; !errors.Is(err, ordermsg.ErrBodyTooLarge) {
			t.Errorf("%v: want ErrBodyTooLarge", err)
		}
	}
}

// pdfLike is a file that compresses well, as print PDFs often do.
func pdfLike(n int) []byte {
	b := bytes.Repeat([]byte("%PDF-1.7 stream 0 0 612 792 re f\n"), n/33+1)
	return b[:n]
}

func gzipped(t testing.TB, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// A host that stores a file compressed serves it with Content-Encoding gzip
// whatever Accept-Encoding says: Download writes the file, decoded; a cut
// one is fetched again from its start (no Range: the written bytes are the
// decoded file's, not the body's), and ends byte-identical.
func TestDownloadGzipEncodedBodyIsDecoded(t *testing.T) {
	file := pdfLike(10_000)
	body := gzipped(t, file)
	for _, cut := range []int{0, 40, len(body) - 1} {
		t.Run(fmt.Sprintf("cut=%d", cut), func(t *testing.T) {
			var mu sync.Mutex
			var ranges, encodings []string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				ranges, encodings = append(ranges, r.Header.Get("Range")), append(encodings, r.Header.Get("Accept-Encoding"))
				first := len(ranges) == 1
				mu.Unlock()
				w.Header().Set("Content-Encoding", "gzip")
				w.Header().Set("Content-Type", "application/pdf")
				w.Header().Set("Content-Length", fmt.Sprint(len(body)))
				if first && cut > 0 {
					w.Write(body[:cut])
					w.(http.Flusher).Flush()
					panic(http.ErrAbortHandler) // the connection is cut
				}
				w.Write(body)
			}))
			defer srv.Close()
			c, _ := ordermsg.NewClient(srv.URL, "k", fastRetry)
			path := filepath.Join(t.TempDir(), "out.pdf")
			n, err := c.DownloadFile(context.Background(), &ordermsg.File{ID: 1, URL: srv.URL + "/f.pdf"}, path, nil)
			got, _ := os.ReadFile(path)
			if err != nil || n != int64(len(file)) || !bytes.Equal(got, file) {
				t.Fatalf("n = %d, err = %v, wrote %d bytes: want the %d decoded bytes of the file", n, err, len(got), len(file))
			}
			mu.Lock()
			defer mu.Unlock()
			for i := range ranges {
				if ranges[i] != "" || encodings[i] != "identity" {
					t.Errorf("request %d: Range %q, Accept-Encoding %q: want no Range, identity", i+1, ranges[i], encodings[i])
				}
			}
			if want := map[bool]int{false: 1, true: 2}[cut > 0]; len(ranges) != want {
				t.Errorf("%d requests, want %d", len(ranges), want)
			}
		})
	}
}

// An encoding Download does not decode, or a gzip body that does not decode,
// is an error at once (not retried), and nothing is left as the file.
func TestDownloadUndecodableBodyIsRefused(t *testing.T) {
	file := pdfLike(10_000)
	bad := gzipped(t, file)
	bad[len(bad)-8] ^= 0xff // the CRC-32 of the trailer
	for _, tc := range []struct {
		encoding string
		body     []byte
		want     string
	}{
		{"br", file, `Content-Encoding "br"`},
		{"gzip, gzip", gzipped(t, gzipped(t, file)), `Content-Encoding "gzip, gzip"`},
		{"gzip", bad, "does not decode"},
		{"gzip", file, "does not decode"}, // said gzip, sent as is
	} {
		t.Run(tc.encoding+"/"+tc.want, func(t *testing.T) {
			var requests atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				requests.Add(1)
				w.Header().Set("Content-Encoding", tc.encoding)
				w.Write(tc.body)
			}))
			defer srv.Close()
			c, _ := ordermsg.NewClient(srv.URL, "k", fastRetry)
			dir := t.TempDir()
			_, err := c.DownloadFile(context.Background(), &ordermsg.File{ID: 1, URL: srv.URL + "/f.pdf"}, filepath.Join(dir, "out.pdf"), nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one saying %s", err, tc.want)
			}
			if msg := err.Error(); strings.Count(msg, "ordermsg:") != 1 || strings.Count(msg, srv.URL) != 1 || strings.Contains(msg, "retryable") {
				t.Errorf("%q: want one prefix, the URL once, no internal marker", msg)
			}
			if requests.Load() != 1 {
				t.Errorf("%d requests: a body that cannot be decoded was retried", requests.Load())
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				t.Errorf("left behind: %v", entries)
			}
		})
	}
}

// chunkedServer serves file on a raw loopback listener as a real host
// would, but its first answer is chunked (no length) and cut after cutAt
// bytes with no chunked terminator; later ones honour Range (206, or 416
// with the length when it starts at or after the end), from file or, when
// set, changed. It records each request's Range.
func chunkedServer(t *testing.T, file []byte, cutAt int, changed []byte) (string, func() []string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	var mu sync.Mutex
	var ranges []string
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			req, err := http.ReadRequest(bufio.NewReader(conn))
			if err != nil {
				conn.Close()
				continue
			}
			mu.Lock()
			ranges = append(ranges, req.Header.Get("Range"))
			first := len(ranges) == 1
			mu.Unlock()
			if first {
				fmt.Fprintf(conn, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n%x\r\n%s\r\n", cutAt, file[:cutAt])
				conn.Close() // no "0\r\n\r\n"
				continue
			}
			body := file
			if changed != nil {
				body = changed
			}
			var from int
			fmt.Sscanf(req.Header.Get("Range"), "bytes=%d-", &from)
			if from >= len(body) {
				fmt.Fprintf(conn, "HTTP/1.1 416 Range Not Satisfiable\r\nContent-Range: bytes */%d\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", len(body))
			} else {
				fmt.Fprintf(conn, "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes %d-%d/%d\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s",
					from, len(body)-1, len(body), len(body)-from, body[from:])
			}
			conn.Close()
		}
	}()
	return "http://" + ln.Addr().String(), func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(ranges)
	}
}

// A chunked body cut right after its last byte (every byte arrived, the
// terminator did not) ends as complete: the resume asks from the last byte
// written, which a complete file answers with 206, not 416. A body cut
// earlier resumes from the byte before the cut and ends byte-identical.
func TestDownloadChunkedBodyCutAfterItsLastByteIsComplete(t *testing.T) {
	file := pdfLike(10_000)
	for _, cutAt := range []int{len(file), len(file) / 2, 1} {
		t.Run(fmt.Sprint(cutAt), func(t *testing.T) {
			url, ranges := chunkedServer(t, file, cutAt, nil)
			c, _ := ordermsg.NewClient(url, "k", fastRetry)
			var buf bytes.Buffer
			n, err := c.Download(context.Background(), &ordermsg.File{ID: 1, URL: url + "/f.pdf"}, &buf, nil)
			if err != nil || n != int64(len(file)) || !bytes.Equal(buf.Bytes(), file) {
				t.Fatalf("n = %d, err = %v: want the %d bytes of the file", n, err, len(file))
			}
			if got, want := ranges(), []string{"", fmt.Sprintf("bytes=%d-", cutAt-1)}; !slices.Equal(got, want) {
				t.Fatalf("Range headers %q, want %q", got, want)
			}
		})
	}
}

// The byte asked for again is checked: a file that changed under a resume
// with no validator to tell is an error, never a spliced file.
func TestDownloadChunkedResumeChecksTheByteAskedAgain(t *testing.T) {
	file := pdfLike(10_000)
	changed := slices.Clone(file)
	changed[len(file)/2-1] ^= 0xff
	url, _ := chunkedServer(t, file, len(file)/2, changed)
	c, _ := ordermsg.NewClient(url, "k", fastRetry)
	var buf bytes.Buffer
	_, err := c.Download(context.Background(), &ordermsg.File{ID: 1, URL: url + "/f.pdf"}, &buf, nil)
	if err == nil || !strings.Contains(err.Error(), "changed") || buf.Len() != len(file)/2 {
		t.Fatalf("err = %v, %d bytes written: want the change found after the first %d", err, buf.Len(), len(file)/2)
	}
}
