package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
	"github.com/spf13/cobra"
)

// Exit codes.
const (
	exitOK          = 0
	exitAPI         = 1 // an API or network error
	exitUsage       = 2 // a bad flag or argument, or missing configuration
	exitInterrupted = 130
)

// Environment variables that give the connection flags their defaults.
const (
	envBaseURL   = "ORDERMSG_BASE_URL"
	envAPIKey    = "ORDERMSG_API_KEY"
	envWebsiteID = "ORDERMSG_WEBSITE_ID"
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
}

// apiFailure marks an error of the service or the network (exit 1), as
// opposed to a usage error (exit 2).
type apiFailure struct{ err error }

func (e *apiFailure) Error() string { return e.err.Error() }
func (e *apiFailure) Unwrap() error { return e.err }

// interrupted is the error of a run stopped by Ctrl-C; the command has said
// how far it got.
var errInterrupted = errors.New("interrupted")

func (a *app) run(ctx context.Context, args []string) int {
	root := a.rootCommand()
	root.SetArgs(args)
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	cmd, err := root.ExecuteContextC(ctx)
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, errInterrupted):
		return exitInterrupted
	case ctx.Err() != nil:
		fmt.Fprintln(a.stderr, "interrupted")
		return exitInterrupted
	case errors.As(err, new(*apiFailure)):
		fmt.Fprintln(a.stderr, "error:", describe(err))
		return exitAPI
	default:
		fmt.Fprintf(a.stderr, "error: %v\nRun '%s --help' for usage.\n", err, cmd.CommandPath())
		return exitUsage
	}
}

// describe writes an error as one line: for an API error, its status and the
// server's message.
func describe(err error) string {
	var apiErr *ordermsg.APIError
	if errors.As(err, &apiErr) {
		s := fmt.Sprintf("%d %s", apiErr.StatusCode, http.StatusText(apiErr.StatusCode))
		if apiErr.Message != "" && apiErr.Message != http.StatusText(apiErr.StatusCode) {
			s += ": " + apiErr.Message
		}
		return s
	}
	return strings.TrimPrefix(err.Error(), "ordermsg: ")
}

func (a *app) rootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "ordermsg",
		Short: "Read a website's orders and messages from the Order and Message Read API",
		Long: `ordermsg reads a website's orders and messages: get one, list a page, or
export them all as JSON Lines or CSV.

The connection comes from flags or, by default, from the environment:
  ORDERMSG_BASE_URL    --base-url   the service's base URL
  ORDERMSG_API_KEY     --api-key    your API key
  ORDERMSG_WEBSITE_ID  --website    the website to read
--demo runs any command against a built-in fake of the service instead.

Exit codes: 0 success, 1 API or network error, 2 usage error, 130 interrupted.`,
		Example: `  ordermsg orders list --demo
  ordermsg orders export --since 2024-01-01 --format csv -o orders.csv
  ordermsg messages get 3001 --include form_submission,user
  ordermsg serve`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	pf := root.PersistentFlags()
	pf.StringVar(&a.baseURL, "base-url", a.getenv(envBaseURL), "base URL of the service (env "+envBaseURL+")")
	pf.StringVar(&a.apiKey, "api-key", a.getenv(envAPIKey), "API key (env "+envAPIKey+")")
	pf.Int64Var(&a.websiteID, "website", 0, "website id (env "+envWebsiteID+")")
	pf.BoolVar(&a.demo, "demo", false, "use a built-in fake of the service, with generated data")
	root.AddCommand(
		newResourceCommand(a, ordersKind),
		newResourceCommand(a, messagesKind),
		a.serveCommand(),
		a.versionCommand(),
	)
	a.addSyncCommands(root) // sync --db, export --state (syncdb.go)
	return root
}

// connect returns a client and the website to read, from --demo, the flags
// or the environment. close releases a demo server.
func (a *app) connect(cmd *cobra.Command) (c *ordermsg.Client, websiteID int64, close func(), err error) {
	websiteID = a.websiteID
	if a.demo {
		srv := ordermsgtest.NewServer(nil)
		c, err = srv.Client()
		if websiteID == 0 {
			websiteID = srv.WebsiteID
		}
		return c, websiteID, srv.Close, err
	}
	if websiteID == 0 {
		if v := a.getenv(envWebsiteID); v != "" {
			if _, err := fmt.Sscan(v, &websiteID); err != nil || websiteID <= 0 {
				return nil, 0, nil, fmt.Errorf("%s=%q is not a website id", envWebsiteID, v)
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
		return nil, 0, nil, fmt.Errorf("missing %s; or use --demo to try the built-in fake", strings.Join(missing, ", "))
	}
	c, err = ordermsg.NewClient(a.baseURL, a.apiKey, ordermsg.WithUserAgent("ordermsg-cli/"+ordermsg.Version))
	if err != nil {
		return nil, 0, nil, err
	}
	return c, websiteID, c.CloseIdleConnections, nil
}

func (a *app) versionCommand() *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Print the version of ordermsg",
		Example: "  ordermsg version",
		Args:    cobra.NoArgs,
		Run: func(cmd *cobra.Command, _ []string) {
			fmt.Fprintf(a.stdout, "ordermsg %s\n", ordermsg.Version)
		},
	}
}
