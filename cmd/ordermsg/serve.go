package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/ordermsg/ordermsg-go/ordermsgtest"
	"github.com/spf13/cobra"
)

func (a *app) serveCommand() *cobra.Command {
	var (
		addr  string
		cfg   = ordermsgtest.DefaultConfig()
		rate  float64
		delay time.Duration
	)
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run the fake service on loopback, for curl or any other client",
		Long: `Run the SDK's in-process fake of the service (package ordermsgtest) on a
loopback address, with a generated dataset. It prints its URL, and the API key
and id of each website, then serves until interrupted (Ctrl-C or SIGTERM),
which is its normal end: it exits 0.`,
		Example: `  ordermsg serve
  ordermsg serve --websites 1 --orders 2000 --fault-rate 0.1 --latency 20ms`,
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
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return &apiFailure{err}
			}
			ds := ordermsgtest.Generate(cfg)
			h := ordermsgtest.NewHandler(ds, ordermsgtest.WithLatency(delay),
				ordermsgtest.WithFaults(ordermsgtest.Faults{Seed: cfg.Seed, Rate: rate}))
			url := "http://" + ln.Addr().String()
			fmt.Fprintf(a.stdout, "ordermsg fake service at %s (header %s: %s)\n", url, ordermsgtest.VersionHeader, ordermsgtest.APIVersion)
			fmt.Fprintf(a.stdout, "OpenAPI document at %s%s\n", url, ordermsgtest.OpenAPIPath)
			for _, w := range ds.Websites {
				fmt.Fprintf(a.stdout, "  website %d  api key %s  (%d orders, %d messages)\n", w.ID, w.APIKey, len(w.Orders), len(w.Messages))
			}
			first := ds.Websites[0]
			fmt.Fprintf(a.stdout, "try:\n  curl -u %s: -H '%s: %s' %s/websites/%d/orders\n", first.APIKey, ordermsgtest.VersionHeader, ordermsgtest.APIVersion, url, first.ID)
			fmt.Fprintf(a.stdout, "  ORDERMSG_BASE_URL=%s ORDERMSG_API_KEY=%s ORDERMSG_WEBSITE_ID=%d ordermsg orders list\n", url, first.APIKey, first.ID)
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
	return cmd
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
