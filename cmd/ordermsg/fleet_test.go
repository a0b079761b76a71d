package main

import (
	"context"
	"database/sql"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// fleetService serves n websites of a few records each, and returns the
// fake and its websites.
func fleetService(t testing.TB, n int, opts ...ordermsgtest.Option) (*ordermsgtest.Server, []*ordermsgtest.Website) {
	t.Helper()
	return fakeFleet(t, ordermsgtest.Config{Seed: 26, Websites: n, OrdersPerWebsite: 12, MessagesPerWebsite: 16}, opts...)
}

// fakeFleet serves the websites of cfg, until the test ends, and returns
// the fake and its websites.
func fakeFleet(t testing.TB, cfg ordermsgtest.Config, opts ...ordermsgtest.Option) (*ordermsgtest.Server, []*ordermsgtest.Website) {
	t.Helper()
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(cfg), opts...)
	t.Cleanup(srv.Close)
	var sites []*ordermsgtest.Website
	srv.Handler.Snapshot(func(ds *ordermsgtest.Dataset) { sites = slices.Clone(ds.Websites) })
	return srv, sites
}

// websitesFile writes a --websites FILE of the given text with mode 0600
// in a new folder and returns its path.
func websitesFile(t testing.TB, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "websites.txt")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// fileOf is the text of a --websites FILE of the given websites, with a
// comment and a blank line among them.
func fileOf(sites []*ordermsgtest.Website) string {
	var b strings.Builder
	b.WriteString("# the fleet\n\n")
	for _, w := range sites {
		fmt.Fprintf(&b, "%d\t%s\n", w.ID, w.APIKey)
	}
	return b.String()
}

var (
	fleetSyncedLine  = regexp.MustCompile(`^website (\d+): orders: (\d+) new, \d+ updated, \d+ unchanged, \d+ deleted; messages: (\d+) new, \d+ updated, \d+ unchanged, \d+ deleted; \d+\.\d\ds$`)
	fleetFailedLine  = regexp.MustCompile(`^website (\d+): failed: (.+)$`)
	fleetSkippedLine = regexp.MustCompile(`^website (\d+): skipped, (held by another worker|synced by another worker since this run began)$`)
	fleetTotalLine   = regexp.MustCompile(`^total: (\d+) websites?, (\d+) synced, (\d+) failed, (\d+) skipped; orders: \d+ new, .*; messages: \d+ new, .*; \d+\.\d\ds$`)
)

// fleetLines reads the lines of a fleet's stdout: by website, "synced N
// M" (new orders and messages), "skipped" or "failed: TEXT"; and the total
// line's counts. It fails the test on any other line.
func fleetLines(t testing.TB, stdout string) (sites map[string]string, total []string) {
	t.Helper()
	sites = map[string]string{}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	for i, line := range lines {
		if m := fleetTotalLine.FindStringSubmatch(line); m != nil && i == len(lines)-1 {
			total = m[1:]
			continue
		}
		var id, what string
		if m := fleetSyncedLine.FindStringSubmatch(line); m != nil {
			id, what = m[1], "synced "+m[2]+" "+m[3]
		} else if m := fleetFailedLine.FindStringSubmatch(line); m != nil {
			id, what = m[1], "failed: "+m[2]
		} else if m := fleetSkippedLine.FindStringSubmatch(line); m != nil {
			id, what = m[1], "skipped"
		} else {
			t.Fatalf("line %d of the fleet's output: %q", i+1, line)
		}
		if _, ok := sites[id]; ok {
			t.Fatalf("website %s has two lines:\n%s", id, stdout)
		}
		sites[id] = what
	}
	if total == nil {
		t.Fatalf("no total line:\n%s", stdout)
	}
	return sites, total
}

// runsOf reads the status and error of each row of mirror_runs, by website,
// in the order of their start.
func runsOf(t testing.TB, db *sql.DB) map[int64][]string {
	t.Helper()
	rows, err := db.Query("SELECT website_id, status, coalesce(error, '') FROM mirror_runs ORDER BY started_at")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[int64][]string{}
	for rows.Next() {
		var id int64
		var status, text string
		if err := rows.Scan(&id, &status, &text); err != nil {
			t.Fatal(err)
		}
		out[id] = append(out[id], strings.TrimSpace(status+" "+text))
	}
	return out
}

