package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// served is a `serve` run in-process: what it printed up to "serving until
// interrupted", and its lines after that.
type served struct {
	url, docURL, key string
	websiteID        int64
	header           string // the header line: "Name: value"
	printed          string // all it printed up to "serving until interrupted"
	lines            <-chan string
	stop             func() int // ends the run like Ctrl-C; returns its exit code
}

// startServe runs `serve args...` with env until it serves.
func startServe(t *testing.T, env map[string]string, args ...string) *served {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r, w := io.Pipe()
	a := &app{stdout: w, stderr: io.Discard, getenv: func(k string) string { return env[k] }, isTerminal: func(any) bool { return false }}
	done := make(chan int, 1)
	go func() {
		done <- a.run(ctx, append([]string{"serve"}, args...))
		w.Close()
	}()
	s := &served{}
	lines := bufio.NewScanner(r)
	for lines.Scan() {
		line := lines.Text()
		s.printed += line + "\n"
		if rest, ok := strings.CutPrefix(line, "ordermsg fake service at "); ok {
			url, header, _ := strings.Cut(rest, " (header ")
			s.url, s.header = url, strings.TrimSuffix(header, ")")
		}
		fmt.Sscanf(line, "OpenAPI document at %s", &s.docURL)
		var id int64
		var key string
		if n, _ := fmt.Sscanf(strings.TrimSpace(line), "website %d  api key %s", &id, &key); n == 2 && s.key == "" {
			s.websiteID, s.key = id, key
		}
		if strings.HasPrefix(line, "serving until interrupted") {
			break
		}
	}
	rest := make(chan string, 100)
	go func() {
		for lines.Scan() {
			rest <- lines.Text()
		}
		close(rest)
	}()
	s.lines = rest
	s.stop = func() int {
		cancel()
		return <-done
	}
	if s.key == "" {
		t.Fatalf("serve %v did not start: exit %d", args, s.stop())
	}
	return s
}

