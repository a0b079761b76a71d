package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/ordermsg/ordermsg-go/ordermsgtest"
	"github.com/spf13/cobra"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// cli runs the tool in-process and returns what it wrote and its exit code.
type cli struct {
	env      map[string]string
	terminal bool      // whether stderr passes for a terminal
	stdout   io.Writer // standard output, when not the buffer run returns
}

func (c cli) run(ctx context.Context, args ...string) (stdout, stderr string, code int) {
	var out, errOut bytes.Buffer
	a := &app{
		stdout: cmp.Or[io.Writer](c.stdout, &out), stderr: &errOut,
		getenv:     func(k string) string { return c.env[k] },
		isTerminal: func(w any) bool { return c.terminal && w == io.Writer(&errOut) },
	}
	code = a.run(ctx, args)
	return out.String(), errOut.String(), code
}

// smallService serves a small deterministic dataset and returns the
// environment that points the tool at it.
func smallService(t *testing.T) (*ordermsgtest.Server, map[string]string) {
	t.Helper()
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 42, Websites: 1, OrdersPerWebsite: 12, MessagesPerWebsite: 16}))
	t.Cleanup(srv.Close)
	return srv, map[string]string{
		envBaseURL: srv.URL, envAPIKey: srv.APIKey, envWebsiteID: fmt.Sprint(srv.WebsiteID),
	}
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file:\n%s", name, got)
	}
}

func TestGolden(t *testing.T) {
	srv, env := smallService(t)
	w := srv.Handler.Dataset().Website(srv.WebsiteID)
	order, message := w.Orders[3], w.Messages[5]
	cases := []struct {
		golden string
		args   []string
	}{
		{"orders-get.json", []string{"orders", "get", fmt.Sprint(order.ID), "--include", "items.attributes,promo_code", "--include", "user"}},
		{"messages-get.json", []string{"messages", "get", fmt.Sprint(message.ID), "--include", "form_submission,order"}},
		{"orders-list.json", []string{"orders", "list", "--count", "3", "--page", "2", "--direction", "asc"}},
		{"messages-list.json", []string{"messages", "list", "--count", "2", "--type", "general_contact"}},
		{"orders-export.jsonl", []string{"orders", "export", "--count", "5", "--direction", "asc"}},
		{"orders-export.csv", []string{"orders", "export", "--format", "csv", "--count", "5", "--direction", "asc"}},
		{"orders-items.csv", []string{"orders", "export", "--format", "csv", "--items", "--direction", "asc"}},
		{"messages-export.csv", []string{"messages", "export", "--format", "csv", "--since", "2024-01-02", "--direction", "asc"}},
	}
	for _, tc := range cases {
		t.Run(tc.golden, func(t *testing.T) {
			stdout, stderr, code := cli{env: env}.run(context.Background(), tc.args...)
			if code != exitOK || stderr != "" {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
			golden(t, tc.golden, stdout)
		})
	}
}

func TestDemoExportEmitsTheWholeDataset(t *testing.T) {
	want := len(ordermsgtest.Generate(ordermsgtest.DefaultConfig()).Websites[0].Orders)
	stdout, stderr, code := cli{}.run(context.Background(), "orders", "export", "--demo", "--format", "csv")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rows, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows)-1 != want || len(rows[0]) != len(orderTable.columns) {
		t.Fatalf("%d rows of %d columns, want %d orders", len(rows)-1, len(rows[0]), want)
	}
	ids := map[string]bool{}
	for _, r := range rows[1:] {
		ids[r[0]] = true
	}
	if len(ids) != want {
		t.Errorf("%d distinct ids", len(ids))
	}
	stdout, _, code = cli{}.run(context.Background(), "orders", "export", "--demo")
	if lines := strings.Count(stdout, "\n"); code != exitOK || lines != want {
		t.Errorf("jsonl: exit %d, %d lines", code, lines)
	}
}

func TestExportToFileIsAtomic(t *testing.T) {
	_, env := smallService(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "orders.csv")
	_, stderr, code := cli{env: env}.run(context.Background(), "orders", "export", "--format", "csv", "-o", out)
	if code != exitOK || !strings.Contains(stderr, "wrote 12 orders to "+out) {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("left behind: %v", entries)
	}
}