// TestSyncFleetCLI syncs a fleet of four websites, one with a wrong key:
// exit 1, a line for each website and the total, a row of mirror_runs for
// each, every good website exact, and no key in the output. A website
// mirrored from another base URL makes it exit 2, its line naming the flag
// (not the Go option), and the database's
// failure 3, whatever else failed. Then, the bad line gone, a run with
// nothing new exits 0.
func TestSyncFleetCLI(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		srv, sites := fleetService(t, 4)
		const badKey = "omk_test_wrong0123456789"
		good := sites[:3]
		bad := sites[3]
		file := websitesFile(t, fileOf(good)+fmt.Sprintf("%d %s\n", bad.ID, badKey))
		env := map[string]string{envBaseURL: srv.URL, envAPIKey: "ignored-with-websites", envWebsiteID: "77"}
		stdout, stderr, code := cli{env: env}.run(context.Background(), "sync", "--db", target, "--websites", file, "--parallel", "2", "--verbose")
		if code != exitFailure {
			t.Fatalf("exit %d, want 1: %s", code, stderr)
		}
		lines, total := fleetLines(t, stdout)
		for _, w := range good {
			if got := lines[fmt.Sprint(w.ID)]; got != "synced 12 16" {
				t.Errorf("website %d: %q", w.ID, got)
			}
		}
		if got := lines[fmt.Sprint(bad.ID)]; !strings.HasPrefix(got, "failed: ordermsg: GET "+srv.URL+"/websites/") || !strings.HasSuffix(got, "401 Unauthorized: missing or invalid API key") {
			t.Errorf("website %d with a wrong key: %q", bad.ID, got)
		}
		if fmt.Sprint(total) != "[4 3 1 0]" {
			t.Errorf("total %v", total)
		}
		if want := fmt.Sprintf("error: 1 of 4 websites failed (%d): their lines say why\n", bad.ID); stderr != want {
			t.Errorf("stderr %q, want %q", stderr, want)
		}
		for _, key := range []string{badKey, good[0].APIKey, good[1].APIKey, good[2].APIKey} {
			if strings.Contains(stdout+stderr, key) {
				t.Errorf("a key shows:\nstdout %s\nstderr %s", stdout, stderr)
			}
		}
		db := be.Open(t, target)
		for _, w := range good {
			mirrortest.SameRecords(t, db, srv, w.ID, w.APIKey)
		}
		runs := runsOf(t, db)
		for _, w := range good {
			if fmt.Sprint(runs[w.ID]) != "[ok]" {
				t.Errorf("mirror_runs of website %d: %q", w.ID, runs[w.ID])
			}
		}
		if r := runs[bad.ID]; len(r) != 1 || !strings.HasPrefix(r[0], "failed ordermsg: GET") || strings.Contains(r[0], badKey) {
			t.Errorf("mirror_runs of website %d: %q", bad.ID, r)
		}

		// The first website was mirrored from another base URL: its
		// refusal (exit 2) is worse than the wrong key's (exit 1).
		other := httptest.NewServer(srv.Handler)
		t.Cleanup(other.Close)
		moved := withEnv(env, envBaseURL, other.URL)
		stdout, stderr, code = cli{env: moved}.run(context.Background(), "sync", "--db", target, "--websites", file)
		if lines, _ := fleetLines(t, stdout); code != exitUsage || !strings.Contains(lines[fmt.Sprint(good[0].ID)], "is mirrored from "+srv.URL) ||
			!strings.Contains(lines[fmt.Sprint(good[0].ID)], "--base-url-moved") || strings.Contains(stdout+stderr, "BaseURLMoved") ||
			strings.Contains(stderr, "--help") {
			t.Errorf("a website from another base URL and a wrong key: exit %d, want 2 without a pointer to --help:\n%s%s", code, stdout, stderr)
		}

		// The database fails for every website (its table of runs is
		// gone, and the view read from it): exit 3, worse than both.
		if _, err := db.Exec("DROP VIEW mirror_website_states"); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec("DROP TABLE mirror_runs"); err != nil {
			t.Fatal(err)
		}
		stdout, stderr, code = cli{env: moved}.run(context.Background(), "sync", "--db", target, "--websites", file)
		if code != exitLocal || !strings.Contains(stdout, "mirror_runs") {
			t.Errorf("the database failing: exit %d, want 3:\n%s%s", code, stdout, stderr)
		}
	})
}

