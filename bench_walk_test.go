package ordermsg_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

func orderID(o *ordermsg.Order) int64 { return o.ID }

// BenchmarkWalk walks 40 pages of 50 orders from a loopback fake that takes
// 20ms per page, sequentially and with WithConcurrency(8), in the same
// iteration, checks that both yield the same records in the same order, and
// reports the speedup.
func BenchmarkWalk(b *testing.B) {
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 2, Websites: 1, OrdersPerWebsite: 2000}),
		ordermsgtest.WithLatency(20*time.Millisecond))
	defer srv.Close()
	c, err := srv.Client()
	if err != nil {
		b.Fatal(err)
	}
	opts := &ordermsg.ListOrdersOptions{Count: 50}
	var seqTime, concTime time.Duration
	for b.Loop() {
		t0 := time.Now()
		seq := walkIDs(b, c.Orders.All(context.Background(), srv.WebsiteID, opts), orderID, nil)
		t1 := time.Now()
		conc := walkIDs(b, c.Orders.All(context.Background(), srv.WebsiteID, opts, ordermsg.WithConcurrency(8)), orderID, nil)
		t2 := time.Now()
		if len(seq) != 2000 || fmt.Sprint(seq) != fmt.Sprint(conc) {
			b.Fatalf("outputs differ: %d vs %d records", len(seq), len(conc))
		}
		seqTime += t1.Sub(t0)
		concTime += t2.Sub(t1)
	}
	n := float64(b.N)
	b.ReportMetric(seqTime.Seconds()*1000/n, "ms-sequential")
	b.ReportMetric(concTime.Seconds()*1000/n, "ms-concurrency8")
	b.ReportMetric(float64(seqTime)/float64(concTime), "speedup")
}

// syntheticPages serves pages of a list of total copies of one order (with
// its id changed), built per request, so that the server holds nothing that
// grows with the list: what grows is the client's.
type syntheticPages struct {
	total    int
	template []byte // an order's JSON with "id":%d
}

func (s syntheticPages) RoundTrip(r *http.Request) (*http.Response, error) {
	q := r.URL.Query()
	page, _ := strconv.Atoi(q.Get("page"))
	count, _ := strconv.Atoi(q.Get("count"))
	from := (page - 1) * count
	to := min(from+count, s.total)
	var buf bytes.Buffer
	buf.WriteString(`{"object":"list","data":[`)
	for i := from; i < to; i++ {
		if i > from {
			buf.WriteByte(',')
		}
		fmt.Fprintf(&buf, string(s.template), i+1)
	}
	fmt.Fprintf(&buf, `],"meta":{"pagination":{"total":%d,"count":%d,"per_page":%d,"current_page":%d,"total_pages":%d}}}`,
		s.total, max(to-from, 0), count, page, (s.total+count-1)/count)
	return &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(&buf), ContentLength: int64(buf.Len())}, nil
}

// BenchmarkWalkMemory walks 10,000 and 100,000 orders (each the full order
// fixture, every include) with WithConcurrency(4) and reports the peak heap
// seen during the walk, sampled every 1,000 records. A flat walk has the same
// peak at both sizes.
func BenchmarkWalkMemory(b *testing.B) {
	order, err := os.ReadFile("testdata/order_full.json")
	if err != nil {
		b.Fatal(err)
	}
	template := bytes.Replace(bytes.ReplaceAll(order, []byte("%"), []byte("%%")), []byte(`"id": 5001,`), []byte(`"id": %d,`), 1)
	for _, total := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("orders=%d", total), func(b *testing.B) {
			c, err := ordermsg.NewClient("https://api.example.com", "k",
				ordermsg.WithHTTPClient(&http.Client{Transport: syntheticPages{total: total, template: template}}))
			if err != nil {
				b.Fatal(err)
			}
			var peak uint64
			var ms runtime.MemStats
			for b.Loop() {
				runtime.GC()
				n := 0
				for o, err := range c.Orders.All(context.Background(), 1, &ordermsg.ListOrdersOptions{Count: 100}, ordermsg.WithConcurrency(4)) {
					if err != nil {
						b.Fatal(err)
					}
					if n++; int64(n) != o.ID {
						b.Fatalf("record %d has id %d", n, o.ID)
					}
					if n%1000 == 0 {
						runtime.ReadMemStats(&ms)
						peak = max(peak, ms.HeapAlloc)
					}
				}
				if n != total {
					b.Fatalf("walked %d of %d", n, total)
				}
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
			b.ReportMetric(float64(len(order)*total)/(1<<20), "json-walked-MB")
		})
	}
}
