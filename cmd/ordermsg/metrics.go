package main

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// statesReadTimeout bounds the read of the websites' states at a scrape, so
// that a database that does not answer leaves the scrape with the process's
// own metrics and ordermsg_database_up 0, well within Prometheus's default
// scrape timeout of 10 s.
const statesReadTimeout = 5 * time.Second

// workerMetrics are the worker's Prometheus metrics (docs/metrics.md): the
// fleet's state, read from the database at each scrape, and the counters of
// what this process did. Its methods may be called at once from any
// goroutine. No label takes anything but a website id, a status code, a
// run's status, a resource, a kind of write or the tool's version: never a
// key, a URL or an error's text.
type workerMetrics struct {
	registry *prometheus.Registry
	handler  http.Handler
	fleet    *fleetCollector

	runs           *prometheus.CounterVec
	runsInFlight   prometheus.Gauge
	runSeconds     prometheus.Histogram
	records        *prometheus.CounterVec
	requests       *prometheus.CounterVec
	requestSeconds prometheus.Histogram
	retries        prometheus.Counter
	webhooksSent   prometheus.Counter
	webhooksFailed prometheus.Counter

	// now is the clock of the requests' durations.
	now func() time.Time
}

// The statuses of ordermsg_runs_total.
const (
	runOK      = "ok"
	runFailed  = "failed"
	runSkipped = "skipped"
)

// writeKinds are the kinds of ordermsg_records_written_total, each with its
// count in a mirror.Counts. Unchanged records are not written.
var writeKinds = []struct {
	name  string
	count func(mirror.Counts) int
}{
	{"new", func(c mirror.Counts) int { return c.New }},
	{"updated", func(c mirror.Counts) int { return c.Updated }},
	{"deleted", func(c mirror.Counts) int { return c.Deleted }},
	{"refused", func(c mirror.Counts) int { return c.Refused }},
}

// newWorkerMetrics returns the metrics of a worker of the given version.
// states reads the websites' states (mirror.(*Mirror).WebsiteStates);
// websites returns the ids of the worker's current FILE, each of which gets
// the two fixed gauges at every scrape, a website that never ran included
// (its last success 0, its failures 0).
func newWorkerMetrics(version string, states func(context.Context) ([]mirror.WebsiteState, error), websites func() []int64) *workerMetrics {
	m := &workerMetrics{
		registry: prometheus.NewRegistry(),
		fleet:    newFleetCollector(states, websites),
		runs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "ordermsg_runs_total",
			Help: "Runs of a website's sync that this process ended, by status: ok, failed, or skipped (held by another worker).",
		}, []string{"status"}),
		runsInFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "ordermsg_runs_in_flight",
			Help: "Runs of a website's sync that this process has under way.",
		}),
		runSeconds: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "ordermsg_run_duration_seconds",
			Help:    "Duration of the runs of a website's sync that this process ended, as mirror_runs bounds them.",
			Buckets: prometheus.ExponentialBuckets(1, 4, 8),
		}),
		records: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "ordermsg_records_written_total",
			Help: "Records this process wrote into the mirror, by resource (orders, messages) and kind (new, updated, deleted, refused).",
		}, []string{"resource", "kind"}),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "ordermsg_api_requests_total",
			Help: "HTTP attempts of this process to the API, by status code: the answer's, other when outside 100-599, none without an answer.",
		}, []string{"code"}),
		requestSeconds: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "ordermsg_api_request_duration_seconds",
			Help:    "Duration of this process's HTTP attempts to the API, until the answer was read or the attempt failed.",
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60},
		}),
		retries: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "ordermsg_api_retries_total",
			Help: "Failed HTTP attempts to the API that this process retried.",
		}),
		webhooksSent: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "ordermsg_webhook_delivered_total",
			Help: "Changes this process delivered to the webhook endpoint (answered 2xx).",
		}),
		webhooksFailed: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "ordermsg_webhook_failed_total",
			Help: "Changes whose webhook delivery this process gave up, after the last retry or because the change was no longer kept.",
		}),
		now: time.Now,
	}
	// Every series of a fixed set of labels starts at 0, so that rate()
	// sees its first increase.
	for _, status := range []string{runOK, runFailed, runSkipped} {
		m.runs.WithLabelValues(status)
	}
	m.addRecords(mirror.Result{})
	buildInfo := prometheus.NewGauge(prometheus.GaugeOpts{
		Name:        "ordermsg_build_info",
		Help:        "Always 1; its label is the version of the ordermsg tool.",
		ConstLabels: prometheus.Labels{"version": version},
	})
	buildInfo.Set(1)
	m.registry.MustRegister(m.fleet, m.runs, m.runsInFlight, m.runSeconds, m.records,
		m.requests, m.requestSeconds, m.retries, m.webhooksSent, m.webhooksFailed, buildInfo,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m.handler = promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{CoalesceGather: true})
	return m
}

// Handler serves /metrics in Prometheus's formats (the text format unless
// the scraper asks for another). Scrapes that come at once share one read of
// the database, so that a flood of requests cannot flood it.
func (m *workerMetrics) Handler() http.Handler {
	return m.handler
}

// RunStarted counts a run of websiteID's sync as under way; RunEnded ends it.
func (m *workerMetrics) RunStarted(int64) {
	m.runsInFlight.Inc()
}

