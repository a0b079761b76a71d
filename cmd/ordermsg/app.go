package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/internal/secretmask"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
	"github.com/spf13/cobra"
)

// Environment variables that give the connection flags their defaults:
// the SDK's (ordermsg.NewClientFromEnv reads them too), and the website.
const (
	envBaseURL   = ordermsg.EnvBaseURL
	envAPIKey    = ordermsg.EnvAPIKey
	envWebsiteID = "ORDERMSG_WEBSITE_ID"
	// envVersionHeader is the version header, "Name: value" (see
	// headerFlag).
	envVersionHeader = ordermsg.EnvVersionHeader
)

// app is one run of the tool, with its input and output.
type app struct {
	stdout, stderr io.Writer
	getenv         func(string) string
	isTerminal     func(w any) bool

	// connection flags
	baseURL, apiKey string
	websiteID       int64
	demo            bool
	allowHTTP       bool
	timeout         time.Duration
	maxBodyMiB      int64
	verbose         bool
	versionHeader   headerFlag
	// logKeys are the keys of --websites FILE (keySecrets), which the -v
	// log masks (see maskedLog); set before the first request.
	logKeys []string
	logMask struct {
		once sync.Once
		mask *secretmask.Mask
	}

	// started is set when a command's RunE is entered: an error before that
	// is about the command line. cmd is that command.
	started bool
	cmd     *cobra.Command
}

// run runs the command line args and returns the exit code (see exitCode).
func (a *app) run(ctx context.Context, args []string) int {
	root := a.rootCommand()
	root.SetArgs(args)
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	cmd, err := root.ExecuteContextC(ctx)
	code, message := exitCode(ctx, err, a.started)
	if apiErr := (*ordermsg.APIError)(nil); errors.As(err, &apiErr) && apiErr.Hint != "" {
		// The SDK's hint about the version header names its option: say the
		// tool's flag and variable instead. The demo's fake requires the
		// header the tool sends, so there the hint cannot apply.
		hint := "; " + strings.Replace(apiErr.Hint, "WithVersionHeader", "--version-header or "+envVersionHeader, 1)
		if a.demo {
			hint = ""
		}
		message = strings.Replace(message, "; "+apiErr.Hint, hint, 1)
	}
	if message != "" {
		// A server may quote the API key in an error's message, in any
		// spelling, and the SDK may have cut its message inside one.
		message = secretmask.New(keySecrets(a.apiKey)...).Text(message)
		fmt.Fprintln(a.stderr, message)
	}
	if code == exitUsage && !errors.As(err, new(*configError)) {
		fmt.Fprintf(a.stderr, "Run '%s --help' for usage.\n", cmd.CommandPath())
	}
	return code
}

func (a *app) rootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "ordermsg",
		Short: "Read a website's orders and messages from the Order and Message Read API",
		Long: `ordermsg reads a website's orders and messages: get one, list a page, or
export them all as JSON Lines or CSV.

The connection comes from flags or, by default, from the environment:
  ORDERMSG_BASE_URL        --base-url        the service's base URL
  ORDERMSG_API_KEY         --api-key         your API key
  ORDERMSG_WEBSITE_ID      --website         the website to read
  ORDERMSG_VERSION_HEADER  --version-header  the version header, "Name: value"
The API's documentation writes the version header as Service-Api-Version: 1,
where Service stands for the maker's name: set the real name, such as
ORDERMSG_VERSION_HEADER="Acme-Api-Version: 1". A flag wins over the
environment. --demo runs any command against a built-in fake of the service
instead, with its own URL, key and website: it refuses --base-url, --api-key
and --website, ignores ORDERMSG_BASE_URL, ORDERMSG_API_KEY and
ORDERMSG_WEBSITE_ID, and requires the version header you set.

` + exitCodesHelp,
		Example: `  ordermsg orders list --demo --count 5
  ordermsg orders export --demo --since 2024-01-01 --format csv -o orders.csv
  ordermsg messages get ` + demoMessageID + ` --include form_submission,user --demo
  ordermsg orders list --count 5        # needs ORDERMSG_BASE_URL, ORDERMSG_API_KEY, ORDERMSG_WEBSITE_ID`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       version(),
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &usageError{flagError(err)} })
	// --version prints what the version command prints; declared here so
	// that cobra gives it no -v, which is --verbose in the commands.
	root.SetVersionTemplate(versionLine)
	root.Flags().Bool("version", false, "print the version of ordermsg")

	// Every command of the tool, in the order of the help.
	serve, status, changes, version := a.serveCommand(), a.statusCommand(), a.changesCommand(), a.versionCommand()
	root.AddCommand(
		newResourceCommand(a, ordersKind),
		newResourceCommand(a, messagesKind),
		a.filesCommand(),
		a.syncCommand(),
		status,
		changes,
		serve,
		version,
	)
	// The connection flags belong to the commands that connect: serve runs
	// a service, status and changes read a database and version reads none.
	for _, c := range root.Commands() {
		if c != serve && c != status && c != changes && c != version {
			a.connectionFlags(c)
		}
	}
	a.markStart(root)
	return root
}

