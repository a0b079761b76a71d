package otelordermsg_test

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
	"github.com/ordermsg/ordermsg-go/otelordermsg"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

// telemetry is an SDK tracer provider that keeps every span, and a meter
// provider read by hand.
type telemetry struct {
	spans  *tracetest.SpanRecorder
	tp     *sdktrace.TracerProvider
	reader *sdkmetric.ManualReader
	mp     *sdkmetric.MeterProvider
}

func newTelemetry() *telemetry {
	spans := tracetest.NewSpanRecorder()
	reader := sdkmetric.NewManualReader()
	return &telemetry{
		spans:  spans,
		tp:     sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans)),
		reader: reader,
		mp:     sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader)),
	}
}

// option is otelordermsg.New with the providers, and opts.
func (tel *telemetry) option(opts ...otelordermsg.Option) ordermsg.Option {
	return otelordermsg.New(append([]otelordermsg.Option{
		otelordermsg.WithTracerProvider(tel.tp), otelordermsg.WithMeterProvider(tel.mp)}, opts...)...)
}

// named returns the ended spans named name, in the order they started.
func (tel *telemetry) named(name string) []sdktrace.ReadOnlySpan {
	var out []sdktrace.ReadOnlySpan
	for _, s := range tel.spans.Ended() {
		if s.Name() == name {
			out = append(out, s)
		}
	}
	sortByStart(out)
	return out
}

// childrenOf returns the ended spans whose parent is parent, in the order
// they started.
func (tel *telemetry) childrenOf(parent sdktrace.ReadOnlySpan) []sdktrace.ReadOnlySpan {
	var out []sdktrace.ReadOnlySpan
	for _, s := range tel.spans.Ended() {
		if s.Parent().SpanID() == parent.SpanContext().SpanID() && s.Parent().TraceID() == parent.SpanContext().TraceID() {
			out = append(out, s)
		}
	}
	sortByStart(out)
	return out
}

func sortByStart(spans []sdktrace.ReadOnlySpan) {
	for i := 1; i < len(spans); i++ {
		for j := i; j > 0 && spans[j].StartTime().Before(spans[j-1].StartTime()); j-- {
			spans[j], spans[j-1] = spans[j-1], spans[j]
		}
	}
}

// metrics collects the meter provider's metrics by name.
func (tel *telemetry) metrics(t *testing.T) map[string]metricdata.Metrics {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := tel.reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	out := map[string]metricdata.Metrics{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			out[m.Name] = m
		}
	}
	return out
}

// attrs returns a span's attributes by name, as text.
func attrs(kvs []attribute.KeyValue) map[string]string {
	out := map[string]string{}
	for _, kv := range kvs {
		out[string(kv.Key)] = kv.Value.String()
	}
	return out
}

// wantAttrs fails unless got has each of want's attributes with its value,
// and none of absent.
func wantAttrs(t *testing.T, what string, got []attribute.KeyValue, want map[string]string, absent ...string) {
	t.Helper()
	have := attrs(got)
	for k, v := range want {
		if have[k] != v {
			t.Errorf("%s: %s = %q, want %q (all: %v)", what, k, have[k], v, have)
		}
	}
	for _, k := range absent {
		if _, ok := have[k]; ok {
			t.Errorf("%s: has %s = %q, want none", what, k, have[k])
		}
	}
}

