package ordermsg

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"
)

// heapObjects is the runtime metric of the bytes held by heap objects, live
// or not yet swept: what the process's heap holds at a moment.
const heapObjects = "/memory/classes/heap/objects:bytes"

// peakHeap runs f and returns the highest heap above the level before it,
// sampled every 20µs while f runs.
func peakHeap(f func()) uint64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: heapObjects}}
	read := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
	base := read()
	done := make(chan struct{})
	peak := make(chan uint64)
	go func() {
		var top uint64
		tick := time.NewTicker(20 * time.Microsecond)
		defer tick.Stop()
		for {
			top = max(top, read())
			select {
			case <-done:
				peak <- max(top, read())
				return
			case <-tick.C:
			}
		}
	}()
	f()
	close(done)
	return max(<-peak, base) - base
}

// bufferGrownFromContentLength is the way bodies were read before: a
// bytes.Buffer grown to the announced Content-Length, then ReadFrom. It is
// the baseline the benchmark compares with.
func bufferGrownFromContentLength(r io.Reader, contentLength, limit int64) ([]byte, error) {
	var buf bytes.Buffer
	if contentLength > 0 && contentLength <= limit {
		buf.Grow(int(contentLength))
	}
	_, err := buf.ReadFrom(io.LimitReader(r, limit+1))
	return buf.Bytes(), err
}

// lyingReader yields one byte, then fails as a cut body does.
type lyingReader struct{ sent bool }

func (r *lyingReader) Read(p []byte) (int, error) {
	if r.sent {
		return 0, io.ErrUnexpectedEOF
	}
	r.sent = true
	p[0] = '{'
	return 1, nil
}

const mib = float64(1 << 20)

// BenchmarkBodyPeakHeap measures the heap a response body costs at its peak,
// for the SDK's client over loopback and, in the same iteration, for the
// former way of reading (bytes.Buffer grown from Content-Length):
//
//   - announced: 8 concurrent responses announce Content-Length 64 MiB and
//     send one byte;
//   - under-cap: one body of 64 MiB less 1 KiB, the default cap being 64 MiB,
//     with a true Content-Length, which the baseline trusted: it peaks at
//     about N where the SDK, which trusts only the bytes, peaks at about 2N.
func BenchmarkBodyPeakHeap(b *testing.B) {
	const announced = 64 << 20
	b.Run("announced-64MiB-sent-1B-x8", func(b *testing.B) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", fmt.Sprint(announced))
			w.Write([]byte("{"))
			w.(http.Flusher).Flush()
			panic(http.ErrAbortHandler) // cut the body after one byte
		}))
		defer srv.Close()
		c, err := NewClient(srv.URL, testAPIKey, WithRetry(RetryPolicy{}))
		if err != nil {
			b.Fatal(err)
		}
		defer c.CloseIdleConnections()
		var sdk, baseline uint64
		for b.Loop() {
			sdk += peakHeap(func() {
				var wg sync.WaitGroup
				for range 8 {
					wg.Go(func() {
						if _, err := c.Orders.Get(context.Background(), 1, 2, nil); !errors.Is(err, io.ErrUnexpectedEOF) {
							b.Errorf("got %v, want a cut body", err)
						}
					})
				}
				wg.Wait()
			})
			baseline += peakHeap(func() {
				var wg sync.WaitGroup
				for range 8 {
					wg.Go(func() { bufferGrownFromContentLength(&lyingReader{}, announced, defaultMaxBodySize) })
				}
				wg.Wait()
			})
		}
		b.ReportMetric(float64(sdk)/mib/float64(b.N), "peak-MB-sdk")
		b.ReportMetric(float64(baseline)/mib/float64(b.N), "peak-MB-baseline")
	})
	b.Run("under-cap-64MiB", func(b *testing.B) {
		body := bytes.Repeat([]byte("x"), defaultMaxBodySize-1<<10)
		copy(body, `{"pad":"`)
		copy(body[len(body)-2:], `"}`)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", fmt.Sprint(len(body)))
			w.Write(body)
		}))
		defer srv.Close()
		c, err := NewClient(srv.URL, testAPIKey, WithRetry(RetryPolicy{}))
		if err != nil {
			b.Fatal(err)
		}
		defer c.CloseIdleConnections()
		b.SetBytes(int64(len(body)))
		var sdk, baseline uint64
		for b.Loop() {
			sdk += peakHeap(func() {
				if err := c.Get(context.Background(), "/big", nil, &struct{}{}); err != nil {
					b.Error(err)
				}
			})
			baseline += peakHeap(func() {
				resp, err := http.Get(srv.URL)
				if err != nil {
					b.Fatal(err)
				}
				defer resp.Body.Close()
				if _, err := bufferGrownFromContentLength(resp.Body, resp.ContentLength, defaultMaxBodySize); err != nil {
					b.Error(err)
				}
			})
		}
		n := float64(b.N)
		b.ReportMetric(float64(sdk)/mib/n, "peak-MB-sdk")
		b.ReportMetric(float64(baseline)/mib/n, "peak-MB-baseline")
		b.ReportMetric(float64(sdk)/n/float64(len(body)), "sdk-peak/body")
	})
}
