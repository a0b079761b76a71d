//go:build unix

package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// readmeExitCodes reads the exit code table of the README's CLI section.
func readmeExitCodes(t *testing.T) []int {
	t.Helper()
	var codes []int
	row := regexp.MustCompile(`^\| *(\d+) *\|`)
	for _, line := range strings.Split(readmeCLISection(t), "\n") {
		if m := row.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[1])
			codes = append(codes, n)
		}
	}
	return codes
}

// Every row of the README's table, and of the help's, is what the process
// exits with.
func TestExitCodesMatchTheREADME(t *testing.T) {
	want := []int{exitOK, exitFailure, exitUsage, exitLocal, exitCursorExpired, exitSignalBase + int(syscall.SIGINT), exitSignalBase + int(syscall.SIGTERM)}
	if got := readmeExitCodes(t); !slices.Equal(got, want) {
		t.Errorf("README's table: %v, want %v", got, want)
	}
	help := runTool(t, nil, "--help")
	for _, code := range want {
		if !regexp.MustCompile(`(?m)^  ` + strconv.Itoa(code) + ` +\S`).MatchString(help.stdout) {
			t.Errorf("--help has no row for %d:\n%s", code, help.stdout)
		}
	}

	_, env := smallService(t)
	badKey := map[string]string{envBaseURL: env[envBaseURL], envAPIKey: "wrong", envWebsiteID: env[envWebsiteID]}
	site := env[envBaseURL] + "/websites/" + env[envWebsiteID]
	for _, tc := range []struct {
		env    map[string]string
		args   []string
		code   int
		stderr string // a prefix
	}{
		{nil, []string{"version"}, exitOK, ""},
		{nil, []string{"orders"}, exitOK, ""}, // its help
		{env, []string{"orders", "get", "1"}, exitFailure, "error: ordermsg: GET " + site + "/orders/1: 404 Not Found: order 1 not found\n"},
		{badKey, []string{"orders", "list"}, exitFailure, "error: ordermsg: GET " + site + "/orders: 401 Unauthorized: "},
		{nil, []string{"orders", "bogus"}, exitUsage, "error: unknown command \"bogus\" for \"ordermsg orders\"\nRun 'ordermsg orders --help' for usage.\n"},
		{nil, []string{"messages", "lst"}, exitUsage, "error: unknown command \"lst\" for \"ordermsg messages\"; did you mean get or list?\n"},
		{nil, []string{"invoices"}, exitUsage, "error: unknown command \"invoices\" for \"ordermsg\"\n"},
		{nil, []string{"orders", "list", "--demo", "--count", "-1"}, exitUsage, "error: --count -1: must not be negative\n"},
		{nil, []string{"messages", "list", "--demo", "--page", "-3"}, exitUsage, "error: --page -3: must not be negative\n"},
		{nil, []string{"orders", "export", "--demo", "--count", "-1"}, exitUsage, "error: --count -1: must not be negative\n"},
		{nil, []string{"orders", "export", "--demo", "--state", "s", "--count", "-1"}, exitUsage, "error: --count -1: must not be negative\n"},
		{nil, []string{"messages", "export", "--demo", "--state", "s", "--concurrency", "0"}, exitUsage, "error: --concurrency 0: want 1 or more\n"},
		{nil, []string{"orders", "export", "--demo", "--state", "s", "--include", ",,"}, exitUsage, "error: --include \",,\": want names separated by commas"},
		{nil, []string{"orders", "list", "--demo", "--timeout", "-1s"}, exitUsage, "error: --timeout -1s: must not be negative\n"},
		{nil, []string{"orders", "list", "--demo", "--max-body-mib", "0"}, exitUsage, "error: --max-body-mib 0: want a size in MiB from 1 to 1048576\n"},
		{nil, []string{"orders", "list", "--demo", "--website", "-4"}, exitUsage, "error: --website -4: want a positive website id\n"},
		{map[string]string{envWebsiteID: "abc"}, []string{"orders", "list", "--base-url", "https://x", "--api-key", "k"}, exitUsage, `error: ORDERMSG_WEBSITE_ID="abc" is not a website id`},
		{nil, []string{"orders", "list", "--base-url", "ftp://x", "--api-key", "k", "--website", "1"}, exitUsage, "error: ordermsg: the base URL must be an absolute http or https URL\n"},
		{nil, []string{"orders", "list", "--base-url", "https://user:pw@x", "--api-key", "k", "--website", "1"}, exitUsage, "error: --base-url must not carry credentials: give the key with --api-key or ORDERMSG_API_KEY\n"},
		{nil, []string{"orders", "get", "5", "--demo", "--include", "message,,user"}, exitUsage, `error: --include "message,,user": want names separated by commas`},
		{nil, []string{"messages", "export", "--demo", "--include", "a b"}, exitUsage, `error: --include "a b": want names separated by commas`},
		{nil, []string{"orders", "list"}, exitUsage, "error: missing ORDERMSG_BASE_URL (or --base-url), ORDERMSG_API_KEY (or --api-key), ORDERMSG_WEBSITE_ID (or --website); or use --demo to try the built-in fake\n"},
		{nil, []string{"orders", "export", "--demo", "-o", "."}, exitLocal, "error: cannot write .: is a directory\n"},
	} {
		r := runTool(t, tc.env, tc.args...)
		if r.code != tc.code || !strings.HasPrefix(r.stderr, tc.stderr) {
			t.Errorf("%v: %v", tc.args, r)
		}
		if hint := strings.Contains(r.stderr, "--help' for usage"); hint != (tc.code == exitUsage) {
			t.Errorf("%v: the usage hint is shown = %v, for exit %d", tc.args, hint, r.code)
		}
	}
}

