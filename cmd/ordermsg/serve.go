package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
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
		keysFile string
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

Each website belongs to its own account with its own key. --websites-file
FILE writes them as a FILE for sync --websites: a line of WEBSITE_ID API_KEY
each, mode 0600 (replacing FILE once complete; a FIFO or device is written
through), and prints the sync command that reads it.

The records are created a few hours apart from 2024 on; a website of more
records than fit between then and now (about 7,000 messages) has them all
moved back, the newest created now, so that no record lies in the future.

--add-every D adds, every D while it serves, one order (with its message) and
one message to each website, created now (after the generated records),
and prints a line for each: a poller that starts from now finds new
records on each run, as it would in production.

An admin endpoint, on the same address under /_admin/, adds, changes and
deletes records on demand, so that a reconcile can be tried:
POST /_admin/websites/ID/orders (or messages) adds one, PATCH
/_admin/websites/ID/orders/ORDER_ID with {"status": "…"} ({"message_type":
"…"} for messages) changes one, DELETE deletes one. It wants the header
"Authorization: Bearer TOKEN" with the token serve prints, new on every run;
an API key opens none of it (docs/cli.md).`,
		Example: `  ordermsg serve
  ordermsg serve --websites 1 --orders 2000 --fault-rate 0.1 --latency 20ms
  ordermsg serve --version-header Acme-Api-Version:1 --add-every 30s
  ordermsg serve --websites 12 --websites-file websites.txt`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkServeFlags(addr, cfg, rate, delay, every); err != nil {
				return err
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
			if keysFile != "" {
				if err := writeWebsitesFile(cmd.Context(), keysFile, ds); err != nil {
					ln.Close()
					return err
				}
			}
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
			token := newAdminToken()
			fmt.Fprintf(a.stdout, "admin endpoint at %s%s with header 'Authorization: Bearer %s' (docs/cli.md)\n", url, adminPrefix, token)
			for _, w := range ds.Websites {
				fmt.Fprintf(a.stdout, "  website %d  api key %s  (%s, %s)\n", w.ID, w.APIKey, counted(len(w.Orders), "order"), counted(len(w.Messages), "message"))
			}
			first := ds.Websites[0]
			fmt.Fprintf(a.stdout, "try:\n  curl -u %s: -H %s %s/websites/%d/orders\n", first.APIKey, curlHeader, url, first.ID)
			fmt.Fprintf(a.stdout, "  ORDERMSG_BASE_URL=%s ORDERMSG_API_KEY=%s ORDERMSG_WEBSITE_ID=%d%s ordermsg orders list\n", url, first.APIKey, first.ID, envHeader)
			if keysFile != "" {
				fmt.Fprintf(a.stdout, "  ORDERMSG_BASE_URL=%s%s ordermsg sync --db fleet.db --websites %s\n", url, envHeader, keysFile)
			}
			if every > 0 {
				fmt.Fprintf(a.stdout, "adding an order and a message to each website every %v\n", every)
				ticker := time.NewTicker(every)
				defer ticker.Stop()
				go addRecords(cmd.Context(), h, ticker.C, a.stdout)
			}
			fmt.Fprintln(a.stdout, "serving until interrupted (Ctrl-C)")
			return serve(cmd.Context(), ln, withAdmin(h, token))
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&addr, "addr", "127.0.0.1:0", "loopback host and port to listen on (port 0: any free port)")
	fl.Uint64Var(&cfg.Seed, "seed", cfg.Seed, "seed of the generated dataset")
	fl.IntVar(&cfg.Websites, "websites", cfg.Websites, fmt.Sprintf("number of websites, 1 to %d (the fake holds every record in memory)", maxServeWebsites))
	fl.IntVar(&cfg.OrdersPerWebsite, "orders", cfg.OrdersPerWebsite, fmt.Sprintf("orders per website, 0 to %d (held in memory)", maxServeRecords))
	fl.IntVar(&cfg.MessagesPerWebsite, "messages", cfg.MessagesPerWebsite, fmt.Sprintf("messages per website, 0 to %d (held in memory; raised to --orders, since every order has its message)", maxServeRecords))
	fl.Float64Var(&rate, "fault-rate", 0, "share of responses that fail, from 0 to 1 (429, 500, 503, dropped, cut off, slow)")
	fl.DurationVar(&delay, "latency", 0, "delay added to every response")
	fl.DurationVar(&every, "add-every", 0, fmt.Sprintf("add an order and a message to each website at this interval while serving, %v or more (0: never)", minAddEvery))
	fl.StringVar(&keysFile, "websites-file", "", "write the websites and their keys to FILE (mode 0600), a line of WEBSITE_ID API_KEY each, for sync --websites FILE")
	fl.Var(&required, "version-header", `the version header the fake requires, "Name: value" (env `+envVersionHeader+`; default "`+defaultVersionHeader+`")`)
	return cmd
}

// Bounds of serve's flags. The fake holds every record in memory: the caps
// keep a dataset to what a machine holds (10,000 websites of 100,000 orders
// and 100,000 messages are already far beyond it). --add-every below
// minAddEvery would add records faster than anything reads them.
const (
	maxServeWebsites = 10_000
	maxServeRecords  = 100_000
	minAddEvery      = 10 * time.Millisecond
)

// checkServeFlags refuses, in the tool's words, the values of serve's flags
// that it cannot serve with.
func checkServeFlags(addr string, cfg ordermsgtest.Config, rate float64, delay, every time.Duration) error {
	const wantAddr = "want a loopback host and a port from 0 to 65535, such as 127.0.0.1:8080 (port 0: any free port)"
	host, port, err := net.SplitHostPort(addr)
	if err == nil {
		_, err = strconv.ParseUint(port, 10, 16) // digits only, up to 65535
	}
	if err != nil {
		return usagef("--addr %q: %s", addr, wantAddr)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return usagef("--addr %q: the fake serves on loopback only: %s", addr, wantAddr)
	}
	switch {
	case cfg.Websites < 1 || cfg.Websites > maxServeWebsites:
		return usagef("--websites %d: want 1 to %d (the fake holds every record in memory)", cfg.Websites, maxServeWebsites)
	case cfg.OrdersPerWebsite < 0 || cfg.OrdersPerWebsite > maxServeRecords:
		return usagef("--orders %d: want 0 to %d per website (the fake holds every record in memory)", cfg.OrdersPerWebsite, maxServeRecords)
	case cfg.MessagesPerWebsite < 0 || cfg.MessagesPerWebsite > maxServeRecords:
		return usagef("--messages %d: want 0 to %d per website (the fake holds every record in memory)", cfg.MessagesPerWebsite, maxServeRecords)
	case !(rate >= 0 && rate <= 1): // NaN too
		return usagef("--fault-rate %v: want a share from 0 to 1", rate)
	case delay < 0:
		return usagef("--latency %v: must not be negative", delay)
	case every != 0 && every < minAddEvery:
		return usagef("--add-every %v: want %v or more, or 0 (never)", every, minAddEvery)
	}
	return nil
}

// writeWebsitesFile writes the websites of ds and their keys to path, as
// sync --websites reads them, readable by the owner alone.
func writeWebsitesFile(ctx context.Context, path string, ds *ordermsgtest.Dataset) error {
	out, err := openOutput(ctx, path)
	if err != nil {
		return err
	}
	defer out.Discard()
	if err := out.restrict(); err != nil {
		return err
	}
	w := bufio.NewWriter(out)
	fmt.Fprintf(w, "# the websites of ordermsg serve, for ordermsg sync --websites: WEBSITE_ID API_KEY\n")
	for _, site := range ds.Websites {
		fmt.Fprintf(w, "%d %s\n", site.ID, site.APIKey)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return out.Commit()
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
