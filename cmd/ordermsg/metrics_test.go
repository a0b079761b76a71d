package main

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// scrape serves one GET /metrics from m and returns its body, which must
// come with status 200 in the text format, and the body parsed.
func scrape(t testing.TB, m *workerMetrics) (string, map[string]*dto.MetricFamily) {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("GET /metrics: %d %s", rec.Code, rec.Body)
	}
	if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
		t.Fatalf("GET /metrics: Content-Type %q, want the text format", ct)
	}
	body := rec.Body.String()
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(strings.NewReader(body))
	if err != nil {
		t.Fatalf("GET /metrics does not parse: %v\n%s", err, body)
	}
	return body, families
}

// byLabel maps the value of label of each metric of family name to the
// metric's value (a gauge's, a counter's, a histogram's count).
func byLabel(families map[string]*dto.MetricFamily, name, label string) map[string]float64 {
	out := map[string]float64{}
	for _, metric := range families[name].GetMetric() {
		key := ""
		for _, lp := range metric.GetLabel() {
			if lp.GetName() == label {
				key = lp.GetValue()
			}
		}
		switch {
		case metric.Gauge != nil:
			out[key] = metric.GetGauge().GetValue()
		case metric.Counter != nil:
			out[key] = metric.GetCounter().GetValue()
		case metric.Histogram != nil:
			out[key] = float64(metric.GetHistogram().GetSampleCount())
		}
	}
	return out
}

// value is the value of the one metric of family name that has the label
// values of labels (name, value pairs).
func value(t testing.TB, families map[string]*dto.MetricFamily, name string, labels ...string) float64 {
	t.Helper()
	for _, metric := range families[name].GetMetric() {
		have := map[string]string{}
		for _, lp := range metric.GetLabel() {
			have[lp.GetName()] = lp.GetValue()
		}
		match := true
		for i := 0; i+1 < len(labels); i += 2 {
			match = match && have[labels[i]] == labels[i+1]
		}
		if match {
			return byLabel(map[string]*dto.MetricFamily{name: {Metric: []*dto.Metric{metric}}}, name, "")[""]
		}
	}
	t.Fatalf("no metric %s%v", name, labels)
	return 0
}

// fixedStates returns states as the database would, whatever the context.
func fixedStates(states ...mirror.WebsiteState) func(context.Context) ([]mirror.WebsiteState, error) {
	return func(context.Context) ([]mirror.WebsiteState, error) { return states, nil }
}

// websiteList returns ids as the worker's FILE would.
func websiteList(ids ...int64) func() []int64 {
	return func() []int64 { return ids }
}

func TestMetricsFixedGaugesForEveryWebsiteOfTheFile(t *testing.T) {
	success := time.Date(2026, 11, 28, 1, 2, 3, 500_000_000, time.UTC)
	m := newWorkerMetrics("v1.2.3", fixedStates(
		mirror.WebsiteState{WebsiteID: 1, LastSuccess: success, LastStatus: "ok"},
		mirror.WebsiteState{WebsiteID: 2, LastStatus: "failed", ConsecutiveFailures: 3},
		mirror.WebsiteState{WebsiteID: 4, LastSuccess: success.Add(time.Hour), LastStatus: "failed", ConsecutiveFailures: 1},
		mirror.WebsiteState{WebsiteID: 9, LastSuccess: success, LastStatus: "ok"}, // no longer in FILE
	), websiteList(4, 1, 2, 3)) // 3 never ran

	_, families := scrape(t, m)
	lastSuccess := byLabel(families, "ordermsg_website_last_success_timestamp_seconds", "website_id")
	at := float64(success.Unix()) + 0.5
	wantSuccess := map[string]float64{"1": at, "2": 0, "3": 0, "4": at + 3600}
	failures := byLabel(families, "ordermsg_website_consecutive_failures", "website_id")
	wantFailures := map[string]float64{"1": 0, "2": 3, "3": 0, "4": 1}
	if !equalMaps(lastSuccess, wantSuccess) || !equalMaps(failures, wantFailures) {
		t.Errorf("last success %v, want %v; failures %v, want %v", lastSuccess, wantSuccess, failures, wantFailures)
	}
	if got := families["ordermsg_website_last_success_timestamp_seconds"].GetType(); got != dto.MetricType_GAUGE {
		t.Errorf("last success is a %v, want a gauge", got)
	}
	if up := value(t, families, "ordermsg_database_up"); up != 1 {
		t.Errorf("ordermsg_database_up %v, want 1", up)
	}
	if info := value(t, families, "ordermsg_build_info", "version", "v1.2.3"); info != 1 {
		t.Errorf("ordermsg_build_info{version=v1.2.3} %v, want 1", info)
	}
}