func TestInterruptedExportLeavesNoFile(t *testing.T) {
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 3, Websites: 1, OrdersPerWebsite: 300}))
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// A front that presses Ctrl-C when the walk asks for page 3.
	var once sync.Once
	front := http.NewServeMux()
	front.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("page") == "3" {
			once.Do(cancel)
		}
		srv.Handler.ServeHTTP(w, r)
	})
	frontSrv := newLoopback(t, front)
	dir := t.TempDir()
	out := filepath.Join(dir, "orders.jsonl")
	env := map[string]string{envBaseURL: frontSrv, envAPIKey: srv.APIKey, envWebsiteID: fmt.Sprint(srv.WebsiteID)}
	_, stderr, code := cli{env: env}.run(ctx, "orders", "export", "--count", "20", "--concurrency", "1", "-o", out)
	if code != exitSignalBase+int(syscall.SIGINT) || !strings.HasPrefix(stderr, "interrupted after ") || !strings.Contains(stderr, "was not written") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("an interrupted export left %v", entries)
	}
}

func TestUsageErrorsExit2WithHelp(t *testing.T) {
	_, env := smallService(t)
	cases := []struct {
		env  map[string]string
		args []string
		want string
	}{
		{nil, []string{"orders", "list"}, "missing ORDERMSG_BASE_URL (or --base-url), ORDERMSG_API_KEY (or --api-key), ORDERMSG_WEBSITE_ID (or --website); or use --demo"},
		{map[string]string{envBaseURL: "https://x", envAPIKey: "k"}, []string{"messages", "list"}, "missing ORDERMSG_WEBSITE_ID (or --website)"},
		{env, []string{"orders", "get"}, "want one id, got 0 arguments"},
		{env, []string{"orders", "get", "12x"}, `"12x" is not an id`},
		{env, []string{"orders", "list", "--since", "yesterday"}, `--since "yesterday": want a date YYYY-MM-DD`},
		{env, []string{"orders", "list", "--since", "0000-01-01"}, `--since "0000-01-01": want a date YYYY-MM-DD that exists, from 0001-01-01, such as 2024-03-01`},
		{env, []string{"messages", "export", "--until", "2023-02-29"}, `--until "2023-02-29": want a date YYYY-MM-DD that exists`},
		{env, []string{"orders", "export", "--format", "xml"}, `--format "xml": want jsonl or csv`},
		{env, []string{"orders", "export", "--items"}, "--items goes with --format csv"},
		{env, []string{"orders", "export", "--format", "csv", "--include", "billing_address"}, "--include billing_address: the CSV columns are fixed and have no place for it"},
		{env, []string{"orders", "export", "--format", "csv", "--items", "--include", "items.attributes"}, "--include items.attributes: the CSV columns are fixed"},
		{env, []string{"messages", "export", "--format", "csv", "--include", "form_submission,user"}, "--include user: the CSV columns are fixed"},
		{env, []string{"orders", "export", "--format", "csv", "--state", "s", "--include", "notes"}, "--include notes: the CSV columns are fixed"},
		// Configuration: a base URL without its scheme, a header that is
		// not "Name: value".
		{map[string]string{envBaseURL: "127.0.0.1:8080", envAPIKey: "k", envWebsiteID: "1"}, []string{"orders", "list"}, "error: ordermsg: the base URL has no scheme: begin it with https:// (or http:// for a loopback host, as in http://127.0.0.1:8080)\n"},
		{map[string]string{envBaseURL: "api.example.com", envAPIKey: "k", envWebsiteID: "1"}, []string{"orders", "list"}, "error: ordermsg: the base URL has no scheme: "},
		{map[string]string{envVersionHeader: "v1"}, []string{"orders", "list", "--demo"}, `ORDERMSG_VERSION_HEADER: no colon: want "Name: value"`},
		{env, []string{"orders", "list", "--bogus"}, "unknown flag: --bogus"},
		{env, []string{"messages", "list", "--status", "new"}, "unknown flag: --status"},
		{env, []string{"invoices"}, `unknown command "invoices"`},
	}
	for _, tc := range cases {
		stdout, stderr, code := cli{env: tc.env}.run(context.Background(), tc.args...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) || !strings.Contains(stderr, "--help' for usage") || stdout != "" {
			t.Errorf("%v: exit %d, stderr %q", tc.args, code, stderr)
		}
	}
}

