package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
)

// statusLine matches a line of status for a website that ran.
var statusLine = regexp.MustCompile(`^website (\d+): (fresh|stale|failing|stale, failing); last success (never|\d[0-9hms]* ago \(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\)); ` +
	`last run (ok|failed) \d[0-9hms]* ago; (\d+) consecutive failures(: .+)?$`)

// statusOf runs status with args and returns, by website, its verdict
// (from the line's head: "fresh", "stale, failing", ...), its exit code
// and its stderr. It fails the test on a line of another form.
func statusOf(t *testing.T, args ...string) (verdicts map[string]string, code int, stderr string) {
	t.Helper()
	stdout, stderr, code := cli{}.run(context.Background(), append([]string{"status"}, args...)...)
	verdicts = map[string]string{}
	for _, line := range strings.Split(strings.TrimSuffix(stdout, "\n"), "\n") {
		if line == "" {
			continue
		}
		if m := statusLine.FindStringSubmatch(line); m != nil {
			verdicts[m[1]] = m[2]
			continue
		}
		if id, ok := strings.CutSuffix(strings.TrimPrefix(line, "website "), ": stale; never ran"); ok {
			verdicts[id] = "never ran"
			continue
		}
		t.Fatalf("a line of status: %q\nstdout:\n%s\nstderr: %s", line, stdout, stderr)
	}
	return verdicts, code, stderr
}

// backdate moves the runs of a website back by d.
func backdate(t *testing.T, be mirrortest.Backend, db *sql.DB, site int64, d time.Duration) {
	t.Helper()
	q := fmt.Sprintf("UPDATE mirror_runs SET started_at = started_at - interval '%d seconds', finished_at = finished_at - interval '%d seconds' WHERE website_id = $1",
		int(d.Seconds()), int(d.Seconds()))
	if be.Backend == mirror.SQLite {
		// The text keeps its microseconds: ".123456Z" after the seconds.
		q = fmt.Sprintf(`UPDATE mirror_runs SET started_at = strftime('%%Y-%%m-%%dT%%H:%%M:%%S', started_at, '-%[1]d seconds') || substr(started_at, 20),
			finished_at = strftime('%%Y-%%m-%%dT%%H:%%M:%%S', finished_at, '-%[1]d seconds') || substr(finished_at, 20) WHERE website_id = ?`, int(d.Seconds()))
	}
	if _, err := db.Exec(q, site); err != nil {
		t.Fatal(err)
	}
}

