package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/internal/secretmask"
	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/mirror/webhook"
	"github.com/ordermsg/ordermsg-go/mirror/worker"
)

// envDB gives --db its default, so that a DSN's password need not be on a
// command line (a Kubernetes Secret, a systemd credential).
const envDB = "ORDERMSG_DB"

// warnEvery is the period below which the worker warns that it syncs
// more often than a fleet needs.
const warnEvery = time.Minute

// workerRun is sync --websites FILE --every DURATION: the worker, which
// syncs the websites of FILE until SIGTERM or SIGINT.
type workerRun struct {
	fleet          *fleetRun
	every          time.Duration
	reconcileEvery time.Duration
	keepRuns       time.Duration
	keepChanges    time.Duration
	metricsAddr    string
	webhookURL     string
	webhookSecret  string // the path of the secret's file
}

// check refuses the worker's flags that cannot be used.
func (r *workerRun) check() error {
	switch {
	case r.every < worker.MinEvery:
		return usagef("--every %v: want at least %v", r.every, worker.MinEvery)
	case r.reconcileEvery < 0 || r.keepRuns < 0:
		return usagef("--reconcile-every %v, --keep-runs %v: want 0 or more", r.reconcileEvery, r.keepRuns)
	case (r.webhookURL == "") != (r.webhookSecret == ""):
		return usagef("--webhook-url and --webhook-secret-file go together: the endpoint, and the secret that signs each delivery")
	case r.webhookURL != "":
		if err := webhook.CheckURL(r.webhookURL); err != nil {
			return usagef("--webhook-url: %s", strings.TrimPrefix(err.Error(), "webhook: "))
		}
	}
	return nil
}

// endpoint is the webhook endpoint of --webhook-url and
// --webhook-secret-file, its secret read from the file (refused when
// group or others may read it); nil without them.
func (r *workerRun) endpoint(ctx context.Context) ([]webhook.Endpoint, error) {
	if r.webhookURL == "" {
		return nil, nil
	}
	secret, err := webhook.ReadSecretFile(ctx, r.webhookSecret)
	if err != nil {
		// Its text names the path, never what the file holds.
		return nil, usagef("--webhook-secret-file: %s", strings.TrimPrefix(err.Error(), "webhook: "))
	}
	return []webhook.Endpoint{{URL: r.webhookURL, Secret: secret}}, nil
}

// deliverer is the Deliverer of the worker's webhook endpoints, which
// reads the changes of m and tells metrics (when set) and log of what it
// delivered and gave up; nil without endpoints.
func deliverer(m *mirror.Mirror, endpoints []webhook.Endpoint, metrics *workerMetrics, log *slog.Logger) (*webhook.Deliverer, error) {
	if len(endpoints) == 0 {
		return nil, nil
	}
	delivered, givenUp := func() {}, func() {}
	if metrics != nil {
		delivered, givenUp = metrics.WebhookDelivered, metrics.WebhookGivenUp
	}
	events := webhook.Events{
		Delivered: func(string, string) { delivered() },
		GivenUp: func(endpoint, cursor string, err error) {
			givenUp()
			log.Error("webhook delivery given up", "endpoint", endpoint, "cursor", cursor, "error", err)
		},
	}
	return webhook.NewDeliverer(webhook.FromMirror(m), endpoints, webhook.WithEvents(events))
}

// run runs the worker until ctx ends (SIGTERM, SIGINT), then returns nil
// once the runs in progress have stopped: it exits 0. FILE is read again
// each period and on SIGHUP.
func (r *workerRun) run(ctx context.Context) error {
	f, a := r.fleet, r.fleet.a
	if err := r.check(); err != nil {
		return err
	}
	if r.every < warnEvery {
		fmt.Fprintf(a.stderr, "warning: --every %v syncs each website more often than once a minute\n", r.every)
	}
	opts, closeIdle, err := f.clientOptions()
	if err != nil {
		return err
	}
	defer closeIdle()
	endpoints, err := r.endpoint(ctx)
	if err != nil {
		return err
	}
	// The metrics read the states of the mirror and the worker's list,
	// both made below.
	var m *mirror.Mirror
	var w *worker.Worker
	var metrics *workerMetrics
	var listener net.Listener
	if r.metricsAddr != "" {
		if listener, err = net.Listen("tcp", r.metricsAddr); err != nil {
			return usagef("--metrics %s: %v", r.metricsAddr, err)
		}
		defer listener.Close()
		metrics = newWorkerMetrics(version(),
			func(ctx context.Context) ([]mirror.WebsiteState, error) { return m.WebsiteStates(ctx) },
			func() []int64 { return w.WebsiteIDs() })
		opts = append(slices.Clip(opts), ordermsg.WithObserver(metrics.Observer()))
	}
	list := &fileList{run: f, opts: opts}
	if _, err := list.read(ctx); err != nil {
		return err
	}

	db, err := f.target.open()
	if err != nil {
		return &localFailure{err}
	}
	defer db.Close()
	// Each run of a website takes up to three connections: kept from one
	// run to the next for the --parallel websites of the batches
	// (worker.Config.Mirror).
	db.SetMaxIdleConns(3 * f.parallel)
	m, err = mirror.Open(ctx, db, f.target.backend)
	if err != nil {
		return &localFailure{f.target.hide(fmt.Errorf("%s: %w", f.target.name, err))}
	}
	queue, closeQueue, err := f.target.workerQueue(ctx)
	if err != nil {
		return &localFailure{err}
	}
	defer closeQueue()
	logger := slog.New(slog.NewTextHandler(maskedWriter{w: a.stderr, list: list}, &slog.HandlerOptions{Level: workerLogLevel(a.verbose)}))
	cfg := worker.Config{
		Mirror: m, Queue: queue, Websites: func() ([]mirror.Website, error) { return list.read(ctx) },
		Every: r.every, ReconcileEvery: r.reconcileEvery, KeepRuns: r.keepRuns, KeepChanges: r.keepChanges,
		Options: f.opts, Parallel: f.parallel, Logger: logger,
	}
	if metrics != nil {
		cfg.Events = metrics
	}
	if cfg.Deliverer, err = deliverer(m, endpoints, metrics, logger); err != nil {
		return err // the endpoint was checked
	}
	w, err = worker.New(cfg)
	if err != nil {
		return err // the flags were checked
	}
	if listener != nil {
		srv := &http.Server{Handler: workerRoutes(w, metrics.Handler()), ReadHeaderTimeout: 10 * time.Second}
		go srv.Serve(listener)
		defer srv.Close()
	}
	stopHUP := refreshOnSIGHUP(w)
	defer stopHUP()
	if err := w.Run(ctx); err != nil {
		return &localFailure{f.target.hide(fmt.Errorf("%s: %w", f.target.name, err))}
	}
	return nil
}

