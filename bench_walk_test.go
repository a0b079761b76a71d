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
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

func orderID(o *ordermsg.Order) int64 { return o.ID }

// BenchmarkWalk walks 40 pages of 50 orders from a loopback server that
// takes 20ms per page, sequentially and with WithConcurrency(8), in the same
// iteration, checks that both yield the same records in the same order, and
// reports the speedup.
//
// The pages are rendered once, before the timing, by an ordermsgtest fake,
// and served as bytes after the fixed latency: the bound below counts round
// trips only, so a server that rendered each round's 8 pages on the client's
// cores (about 3 ms a round on the 2-core machine) would charge its own CPU
// to the walk.
func BenchmarkWalk(b *testing.B) {
	const pages, perPage, latency = 40, 50, 20 * time.Millisecond
	fake := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 2, Websites: 1, OrdersPerWebsite: pages * perPage}))
	defer fake.Close()
	srvURL := startPageServer(b, fake, pages, perPage, nil, latency)
	c, err := ordermsg.NewClient(srvURL, fake.APIKey)
	if err != nil {
		b.Fatal(err)
	}
	defer c.CloseIdleConnections()
	opts := &ordermsg.ListOrdersOptions{Count: perPage}
	// A bare client for reference: page 1, then pages 2..40 with 8 requests
	// in flight, each body read and dropped.
	bare := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	defer bare.CloseIdleConnections()
	get := func(page int) {
		resp, err := bare.Get(fmt.Sprintf("%s/websites/%d/orders?count=%d&page=%d", srvURL, fake.WebsiteID, perPage, page))
		if err != nil {
			b.Error(err)
			return
		}
		defer resp.Body.Close()
		if _, err := io.Copy(io.Discard, resp.Body); err != nil {
			b.Error(err)
		}
	}
	var seqTime, concTime, bareTime time.Duration
	for b.Loop() {
		t0 := time.Now()
		seq := walkIDs(b, c.Orders.All(context.Background(), fake.WebsiteID, opts), orderID, nil)
		t1 := time.Now()
		conc := walkIDs(b, c.Orders.All(context.Background(), fake.WebsiteID, opts, ordermsg.WithConcurrency(8)), orderID, nil)
		t2 := time.Now()
		if len(seq) != pages*perPage || fmt.Sprint(seq) != fmt.Sprint(conc) {
			b.Fatalf("outputs differ: %d vs %d records", len(seq), len(conc))
		}
		seqTime += t1.Sub(t0)
		concTime += t2.Sub(t1)
		get(1)
		var wg sync.WaitGroup
		slots := make(chan struct{}, 8)
		for page := 2; page <= pages; page++ {
			slots <- struct{}{}
			wg.Go(func() { get(page); <-slots })
		}
		wg.Wait()
		bareTime += time.Since(t2)
	}
	n := float64(b.N)
	b.ReportMetric(bareTime.Seconds()*1000/n, "ms-bare-concurrency8")
	b.ReportMetric(seqTime.Seconds()*1000/n, "ms-sequential")
	b.ReportMetric(concTime.Seconds()*1000/n, "ms-concurrency8")
	speedup := float64(seqTime) / float64(concTime)
	b.ReportMetric(speedup, "speedup")
	// The walk waits for page 1 before it fans out: 40 pages at concurrency
	// 8 take at least 1+⌈39/8⌉ = 6 round trips, a bound of 40/6 ≈ 6.7×.
	b.ReportMetric(speedup/(40.0/6), "of-bound")
	// Against the latency alone: 6 round trips of 20 ms.
	b.ReportMetric(concTime.Seconds()/n/(6*latency.Seconds()), "conc/6-latencies")
}