func TestAPIErrorsExit1InOneLine(t *testing.T) {
	_, env := smallService(t)
	site := env[envBaseURL] + "/websites/" + env[envWebsiteID]
	_, stderr, code := cli{env: env}.run(context.Background(), "orders", "get", "1")
	if code != exitFailure || stderr != "error: ordermsg: GET "+site+"/orders/1: 404 Not Found: order 1 not found\n" {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	env[envAPIKey] = "wrong"
	_, stderr, code = cli{env: env}.run(context.Background(), "orders", "list")
	if code != exitFailure || !strings.HasPrefix(stderr, "error: ordermsg: GET "+site+"/orders: 401 Unauthorized: ") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// A network error is printed as the SDK writes it: one "ordermsg:" prefix,
// the URL once, no internal marker.
func TestNetworkErrorIsTheSDKsText(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "ftp://elsewhere/x", http.StatusFound)
	}))
	t.Cleanup(srv.Close)
	env := map[string]string{envBaseURL: srv.URL, envAPIKey: "k", envWebsiteID: "1"}
	_, stderr, code := cli{env: env}.run(context.Background(), "orders", "get", "2")
	want := "error: ordermsg: GET " + srv.URL + `/websites/1/orders/2: refused redirect to ftp://elsewhere/x: the scheme "ftp" is not http or https` + "\n"
	if code != exitFailure || stderr != want {
		t.Errorf("exit %d, stderr %q; want %d, %q", code, stderr, exitFailure, want)
	}
}

func TestProgressBarOnlyOnATerminal(t *testing.T) {
	_, env := smallService(t)
	_, stderr, _ := cli{env: env}.run(context.Background(), "orders", "export")
	if stderr != "" {
		t.Errorf("not a terminal, yet stderr = %q", stderr)
	}
	_, stderr, code := cli{env: env, terminal: true}.run(context.Background(), "orders", "export", "--count", "5")
	if code != exitOK || !strings.Contains(stderr, "exporting orders") || !strings.Contains(stderr, "/12") {
		t.Errorf("terminal: exit %d, stderr %q", code, stderr)
	}
}

func TestEveryCommandsHelpHasExamples(t *testing.T) {
	var paths [][]string
	var visit func(c *cobra.Command, path []string)
	visit = func(c *cobra.Command, path []string) {
		if c.Name() == "help" || c.Name() == "completion" {
			return
		}
		paths = append(paths, path)
		for _, sub := range c.Commands() {
			visit(sub, append(append([]string(nil), path...), sub.Name()))
		}
	}
	visit((&app{getenv: func(string) string { return "" }}).rootCommand(), nil)
	if len(paths) < 11 {
		t.Fatalf("only %d commands: %v", len(paths), paths)
	}
	for _, path := range paths {
		stdout, _, code := cli{}.run(context.Background(), append(path, "--help")...)
		if code != exitOK || !strings.Contains(stdout, "Examples:") {
			t.Errorf("%v: exit %d, no examples:\n%s", path, code, stdout)
		}
	}
}

func TestInterruptedGetExits130(t *testing.T) {
	_, env := smallService(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, stderr, code := cli{env: env}.run(ctx, "orders", "list")
	if code != exitSignalBase+int(syscall.SIGINT) || stderr != "interrupted\n" {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

func newLoopback(t *testing.T, h http.Handler) string {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// --help shows neither the API key of the environment nor its header as
// the flags' defaults; the key still applies.
func TestHelpDoesNotShowTheEnvironment(t *testing.T) {
	srv, env := smallService(t)
	env[envVersionHeader] = "Service-Api-Version: 1"
	stdout, _, code := cli{env: env}.run(context.Background(), "orders", "list", "--help")
	if code != exitOK || strings.Contains(stdout, srv.APIKey) || strings.Contains(stdout, "(default Service-Api-Version") {
		t.Errorf("exit %d, help:\n%s", code, stdout)
	}
	if _, stderr, code := (cli{env: env}).run(context.Background(), "orders", "list", "--count", "1"); code != exitOK {
		t.Errorf("the key of the environment: exit %d, %s", code, stderr)
	}
}