func portOf(t *testing.T, rawURL string) string {
	t.Helper()
	u, err := url.Parse(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	return u.Port()
}

// TestWalkSpans: each page of a walk is a span named Orders.All beneath the
// caller's span, with one client span for its request beneath it, that
// carries the HTTP client conventions' attributes; the records decoded and
// the duration of each attempt are measured.
func TestWalkSpans(t *testing.T) {
	tel := newTelemetry()
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 1, Websites: 1, OrdersPerWebsite: 15}))
	defer srv.Close()
	c, err := srv.Client(tel.option())
	if err != nil {
		t.Fatal(err)
	}
	ctx, root := tel.tp.Tracer("test").Start(context.Background(), "walk")
	n := 0
	for _, err := range c.Orders.All(ctx, srv.WebsiteID, &ordermsg.ListOrdersOptions{Count: 5}) {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	root.End()
	if n != 15 {
		t.Fatalf("walked %d orders", n)
	}
	rootSpan := tel.named("walk")[0]
	pages := tel.childrenOf(rootSpan)
	if len(pages) != 3 {
		t.Fatalf("%d spans beneath the walk, want 3 pages", len(pages))
	}
	template := "/websites/{website_id}/orders"
	for i, page := range pages {
		if page.Name() != "Orders.All" || page.SpanKind() != trace.SpanKindInternal || page.Status().Code != codes.Unset {
			t.Errorf("page %d: span %q kind %v status %v", i+1, page.Name(), page.SpanKind(), page.Status())
		}
		wantAttrs(t, page.Name(), page.Attributes(), map[string]string{
			"ordermsg.resource": "orders", "ordermsg.records": "5", "url.template": template}, "error.type")
		attempts := tel.childrenOf(page)
		if len(attempts) != 1 {
			t.Fatalf("page %d: %d attempt spans, want 1", i+1, len(attempts))
		}
		a := attempts[0]
		if a.Name() != "GET "+template || a.SpanKind() != trace.SpanKindClient || a.Status().Code != codes.Unset {
			t.Errorf("attempt %d: span %q kind %v status %v", i+1, a.Name(), a.SpanKind(), a.Status())
		}
		wantAttrs(t, a.Name(), a.Attributes(), map[string]string{
			"http.request.method": "GET", "server.address": "127.0.0.1", "server.port": portOf(t, srv.URL),
			"url.template": template, "http.response.status_code": "200",
		}, "http.request.resend_count", "error.type")
	}

	m := tel.metrics(t)
	duration := m["http.client.request.duration"]
	hist, ok := duration.Data.(metricdata.Histogram[float64])
	if !ok || duration.Unit != "s" || len(hist.DataPoints) != 1 || hist.DataPoints[0].Count != 3 {
		t.Fatalf("http.client.request.duration: %+v", duration)
	}
	wantAttrs(t, "duration", hist.DataPoints[0].Attributes.ToSlice(), map[string]string{
		"http.request.method": "GET", "server.address": "127.0.0.1", "url.template": template, "http.response.status_code": "200"},
		"http.request.resend_count")
	records, ok := m["ordermsg.client.records"].Data.(metricdata.Sum[int64])
	if !ok || len(records.DataPoints) != 1 || records.DataPoints[0].Value != 15 {
		t.Fatalf("ordermsg.client.records: %+v", m["ordermsg.client.records"])
	}
	wantAttrs(t, "records", records.DataPoints[0].Attributes.ToSlice(), map[string]string{"ordermsg.resource": "orders"})
}

// scripted serves, for each path, its statuses in turn (the last one
// repeats); 200 answers with an order.
func scripted(t *testing.T, script map[string][]int) (*httptest.Server, *sync.Map) {
	var mu sync.Mutex
	served := map[string]int{}
	var headers sync.Map // path → the last request's header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		headers.Store(r.URL.Path, r.Header.Clone())
		mu.Lock()
		statuses := script[r.URL.Path]
		i := min(served[r.URL.Path], len(statuses)-1)
		served[r.URL.Path]++
		mu.Unlock()
		if i < 0 {
			http.NotFound(w, r)
			return
		}
		if statuses[i] != http.StatusOK {
			w.WriteHeader(statuses[i])
			fmt.Fprint(w, `{"message":"no"}`)
			return
		}
		fmt.Fprint(w, `{"object":"order","id":2,"date_created":"2024-03-01T10:00:00+00:00"}`)
	}))
	t.Cleanup(srv.Close)
	return srv, &headers
}