// TestSyncFleetCLINothingNew: a second run of a fleet, with nothing new,
// exits 0, makes 2 requests per website and leaves a row per website in
// mirror_runs; a progress bar of the websites shows on a terminal only.
func TestSyncFleetCLINothingNew(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		srv, sites := fleetService(t, 3)
		file := websitesFile(t, fileOf(sites))
		env := map[string]string{envBaseURL: srv.URL}
		_, stderr, code := cli{env: env, terminal: true}.run(context.Background(), "sync", "--db", target, "--websites", file)
		if code != exitOK || !strings.Contains(stderr, "syncing websites") || !strings.Contains(stderr, "/3") {
			t.Fatalf("exit %d, stderr %q; want a progress bar of 3 websites", code, stderr)
		}
		before := srv.Handler.Stats().Requests
		stdout, stderr, code := cli{env: env}.run(context.Background(), "sync", "--db", target, "--websites", file)
		if code != exitOK || stderr != "" {
			t.Fatalf("exit %d, stderr %q", code, stderr)
		}
		if n := srv.Handler.Stats().Requests - before; n != 6 {
			t.Errorf("a run with nothing new made %d requests for 3 websites, want 2 each", n)
		}
		lines, total := fleetLines(t, stdout)
		for _, w := range sites {
			if got := lines[fmt.Sprint(w.ID)]; got != "synced 0 0" {
				t.Errorf("website %d: %q", w.ID, got)
			}
		}
		if fmt.Sprint(total) != "[3 3 0 0]" {
			t.Errorf("total %v", total)
		}
		for _, w := range sites {
			if runs := runsOf(t, be.Open(t, target))[w.ID]; fmt.Sprint(runs) != "[ok ok]" {
				t.Errorf("mirror_runs of website %d: %q", w.ID, runs)
			}
		}
	})
}

// TestWebsitesFileRefusals: a FILE that group or others may read or write,
// a malformed line (named by its number), a key no client takes, a website
// listed twice, a FILE of no website, and the flags that do not go with
// --websites are usage errors (exit 2) before any request, and nothing of
// a key shows.
func TestWebsitesFileRefusals(t *testing.T) {
	srv, sites := fleetService(t, 2)
	const secret = "omk_test_SECRET_4f3a9c"
	good := fileOf(sites)
	env := map[string]string{envBaseURL: srv.URL}
	db := filepath.Join(t.TempDir(), "fleet.db")
	for _, tc := range []struct {
		name, text string
		mode       os.FileMode
		args       []string
		want       string // in stderr
	}{
		{"readable by the group", good, 0o640, nil, "its permissions 0640 let group or others read or write it, and it holds API keys: make it readable by you alone (chmod 600 "},
		{"readable by all", good, 0o644, nil, "its permissions 0644 let group or others read or write it"},
		{"writable by others", good, 0o602, nil, "its permissions 0602"},
		{"a line of one word", good + secret + "\n", 0o600, nil, "line 5 has 1 word: want one website a line, WEBSITE_ID API_KEY"},
		{"a line of three words", good + "1001 " + secret + " extra\n", 0o600, nil, "line 5 has 3 words"},
		{"the key first", "# keys\n" + secret + " 1001\n", 0o600, nil, "line 2 does not begin with a website id (a positive integer)"},
		{"a website id of 0", "0 " + secret + "\n", 0o600, nil, "line 1 does not begin with a website id"},
		{"a key no client takes", fmt.Sprintf("%d %s:x\n", sites[0].ID, secret), 0o600, nil, "line 1: ordermsg: "},
		{"a website twice", good + fmt.Sprintf("%d %s\n", sites[0].ID, secret), 0o600, nil, fmt.Sprintf("line 5 lists website %d again (first on line 3)", sites[0].ID)},
		{"no website", "# none yet\n\n", 0o600, nil, "lists no website"},
		{"--website", good, 0o600, []string{"--website", "1001"}, "--website does not go with --websites"},
		{"--api-key", good, 0o600, []string{"--api-key", secret}, "--api-key does not go with --websites"},
		{"--demo", good, 0o600, []string{"--demo"}, "--demo does not go with --websites"},
		{"--parallel 0", good, 0o600, []string{"--parallel", "0"}, "--parallel 0: want 1 or more"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := websitesFile(t, tc.text)
			if err := os.Chmod(file, tc.mode); err != nil {
				t.Fatal(err)
			}
			before := srv.Handler.Stats().Requests
			args := append([]string{"sync", "--db", db, "--websites", file}, tc.args...)
			stdout, stderr, code := cli{env: env}.run(context.Background(), args...)
			if code != exitUsage || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, stderr, tc.want)
			}
			if strings.Contains(stdout+stderr, secret) || strings.Contains(stdout+stderr, "SECRET") {
				t.Errorf("the key shows: %q %q", stdout, stderr)
			}
			if n := srv.Handler.Stats().Requests - before; n != 0 {
				t.Errorf("%d requests", n)
			}
		})
	}
	for _, tc := range []struct {
		name string
		env  map[string]string
		args []string
		want string
	}{
		{"no base URL", nil, []string{"--websites", websitesFile(t, good)}, "error: missing ORDERMSG_BASE_URL (or --base-url)"},
		{"--parallel without --websites", env, []string{"--parallel", "3"}, "--parallel goes with --websites FILE"},
		{"--websites without a FILE", env, []string{"--websites", ""}, "--websites needs a FILE: want one website a line"},
		{"a base URL with a k and a query", map[string]string{envBaseURL: "https://api.bookshop.example/v1?x=1"}, []string{"--websites", websitesFile(t, good)},
			"base URL https://api.bookshop.example/v1 must not have a query"},
		{"no FILE", env, []string{"--websites", filepath.Join(t.TempDir(), "none.txt")}, "none.txt: no such file or directory"},
	} {
		stdout, stderr, code := cli{env: tc.env}.run(context.Background(), append([]string{"sync", "--db", db}, tc.args...)...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) || stdout != "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want 2 and %q", tc.name, code, stdout, stderr, tc.want)
		}
	}
}

