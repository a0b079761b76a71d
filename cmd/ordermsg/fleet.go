package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/schollz/progressbar/v3"
)

// fleetRun is sync --db TARGET --websites FILE: the websites of FILE, each
// with its own key, synced into one database by mirror.SyncFleet.
type fleetRun struct {
	a        *app
	target   *mirrorTarget
	file     string
	parallel int
	opts     mirror.Options
}

// run syncs the fleet and prints a line per website, then the total. It
// exits 0 only when every website succeeded (or was skipped, another worker
// syncing it), otherwise with the code of the worst failure: 3 (the
// database) over 2 (a website's configuration: its base URL) over 1 (the API
// or the network); and 3 when its lines could not be written (a full
// disk).
func (f *fleetRun) run(ctx context.Context) error {
	a := f.a
	opts, closeIdle, err := f.clientOptions()
	if err != nil {
		return err
	}
	defer closeIdle()
	sites, err := f.readFile(ctx, opts)
	if err != nil {
		if ctx.Err() != nil {
			return &stopped{"while waiting to read --websites " + f.file + ", before any website"}
		}
		return err
	}

	db, err := f.target.open()
	if err != nil {
		return &localFailure{err}
	}
	defer db.Close()
	m, err := mirror.Open(ctx, db, f.target.backend)
	if err != nil {
		return &localFailure{f.target.hide(fmt.Errorf("%s: %w", f.target.name, err))}
	}

	out := &fleetOutput{ctx: ctx, run: f, w: &reportWriter{w: a.stdout}, bar: newFleetProgress(a, len(sites)), worst: exitOK}
	// A server has had every key of FILE, and may quote any in any
	// website's failure: each is masked everywhere.
	for _, s := range sites {
		out.keys = append(out.keys, keySecrets(s.key)...)
	}
	a.logKeys = out.keys
	out.secrets = slices.Concat(out.keys, f.target.secrets)
	websites := func(yield func(mirror.Website) bool) {
		for _, s := range sites {
			// Checked when FILE was read: NewClient cannot fail here.
			c, _ := ordermsg.NewClient(a.baseURL, s.key, opts...)
			if !yield(mirror.Website{ID: s.id, Client: c, Secrets: out.secrets}) {
				return
			}
		}
	}
	start := time.Now()
	res, err := m.SyncFleet(ctx, websites, &mirror.FleetOptions{Options: f.opts, Parallel: f.parallel, Done: out.website})
	out.bar.stop()
	if err != nil && ctx.Err() == nil && !errors.As(err, new(*mirror.FleetError)) {
		return err // options the flags checked already
	}
	done := res.Synced + res.Failed + res.Skipped - out.interrupted
	if ctx.Err() != nil {
		return &stopped{fmt.Sprintf("after %d of %d websites (%s keeps what was synced; run again to go on)", done, len(sites), f.target.name)}
	}
	fmt.Fprintf(out.w, "total: %s, %d synced, %d failed, %d skipped; orders: %v; messages: %v; %.2fs\n",
		counted(len(sites), "website"), res.Synced, res.Failed, res.Skipped, res.Orders, res.Messages, time.Since(start).Seconds())
	if n := res.Orders.Refused + res.Messages.Refused; n > 0 {
		fmt.Fprintf(a.stderr, "note: %d of the records read could not be decoded; %s keeps them as sent in the table refused_records\n", n, f.target.name)
	}
	if res.Failed == 0 {
		return out.w.failure()
	}
	err = fmt.Errorf("%d of %d websites failed (%s): their lines say why", res.Failed, len(sites), out.failedList())
	if out.w.err != nil {
		// Standard output failed too: the worst failure, with its lines.
		return &localFailure{fmt.Errorf("%w; and writing standard output: %w", err, out.w.err)}
	}
	switch out.worst {
	case exitLocal:
		return &localFailure{err}
	case exitUsage:
		return &configError{err}
	}
	return &apiFailure{err}
}

// clientOptions are the options of the clients of FILE's websites, which
// share one transport, once the flags that do not go with --websites are
// refused and the base URL is checked; closeIdle closes the transport's
// idle connections.
func (f *fleetRun) clientOptions() (opts []ordermsg.Option, closeIdle func(), err error) {
	a := f.a
	for _, name := range []string{"api-key", "website", "demo"} {
		if a.cmd != nil && a.cmd.Flags().Changed(name) {
			return nil, nil, usagef("--%s does not go with --websites, whose FILE lists the websites and their keys", name)
		}
	}
	opts, _, err = a.clientOptions()
	if err != nil {
		return nil, nil, err
	}
	if a.baseURL == "" {
		return nil, nil, usagef("missing %s (or --base-url): the service the websites of --websites FILE are read from", envBaseURL)
	}
	if u, err := url.Parse(a.baseURL); err == nil && u.User != nil {
		return nil, nil, usagef("--base-url must not carry credentials: the keys come from --websites FILE")
	}
	// One transport for every website: the service is the same.
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.MaxIdleConnsPerHost = f.parallel * f.opts.Concurrency
	hc := &http.Client{Transport: transport}
	opts = append(opts, ordermsg.WithHTTPClient(hc))
	// The base URL is checked once, with a key of no consequence that no
	// URL holds (the SDK hides a URL that holds the key), so that the
	// error of a line is its key's.
	if _, err := a.newClient("ordermsg-fleet-base-url-check", opts); err != nil {
		return nil, nil, err
	}
	return opts, hc.CloseIdleConnections, nil
}

