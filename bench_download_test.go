package ordermsg_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/metrics"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// benchFiles starts the fake with files of size bytes and returns n of its
// file links, read through the API.
func benchFiles(b *testing.B, size int64, n int) (*ordermsgtest.Server, *ordermsg.Client, []*ordermsg.File) {
	b.Helper()
	srv := ordermsgtest.NewServer(nil, ordermsgtest.WithFileLinks(ordermsgtest.FileLinks{Size: size, TTL: 24 * time.Hour}))
	b.Cleanup(srv.Close)
	c, err := srv.Client()
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	var files []*ordermsg.File
	for m, err := range c.Messages.All(ctx, srv.WebsiteID, &ordermsg.ListMessagesOptions{Count: 100, Includes: []ordermsg.MessageInclude{ordermsg.MessageIncludeFile}}) {
		if err != nil {
			b.Fatal(err)
		}
		if m.File.Expanded != nil {
			files = append(files, m.File.Expanded)
		}
	}
	for o, err := range c.Orders.All(ctx, srv.WebsiteID, &ordermsg.ListOrdersOptions{Count: 100, Includes: []ordermsg.OrderInclude{ordermsg.OrderIncludeItemsPrintReadyFiles}}) {
		if err != nil {
			b.Fatal(err)
		}
		for _, it := range o.Items {
			for _, p := range it.PrintReadyFiles {
				if p.File != nil {
					files = append(files, p.File)
				}
			}
		}
	}
	if len(files) < n {
		b.Fatalf("the dataset has %d files, fewer than %d", len(files), n)
	}
	return srv, c, files[:n]
}

// inParallel runs fetch on every file with workers goroutines and returns
// the wall time.
func inParallel(b *testing.B, files []*ordermsg.File, workers int, fetch func(*ordermsg.File) error) time.Duration {
	start := time.Now()
	next := make(chan *ordermsg.File)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range next {
				if err := fetch(f); err != nil {
					b.Error(err)
				}
			}
		}()
	}
	for _, f := range files {
		next <- f
	}
	close(next)
	wg.Wait()
	return time.Since(start)
}

// BenchmarkDownload200Files downloads 200 files of 1 MiB from the loopback
// fake, 8 at a time, with Client.Download and with plain net/http and
// io.Copy, in the same iteration, and reports both rates and their ratio
// (goal: sdk/plain ≥ 0.9).
func BenchmarkDownload200Files(b *testing.B) {
	const size, count, workers = 1 << 20, 200, 8
	_, c, files := benchFiles(b, size, count)
	plain := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	defer plain.CloseIdleConnections()
	ctx := context.Background()
	sdkFetch := func(f *ordermsg.File) error {
		_, err := c.Download(ctx, f, io.Discard, nil)
		return err
	}
	plainFetch := func(f *ordermsg.File) error {
		resp, err := plain.Get(f.URL)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		_, err = io.Copy(io.Discard, resp.Body)
		return err
	}
	b.SetBytes(size * count)
	b.ReportAllocs()
	var sdkTime, plainTime time.Duration
	for i := 0; b.Loop(); i++ {
		if i%2 == 0 { // alternate the order, so neither side always goes first
			plainTime += inParallel(b, files, workers, plainFetch)
			sdkTime += inParallel(b, files, workers, sdkFetch)
		} else {
			sdkTime += inParallel(b, files, workers, sdkFetch)
			plainTime += inParallel(b, files, workers, plainFetch)
		}
	}
	mb := float64(size*count) * float64(b.N) / 1e6
	b.ReportMetric(mb/sdkTime.Seconds(), "sdk-MB/s")
	b.ReportMetric(mb/plainTime.Seconds(), "plain-MB/s")
	b.ReportMetric(plainTime.Seconds()/sdkTime.Seconds(), "sdk/plain")
}

// BenchmarkDownloadPeakHeap downloads one file of 1 MiB and one of 64 MiB,
// each as is and gzip-encoded (decoded on the way), and reports the peak of
// live heap during each above the heap before it: it should not grow with
// the file's size.
func BenchmarkDownloadPeakHeap(b *testing.B) {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	heap := func() int64 {
		metrics.Read(sample)
		return int64(sample[0].Value.Uint64())
	}
	for _, tc := range []struct {
		name string
		size int64
		gzip bool
	}{{"1MiB", 1 << 20, false}, {"64MiB", 64 << 20, false}, {"gzip-1MiB", 1 << 20, true}, {"gzip-64MiB", 64 << 20, true}} {
		b.Run(tc.name, func(b *testing.B) {
			var c *ordermsg.Client
			var f *ordermsg.File
			if tc.gzip {
				c, f = gzipFileServer(b, int(tc.size))
			} else {
				var files []*ordermsg.File
				_, c, files = benchFiles(b, tc.size, 1)
				f = files[0]
			}
			b.SetBytes(tc.size)
			b.ReportAllocs()
			var peak int64
			for b.Loop() {
				runtime.GC()
				base := heap()
				writes := 0
				progress := func(int) {
					if writes++; writes%16 == 0 {
						peak = max(peak, heap()-base)
					}
				}
				n, err := c.Download(context.Background(), f, io.Discard, &ordermsg.DownloadOptions{Progress: progress})
				if err != nil || n != tc.size {
					b.Fatal(n, err)
				}
			}
			b.ReportMetric(float64(peak), "peak-heap-B")
		})
	}
}

// gzipFileServer serves a file of size bytes with Content-Encoding gzip, as
// a host that stores it compressed does, and returns a client and its link.
func gzipFileServer(b *testing.B, size int) (*ordermsg.Client, *ordermsg.File) {
	b.Helper()
	body := gzipped(b, pdfLike(size))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.Write(body)
	}))
	b.Cleanup(srv.Close)
	c, err := ordermsg.NewClient(srv.URL, "k")
	if err != nil {
		b.Fatal(err)
	}
	return c, &ordermsg.File{ID: 1, URL: srv.URL + "/f.pdf"}
}