// hangingService answers nothing until the test ends; arrived gets a value
// when a request comes in.
func hangingService(t *testing.T) (env map[string]string, arrived <-chan struct{}) {
	t.Helper()
	in := make(chan struct{}, 100)
	done := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		in <- struct{}{}
		select {
		case <-r.Context().Done():
		case <-done:
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(done) })
	return map[string]string{envBaseURL: srv.URL, envAPIKey: "k", envWebsiteID: "1"}, in
}

func TestSignalsExit128PlusTheirNumber(t *testing.T) {
	for _, tc := range []struct {
		sig  syscall.Signal
		code int
		word string
	}{
		{syscall.SIGINT, 130, "interrupted"},
		{syscall.SIGTERM, 143, "terminated"},
	} {
		env, arrived := hangingService(t)
		dir := t.TempDir()
		out := filepath.Join(dir, "orders.jsonl")
		for _, args := range [][]string{
			{"orders", "export", "-o", out},
			{"messages", "get", "7"},
		} {
			cmd := command(t, dir, env, args...)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			<-arrived // the tool is waiting for the service
			cmd.Process.Signal(tc.sig)
			code := exitCodeOf(t, cmd.Wait())
			want := tc.word + "\n"
			if args[1] == "export" {
				want = tc.word + " after 0 orders; " + out + " was not written\n"
			}
			if code != tc.code || stderr.String() != want {
				t.Errorf("%v, %v: exit %d, stderr %q", args, tc.sig, code, stderr.String())
			}
		}
		if got := entries(t, dir); len(got) != 0 {
			t.Errorf("an interrupted export left %v", got)
		}
	}
}

// A service that accepts connections and never answers: --timeout ends each
// attempt, -v shows the retries, and the error names the URL once.
func TestTimeoutAndVerbose(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var attempts atomic.Int32
	conns := make(chan net.Conn, 100) // held open, never answered
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			attempts.Add(1)
			conns <- conn
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		for len(conns) > 0 {
			(<-conns).Close()
		}
	})
	base := "http://" + ln.Addr().String()
	url := base + "/websites/1/orders/1"
	env := map[string]string{envBaseURL: base, envAPIKey: "k", envWebsiteID: "1"}

	start := time.Now()
	r := runTool(t, env, "orders", "get", "1", "--timeout", "200ms", "-v")
	elapsed := time.Since(start)
	lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")
	last := lines[len(lines)-1]
	if r.code != exitFailure || !strings.HasPrefix(last, "error: ordermsg: GET "+url+": ") || strings.Count(last, url) != 1 {
		t.Errorf("%v", r)
	}
	retries := 0
	for _, l := range lines[:len(lines)-1] {
		if strings.Contains(l, `level=DEBUG msg="ordermsg: retrying request"`) && strings.Contains(l, "url="+url) {
			retries++
		}
	}
	if n := int(attempts.Load()); retries == 0 || retries != n-1 || retries != len(lines)-1 {
		t.Errorf("%d attempts, %d retry lines in %q", n, retries, r.stderr)
	}
	// Four attempts of 30 s each without --timeout; with it, seconds.
	if elapsed > 20*time.Second {
		t.Errorf("took %v", elapsed)
	}

	// Without -v: one line.
	r = runTool(t, env, "orders", "get", "1", "--timeout", "100ms")
	if r.code != exitFailure || strings.Count(r.stderr, "\n") != 1 || strings.Count(r.stderr, url) != 1 {
		t.Errorf("without -v: %v", r)
	}
}