// connectionFlags adds the flags of the connection to c and its
// subcommands.
func (a *app) connectionFlags(c *cobra.Command) {
	pf := c.PersistentFlags()
	pf.StringVar(&a.baseURL, "base-url", a.getenv(envBaseURL), "base URL of the service (env "+envBaseURL+")")
	// The key's default is read in connect, so that --help never shows it.
	pf.StringVar(&a.apiKey, "api-key", "", "API key (env "+envAPIKey+")")
	pf.Int64Var(&a.websiteID, "website", 0, "website id (env "+envWebsiteID+")")
	a.versionHeader = headerFlag{env: envVersionHeader, envValue: a.getenv(envVersionHeader)}
	pf.Var(&a.versionHeader, "version-header", `the API's version header, "Name: value" (env `+envVersionHeader+`; default "`+defaultVersionHeader+`")`)
	pf.BoolVar(&a.demo, "demo", false, "use a built-in fake of the service, with generated data (not with --base-url, --api-key or --website; their variables are ignored)")
	pf.BoolVar(&a.allowHTTP, "allow-http", false, "allow a plain http:// base URL for a host that is not loopback (sends the API key in the clear)")
	pf.DurationVar(&a.timeout, "timeout", 30*time.Second, "time limit of each attempt of a request; a timed-out attempt is retried (0: none)")
	pf.Int64Var(&a.maxBodyMiB, "max-body-mib", 64, "largest response body taken, in MiB: a page of records, or one record, larger than this fails")
	pf.BoolVarP(&a.verbose, "verbose", "v", false, "log retries on stderr")
}

// markStart makes every RunE under c set a.started when it is entered.
func (a *app) markStart(c *cobra.Command) {
	if run := c.RunE; run != nil {
		c.RunE = func(cmd *cobra.Command, args []string) error {
			a.started, a.cmd = true, cmd
			return run(cmd, args)
		}
	}
	for _, sub := range c.Commands() {
		a.markStart(sub)
	}
}

// groupCommand is a command that only holds subcommands: alone it prints
// its help; with an argument that is not one of them, it is a usage error.
func groupCommand(use, short, example string) *cobra.Command {
	return &cobra.Command{
		Use:                        use,
		Short:                      short,
		Example:                    example,
		SuggestionsMinimumDistance: 2,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return nil
			}
			msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
			if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
				msg += "; did you mean " + strings.Join(s, " or ") + "?"
			}
			return errors.New(msg)
		},
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
}

// connect returns a client and the website to read, from --demo, the flags
// or the environment. close releases a demo server.
func (a *app) connect() (c *ordermsg.Client, websiteID int64, close func(), err error) {
	return a.connectWith(func(header ordermsgtest.Option, opts []ordermsg.Option) (*ordermsg.Client, int64, func(), error) {
		srv := ordermsgtest.NewServer(nil, header)
		c, err := srv.Client(opts...)
		if err != nil {
			srv.Close()
			return nil, 0, nil, err
		}
		return c, srv.WebsiteID, srv.Close, nil
	})
}

// connectMirror is connect for sync --db: its demo is the fake at a fixed
// base URL (ordermsgtest.MockBaseURL), reached through an in-process
// transport, so that every run of sync --demo reads the same source, as a
// mirror keeps one per website. It serves no files, which sync does not
// read.
func (a *app) connectMirror() (c *ordermsg.Client, websiteID int64, close func(), err error) {
	return a.connectWith(func(header ordermsgtest.Option, opts []ordermsg.Option) (*ordermsg.Client, int64, func(), error) {
		h := ordermsgtest.NewHandler(nil, header)
		c, err := h.Client(opts...)
		return c, h.Dataset().Websites[0].ID, func() {}, err
	})
}

