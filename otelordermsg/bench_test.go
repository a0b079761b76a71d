package otelordermsg_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
	"github.com/ordermsg/ordermsg-go/otelordermsg"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	tracenoop "go.opentelemetry.io/otel/trace/noop"
)

// pageBytes answers a request for page n of a list with the bytes of page
// n, whatever else the request says, at once: a server with no latency
// whose own work costs the client's process nothing.
type pageBytes [][]byte

func (p pageBytes) RoundTrip(r *http.Request) (*http.Response, error) {
	var page int
	if _, err := fmt.Sscan(r.URL.Query().Get("page"), &page); err != nil || page < 1 || page > len(p) {
		return &http.Response{StatusCode: http.StatusNotFound, Header: http.Header{}, Body: http.NoBody, Request: r}, nil
	}
	body := p[page-1]
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(bytes.NewReader(body)), ContentLength: int64(len(body)), Request: r}, nil
}

// BenchmarkWalkOverhead walks 5 pages of 100 orders with every include,
// served at once from memory (the fake renders them before the timing),
// with three clients in rotating order in each iteration: without
// otelordermsg (none); with it and no-op providers (noop); and with the
// SDK's recording providers, spans batched to an in-memory exporter and
// metrics aggregated for a manual reader (sdk). It reports the median over
// the iterations of noop/none (goal ≤ 1.02) and sdk/none (goal ≤ 1.15),
// the walk's time with telemetry over its time without in the same
// iteration: a median of ratios stays where a sum of times moves with the
// machine's other work. It also reports the allocations that each kind of
// telemetry adds per page (noop-allocs/page, sdk-allocs/page).
func BenchmarkWalkOverhead(b *testing.B) {
	const pages, perPage = 5, 100
	fake := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 4, Websites: 1, OrdersPerWebsite: pages * perPage}))
	defer fake.Close()
	var includes []string
	for _, inc := range ordermsg.AllOrderIncludes() {
		includes = append(includes, string(inc))
	}
	rendered := make(pageBytes, pages)
	for page := range rendered {
		req, err := http.NewRequest(http.MethodGet, fmt.Sprintf("%s/websites/%d/orders?count=%d&page=%d&includes=%s",
			fake.URL, fake.WebsiteID, perPage, page+1, strings.Join(includes, ",")), nil)
		if err != nil {
			b.Fatal(err)
		}
		req.SetBasicAuth(fake.APIKey, "")
		req.Header.Set(ordermsg.DefaultVersionHeader, ordermsg.DefaultAPIVersion)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		rendered[page], err = io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			b.Fatalf("page %d: %d %v", page+1, resp.StatusCode, err)
		}
	}

	exporter := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exporter))
	defer func() { _ = tp.Shutdown(context.Background()) }()
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	client := func(opts ...ordermsg.Option) *ordermsg.Client {
		c, err := ordermsg.NewClient("https://api.example.com", "key",
			append([]ordermsg.Option{ordermsg.WithHTTPClient(&http.Client{Transport: rendered})}, opts...)...)
		if err != nil {
			b.Fatal(err)
		}
		return c
	}
	clients := []*ordermsg.Client{
		client(),
		client(otelordermsg.New(otelordermsg.WithTracerProvider(tracenoop.NewTracerProvider()),
			otelordermsg.WithMeterProvider(metricnoop.NewMeterProvider()))),
		client(otelordermsg.New(otelordermsg.WithTracerProvider(tp), otelordermsg.WithMeterProvider(mp))),
	}
	opts := &ordermsg.ListOrdersOptions{Count: perPage, Includes: ordermsg.AllOrderIncludes()}
	var noopRatios, sdkRatios []float64
	var none time.Duration
	var extra [2]float64 // allocations of noop and sdk beyond none's
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		var took [3]time.Duration
		var mallocs [3]uint64
		for j := range clients { // in rotating order: none always runs first
			k := (i + j) % len(clients)
			runtime.GC() // no run pays for the garbage of the one before
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			t0 := time.Now()
			n := 0
			for _, err := range clients[k].Orders.All(context.Background(), 1, opts) {
				if err != nil {
					b.Fatal(err)
				}
				n++
			}
			took[k] = time.Since(t0)
			runtime.ReadMemStats(&after)
			mallocs[k] = after.Mallocs - before.Mallocs
			if n != pages*perPage {
				b.Fatalf("walked %d orders", n)
			}
		}
		none += took[0]
		for k := range extra {
			extra[k] += float64(mallocs[k+1]) - float64(mallocs[0])
		}
		noopRatios = append(noopRatios, float64(took[1])/float64(took[0]))
		sdkRatios = append(sdkRatios, float64(took[2])/float64(took[0]))
		exporter.Reset()
		i++
	}
	b.ReportMetric(median(noopRatios), "noop/none")
	b.ReportMetric(median(sdkRatios), "sdk/none")
	b.ReportMetric(none.Seconds()*1000/float64(b.N), "ms-none")
	b.ReportMetric(extra[0]/float64(b.N*pages), "noop-allocs/page")
	b.ReportMetric(extra[1]/float64(b.N*pages), "sdk-allocs/page")
}

// median is the median of xs, which it sorts.
func median(xs []float64) float64 {
	slices.Sort(xs)
	if n := len(xs); n%2 == 0 {
		return (xs[n/2-1] + xs[n/2]) / 2
	}
	return xs[len(xs)/2]
}