// TestStatusExitCodes runs status on a fleet as a monitor would, on both
// databases: every website fresh, exit 0; one stale (its last success
// older than --stale), exit 1 naming it; one of --websites FILE that never
// ran, exit 1 naming it; one whose last run failed after a recent success
// (failing, not stale), exit 1 naming it; --json gives the same verdicts.
func TestStatusExitCodes(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		srv, sites := fleetService(t, 4)
		fleet := sites[:3]
		env := map[string]string{envBaseURL: srv.URL}
		file := websitesFile(t, fileOf(fleet))
		if _, stderr, code := (cli{env: env}).run(context.Background(), "sync", "--db", target, "--websites", file); code != exitOK {
			t.Fatalf("sync: exit %d: %s", code, stderr)
		}
		id := func(i int) string { return fmt.Sprint(sites[i].ID) }

		verdicts, code, stderr := statusOf(t, "--db", target)
		if code != exitOK || len(verdicts) != 3 || verdicts[id(0)] != "fresh" || verdicts[id(2)] != "fresh" || stderr != "" {
			t.Errorf("every website fresh: exit %d, %v, stderr %q; want 0", code, verdicts, stderr)
		}
		if _, code, _ := statusOf(t, "--db", target, "--websites", file, "--stale", "1m"); code != exitOK {
			t.Errorf("every website of FILE fresh within 1m: exit %d, want 0", code)
		}

		db := be.Open(t, target)
		backdate(t, be, db, sites[1].ID, 26*time.Hour)
		verdicts, code, stderr = statusOf(t, "--db", target, "--websites", file)
		if want := fmt.Sprintf("error: 1 of 3 websites are stale or failing: %s (stale)\n", id(1)); code != exitFailure || verdicts[id(1)] != "stale" || stderr != want {
			t.Errorf("one stale: exit %d, %v, stderr %q; want 1, %q", code, verdicts, stderr, want)
		}
		if _, code, _ := statusOf(t, "--db", target, "--stale", "27h"); code != exitOK {
			t.Errorf("one 26 hours old, --stale 27h: exit %d, want 0", code)
		}

		never := websitesFile(t, fileOf(sites))
		verdicts, code, stderr = statusOf(t, "--db", target, "--websites", never, "--stale", "27h")
		if code != exitFailure || verdicts[id(3)] != "never ran" || len(verdicts) != 4 || !strings.HasSuffix(stderr, fmt.Sprintf(": %s (stale)\n", id(3))) {
			t.Errorf("one never ran: exit %d, %v, stderr %q; want 1 naming %s", code, verdicts, stderr, id(3))
		}

		// A run of the first website fails (its key refused), after its
		// success of a moment ago.
		bad := websitesFile(t, fmt.Sprintf("%d omk_test_refused0123456789\n", sites[0].ID))
		if _, _, code := (cli{env: env}).run(context.Background(), "sync", "--db", target, "--websites", bad); code != exitFailure {
			t.Fatalf("sync with a refused key: exit %d, want 1", code)
		}
		verdicts, code, stderr = statusOf(t, "--db", target, "--stale", "27h")
		if code != exitFailure || verdicts[id(0)] != "failing" || verdicts[id(2)] != "fresh" || !strings.Contains(stderr, id(0)+" (failing)") {
			t.Errorf("one failing: exit %d, %v, stderr %q; want 1 naming %s", code, verdicts, stderr, id(0))
		}

		stdout, _, code := cli{}.run(context.Background(), "status", "--db", target, "--websites", never, "--json")
		if code != exitFailure {
			t.Errorf("--json: exit %d, want 1", code)
		}
		got := map[int64]map[string]any{}
		for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
			var o map[string]any
			if err := json.Unmarshal([]byte(line), &o); err != nil {
				t.Fatalf("--json line %q: %v", line, err)
			}
			got[int64(o["website_id"].(float64))] = o
		}
		first, second, third, fourth := got[sites[0].ID], got[sites[1].ID], got[sites[2].ID], got[sites[3].ID]
		if len(got) != 4 || first["failing"] != true || first["stale"] != false || first["last_status"] != "failed" ||
			!strings.Contains(fmt.Sprint(first["last_error"]), "401 Unauthorized") || first["consecutive_failures"] != 1.0 {
			t.Errorf("--json of the failing website: %v", first)
		}
		if second["stale"] != true || second["failing"] != false || second["seconds_since_success"].(float64) < 26*3600 {
			t.Errorf("--json of the stale website: %v", second)
		}
		if third["stale"] != false || third["last_error"] != nil || third["last_status"] != "ok" || third["consecutive_failures"] != 0.0 {
			t.Errorf("--json of a fresh website: %v", third)
		}
		if fourth["stale"] != true || fourth["last_status"] != nil || fourth["last_success_at"] != nil || fourth["seconds_since_success"] != nil {
			t.Errorf("--json of the website that never ran: %v", fourth)
		}
		if at, err := time.Parse(time.RFC3339Nano, fmt.Sprint(third["last_success_at"])); err != nil || time.Since(at) > time.Hour {
			t.Errorf("--json last_success_at %v: %v", third["last_success_at"], err)
		}
	})
}