// readFile reads --websites FILE, refusing a key that no client of opts
// can take.
func (f *fleetRun) readFile(ctx context.Context, opts []ordermsg.Option) ([]websiteLine, error) {
	return readWebsites(ctx, f.file, func(key string) error {
		_, err := ordermsg.NewClient(f.a.baseURL, key, opts...)
		return err
	})
}

// fleetOutput prints the line of each website as it ends, and keeps what
// the exit needs: the worst failure's code and the first failed websites.
// Its methods are called one at a time (mirror.FleetOptions.Done).
type fleetOutput struct {
	ctx    context.Context // the run's: it ends with Ctrl-C or SIGTERM
	run    *fleetRun
	w      *reportWriter // standard output
	bar    *progress
	worst  int
	failed []int64 // the first maxListed
	more   int     // failed beyond them
	// interrupted is the number of websites a signal stopped in.
	interrupted int
	// keys are the API keys of every website of FILE (keySecrets); secrets
	// are the strings that the text of a website's failure must never
	// show, in its line and in mirror_runs, in any spelling: those keys and
	// the database's password. They are shared, never changed.
	keys, secrets []string
}

// maxListed is the number of failed websites the last line names.
const maxListed = 10

// website prints the line of a website: its counts and time as the line of
// one website's sync, prefixed by it; that another worker held it or synced
// it; why it failed, and what it kept, if anything; or, stopped by a
// signal, what it kept.
func (o *fleetOutput) website(r mirror.WebsiteResult) {
	o.bar.clear()
	w := o.w
	switch {
	case r.Err != nil && o.ctx.Err() != nil && errors.Is(r.Err, o.ctx.Err()):
		fmt.Fprintf(w, "website %d: interrupted; orders: %v; messages: %v (kept)\n", r.WebsiteID, r.Orders, r.Messages)
		o.interrupted++
	case r.Err != nil:
		kept := ""
		if r.Result != (mirror.Result{}) {
			// What it wrote before it failed, which the total counts.
			kept = fmt.Sprintf("; kept: orders: %v; messages: %v", r.Orders, r.Messages)
		}
		fmt.Fprintf(w, "website %d: failed: %v%s\n", r.WebsiteID, o.run.target.hideWith(forCLI(r.Err), o.keys...), kept)
		o.worst = max(o.worst, fleetExitCode(r.Err))
		if len(o.failed) < maxListed {
			o.failed = append(o.failed, r.WebsiteID)
		} else {
			o.more++
		}
	case r.Skipped != mirror.NotSkipped:
		fmt.Fprintf(w, "website %d: skipped, %v\n", r.WebsiteID, r.Skipped)
	default:
		fmt.Fprintf(w, "website %d: orders: %v; messages: %v; %.2fs\n", r.WebsiteID, r.Orders, r.Messages, r.Finished.Sub(r.Started).Seconds())
	}
	o.bar.add()
}

// failedList names the failed websites: "1003, 1007" or "1003, …, 1051 and
// 5 more".
func (o *fleetOutput) failedList() string {
	ids := make([]string, len(o.failed))
	for i, id := range o.failed {
		ids[i] = fmt.Sprint(id)
	}
	s := strings.Join(ids, ", ")
	if o.more > 0 {
		s += fmt.Sprintf(" and %d more", o.more)
	}
	return s
}

// fleetExitCode is the exit code of a website's failure: 2 for a website
// mirrored from another base URL, 3 for the database, 1 for the API or the
// network.
func fleetExitCode(err error) int {
	switch {
	case isDatabaseError(err):
		return exitLocal
	case errors.Is(err, mirror.ErrOtherSource):
		return exitUsage
	}
	return exitFailure
}

// newFleetProgress is a progress bar of the websites done out of total, on
// stderr when stderr is a terminal, else nothing.
func newFleetProgress(a *app, total int) *progress {
	if !a.isTerminal(a.stderr) {
		return &progress{}
	}
	return &progress{bar: progressbar.NewOptions(total,
		progressbar.OptionSetWriter(a.stderr),
		progressbar.OptionSetDescription("syncing websites"),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)}
}