// BenchmarkWalkPeriod walks 20 pages of 100 orders with every include from
// a loopback server that answers each page after 20 ms, with the default
// walk and, in the same iteration (in rotating order), with a plain loop
// that Lists page after page (what a generated client's user writes: each
// request sent once the page before is decoded) and with a bare loop that
// GETs each page, reads it and validates the JSON (one request at a time
// cannot do less). A walk that decodes a page while the next one is on its
// way has the bare loop's period (the latency, sending the request and
// reading the response), whatever the decode takes (goal: at most 21 ms);
// the plain loop pays the decode on top.
//
// It reports, for each, the period: the time from page 2 to page 20 being
// in hand (for the walk: its first record yielded), per page, which leaves
// out the first page (no walk can decode page 1 before it has it, nor know
// that page 2 exists) and the end; and the whole run's time per page. The
// pages are rendered before the timing, as in BenchmarkWalk.
func BenchmarkWalkPeriod(b *testing.B) {
	const pages, perPage, latency = 20, 100, 20 * time.Millisecond
	fake := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 5, Websites: 1, OrdersPerWebsite: pages * perPage}))
	defer fake.Close()
	var includes []string
	for _, inc := range ordermsg.AllOrderIncludes() {
		includes = append(includes, string(inc))
	}
	srvURL := startPageServer(b, fake, pages, perPage, ordermsg.AllOrderIncludes(), latency)
	c, err := ordermsg.NewClient(srvURL, fake.APIKey)
	if err != nil {
		b.Fatal(err)
	}
	defer c.CloseIdleConnections()
	opts := &ordermsg.ListOrdersOptions{Count: perPage, Includes: ordermsg.AllOrderIncludes()}
	// Each run calls got with each page as it has it.
	walk := func(got func()) {
		n := 0
		for _, err := range c.Orders.All(context.Background(), fake.WebsiteID, opts) {
			if err != nil {
				b.Fatal(err)
			}
			if n%perPage == 0 {
				got()
			}
			n++
		}
		if n != pages*perPage {
			b.Fatalf("walked %d orders", n)
		}
	}
	loop := func(got func()) {
		for page := 1; page <= pages; page++ {
			o := *opts
			o.Page = page
			p, err := c.Orders.List(context.Background(), fake.WebsiteID, &o)
			if err != nil || len(p.Data) != perPage {
				b.Fatalf("page %d: %v", page, err)
			}
			got()
		}
	}
	hc := &http.Client{}
	defer hc.CloseIdleConnections()
	bare := func(got func()) {
		for page := 1; page <= pages; page++ {
			req, err := http.NewRequest(http.MethodGet, fmt.Sprintf("%s/websites/%d/orders?count=%d&page=%d&includes=%s",
				srvURL, fake.WebsiteID, perPage, page, strings.Join(includes, ",")), nil)
			if err != nil {
				b.Fatal(err)
			}
			resp, err := hc.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			body, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil || !jsontext.Value(body).IsValid() {
				b.Fatalf("page %d: %v", page, err)
			}
			got()
		}
	}
	runs := []struct {
		name          string
		f             func(got func())
		total, period time.Duration
	}{{name: "walk", f: walk}, {name: "loop", f: loop}, {name: "bare", f: bare}}
	i := 0
	for b.Loop() {
		for j := range runs {
			r := &runs[(i+j)%len(runs)]
			var at []time.Time
			t0 := time.Now()
			r.f(func() { at = append(at, time.Now()) })
			r.total += time.Since(t0)
			if len(at) != pages {
				b.Fatalf("%s: %d pages", r.name, len(at))
			}
			r.period += at[pages-1].Sub(at[1])
		}
		i++
	}
	for _, r := range runs {
		b.ReportMetric(r.period.Seconds()*1000/float64(b.N)/(pages-2), "ms-period-"+r.name)
		b.ReportMetric(r.total.Seconds()*1000/float64(b.N)/pages, "ms/page-"+r.name)
	}
}

// BenchmarkWalkThroughput walks 20 pages of 100 orders with every include
// from a loopback fake with no latency, and in the same iteration fetches
// the same pages with a bare loop that only validates the JSON (what the SDK
// cannot do less than). It reports the SDK's throughput as a share of the
// bare loop's (sdk/bare, the default walk; sdk-c4/bare, WithConcurrency(4);
// the goal is at least 0.95). The three run in rotating order.
func BenchmarkWalkThroughput(b *testing.B) {
	const pages, perPage = 20, 100
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 4, Websites: 1, OrdersPerWebsite: pages * perPage}))
	defer srv.Close()
	c, err := srv.Client()
	if err != nil {
		b.Fatal(err)
	}
	defer c.CloseIdleConnections()
	opts := &ordermsg.ListOrdersOptions{Count: perPage, Includes: ordermsg.AllOrderIncludes()}
	bare := &http.Client{}
	defer bare.CloseIdleConnections()
	walkAll := func(walk ...ordermsg.WalkOption) {
		n := 0
		for _, err := range c.Orders.All(context.Background(), srv.WebsiteID, opts, walk...) {
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		if n != pages*perPage {
			b.Fatalf("walked %d orders", n)
		}
	}
	runs := []struct {
		f     func()
		total time.Duration
	}{
		{f: func() { walkAll() }},
		{f: func() { walkAll(ordermsg.WithConcurrency(4)) }},
		{f: func() {
			for page := 1; page <= pages; page++ {
				bareFetch(b, bare, srv, page, perPage)
			}
		}},
	}
	i := 0
	for b.Loop() {
		for j := range runs { // in rotating order: none always runs first
			r := &runs[(i+j)%len(runs)]
			t0 := time.Now()
			r.f()
			r.total += time.Since(t0)
		}
		i++
	}
	sdkTime, sdk4Time, bareTime := runs[0].total, runs[1].total, runs[2].total
	b.ReportMetric(float64(bareTime)/float64(sdk4Time), "sdk-c4/bare")
	b.ReportMetric(float64(bareTime)/float64(sdkTime), "sdk/bare")
}

// bareFetch gets one page of orders with every include and checks that it is
// valid JSON, and nothing else.
func bareFetch(tb testing.TB, hc *http.Client, srv *ordermsgtest.Server, page, perPage int) {
	var includes []string
	for _, inc := range ordermsg.AllOrderIncludes() {
		includes = append(includes, string(inc))
	}
	req, err := http.NewRequest(http.MethodGet, fmt.Sprintf("%s/websites/%d/orders?count=%d&page=%d&includes=%s",
		srv.URL, srv.WebsiteID, perPage, page, strings.Join(includes, ",")), nil)
	if err != nil {
		tb.Fatal(err)
	}
	req.SetBasicAuth(srv.APIKey, "")
	req.Header.Set("Service-Api-Version", "1")
	resp, err := hc.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK || !jsontext.Value(body).IsValid() {
		tb.Fatalf("page %d: %d %v", page, resp.StatusCode, err)
	}
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