// RunEnded ends the run that RunStarted began, counting it by status and
// the records it wrote, those of a failed run included (what it wrote
// before it failed is kept).
func (m *workerMetrics) RunEnded(r mirror.WebsiteResult) {
	m.runsInFlight.Dec()
	status := runOK
	switch {
	case r.Skipped != mirror.NotSkipped:
		status = runSkipped
	case r.Err != nil:
		status = runFailed
	}
	m.runs.WithLabelValues(status).Inc()
	if !r.Started.IsZero() && !r.Finished.IsZero() {
		m.runSeconds.Observe(r.Finished.Sub(r.Started).Seconds())
	}
	m.addRecords(r.Result)
}

// addRecords counts the records that r says were written.
func (m *workerMetrics) addRecords(r mirror.Result) {
	for _, kind := range writeKinds {
		m.records.WithLabelValues("orders", kind.name).Add(float64(kind.count(r.Orders)))
		m.records.WithLabelValues("messages", kind.name).Add(float64(kind.count(r.Messages)))
	}
}

// WebhookDelivered counts a change delivered to the webhook endpoint.
func (m *workerMetrics) WebhookDelivered() { m.webhooksSent.Inc() }

// WebhookGivenUp counts a change whose delivery was given up.
func (m *workerMetrics) WebhookGivenUp() { m.webhooksFailed.Inc() }

// Observer returns the hooks that count a client's HTTP attempts, their
// durations and its retries; give it to each website's client with
// ordermsg.WithObserver.
func (m *workerMetrics) Observer() ordermsg.Observer {
	return ordermsg.Observer{StartAttempt: m.startAttempt, Retry: m.retry}
}

// startAttempt times an attempt; the function it returns counts it.
func (m *workerMetrics) startAttempt(context.Context, *ordermsg.Attempt) func(ordermsg.AttemptEnd) {
	start := m.now()
	return func(end ordermsg.AttemptEnd) {
		m.requestSeconds.Observe(m.now().Sub(start).Seconds())
		m.requests.WithLabelValues(codeLabel(end.StatusCode)).Inc()
	}
}

// retry counts a retry.
func (m *workerMetrics) retry(context.Context, ordermsg.RetryWait) {
	m.retries.Inc()
}

// codeLabel is the code label of an attempt that got status: the status,
// "none" for no answer (0), and "other" for one outside 100-599, which a
// hostile server could otherwise vary to make series without end.
func codeLabel(status int) string {
	switch {
	case status == 0:
		return "none"
	case status < 100 || status > 599:
		return "other"
	}
	return strconv.Itoa(status)
}

// fleetCollector reports the two fixed gauges of every website of the
// worker's FILE, read from the database at each scrape, so that any worker
// of a fleet answers for all of it, and whether that read succeeded.
type fleetCollector struct {
	states   func(context.Context) ([]mirror.WebsiteState, error)
	websites func() []int64
	// timeout bounds the read of the states (statesReadTimeout).
	timeout time.Duration

	lastSuccess, failures, databaseUp *prometheus.Desc
}

// newFleetCollector returns the collector of the websites' gauges, which
// reads states and reports the websites of the list that websites returns.
func newFleetCollector(states func(context.Context) ([]mirror.WebsiteState, error), websites func() []int64) *fleetCollector {
	return &fleetCollector{
		states:   states,
		websites: websites,
		timeout:  statesReadTimeout,
		lastSuccess: prometheus.NewDesc("ordermsg_website_last_success_timestamp_seconds",
			"When the website's last successful run finished, in seconds since the Unix epoch; 0 when none succeeded.",
			[]string{"website_id"}, nil),
		failures: prometheus.NewDesc("ordermsg_website_consecutive_failures",
			"The website's runs that failed since its last success (every run when none succeeded); 0 after a success.",
			[]string{"website_id"}, nil),
		databaseUp: prometheus.NewDesc("ordermsg_database_up",
			"1 when this scrape read the websites' states from the database; 0 when it could not, and the website gauges are then absent.",
			nil, nil),
	}
}

// Describe sends the descriptions of the three gauges.
func (f *fleetCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- f.lastSuccess
	ch <- f.failures
	ch <- f.databaseUp
}

// Collect reads the states and sends each website's gauges, or, when the
// database cannot be read within the timeout, ordermsg_database_up 0 alone:
// a gauge is never given a value that was not read.
func (f *fleetCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), f.timeout)
	defer cancel()
	states, err := f.states(ctx)
	if err != nil {
		ch <- prometheus.MustNewConstMetric(f.databaseUp, prometheus.GaugeValue, 0)
		return
	}
	ch <- prometheus.MustNewConstMetric(f.databaseUp, prometheus.GaugeValue, 1)
	byID := make(map[int64]mirror.WebsiteState, len(states))
	for _, st := range states {
		byID[st.WebsiteID] = st
	}
	ids := slices.Clone(f.websites())
	slices.Sort(ids)
	for _, id := range slices.Compact(ids) {
		st := byID[id] // the zero state for a website that never ran
		var success float64
		if !st.LastSuccess.IsZero() {
			success = float64(st.LastSuccess.UnixNano()) / 1e9
		}
		label := strconv.FormatInt(id, 10)
		ch <- prometheus.MustNewConstMetric(f.lastSuccess, prometheus.GaugeValue, success, label)
		ch <- prometheus.MustNewConstMetric(f.failures, prometheus.GaugeValue, float64(st.ConsecutiveFailures), label)
	}
}
