package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/ordermsg/ordermsg-go/ordermsgtest"
	"github.com/spf13/cobra"
)

func (a *app) serveCommand() *cobra.Command {
	var (
		addr     string
		cfg      = ordermsgtest.DefaultConfig()
		rate     float64
		delay    time.Duration
		every    time.Duration
		required = headerFlag{env: envVersionHeader, envValue: a.getenv(envVersionHeader)}
	)
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run the fake service on loopback, for curl or any other client",
		Long: `Run the SDK's in-process fake of the service (package ordermsgtest) on a
loopback address, with a generated dataset. It prints its URL, and the API key
and id of each website, then serves until interrupted (Ctrl-C or SIGTERM),
which is its normal end: it exits 0.

It requires the version header that --version-header or ORDERMSG_VERSION_HEADER
names ("Name: value"; default "` + defaultVersionHeader + `"), as the real service
requires its maker's: a request without it gets the fake's 400. A header from
ORDERMSG_VERSION_HEADER, meant for the real service, is never printed: the
lines it prints to try the fake read the variable instead.

--add-every D adds, every D while it serves, one order (with its message) and
one message to each website, created now (the generated records lie in
2024), and prints a line for each: a poller that starts from now finds new
records on each run, as it would in production.`,
		Example: `  ordermsg serve
  ordermsg serve --websites 1 --orders 2000 --fault-rate 0.1 --latency 20ms
  ordermsg serve --version-header Acme-Api-Version:1 --add-every 30s`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			host, _, err := net.SplitHostPort(addr)
			if err != nil {
				return usagef("--addr %q: %v", addr, err)
			}
			if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
				return usagef("--addr %q: the fake serves on loopback only", addr)
			}
			if rate < 0 || rate > 1 {
				return usagef("--fault-rate %v: want a share from 0 to 1", rate)
			}
			if every < 0 {
				return usagef("--add-every %v: must not be negative", every)
			}
			name, value, err := required.parse()
			if err != nil {
				return err
			}
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return &apiFailure{err}
			}
			ds := ordermsgtest.Generate(cfg)
			// Records added while serving are dated now, so that a poller
			// that starts from now sees them.
			h := ordermsgtest.NewHandler(ds, ordermsgtest.WithLatency(delay),
				ordermsgtest.WithFaults(ordermsgtest.Faults{Seed: cfg.Seed, Rate: rate}),
				ordermsgtest.WithVersionHeader(name, value), ordermsgtest.WithClock(time.Now))
			url := "http://" + ln.Addr().String()
			// The header is shown, in the banner and the lines to try, when
			// it is the flag's or the default. The environment variable is
			// meant for the real service and may hold a secret given in the
			// wrong place: the lines say where the header comes from, and
			// let the shell read it.
			header := name + ": " + value
			curlHeader, envHeader := "'"+header+"'", " "+envVersionHeader+"='"+header+"'"
			if required.fromEnvironment() {
				header, curlHeader, envHeader = "from "+envVersionHeader, `"$`+envVersionHeader+`"`, ""
			}
			fmt.Fprintf(a.stdout, "ordermsg fake service at %s (header %s)\n", url, header)
			fmt.Fprintf(a.stdout, "OpenAPI document at %s%s\n", url, ordermsgtest.OpenAPIPath)
			for _, w := range ds.Websites {
				fmt.Fprintf(a.stdout, "  website %d  api key %s  (%d orders, %d messages)\n", w.ID, w.APIKey, len(w.Orders), len(w.Messages))
			}
			first := ds.Websites[0]
			fmt.Fprintf(a.stdout, "try:\n  curl -u %s: -H %s %s/websites/%d/orders\n", first.APIKey, curlHeader, url, first.ID)
			fmt.Fprintf(a.stdout, "  ORDERMSG_BASE_URL=%s ORDERMSG_API_KEY=%s ORDERMSG_WEBSITE_ID=%d%s ordermsg orders list\n", url, first.APIKey, first.ID, envHeader)
			if every > 0 {
				fmt.Fprintf(a.stdout, "adding an order and a message to each website every %v\n", every)
				ticker := time.NewTicker(every)
				defer ticker.Stop()
				go addRecords(cmd.Context(), h, ticker.C, a.stdout)
			}
			fmt.Fprintln(a.stdout, "serving until interrupted (Ctrl-C)")
			return serve(cmd.Context(), ln, h)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&addr, "addr", "127.0.0.1:0", "loopback address to listen on (port 0: any free port)")
	fl.Uint64Var(&cfg.Seed, "seed", cfg.Seed, "seed of the generated dataset")
	fl.IntVar(&cfg.Websites, "websites", cfg.Websites, "number of websites")
	fl.IntVar(&cfg.OrdersPerWebsite, "orders", cfg.OrdersPerWebsite, "orders per website")
	fl.IntVar(&cfg.MessagesPerWebsite, "messages", cfg.MessagesPerWebsite, "messages per website")
	fl.Float64Var(&rate, "fault-rate", 0, "share of responses that fail (429, 500, 503, dropped, cut off, slow)")
	fl.DurationVar(&delay, "latency", 0, "delay added to every response")
	fl.DurationVar(&every, "add-every", 0, "add an order and a message to each website at this interval while serving (0: never)")
	fl.Var(&required, "version-header", `the version header the fake requires, "Name: value" (env `+envVersionHeader+`; default "`+defaultVersionHeader+`")`)
	return cmd
}

// addRecords adds an order (with its message) and a message to each website
// of h at every tick until ctx ends, and says so on out.
func addRecords(ctx context.Context, h *ordermsgtest.Handler, ticks <-chan time.Time, out io.Writer) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticks:
		}
		for _, w := range h.Dataset().Websites {
			o, m := h.AddOrders(w.ID, 1)[0], h.AddMessages(w.ID, 1)[0]
			fmt.Fprintf(out, "website %d: added order %d (created %s) and message %d\n", w.ID, o.ID, o.DateCreated.UTC().Format(time.RFC3339), m.ID)
		}
	}
}

// serve serves h on ln until ctx ends, then shuts down.
func serve(ctx context.Context, ln net.Listener, h http.Handler) error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return &apiFailure{err}
	case <-ctx.Done():
	}
	// Requests in flight get a moment to finish. A connection that was
	// opened but never used counts as busy for five seconds to Shutdown, so
	// whatever is left after the moment is closed: an interrupt is the
	// normal end of serve, not a failure.
	shutdown, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		if !errors.Is(err, context.DeadlineExceeded) {
			return &apiFailure{err}
		}
		srv.Close()
	}
	if err := <-done; !errors.Is(err, http.ErrServerClosed) {
		return &apiFailure{err}
	}
	return nil
}