func equalMaps(a, b map[string]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func TestMetricsWhenTheDatabaseFails(t *testing.T) {
	const secret = "hunter2-db-password"
	m := newWorkerMetrics("v1", func(context.Context) ([]mirror.WebsiteState, error) {
		return nil, errors.New("mirror: connecting to postgres://fleet:" + secret + "@db/fleet: refused")
	}, websiteList(1, 2))
	m.RunStarted(1)

	body, families := scrape(t, m)
	if up := value(t, families, "ordermsg_database_up"); up != 0 {
		t.Errorf("ordermsg_database_up %v, want 0", up)
	}
	for _, name := range []string{"ordermsg_website_last_success_timestamp_seconds", "ordermsg_website_consecutive_failures"} {
		if families[name] != nil {
			t.Errorf("%s is reported with values not read from the database: %v", name, families[name])
		}
	}
	if n := value(t, families, "ordermsg_runs_in_flight"); n != 1 {
		t.Errorf("the process's own metrics are lost: ordermsg_runs_in_flight %v, want 1", n)
	}
	if strings.Contains(body, secret) {
		t.Errorf("the database's error shows in /metrics:\n%s", body)
	}
}

func TestMetricsWhenTheDatabaseDoesNotAnswer(t *testing.T) {
	m := newWorkerMetrics("v1", func(ctx context.Context) ([]mirror.WebsiteState, error) {
		<-ctx.Done() // a database that never answers, until the read is given up
		return nil, ctx.Err()
	}, websiteList(1))
	m.fleet.timeout = time.Millisecond

	_, families := scrape(t, m)
	if up := value(t, families, "ordermsg_database_up"); up != 0 {
		t.Errorf("ordermsg_database_up %v, want 0", up)
	}
}

func TestMetricsReadOfTheStatesHasADeadline(t *testing.T) {
	var deadline time.Time
	var hasDeadline bool
	m := newWorkerMetrics("v1", func(ctx context.Context) ([]mirror.WebsiteState, error) {
		deadline, hasDeadline = ctx.Deadline()
		return nil, nil
	}, websiteList(1))
	before := time.Now()
	scrape(t, m)
	if !hasDeadline || deadline.After(time.Now().Add(statesReadTimeout)) || deadline.Before(before.Add(statesReadTimeout)) {
		t.Errorf("the states are read with deadline %v (set: %v), want %v after the scrape began", deadline, hasDeadline, statesReadTimeout)
	}
}

func TestMetricsCountRuns(t *testing.T) {
	m := newWorkerMetrics("v1", fixedStates(), websiteList())
	start := time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)
	for id := range int64(4) {
		m.RunStarted(id)
	}
	_, families := scrape(t, m)
	if n := value(t, families, "ordermsg_runs_in_flight"); n != 4 {
		t.Errorf("ordermsg_runs_in_flight %v after 4 runs started, want 4", n)
	}

	m.RunEnded(mirror.WebsiteResult{WebsiteID: 0, Started: start, Finished: start.Add(2 * time.Second),
		Result: mirror.Result{Orders: mirror.Counts{New: 5, Updated: 2, Unchanged: 40, Deleted: 1}, Messages: mirror.Counts{New: 7, Refused: 1}}})
	m.RunEnded(mirror.WebsiteResult{WebsiteID: 1, Started: start, Finished: start.Add(3 * time.Second), Err: errors.New("ordermsg: 503"),
		Result: mirror.Result{Orders: mirror.Counts{New: 1}}})
	m.RunEnded(mirror.WebsiteResult{WebsiteID: 2, Skipped: mirror.SkipHeld})
	_, families = scrape(t, m)

	if n := value(t, families, "ordermsg_runs_in_flight"); n != 1 {
		t.Errorf("ordermsg_runs_in_flight %v, want 1", n)
	}
	runs := byLabel(families, "ordermsg_runs_total", "status")
	if want := map[string]float64{"ok": 1, "failed": 1, "skipped": 1}; !equalMaps(runs, want) {
		t.Errorf("ordermsg_runs_total %v, want %v", runs, want)
	}
	want := map[[2]string]float64{
		{"orders", "new"}: 6, {"orders", "updated"}: 2, {"orders", "deleted"}: 1, {"orders", "refused"}: 0,
		{"messages", "new"}: 7, {"messages", "updated"}: 0, {"messages", "deleted"}: 0, {"messages", "refused"}: 1,
	}
	if n := len(families["ordermsg_records_written_total"].GetMetric()); n != len(want) {
		t.Errorf("ordermsg_records_written_total has %d series, want %d (no unchanged: nothing is written)", n, len(want))
	}
	for k, w := range want {
		if got := value(t, families, "ordermsg_records_written_total", "resource", k[0], "kind", k[1]); got != w {
			t.Errorf("ordermsg_records_written_total{resource=%q,kind=%q} %v, want %v", k[0], k[1], got, w)
		}
	}
	h := families["ordermsg_run_duration_seconds"].GetMetric()[0].GetHistogram()
	if h.GetSampleCount() != 2 || h.GetSampleSum() != 5 {
		t.Errorf("ordermsg_run_duration_seconds: %d runs, %vs, want 2 runs (the skipped one did not run), 5s", h.GetSampleCount(), h.GetSampleSum())
	}
}