// workerLogLevel is the level of the worker's log: a line per batch, per
// failure and per run of a website alone; with -v also a line per website
// of each batch.
func workerLogLevel(verbose bool) slog.Level {
	if verbose {
		return slog.LevelDebug
	}
	return slog.LevelInfo
}

// workerRoutes is the mux of --metrics ADDR: /metrics, served by metrics,
// and /healthz, 200 while the worker runs and its database answers, else
// 503 saying why.
func workerRoutes(w *worker.Worker, metrics http.Handler) *http.ServeMux {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", metrics)
	mux.HandleFunc("GET /healthz", func(rw http.ResponseWriter, req *http.Request) {
		ctx, cancel := context.WithTimeout(req.Context(), 5*time.Second)
		defer cancel()
		if err := w.Healthy(ctx); err != nil {
			http.Error(rw, "unhealthy: "+err.Error(), http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintln(rw, "ok")
	})
	return mux
}

// refreshOnSIGHUP has the worker read FILE again at each SIGHUP, until
// stop.
func refreshOnSIGHUP(w *worker.Worker) (stop func()) {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-hup:
				w.Refresh()
			case <-done:
				return
			}
		}
	}()
	return func() {
		signal.Stop(hup)
		close(done)
	}
}

// fileList reads --websites FILE into the worker's websites, each with a
// client and the secrets to mask: every key FILE held, now or before, and
// the database's password.
type fileList struct {
	run  *fleetRun
	opts []ordermsg.Option
	keys []string // every key read so far
	mask atomic.Pointer[secretmask.Mask]
	// last are the websites of the last FILE read, and sites their list.
	last  []websiteLine
	sites []mirror.Website
}

// read reads FILE; a FILE refused (unsafe, malformed, a website twice)
// returns the error, which the worker logs, keeping the last list. A FILE
// that names the same websites with the same keys as the last one read
// gives the same list, its clients kept.
func (l *fileList) read(ctx context.Context) ([]mirror.Website, error) {
	f := l.run
	lines, err := f.readFile(ctx, l.opts)
	if err != nil {
		return nil, err
	}
	same := func(a, b websiteLine) bool { return a.id == b.id && a.key == b.key }
	if l.sites != nil && slices.EqualFunc(lines, l.last, same) {
		return l.sites, nil
	}
	for _, s := range lines {
		if k := keySecrets(s.key); len(k) > 0 && !slices.Contains(l.keys, s.key) {
			l.keys = append(l.keys, k...)
		}
	}
	if f.a.logKeys == nil {
		// The -v log makes its mask once, from the first list's keys.
		f.a.logKeys = slices.Clone(l.keys)
	}
	secrets := slices.Concat(l.keys, f.target.secrets)
	l.mask.Store(secretmask.New(secrets...))
	sites := make([]mirror.Website, len(lines))
	for i, s := range lines {
		c, err := ordermsg.NewClient(f.a.baseURL, s.key, l.opts...)
		if err != nil {
			return nil, err // checked when FILE was read
		}
		sites[i] = mirror.Website{ID: s.id, Client: c, Secrets: secrets}
	}
	l.last, l.sites = lines, sites
	return sites, nil
}

// maskedWriter writes the worker's log with every key FILE held masked.
type maskedWriter struct {
	w    io.Writer
	list *fileList
}

func (m maskedWriter) Write(p []byte) (int, error) {
	if _, err := m.w.Write([]byte(m.list.mask.Load().Text(string(p)))); err != nil {
		return 0, err
	}
	return len(p), nil
}