// TestSyncFleetCLIInterrupted: a fleet interrupted (Ctrl-C) in its second
// website exits 130, says how far it got, prints the websites it finished
// and the one it stopped in, and the next run completes every website.
func TestSyncFleetCLIInterrupted(t *testing.T) {
	srv, sites := fleetService(t, 3)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stopIn := fmt.Sprintf("/websites/%d/", sites[1].ID)
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, stopIn) {
			cancel()
		}
		srv.Handler.ServeHTTP(w, r)
	}))
	t.Cleanup(front.Close)
	target := filepath.Join(t.TempDir(), "fleet.db")
	file := websitesFile(t, fileOf(sites))
	env := map[string]string{envBaseURL: front.URL}
	stdout, stderr, code := cli{env: env}.run(ctx, "sync", "--db", target, "--websites", file, "--parallel", "1")
	want := fmt.Sprintf("website %d: interrupted; orders: 0 new, 0 updated, 0 unchanged, 0 deleted; messages: 0 new, 0 updated, 0 unchanged, 0 deleted (kept)\n", sites[1].ID)
	if code != 130 || stderr != "interrupted after 1 of 3 websites ("+target+" keeps what was synced; run again to go on)\n" ||
		!strings.HasPrefix(stdout, fmt.Sprintf("website %d: orders: 12 new", sites[0].ID)) || !strings.HasSuffix(stdout, want) {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
	stdout, stderr, code = cli{env: env}.run(context.Background(), "sync", "--db", target, "--websites", file)
	if lines, total := fleetLines(t, stdout); code != exitOK || fmt.Sprint(total) != "[3 3 0 0]" || lines[fmt.Sprint(sites[0].ID)] != "synced 0 0" {
		t.Fatalf("the run after: exit %d\n%s%s", code, stdout, stderr)
	}
	db := mirrortest.Backends()[0].Open(t, target)
	for _, w := range sites {
		mirrortest.SameRecords(t, db, srv, w.ID, w.APIKey)
	}
}