// TestRetriesAndErrors: a retried attempt shows its status and error.type
// with the Error status, the next one its http.request.resend_count, the
// call's span the retry's wait; a 4xx or 5xx that ends the call, and a
// connection refused, give the attempt and the call the Error status.
func TestRetriesAndErrors(t *testing.T) {
	tel := newTelemetry()
	srv, _ := scripted(t, map[string][]int{
		"/websites/1/orders/2": {503, 200},
		"/websites/1/orders/3": {404},
		"/websites/1/orders/4": {500},
	})
	c, err := ordermsg.NewClient(srv.URL, "key", tel.option(),
		ordermsg.WithRetry(ordermsg.RetryPolicy{MaxRetries: 1, MinWait: time.Millisecond, MaxWait: 2 * time.Millisecond}))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := c.Orders.Get(ctx, 1, 2, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Orders.Get(ctx, 1, 3, nil); !errors.Is(err, ordermsg.ErrNotFound) {
		t.Fatalf("got %v, want a 404", err)
	}
	if _, err := c.Orders.Get(ctx, 1, 4, nil); !errors.Is(err, ordermsg.ErrServer) {
		t.Fatalf("got %v, want a 500", err)
	}
	calls := tel.named("Orders.Get")
	if len(calls) != 3 {
		t.Fatalf("%d Orders.Get spans, want 3", len(calls))
	}
	template := "/websites/{website_id}/orders/{order_id}"

	// 503, then 200.
	retried := calls[0]
	attempts := tel.childrenOf(retried)
	if len(attempts) != 2 || retried.Status().Code != codes.Unset {
		t.Fatalf("the retried call: %d attempts, status %v", len(attempts), retried.Status())
	}
	if attempts[0].Status().Code != codes.Error {
		t.Errorf("the 503 attempt's status is %v", attempts[0].Status())
	}
	wantAttrs(t, "the 503 attempt", attempts[0].Attributes(), map[string]string{
		"http.response.status_code": "503", "error.type": "503", "url.template": template}, "http.request.resend_count")
	if attempts[1].Status().Code != codes.Unset {
		t.Errorf("the 200 attempt's status is %v", attempts[1].Status())
	}
	wantAttrs(t, "the retry", attempts[1].Attributes(), map[string]string{
		"http.response.status_code": "200", "http.request.resend_count": "1"}, "error.type")
	events := retried.Events()
	if len(events) != 1 || events[0].Name != "retry" {
		t.Fatalf("the retried call's events: %+v", events)
	}
	wait, err := strconv.ParseFloat(attrs(events[0].Attributes)["ordermsg.retry.wait"], 64)
	if err != nil || wait < 0.001 || wait > 0.002 {
		t.Errorf("the retry's wait is %v s (%v), want the policy's 1 to 2 ms", wait, err)
	}
	wantAttrs(t, "the retry event", events[0].Attributes, map[string]string{"error.type": "503"})

	// 404: not retried.
	notFound := calls[1]
	attempts = tel.childrenOf(notFound)
	if len(attempts) != 1 || attempts[0].Status().Code != codes.Error || notFound.Status().Code != codes.Error {
		t.Fatalf("the 404: %d attempts, their status %v, the call's %v", len(attempts), attempts[0].Status(), notFound.Status())
	}
	wantAttrs(t, "the 404 attempt", attempts[0].Attributes(), map[string]string{"http.response.status_code": "404", "error.type": "404"})
	wantAttrs(t, "the 404 call", notFound.Attributes(), map[string]string{"error.type": "404"})

	// 500 twice: retried once, and the call ends with it.
	failed := calls[2]
	attempts = tel.childrenOf(failed)
	if len(attempts) != 2 || failed.Status().Code != codes.Error {
		t.Fatalf("the 500s: %d attempts, the call's status %v", len(attempts), failed.Status())
	}
	for _, a := range attempts {
		if a.Status().Code != codes.Error {
			t.Errorf("a 500 attempt's status is %v", a.Status())
		}
	}
	wantAttrs(t, "the 500 call", failed.Attributes(), map[string]string{"error.type": "500"})

	m := tel.metrics(t)
	retries, ok := m["ordermsg.client.retries"].Data.(metricdata.Sum[int64])
	if !ok {
		t.Fatalf("ordermsg.client.retries: %+v", m["ordermsg.client.retries"])
	}
	byType := map[string]int64{}
	for _, dp := range retries.DataPoints {
		byType[attrs(dp.Attributes.ToSlice())["error.type"]] += dp.Value
		wantAttrs(t, "retries", dp.Attributes.ToSlice(), map[string]string{"url.template": template, "http.request.method": "GET"})
	}
	if byType["503"] != 1 || byType["500"] != 1 || len(byType) != 2 {
		t.Errorf("retries by error.type: %v, want one 503 and one 500", byType)
	}
	var points uint64
	for _, dp := range m["http.client.request.duration"].Data.(metricdata.Histogram[float64]).DataPoints {
		points += dp.Count
	}
	if points != 5 {
		t.Errorf("%d attempts measured, want 5", points)
	}

	// A connection refused.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	dead, err := ordermsg.NewClient("http://"+addr, "key", tel.option(), ordermsg.WithRetry(ordermsg.RetryPolicy{}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dead.Messages.List(ctx, 1, nil); err == nil {
		t.Fatal("no error from a closed port")
	}
	call := tel.named("Messages.List")[0]
	attempts = tel.childrenOf(call)
	if len(attempts) != 1 || attempts[0].Status().Code != codes.Error || call.Status().Code != codes.Error {
		t.Fatalf("refused: %d attempts, the call's status %v", len(attempts), call.Status())
	}
	wantAttrs(t, "the refused attempt", attempts[0].Attributes(), map[string]string{"error.type": "*net.OpError"}, "http.response.status_code")
}