// get sends GET path to the served fake with header ("Name: value", or
// none when empty) and returns the status.
func (s *served) get(t *testing.T, path, header string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, s.url+path, nil)
	req.SetBasicAuth(s.key, "")
	if name, value, ok := strings.Cut(header, ":"); ok {
		req.Header.Set(name, strings.TrimSpace(value))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func TestServe(t *testing.T) {
	s := startServe(t, nil, "--websites", "1", "--orders", "5", "--messages", "5")
	if s.header != "Service-Api-Version: 1" {
		t.Errorf("header line %q", s.header)
	}
	if code := s.get(t, fmt.Sprintf("/websites/%d/orders", s.websiteID), "Service-Api-Version: 1"); code != 200 {
		t.Errorf("GET orders: %d", code)
	}
	resp, err := http.Get(s.docURL)
	if err != nil {
		t.Fatalf("the OpenAPI document at %q: %v", s.docURL, err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/yaml" {
		t.Errorf("GET the OpenAPI document at %q: %d %q", s.docURL, resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	if code := s.stop(); code != exitOK {
		t.Errorf("serve exited %d", code)
	}
}

// serve --version-header (or ORDERMSG_VERSION_HEADER; the flag wins) makes
// the fake require that header: a request without it gets the fake's 400.
func TestServeRequiresTheVersionHeaderItIsGiven(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		args []string
	}{
		{nil, []string{"--version-header", "Acme-Api-Version: 1"}},
		{map[string]string{envVersionHeader: "Acme-Api-Version: 1"}, nil},
		{map[string]string{envVersionHeader: "Other-Version: 9"}, []string{"--version-header", "acme-api-version:1"}},
	} {
		s := startServe(t, tc.env, append([]string{"--websites", "1", "--orders", "3", "--messages", "3"}, tc.args...)...)
		path := fmt.Sprintf("/websites/%d/orders", s.websiteID)
		if want := "Acme-Api-Version: 1"; tc.args == nil && s.header != "from "+envVersionHeader || tc.args != nil && s.header != want {
			t.Errorf("%v %v: header line %q", tc.env, tc.args, s.header)
		}
		for header, want := range map[string]int{"Acme-Api-Version: 1": 200, "Service-Api-Version: 1": 400, "": 400, "Acme-Api-Version: 2": 400} {
			if got := s.get(t, path, header); got != want {
				t.Errorf("%v %v: with %q: %d, want %d", tc.env, tc.args, header, got, want)
			}
		}
		// The CLI, given the same header, reads it.
		env := map[string]string{envBaseURL: s.url, envAPIKey: s.key, envWebsiteID: fmt.Sprint(s.websiteID)}
		if _, stderr, code := (cli{env: env}).run(context.Background(), "orders", "list", "--version-header", "Acme-Api-Version: 1"); code != exitOK {
			t.Errorf("orders list against it: exit %d, %s", code, stderr)
		}
		if code := s.stop(); code != exitOK {
			t.Errorf("serve exited %d", code)
		}
	}
}

// The header from ORDERMSG_VERSION_HEADER, meant for the real service, is
// never printed: serve says where it comes from, and its lines to try read
// the variable. A flag's header, typed on the command line, is shown.
func TestServeNeverPrintsTheVersionHeaderFromTheEnvironment(t *testing.T) {
	env := map[string]string{envVersionHeader: "Acme-Api-Version: sk_live_SECRET"}
	s := startServe(t, env, "--websites", "1", "--orders", "3", "--messages", "3")
	if strings.Contains(s.printed, "SECRET") || strings.Contains(s.printed, "Acme-Api-Version") {
		t.Errorf("serve printed the variable's header:\n%s", s.printed)
	}
	for _, want := range []string{
		"(header from " + envVersionHeader + ")\n",
		fmt.Sprintf(`curl -u %s: -H "$%s" %s/websites/%d/orders`+"\n", s.key, envVersionHeader, s.url, s.websiteID),
		fmt.Sprintf("ORDERMSG_WEBSITE_ID=%d ordermsg orders list\n", s.websiteID),
	} {
		if !strings.Contains(s.printed, want) {
			t.Errorf("serve printed no %q:\n%s", want, s.printed)
		}
	}
	if code := s.get(t, fmt.Sprintf("/websites/%d/orders", s.websiteID), env[envVersionHeader]); code != 200 {
		t.Errorf("with the variable's header: %d", code)
	}
	s.stop()

	s = startServe(t, env, "--websites", "1", "--orders", "3", "--messages", "3", "--version-header", "Acme-Api-Version: 7")
	defer s.stop()
	for _, want := range []string{"(header Acme-Api-Version: 7)\n", "-H 'Acme-Api-Version: 7' ", envVersionHeader + "='Acme-Api-Version: 7' ordermsg orders list\n"} {
		if !strings.Contains(s.printed, want) {
			t.Errorf("serve printed no %q:\n%s", want, s.printed)
		}
	}
}

// serve's flags are checked before it listens, and a value it cannot serve
// with is a usage error (exit 2) in the tool's words: no text of package
// net, and a port out of range is the command line's fault, not the
// network's.
func TestServeFlagsAreCheckedInTheToolsWords(t *testing.T) {
	const wantAddr = "want a loopback host and a port from 0 to 65535, such as 127.0.0.1:8080 (port 0: any free port)\n"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--addr", "abc"}, `--addr "abc": ` + wantAddr},
		{[]string{"--addr", "127.0.0.1:99999"}, `--addr "127.0.0.1:99999": ` + wantAddr},
		{[]string{"--addr", "127.0.0.1:-1"}, `--addr "127.0.0.1:-1": ` + wantAddr},
		{[]string{"--addr", "localhost:http"}, `--addr "localhost:http": ` + wantAddr},
		{[]string{"--addr", "10.0.0.1:8080"}, `--addr "10.0.0.1:8080": the fake serves on loopback only: ` + wantAddr},
		{[]string{"--websites", "0"}, "--websites 0: want 1 to 10000 (the fake holds every record in memory)\n"},
		{[]string{"--websites", "-3"}, "--websites -3: want 1 to 10000 (the fake holds every record in memory)\n"},
		{[]string{"--websites", "10001"}, "--websites 10001: want 1 to 10000 (the fake holds every record in memory)\n"},
		{[]string{"--orders", "-1"}, "--orders -1: want 0 to 100000 per website (the fake holds every record in memory)\n"},
		{[]string{"--orders", "100001"}, "--orders 100001: want 0 to 100000 per website (the fake holds every record in memory)\n"},
		{[]string{"--messages", "-1"}, "--messages -1: want 0 to 100000 per website (the fake holds every record in memory)\n"},
		{[]string{"--messages", "1000000"}, "--messages 1000000: want 0 to 100000 per website (the fake holds every record in memory)\n"},
		{[]string{"--fault-rate", "NaN"}, "--fault-rate NaN: want a share from 0 to 1\n"},
		{[]string{"--fault-rate", "1.5"}, "--fault-rate 1.5: want a share from 0 to 1\n"},
		{[]string{"--latency", "-1s"}, "--latency -1s: must not be negative\n"},
		{[]string{"--add-every", "1ms"}, "--add-every 1ms: want 10ms or more, or 0 (never)\n"},
		{[]string{"--add-every", "-1s"}, "--add-every -1s: want 10ms or more, or 0 (never)\n"},
	} {
		stdout, stderr, code := cli{}.run(context.Background(), append([]string{"serve"}, tc.args...)...)
		if code != exitUsage || stdout != "" || !strings.HasPrefix(stderr, "error: "+tc.want) {
			t.Errorf("serve %v: exit %d, stdout %q, stderr %q; want %q", tc.args, code, stdout, stderr, tc.want)
		}
	}
	// The bounds themselves are taken.
	cfg := ordermsgtest.Config{Websites: 10_000, OrdersPerWebsite: 100_000, MessagesPerWebsite: 100_000}
	if err := checkServeFlags("127.0.0.1:65535", cfg, 1, 0, 10*time.Millisecond); err != nil {
		t.Errorf("the largest values: %v", err)
	}
	cfg = ordermsgtest.Config{Websites: 1}
	if err := checkServeFlags("localhost:0", cfg, 0, 0, 0); err != nil {
		t.Errorf("the smallest values: %v", err)
	}
}

// serve --add-every adds records while it serves, and says so.
func TestServeAddsRecordsWhileServing(t *testing.T) {
	start := time.Now().Truncate(time.Second)
	s := startServe(t, nil, "--websites", "1", "--orders", "4", "--messages", "4", "--add-every", "10ms")
	defer s.stop()
	c, err := ordermsg.NewClient(s.url, s.key)
	if err != nil {
		t.Fatal(err)
	}
	total := func() int {
		page, err := c.Orders.List(context.Background(), s.websiteID, &ordermsg.ListOrdersOptions{Count: 1})
		if err != nil {
			t.Fatal(err)
		}
		return page.Meta.Pagination.Total
	}
	before := total()
	if before < 4 {
		t.Fatalf("%d orders at the start", before)
	}
	// Each line is an addition: read them until one shows in the list.
	for n := 0; total() == before; n++ {
		line, ok := <-s.lines
		if !ok || !strings.HasPrefix(line, fmt.Sprintf("website %d: added order ", s.websiteID)) || n > 1000 {
			t.Fatalf("after %d lines, no new order listed; line %q", n, line)
		}
	}
	// The added orders are dated now: a poller that starts from now finds
	// them, and none of the generated ones.
	for o, err := range c.Orders.Sync(context.Background(), s.websiteID, ordermsg.NewCheckpointAt(start), nil) {
		if err != nil {
			t.Fatal(err)
		}
		if o.DateCreated.Before(start) {
			t.Fatalf("Sync from %v yielded order %d created %v", start, o.ID, o.DateCreated.Time)
		}
		return
	}
	t.Fatalf("Sync from %v yielded no order: the added ones are not dated now", start)
}

// addRecords adds one order (with its message) and one message to every
// website per tick, and stops with its context.
func TestAddRecordsPerTick(t *testing.T) {
	h := ordermsgtest.NewHandler(ordermsgtest.Generate(ordermsgtest.Config{Seed: 3, Websites: 2, OrdersPerWebsite: 5, MessagesPerWebsite: 7}))
	counts := func() (orders, messages int) {
		h.Snapshot(func(ds *ordermsgtest.Dataset) {
			for _, w := range ds.Websites {
				orders, messages = orders+len(w.Orders), messages+len(w.Messages)
			}
		})
		return orders, messages
	}
	o0, m0 := counts()
	ctx, cancel := context.WithCancel(context.Background())
	ticks := make(chan time.Time)
	r, w := io.Pipe()
	stopped := make(chan struct{})
	go func() {
		addRecords(ctx, h, ticks, w)
		close(stopped)
	}()
	lines := bufio.NewScanner(r)
	for tick := 1; tick <= 3; tick++ {
		ticks <- time.Now()
		for range 2 { // one line per website
			if !lines.Scan() {
				t.Fatal("no line")
			}
		}
		if o, m := counts(); o != o0+2*tick || m != m0+4*tick {
			t.Errorf("after %d ticks: %d orders, %d messages; want %d, %d", tick, o, m, o0+2*tick, m0+4*tick)
		}
	}
	cancel()
	<-stopped
}

// serve's help lists its own flags, not the connection's, which do
// nothing for it.
func TestServeHelpListsOnlyItsFlags(t *testing.T) {
	stdout, _, code := cli{}.run(context.Background(), "serve", "--help")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	for _, flag := range []string{"--api-key", "--base-url", "--demo", "--website", "--allow-http", "--timeout"} {
		if strings.Contains(stdout, flag+" ") {
			t.Errorf("serve --help lists %s:\n%s", flag, stdout)
		}
	}
	for _, flag := range []string{"--version-header", "--add-every", "--addr"} {
		if !strings.Contains(stdout, flag) {
			t.Errorf("serve --help lacks %s", flag)
		}
	}
	if _, stderr, code := (cli{}).run(context.Background(), "serve", "--demo"); code != exitUsage || !strings.Contains(stderr, "unknown flag: --demo") {
		t.Errorf("serve --demo: exit %d, %q", code, stderr)
	}
}

// serve --websites-file writes every website and its key, mode 0600, as
// sync --websites reads them, and prints the command that reads it: a
// fleet sync against the served fake runs as printed.
func TestServeWritesTheWebsitesFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "websites.txt")
	s := startServe(t, nil, "--websites", "3", "--orders", "5", "--messages", "6", "--websites-file", file)
	defer s.stop()
	info, err := os.Stat(file)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("the websites file: %v, %v; want mode 0600", info, err)
	}
	sites, err := readWebsites(context.Background(), file, func(string) error { return nil })
	if err != nil || len(sites) != 3 || sites[0].id != s.websiteID || sites[0].key != s.key {
		t.Fatalf("the websites file holds %+v, %v; want 3 websites, the first %d", sites, err, s.websiteID)
	}
	want := fmt.Sprintf("  ORDERMSG_BASE_URL=%s ORDERMSG_VERSION_HEADER='%s' ordermsg sync --db fleet.db --websites %s\n", s.url, s.header, file)
	if !strings.Contains(s.printed, want) {
		t.Errorf("serve printed no line %q:\n%s", want, s.printed)
	}
	env := map[string]string{envBaseURL: s.url, envVersionHeader: s.header}
	stdout, stderr, code := cli{env: env}.run(context.Background(), "sync", "--db", filepath.Join(dir, "fleet.db"), "--websites", file)
	if lines, total := fleetLines(t, stdout); code != exitOK || len(lines) != 3 || fmt.Sprint(total) != "[3 3 0 0]" {
		t.Errorf("sync --websites of the served fake: exit %d\n%s%s", code, stdout, stderr)
	}
}