// TestStatusOfOneWebsite: the one-website sync --db records its run, so
// that status shows that website fresh.
func TestStatusOfOneWebsite(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		srv, env := smallService(t)
		syncOnce(t, env, "--db", target)
		verdicts, code, stderr := statusOf(t, "--db", target)
		if code != exitOK || len(verdicts) != 1 || verdicts[fmt.Sprint(srv.WebsiteID)] != "fresh" {
			t.Errorf("after a sync of one website: exit %d, %v, stderr %q", code, verdicts, stderr)
		}
	})
}

// TestStatusCannotReadTheDatabase: a database that cannot be read exits
// 3, saying why, on both databases: a missing SQLite file (which status
// does not make), a database that holds no mirror (left without a table),
// an unreachable PostgreSQL. A mirror without any run exits 1.
func TestStatusCannotReadTheDatabase(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		if be.Backend == mirror.SQLite {
			missing := filepath.Join(t.TempDir(), "missing.db")
			_, stderr, code := cli{}.run(context.Background(), "status", "--db", missing)
			if _, err := os.Stat(missing); code != exitLocal || !strings.Contains(stderr, "no such file") || err == nil {
				t.Errorf("a missing file: exit %d, %q, made: %v; want 3, not made", code, stderr, err == nil)
			}
			if err := os.WriteFile(target, nil, 0o600); err != nil { // an empty file
				t.Fatal(err)
			}
		} else {
			_, stderr, code := cli{}.run(context.Background(), "status", "--db", "postgres://nobody:s3cret-pw@127.0.0.1:1/none?connect_timeout=5")
			if code != exitLocal || strings.Contains(stderr, "s3cret-pw") || !strings.Contains(stderr, "127.0.0.1") {
				t.Errorf("an unreachable PostgreSQL: exit %d, %q; want 3, without the password", code, stderr)
			}
		}
		_, stderr, code := cli{}.run(context.Background(), "status", "--db", target)
		if code != exitLocal || !strings.Contains(stderr, "holds no mirror") {
			t.Errorf("a database without a mirror: exit %d, %q; want 3", code, stderr)
		}
		tables := "SELECT count(*) FROM sqlite_master"
		if be.Backend == mirror.PostgreSQL {
			tables = "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema()"
		}
		db := be.Open(t, target)
		var n int
		if err := db.QueryRow(tables).Scan(&n); err != nil || n != 0 {
			t.Errorf("status made %d tables in a database without a mirror (%v)", n, err)
		}
		if _, err := mirror.Open(context.Background(), db, be.Backend); err != nil {
			t.Fatal(err)
		}
		_, stderr, code = cli{}.run(context.Background(), "status", "--db", target)
		if code != exitFailure || !strings.Contains(stderr, "holds no run of any website") {
			t.Errorf("a mirror without a run: exit %d, %q; want 1", code, stderr)
		}
	})
}

// TestStatusUsageErrors: a --stale that is not a positive duration, no
// --db, and a --websites FILE that others may read exit 2 before the
// database is opened.
func TestStatusUsageErrors(t *testing.T) {
	db := filepath.Join(t.TempDir(), "fleet.db")
	unsafe := websitesFile(t, "1001 omk_test_key0123456789\n")
	if err := os.Chmod(unsafe, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--db", db, "--stale", "soon"}, `--stale "soon": want a duration`},
		{[]string{"--db", db, "--stale", "0s"}, "--stale 0s: want a positive duration"},
		{[]string{"--db", db, "--stale", "-1h"}, "want a positive duration"},
		{[]string{"--stale", "1h"}, "--db FILE|URL is required"},
		{[]string{"--db", db, "--websites", unsafe}, "readable by you alone"},
		{[]string{"--db", db, "--api-key", "x"}, "unknown flag: --api-key"},
	} {
		_, stderr, code := cli{}.run(context.Background(), append([]string{"status"}, c.args...)...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("status %q: exit %d, %q; want 2, %q", c.args, code, stderr, c.want)
		}
	}
	if _, err := os.Stat(db); err == nil {
		t.Error("a usage error made the database")
	}
}