// TestPropagation: no trace context reaches the service by default, even
// with a global propagator; with WithPropagators, each attempt carries its
// own span's.
func TestPropagation(t *testing.T) {
	tel := newTelemetry()
	srv, headers := scripted(t, map[string][]int{"/websites/1/orders/2": {200}})
	defer otel.SetTextMapPropagator(otel.GetTextMapPropagator())
	otel.SetTextMapPropagator(propagation.TraceContext{})

	quiet, err := ordermsg.NewClient(srv.URL, "key", tel.option())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := quiet.Orders.Get(context.Background(), 1, 2, nil); err != nil {
		t.Fatal(err)
	}
	h, _ := headers.Load("/websites/1/orders/2")
	if tp := h.(http.Header).Get("Traceparent"); tp != "" {
		t.Fatalf("traceparent sent without WithPropagators: %q", tp)
	}

	tel = newTelemetry()
	told, err := ordermsg.NewClient(srv.URL, "key", tel.option(otelordermsg.WithPropagators(propagation.TraceContext{})))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := told.Orders.Get(context.Background(), 1, 2, nil); err != nil {
		t.Fatal(err)
	}
	h, _ = headers.Load("/websites/1/orders/2")
	attempt := tel.named("GET /websites/{website_id}/orders/{order_id}")[0].SpanContext()
	want := fmt.Sprintf("00-%s-%s-01", attempt.TraceID(), attempt.SpanID())
	if got := h.(http.Header).Get("Traceparent"); got != want {
		t.Fatalf("traceparent %q, want the attempt's span, %q", got, want)
	}
}

// forger is a propagator that tries to overwrite the client's own headers.
type forger struct{}

func (forger) Inject(_ context.Context, c propagation.TextMapCarrier) {
	c.Set("Authorization", "Basic forged")
	c.Set("Acme-Api-Version", "forged")
}
func (forger) Extract(ctx context.Context, _ propagation.TextMapCarrier) context.Context { return ctx }
func (forger) Fields() []string                                                          { return []string{"Authorization"} }