// nonLoopbackAddr is an address of this machine that is not loopback, or ""
// when it has none.
func nonLoopbackAddr() string {
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if ip, ok := a.(*net.IPNet); ok && ip.IP.To4() != nil && !ip.IP.IsLoopback() {
			return ip.IP.String()
		}
	}
	return ""
}

func TestAllowHTTP(t *testing.T) {
	addr := nonLoopbackAddr()
	if addr == "" {
		t.Skip("no address but loopback")
	}
	ln, err := net.Listen("tcp", addr+":0")
	if err != nil {
		t.Skip(err)
	}
	ds := ordermsgtest.Generate(ordermsgtest.Config{Seed: 7, Websites: 1, OrdersPerWebsite: 3})
	srv := httptest.NewUnstartedServer(ordermsgtest.NewHandler(ds))
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
	w := ds.Websites[0]
	env := map[string]string{envBaseURL: srv.URL, envAPIKey: w.APIKey, envWebsiteID: fmt.Sprint(w.ID)}

	r := runTool(t, env, "orders", "list")
	if r.code != exitUsage || !strings.HasPrefix(r.stderr, "error: --base-url "+srv.URL+": plain http to a host that is not loopback would send the API key in the clear; use https, or add --allow-http\n") {
		t.Errorf("without --allow-http: %v", r)
	}
	r = runTool(t, env, "orders", "list", "--allow-http")
	if r.code != exitOK || !strings.Contains(r.stdout, fmt.Sprintf(`"id":%d`, w.Orders[0].ID)) {
		t.Errorf("with --allow-http: %v", r)
	}
}

// readmeCLISection is the README's "Command-line tool" section.
func readmeCLISection(t *testing.T) string {
	t.Helper()
	s := bufio.NewScanner(strings.NewReader(readmeText(t)))
	var section strings.Builder
	in := false
	for s.Scan() {
		line := s.Text()
		if strings.HasPrefix(line, "## ") {
			in = line == "## Command-line tool"
		}
		if in {
			section.WriteString(line + "\n")
		}
	}
	if section.Len() == 0 {
		t.Fatal(`README.md has no "## Command-line tool" section`)
	}
	return section.String()
}

// --max-body-mib caps what a response may weigh: a page larger than it
// fails (exit 1, the SDK's ErrBodyTooLarge); a larger cap takes it.
func TestMaxBodyMiB(t *testing.T) {
	page := `{"object":"list","data":[{"object":"order","id":1,"title":"` + strings.Repeat("x", 2<<20) + `"}],` +
		`"meta":{"pagination":{"total":1,"count":1,"per_page":25,"current_page":1,"total_pages":1}}}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, page) }))
	defer srv.Close()
	env := map[string]string{envBaseURL: srv.URL, envAPIKey: "key", envWebsiteID: "1"}
	if r := runTool(t, env, "orders", "list", "--max-body-mib", "1"); r.code != exitFailure || !strings.Contains(r.stderr, "response body too large") {
		t.Errorf("a 2 MiB page under --max-body-mib 1: %v", r)
	}
	if r := runTool(t, env, "orders", "list", "--max-body-mib", "3"); r.code != exitOK {
		t.Errorf("a 2 MiB page under --max-body-mib 3: %v", r)
	}
}