// connectWith is connect, with demo making the client of --demo (and
// telling the fake's first website) for the version header the fake must
// require and the client's options.
func (a *app) connectWith(demo func(header ordermsgtest.Option, opts []ordermsg.Option) (*ordermsg.Client, int64, func(), error)) (c *ordermsg.Client, websiteID int64, close func(), err error) {
	opts, header, err := a.clientOptions()
	if err != nil {
		return nil, 0, nil, err
	}
	if a.websiteID < 0 {
		return nil, 0, nil, usagef("--website %d: want a positive website id", a.websiteID)
	}
	if a.apiKey == "" {
		a.apiKey = a.getenv(envAPIKey)
	}
	websiteID = a.websiteID
	if a.demo {
		// The fake has its own URL, key and websites: a flag that names
		// others is a mistake, while the environment's are likely set for
		// the real service and are ignored.
		for _, name := range []string{"base-url", "api-key", "website"} {
			if a.cmd != nil && a.cmd.Flags().Changed(name) {
				return nil, 0, nil, usagef("--%s does not go with --demo, which uses the built-in fake's own URL, key and website", name)
			}
		}
		return demo(header, opts)
	}
	if websiteID == 0 {
		if v := a.getenv(envWebsiteID); v != "" {
			if websiteID, err = strconv.ParseInt(v, 10, 64); err != nil || websiteID <= 0 {
				return nil, 0, nil, usagef("%s=%q is not a website id: want a positive integer", envWebsiteID, v)
			}
		}
	}
	var missing []string
	if a.baseURL == "" {
		missing = append(missing, envBaseURL+" (or --base-url)")
	}
	if a.apiKey == "" {
		missing = append(missing, envAPIKey+" (or --api-key)")
	}
	if websiteID == 0 {
		missing = append(missing, envWebsiteID+" (or --website)")
	}
	if len(missing) > 0 {
		return nil, 0, nil, usagef("missing %s; or use --demo to try the built-in fake", strings.Join(missing, ", "))
	}
	if c, err = a.newClient(a.apiKey, opts); err != nil {
		return nil, 0, nil, err
	}
	return c, websiteID, c.CloseIdleConnections, nil
}

// clientOptions are the options of every client the tool makes, from the
// connection flags (all but the base URL, the key and the website), and
// the fake's option that requires the same version header.
func (a *app) clientOptions() ([]ordermsg.Option, ordermsgtest.Option, error) {
	if a.timeout < 0 {
		return nil, nil, usagef("--timeout %v: must not be negative", a.timeout)
	}
	if a.maxBodyMiB < 1 || a.maxBodyMiB > 1<<20 {
		return nil, nil, usagef("--max-body-mib %d: want a size in MiB from 1 to 1048576", a.maxBodyMiB)
	}
	name, value, err := a.versionHeader.parse()
	if err != nil {
		return nil, nil, err
	}
	opts := []ordermsg.Option{ordermsg.WithUserAgent("ordermsg-cli/" + ordermsg.Version), ordermsg.WithAttemptTimeout(a.timeout),
		ordermsg.WithVersionHeader(name, value), ordermsg.WithMaxBodySize(a.maxBodyMiB << 20)}
	if a.verbose {
		opts = append(opts, ordermsg.WithLogger(slog.New(slog.NewTextHandler(maskedLog{a}, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	}
	if a.allowHTTP {
		opts = append(opts, ordermsg.WithAllowHTTP())
	}
	return opts, ordermsgtest.WithVersionHeader(name, value), nil
}

// newClient is a client of the service at --base-url with apiKey and opts,
// its errors in the tool's words.
func (a *app) newClient(apiKey string, opts []ordermsg.Option) (*ordermsg.Client, error) {
	if u, err := url.Parse(a.baseURL); err == nil && u.User != nil {
		return nil, usagef("--base-url must not carry credentials: give the key with --api-key or %s", envAPIKey)
	}
	switch c, err := ordermsg.NewClient(a.baseURL, apiKey, opts...); {
	case errors.Is(err, ordermsg.ErrPlainHTTP):
		// The SDK's text names its option, WithAllowHTTP; say the flag.
		return nil, usagef("--base-url %s: plain http to a host that is not loopback would send the API key in the clear; use https, or add --allow-http", a.baseURL)
	case err != nil:
		return nil, &usageError{err}
	default:
		return c, nil
	}
}

// versionLine is what version and --version print: the tool's version
// from its build information (see version).
const versionLine = "ordermsg {{.Root.Version}}\n"

func (a *app) versionCommand() *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Print the version of ordermsg",
		Long:    "Print the version of ordermsg: the release it was installed as (go install …@v0.2.0), or (devel) and the commit for a build of a clone.",
		Example: "  ordermsg version\n  ordermsg --version",
		Args:    cobra.NoArgs,
		Run: func(cmd *cobra.Command, _ []string) {
			fmt.Fprintf(a.stdout, "ordermsg %s\n", cmd.Root().Version)
		},
	}
}