// TestNoSecrets: the API key, the Authorization header and the version
// header's value appear in no span name, attribute, event, status or
// metric, even when the server quotes them in its answers, nor does a
// download link's query; a propagator cannot replace the client's headers.
func TestNoSecrets(t *testing.T) {
	const key, version, token = "sk_live_SECRETKEY_4711", "vsecret-0815", "linktoken-SECRET-42"
	authorization := base64.StdEncoding.EncodeToString([]byte(key + ":"))
	secrets := []string{key, authorization, version, token}
	quote := strings.Join(secrets, " ")
	var mu sync.Mutex
	var sentAuth []string
	var n int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		n++
		i := n
		sentAuth = append(sentAuth, r.Header.Get("Authorization")+" "+r.Header.Get("Acme-Api-Version"))
		mu.Unlock()
		w.Header().Set("X-Echo", quote)
		switch {
		case strings.HasPrefix(r.URL.Path, "/files/"):
			fmt.Fprint(w, "file bytes")
		case i == 1:
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprintf(w, `{"message":%q}`, quote)
		default:
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprintf(w, `{"message":"bad key %s","error":%q}`, quote, quote)
		}
	}))
	defer srv.Close()
	tel := newTelemetry()
	c, err := ordermsg.NewClient(srv.URL, key, tel.option(otelordermsg.WithPropagators(forger{})),
		ordermsg.WithVersionHeader("Acme-Api-Version", version),
		ordermsg.WithRetry(ordermsg.RetryPolicy{MaxRetries: 1, MinWait: time.Millisecond, MaxWait: time.Millisecond}))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := c.Orders.Get(ctx, 1, 2, nil); !errors.Is(err, ordermsg.ErrUnauthorized) {
		t.Fatalf("got %v, want a 401", err)
	}
	var v any
	if err := c.Get(ctx, "/websites/1/messages?x", nil, &v); err == nil {
		t.Fatal("a path with a query was accepted")
	}
	if err := c.Get(ctx, "/websites/1/messages", url.Values{"search": {key}}, &v); !errors.Is(err, ordermsg.ErrUnauthorized) {
		t.Fatalf("got %v, want a 401", err)
	}
	if _, err := c.Download(ctx, &ordermsg.File{ID: 1, URL: srv.URL + "/files/a.pdf?token=" + token}, &strings.Builder{}, nil); err != nil {
		t.Fatal(err)
	}
	for _, sent := range sentAuth {
		if sent != "Basic "+authorization+" "+version {
			t.Errorf("the propagator replaced a header of the client: %q", sent)
		}
	}

	var texts []string
	add := func(where string, kvs []attribute.KeyValue) {
		for _, kv := range kvs {
			texts = append(texts, where+" "+string(kv.Key)+"="+kv.Value.String())
		}
	}
	spans := tel.spans.Ended()
	if len(spans) != 7 { // Orders.Get and its two attempts, Client.Get and Download and one each
		t.Fatalf("%d spans, want the calls' and their attempts'", len(spans))
	}
	for _, s := range spans {
		texts = append(texts, "span "+s.Name(), "status "+s.Status().Description)
		add(s.Name(), s.Attributes())
		for _, e := range s.Events() {
			texts = append(texts, "event "+e.Name)
			add(e.Name, e.Attributes)
		}
		add("resource", s.Resource().Attributes())
	}
	for name, m := range tel.metrics(t) {
		switch data := m.Data.(type) {
		case metricdata.Histogram[float64]:
			for _, dp := range data.DataPoints {
				add(name, dp.Attributes.ToSlice())
			}
		case metricdata.Sum[int64]:
			for _, dp := range data.DataPoints {
				add(name, dp.Attributes.ToSlice())
			}
		default:
			t.Errorf("metric %s of an unexpected kind %T", name, m.Data)
		}
	}
	download := false
	for _, text := range texts {
		for _, s := range secrets {
			if strings.Contains(text, s) {
				t.Errorf("%q holds a secret", text)
			}
		}
		download = download || text == "span Client.Download"
	}
	if !download {
		t.Error("no span for the download")
	}
}