// fakeClock is a clock that moves only when told.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func TestMetricsObserverCountsAttemptsAndRetries(t *testing.T) {
	m := newWorkerMetrics("v1", fixedStates(), websiteList())
	clock := &fakeClock{now: time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)}
	m.now = clock.Now
	o := m.Observer()
	if o.StartCall != nil || o.StartAttempt == nil || o.Retry == nil {
		t.Fatal("the Observer must have StartAttempt and Retry")
	}
	ctx := context.Background()
	for i, status := range []int{200, 429, 0, 200, 999} {
		end := o.StartAttempt(ctx, &ordermsg.Attempt{Method: http.MethodGet, ResendCount: i})
		clock.Advance(time.Duration(i+1) * 100 * time.Millisecond)
		end(ordermsg.AttemptEnd{StatusCode: status})
	}
	o.Retry(ctx, ordermsg.RetryWait{Wait: time.Second})
	o.Retry(ctx, ordermsg.RetryWait{Wait: time.Second})

	_, families := scrape(t, m)
	codes := byLabel(families, "ordermsg_api_requests_total", "code")
	if want := map[string]float64{"200": 2, "429": 1, "none": 1, "other": 1}; !equalMaps(codes, want) {
		t.Errorf("ordermsg_api_requests_total %v, want %v", codes, want)
	}
	h := families["ordermsg_api_request_duration_seconds"].GetMetric()[0].GetHistogram()
	if h.GetSampleCount() != 5 || h.GetSampleSum() < 1.4999 || h.GetSampleSum() > 1.5001 {
		t.Errorf("ordermsg_api_request_duration_seconds: %d attempts, %vs, want 5, 1.5s", h.GetSampleCount(), h.GetSampleSum())
	}
	if n := value(t, families, "ordermsg_api_retries_total"); n != 2 {
		t.Errorf("ordermsg_api_retries_total %v, want 2", n)
	}
}

func TestMetricsConcurrentCalls(t *testing.T) {
	m := newWorkerMetrics("v1", fixedStates(mirror.WebsiteState{WebsiteID: 1, ConsecutiveFailures: 2}), websiteList(1, 2))
	const goroutines, each = 8, 50
	o := m.Observer()
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for range each {
				m.RunStarted(int64(g))
				o.StartAttempt(context.Background(), &ordermsg.Attempt{})(ordermsg.AttemptEnd{StatusCode: 200})
				o.Retry(context.Background(), ordermsg.RetryWait{})
				m.RunEnded(mirror.WebsiteResult{WebsiteID: int64(g), Result: mirror.Result{Orders: mirror.Counts{New: 1}}})
			}
		})
		wg.Go(func() {
			rec := httptest.NewRecorder()
			m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
			if rec.Code != http.StatusOK {
				t.Errorf("GET /metrics while the counters move: %d %s", rec.Code, rec.Body)
			}
		})
	}
	wg.Wait()

	_, families := scrape(t, m)
	const n = goroutines * each
	for _, c := range []struct {
		name   string
		labels []string
		want   float64
	}{
		{"ordermsg_runs_total", []string{"status", "ok"}, n},
		{"ordermsg_runs_in_flight", nil, 0},
		{"ordermsg_records_written_total", []string{"resource", "orders", "kind", "new"}, n},
		{"ordermsg_api_requests_total", []string{"code", "200"}, n},
		{"ordermsg_api_retries_total", nil, n},
		{"ordermsg_website_consecutive_failures", []string{"website_id", "1"}, 2},
	} {
		if got := value(t, families, c.name, c.labels...); got != c.want {
			t.Errorf("%s%v = %v, want %v", c.name, c.labels, got, c.want)
		}
	}
}