// TestSyncFleetCLIKeepsKeysSecret: a server that quotes the API key in the
// message of its error (a key that does not belong to the website, say)
// gets it masked both in the website's line and in mirror_runs.error,
// whose rows outlive the run and are read by others.
func TestSyncFleetCLIKeepsKeysSecret(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		srv, sites := fleetService(t, 2)
		quoting := sites[1]
		echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasPrefix(r.URL.Path, fmt.Sprintf("/websites/%d/", quoting.ID)) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusForbidden)
				fmt.Fprintf(w, `{"message":"the key %s (%s) may not read website %d"}`, quoting.APIKey, r.Header.Get("Authorization"), quoting.ID)
				return
			}
			srv.Handler.ServeHTTP(w, r)
		}))
		t.Cleanup(echo.Close)
		env := map[string]string{envBaseURL: echo.URL, envAPIKey: "ignored-with-websites", envWebsiteID: "77"}
		stdout, stderr, code := cli{env: env}.run(context.Background(), "sync", "--db", target, "--websites", websitesFile(t, fileOf(sites)))
		if code != exitFailure || !strings.Contains(stdout, "may not read website") {
			t.Fatalf("exit %d, want 1, with the server's message:\n%s%s", code, stdout, stderr)
		}
		// The key, and the credentials that carry it, which decode to it.
		credentials := base64.StdEncoding.EncodeToString([]byte(quoting.APIKey + ":"))
		if strings.Contains(stdout+stderr, quoting.APIKey) || strings.Contains(stdout+stderr, credentials) {
			t.Errorf("the key shows:\n%s%s", stdout, stderr)
		}
		runs := runsOf(t, be.Open(t, target))
		if r := runs[quoting.ID]; len(r) != 1 || !strings.Contains(r[0], "may not read website") || strings.Contains(r[0], quoting.APIKey) || strings.Contains(r[0], credentials) {
			t.Errorf("mirror_runs of website %d: %q; want the failure, without the key", quoting.ID, r)
		}
	})
}

// fullDisk is a standard output on a full disk: every write fails.
type fullDisk struct{}

func (fullDisk) Write([]byte) (int, error) { return 0, syscall.ENOSPC }

// TestSyncReportsAFailedStandardOutput: a sync whose lines cannot be
// written (standard output on a full disk) exits 3 and says so, though it
// synced: its lines are its result. So does a fleet, also when a website
// failed (exit 1 otherwise).
func TestSyncReportsAFailedStandardOutput(t *testing.T) {
	srv, sites := fleetService(t, 2)
	db := filepath.Join(t.TempDir(), "mirror.db")
	full := cli{env: map[string]string{envBaseURL: srv.URL, envAPIKey: sites[0].APIKey, envWebsiteID: fmt.Sprint(sites[0].ID)}, stdout: fullDisk{}}
	oneRefused := fileOf(sites) + fmt.Sprintf("%d not-its-key\n", sites[1].ID+1000)
	for _, args := range [][]string{
		{"sync", "--db", db},
		{"sync", "--db", db, "--websites", websitesFile(t, fileOf(sites))},
		{"sync", "--db", db, "--websites", websitesFile(t, oneRefused)},
	} {
		_, stderr, code := full.run(context.Background(), args...)
		if code != exitLocal || !strings.Contains(stderr, "writing standard output: no space left on device") {
			t.Errorf("%q: exit %d, stderr %q; want 3 and the failed write", args, code, stderr)
		}
	}
}

// TestSyncFleetCLIFailedLineSaysWhatItKept: a website whose messages fail
// after its orders were mirrored says, after why it failed, what it kept,
// which the total counts.
func TestSyncFleetCLIFailedLineSaysWhatItKept(t *testing.T) {
	srv, sites := fleetService(t, 1)
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/messages") {
			http.Error(w, `{"object":"error","status":400,"message":"no messages today"}`, http.StatusBadRequest)
			return
		}
		srv.Handler.ServeHTTP(w, r)
	}))
	t.Cleanup(front.Close)
	db := filepath.Join(t.TempDir(), "fleet.db")
	stdout, stderr, code := cli{env: map[string]string{envBaseURL: front.URL}}.run(context.Background(), "sync", "--db", db, "--websites", websitesFile(t, fileOf(sites)))
	want := fmt.Sprintf("no messages today; kept: orders: %d new, 0 updated, 0 unchanged, 0 deleted; messages: 0 new,", len(sites[0].Orders))
	if code != exitFailure || !strings.Contains(stdout, want) || !strings.Contains(stdout, fmt.Sprintf("; orders: %d new", len(sites[0].Orders))) {
		t.Errorf("exit %d, want 1 and %q:\n%s%s", code, want, stdout, stderr)
	}
}