// TestMetricsOfARealSync syncs a website of the fake, whose API answers
// some requests with 503, into a mirror of each backend, through a client
// with the worker's Observer: /metrics gives the website's state as the
// mirror records it, counts each attempt and retry as the server saw them,
// and never shows the website's key.
func TestMetricsOfARealSync(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 37, Websites: 1, OrdersPerWebsite: 30, MessagesPerWebsite: 40}),
			ordermsgtest.WithFaults(ordermsgtest.Faults{Seed: 37, Rate: 0.3, Kinds: []ordermsgtest.Fault{ordermsgtest.FaultUnavailable}}))
		defer srv.Close()
		ctx := context.Background()
		db := be.Open(t, target)
		mir, err := mirror.Open(ctx, db, be.Backend)
		if err != nil {
			t.Fatal(err)
		}
		const neverRan = 424242
		m := newWorkerMetrics("v1", mir.WebsiteStates, websiteList(srv.WebsiteID, neverRan))
		c, err := srv.Client(ordermsg.WithObserver(m.Observer()),
			ordermsg.WithRetry(ordermsg.RetryPolicy{MaxRetries: 30, MinWait: time.Millisecond, MaxWait: time.Millisecond}))
		if err != nil {
			t.Fatal(err)
		}

		m.RunStarted(srv.WebsiteID)
		res, err := mir.Sync(ctx, c, srv.WebsiteID, &mirror.Options{PageSize: 10})
		if err != nil {
			t.Fatal(err)
		}
		m.RunEnded(mirror.WebsiteResult{WebsiteID: srv.WebsiteID, Result: res})
		states, err := mir.WebsiteStates(ctx)
		if err != nil || len(states) != 1 || states[0].LastSuccess.IsZero() {
			t.Fatalf("states %+v, %v: want the one run, ok", states, err)
		}

		body, families := scrape(t, m)
		id := strconv.FormatInt(srv.WebsiteID, 10)
		wantSuccess := float64(states[0].LastSuccess.UnixNano()) / 1e9
		if got := value(t, families, "ordermsg_website_last_success_timestamp_seconds", "website_id", id); got != wantSuccess {
			t.Errorf("last success %v, want %v (%v)", got, wantSuccess, states[0].LastSuccess)
		}
		never := strconv.Itoa(neverRan)
		if value(t, families, "ordermsg_website_last_success_timestamp_seconds", "website_id", never) != 0 ||
			value(t, families, "ordermsg_website_consecutive_failures", "website_id", never) != 0 {
			t.Error("the website that never ran is not reported with last success 0 and 0 failures")
		}
		if got := value(t, families, "ordermsg_records_written_total", "resource", "orders", "kind", "new"); got == 0 || got != float64(res.Orders.New) {
			t.Errorf("orders written new: %v, want the sync's %d", got, res.Orders.New)
		}
		stats := srv.Handler.Stats()
		unavailable := float64(stats.Faults[ordermsgtest.FaultUnavailable])
		codes := byLabel(families, "ordermsg_api_requests_total", "code")
		if unavailable == 0 || codes["503"] != unavailable || codes["200"] != float64(stats.Requests)-unavailable || len(codes) != 2 {
			t.Errorf("ordermsg_api_requests_total %v; the server answered %d requests, %v of them 503", codes, stats.Requests, unavailable)
		}
		if n := value(t, families, "ordermsg_api_retries_total"); n != unavailable {
			t.Errorf("ordermsg_api_retries_total %v, want %v (each 503 retried)", n, unavailable)
		}
		if strings.Contains(body, srv.APIKey) {
			t.Errorf("the website's key shows in /metrics")
		}

		// The database goes away: the scrape still answers, saying so.
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		if _, families := scrape(t, m); value(t, families, "ordermsg_database_up") != 0 {
			t.Error("ordermsg_database_up is not 0 once the database is closed")
		}
	})
}

// BenchmarkMetricsScrape measures a scrape of /metrics of a worker with 200
// websites, beside one with none: what the websites' gauges cost.
func BenchmarkMetricsScrape(b *testing.B) {
	for _, n := range []int{0, 200} {
		b.Run("websites="+strconv.Itoa(n), func(b *testing.B) {
			states := make([]mirror.WebsiteState, n)
			ids := make([]int64, n)
			for i := range states {
				ids[i] = int64(1000 + i)
				states[i] = mirror.WebsiteState{WebsiteID: ids[i], LastSuccess: time.Now(), ConsecutiveFailures: i % 3}
			}
			m := newWorkerMetrics("v1", fixedStates(states...), websiteList(ids...))
			h := m.Handler()
			req := httptest.NewRequest(http.MethodGet, "/metrics", nil)
			b.ReportAllocs()
			for b.Loop() {
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Fatal(rec.Code)
				}
				io.Copy(io.Discard, rec.Body)
			}
		})
	}
}
