package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// sameRecords fails unless the database at target holds exactly the
// records of srv's first website, with the server's JSON.
func sameRecords(t testing.TB, srv *ordermsgtest.Server, be mirrortest.Backend, target string) {
	t.Helper()
	mirrortest.SameRecords(t, be.Open(t, target), srv, srv.WebsiteID, srv.APIKey)
}

var summaryLine = regexp.MustCompile(`^orders: (\d+) new, (\d+) updated, (\d+) unchanged, (\d+) deleted; ` +
	`messages: (\d+) new, (\d+) updated, (\d+) unchanged, (\d+) deleted; \d+\.\d\ds\n$`)

// syncOnce runs sync --db and returns the numbers of its summary.
func syncOnce(t *testing.T, env map[string]string, args ...string) []string {
	t.Helper()
	stdout, stderr, code := cli{env: env}.run(context.Background(), append([]string{"sync"}, args...)...)
	m := summaryLine.FindStringSubmatch(stdout)
	if code != exitOK || m == nil {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	return m[1:]
}

func TestSyncDB(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		srv, env := smallService(t)
		if be.Backend.String() == "SQLite" {
			target = filepath.Join(t.TempDir(), "a ?weird#name.db")
		}
		if got := syncOnce(t, env, "--db", target, "--count", "5"); fmt.Sprint(got) != "[12 0 0 0 16 0 0 0]" {
			t.Errorf("first run: %v, want 12 new orders and 16 new messages", got)
		}
		sameRecords(t, srv, be, target)
		if be.Backend.String() == "SQLite" {
			if _, err := os.Stat(target); err != nil {
				t.Fatalf("the database is not at its name: %v", err)
			}
		}
		if got := syncOnce(t, env, "--db", target); fmt.Sprint(got) != "[0 0 0 0 0 0 0 0]" {
			t.Errorf("a run with nothing new: %v", got)
		}
		srv.AddOrders(4)
		srv.AddMessages(3)
		if got := syncOnce(t, env, "--db", target, "--count", "2"); fmt.Sprint(got) != "[4 0 0 0 7 0 0 0]" {
			t.Errorf("after 4 new orders and 3 new messages: %v", got)
		}
		sameRecords(t, srv, be, target)

		// Statuses change and nothing says so: --refresh-days reads the
		// recent records again.
		var changed *ordermsg.Order
		srv.Handler.Snapshot(func(ds *ordermsgtest.Dataset) {
			orders := ds.Websites[0].Orders
			changed = orders[len(orders)-2]
		})
		changed.Status = "shipped" // no request is in flight
		if got := syncOnce(t, env, "--db", target); fmt.Sprint(got) != "[0 0 0 0 0 0 0 0]" {
			t.Errorf("without --refresh-days a change is not seen: %v", got)
		}
		got := syncOnce(t, env, "--db", target, "--refresh-days", "1")
		if got[0] != "0" || got[1] != "1" || got[4] != "0" {
			t.Errorf("--refresh-days 1 after one status change: %v", got)
		}
		sameRecords(t, srv, be, target)

		// Every record read again, twice, on an unchanged server: file
		// links come signed anew, and nothing is updated.
		for run := range 2 {
			if got := syncOnce(t, env, "--db", target, "--refresh-days", "100000"); fmt.Sprint(got) != "[0 0 16 0 0 0 23 0]" {
				t.Errorf("--refresh-days 100000, run %d on an unchanged server: %v", run, got)
			}
		}

		// Deletions and an old change: --reconcile sees them.
		var old *ordermsg.Order
		var gone *ordermsg.Message
		srv.Handler.Snapshot(func(ds *ordermsgtest.Dataset) { old, gone = ds.Websites[0].Orders[0], ds.Websites[0].Messages[3] })
		srv.Handler.SetOrderStatus(srv.WebsiteID, old.ID, "refunded")
		srv.Handler.DeleteMessage(srv.WebsiteID, gone.ID)
		if got := syncOnce(t, env, "--db", target, "--reconcile"); fmt.Sprint(got) != "[0 1 15 0 0 0 22 1]" {
			t.Errorf("--reconcile after a change and a deletion: %v", got)
		}
		sameRecords(t, srv, be, target)

		db := be.Open(t, target)
		var status string
		if err := db.QueryRow(fmt.Sprintf("SELECT status FROM orders WHERE id = %d", changed.ID)).Scan(&status); err != nil || status != "shipped" {
			t.Errorf("status column: %q, %v", status, err)
		}
		var nulls int
		db.QueryRow("SELECT count(*) FROM messages WHERE order_id IS NULL AND CAST(json AS TEXT) LIKE '%\"order\":0%'").Scan(&nulls)
		if nulls == 0 {
			t.Error("no message with order 0 has a NULL order_id")
		}
	})
}

// withEnv is env with the given keys changed.
func withEnv(env map[string]string, kv ...string) map[string]string {
	out := maps.Clone(env)
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i]] = kv[i+1]
	}
	return out
}

func TestSyncDBTwoWebsitesInOneDatabase(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 42, Websites: 2, OrdersPerWebsite: 12, MessagesPerWebsite: 16}))
		defer srv.Close()
		var second *ordermsgtest.Website
		srv.Handler.Snapshot(func(ds *ordermsgtest.Dataset) { second = ds.Websites[1] })
		env := map[string]string{envBaseURL: srv.URL, envAPIKey: srv.APIKey, envWebsiteID: fmt.Sprint(srv.WebsiteID)}
		env2 := withEnv(env, envAPIKey, second.APIKey, envWebsiteID, fmt.Sprint(second.ID))
		if got := syncOnce(t, env, "--db", target); fmt.Sprint(got) != "[12 0 0 0 16 0 0 0]" {
			t.Errorf("first website: %v", got)
		}
		if got := syncOnce(t, env2, "--db", target); fmt.Sprint(got) != "[12 0 0 0 16 0 0 0]" {
			t.Errorf("second website: %v", got)
		}
		db := be.Open(t, target)
		mirrortest.SameRecords(t, db, srv, srv.WebsiteID, srv.APIKey)
		mirrortest.SameRecords(t, db, srv, second.ID, second.APIKey)
	})
}

// Two runs of the same website into one database at once (overlapping cron
// runs) both exit 0, and the mirror is exact; so do two with --reconcile,
// after deletions and changes on the server.
func TestSyncDBTwoRunsAtOnce(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 5, Websites: 1, OrdersPerWebsite: 700, MessagesPerWebsite: 800}))
		defer srv.Close()
		env := map[string]string{envBaseURL: srv.URL, envAPIKey: srv.APIKey, envWebsiteID: fmt.Sprint(srv.WebsiteID)}
		twoAtOnce := func(args ...string) {
			var wg sync.WaitGroup
			for i := range 2 {
				wg.Go(func() {
					_, stderr, code := cli{env: env}.run(context.Background(), append([]string{"sync", "--db", target, "--count", "25"}, args...)...)
					if code != exitOK {
						t.Errorf("run %d: exit %d, %s", i, code, stderr)
					}
				})
			}
			wg.Wait()
			sameRecords(t, srv, be, target)
		}
		twoAtOnce()
		var w *ordermsgtest.Website
		srv.Handler.Snapshot(func(ds *ordermsgtest.Dataset) { w = ds.Websites[0] })
		orders, messages := w.Orders, w.Messages
		for i := range 4 {
			srv.Handler.DeleteOrder(srv.WebsiteID, orders[100*i+3].ID)
			srv.Handler.DeleteMessage(srv.WebsiteID, messages[100*i+5].ID)
			srv.Handler.SetOrderStatus(srv.WebsiteID, orders[100*i+50].ID, "shipped")
		}
		twoAtOnce("--reconcile")
	})
}

// A URL's password shows nowhere: not in the error of a wrong password, of
// an unreachable server or of a URL that does not parse, not in the
// progress or the summary, not in --help.
func TestSyncDBPasswordNeverShows(t *testing.T) {
	base := mirrortest.PostgresURL(t)
	target := mirrortest.Backends()[1].New(t)
	_, env := smallService(t)
	withPassword := func(u, pw string) string {
		i := strings.Index(u, "://") + 3
		at := strings.Index(u, "@")
		user := strings.SplitN(u[i:at], ":", 2)[0]
		return u[:i] + user + ":" + pw + u[at:]
	}
	const secret = "S3cret-pw%2Fx"
	real := strings.SplitN(strings.SplitN(strings.TrimPrefix(base, "postgres://"), "@", 2)[0], ":", 2)[1]
	for _, c := range []struct {
		name, db string
		extra    []string
		code     int
		secrets  []string
	}{
		{"wrong password", withPassword(target, "wrong-"+secret), nil, exitLocal, []string{secret}},
		{"wrong password in the query", target + "&password=" + secret, nil, exitLocal, []string{secret}},
		{"unreachable server", "postgres://mirror:" + secret + "@127.0.0.1:1/x?connect_timeout=2", nil, exitLocal, []string{secret}},
		{"a URL that does not parse", "postgres://mirror:" + secret + "@127.0.0.1:port/x", nil, exitUsage, []string{secret}},
		{"the right password, with progress", target, []string{"--verbose"}, exitOK, []string{real}},
		{"--help", target, []string{"--help"}, exitOK, []string{real}},
	} {
		t.Run(c.name, func(t *testing.T) {
			stdout, stderr, code := cli{env: env, terminal: true}.run(context.Background(), append([]string{"sync", "--db", c.db}, c.extra...)...)
			if code != c.code {
				t.Errorf("exit %d, want %d: %s", code, c.code, stderr)
			}
			for _, s := range c.secrets {
				for _, form := range []string{s, strings.ReplaceAll(s, "%2F", "/")} {
					if strings.Contains(stdout+stderr, form) {
						t.Errorf("the password shows:\nstdout %s\nstderr %s", stdout, stderr)
					}
				}
			}
			if code != exitOK && !strings.Contains(stderr, "xxxxx") && c.code != exitUsage && !strings.Contains(stderr, "127.0.0.1") {
				t.Errorf("the error does not say which database: %s", stderr)
			}
		})
	}
}

// TestSyncDBRefusesTargetsThatMayHoldAPassword: a postgres URL whose scheme
// is not in lower case is still PostgreSQL (never a file path quoted in an
// error), and another scheme or a keyword=value connection string is a usage
// error that says what --db takes and repeats nothing of the target.
func TestSyncDBRefusesTargetsThatMayHoldAPassword(t *testing.T) {
	_, env := smallService(t)
	const secret = "SECRETPW"
	dir := t.TempDir()
	t.Chdir(dir) // a target taken for a relative path would land here
	for _, c := range []struct {
		name, db string
		code     int
	}{
		{"Postgres scheme", "Postgres://mirror:" + secret + "@127.0.0.1:1/x?connect_timeout=2", exitLocal},
		{"POSTGRESQL scheme", "POSTGRESQL://mirror:" + secret + "@127.0.0.1:1/x?connect_timeout=2", exitLocal},
		{"another scheme", "mysql://mirror:" + secret + "@127.0.0.1:1/x", exitUsage},
		{"a scheme with a typo", "postgress://mirror:" + secret + "@127.0.0.1:1/x", exitUsage},
		{"keyword=value", "host=127.0.0.1 port=1 user=mirror password=" + secret, exitUsage},
		{"password= later", "dbname=x password = " + secret, exitUsage},
		{"password= first", "Password=" + secret + " host=127.0.0.1", exitUsage},
	} {
		t.Run(c.name, func(t *testing.T) {
			stdout, stderr, code := cli{env: env, terminal: true}.run(context.Background(), "sync", "--db", c.db)
			if code != c.code {
				t.Errorf("exit %d, want %d: %s", code, c.code, stderr)
			}
			if strings.Contains(stdout+stderr, secret) {
				t.Errorf("the password shows:\nstdout %s\nstderr %s", stdout, stderr)
			}
			if c.code == exitUsage && !strings.Contains(stderr, "--db takes a SQLite file path or a postgres:// or postgresql:// URL") {
				t.Errorf("the error does not say what --db takes: %s", stderr)
			}
			if c.code == exitLocal && !strings.Contains(stderr, "127.0.0.1") {
				t.Errorf("the error does not say which database: %s", stderr)
			}
		})
	}
	if entries, _ := os.ReadDir(dir); len(entries) > 0 {
		t.Errorf("a target was taken for a file: %v", entries)
	}
}

func TestSyncDBUsage(t *testing.T) {
	for _, args := range [][]string{
		{"sync", "--demo"},
		{"sync", "--demo", "--db", "x.db", "--reconcile=maybe"},
		{"sync", "--demo", "--db", "x.db", "--refresh-days", "-1"},
		{"sync", "--demo", "--db", "x.db", "--count", "0"},
	} {
		_, stderr, code := cli{}.run(context.Background(), args...)
		if code != exitUsage {
			t.Errorf("%v: exit %d, %s", args, code, stderr)
		}
	}
}

func TestSyncDBKeepsWhatItSyncedWhenTheServerFails(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		srv, env := smallService(t)
		syncOnce(t, env, "--db", target)
		srv.AddOrders(3)
		if _, _, code := (cli{env: withEnv(env, envAPIKey, "wrong")}).run(context.Background(), "sync", "--db", target); code != exitFailure {
			t.Fatalf("exit %d with a wrong key", code)
		}
		if got := syncOnce(t, env, "--db", target); got[0] != "3" {
			t.Errorf("after a failed run: %v, want the 3 new orders", got)
		}
		sameRecords(t, srv, be, target)
	})
}

// A database whose schema is a newer version's is refused, exit 3, with a
// message that says what to do.
func TestSyncDBRefusesANewerSchema(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		_, env := smallService(t)
		syncOnce(t, env, "--db", target)
		if _, err := be.Open(t, target).Exec("UPDATE mirror_schema SET version = version + 1"); err != nil {
			t.Fatal(err)
		}
		_, stderr, code := cli{env: env}.run(context.Background(), "sync", "--db", target)
		if code != exitLocal || !strings.Contains(stderr, "upgrade ordermsg") {
			t.Errorf("exit %d, stderr %q", code, stderr)
		}
	})
}

func TestExportState(t *testing.T) {
	srv, env := smallService(t)
	dir := t.TempDir()
	state, out := filepath.Join(dir, "orders.state"), filepath.Join(dir, "new.jsonl")
	exportIDs := func() []int64 {
		t.Helper()
		_, stderr, code := cli{env: env}.run(context.Background(), "orders", "export", "--state", state, "-o", out, "--count", "5")
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		var ids []int64
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			var o ordermsg.Order
			if line == "" {
				continue
			}
			if err := json.Unmarshal([]byte(line), &o); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, o.ID)
		}
		return ids
	}
	first := exportIDs()
	if len(first) != 12 {
		t.Fatalf("first export: %d orders, want 12", len(first))
	}
	if again := exportIDs(); len(again) != 0 {
		t.Errorf("nothing new, but exported %v", again)
	}
	added := srv.AddOrders(5)
	next := exportIDs()
	if len(next) != 5 || next[0] != added[0].ID || next[4] != added[4].ID {
		t.Errorf("exported %v after adding 5", next)
	}

	// A failed export leaves the state as it was: the next run repeats.
	before, _ := os.ReadFile(state)
	srv.AddOrders(2)
	broken := map[string]string{}
	for k, v := range env {
		broken[k] = v
	}
	broken[envAPIKey] = "wrong"
	if _, _, code := (cli{env: broken}).run(context.Background(), "orders", "export", "--state", state, "-o", out); code != exitFailure {
		t.Fatalf("exit %d with a wrong key", code)
	}
	if after, _ := os.ReadFile(state); string(after) != string(before) {
		t.Errorf("a failed export changed the state: %s -> %s", before, after)
	}
	if again := exportIDs(); len(again) != 2 {
		t.Errorf("after a failed export: %v, want the 2 new orders", again)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("left behind: %v", entries)
	}

	// The state of orders is not one of messages.
	_, stderr, code := cli{env: env}.run(context.Background(), "messages", "export", "--state", state)
	if code == exitOK || !strings.Contains(stderr, "not of the messages") {
		t.Errorf("messages with the orders' state: exit %d, %s", code, stderr)
	}
	_, _, code = cli{env: env}.run(context.Background(), "orders", "export", "--state", state, "--direction", "desc")
	if code != exitUsage {
		t.Errorf("--direction with --state: exit %d", code)
	}
}

func TestWriteStateThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.state")
	link := filepath.Join(dir, "link.state")
	if err := os.WriteFile(target, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := writeState(context.Background(), link, exportState{stateOwner: stateOwner{Website: 7, Resource: "orders"}}); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(link)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the symlink was replaced: %v %v", fi, err)
	}
	b, _ := os.ReadFile(target)
	st, _ := os.Stat(target)
	want := `{"website":7,"resource":"orders","checkpoint":{}}` + "\n"
	if string(b) != want || st.Mode().Perm() != 0o600 {
		t.Errorf("target holds %q with mode %v, want %q and 0600", b, st.Mode().Perm(), want)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("left behind: %v", entries)
	}
}

func TestSyncDBProgressOnlyOnATerminal(t *testing.T) {
	_, env := smallService(t)
	dir := t.TempDir()
	_, stderr, code := cli{env: env}.run(context.Background(), "sync", "--db", filepath.Join(dir, "a.db"))
	if code != exitOK || stderr != "" {
		t.Errorf("not a terminal: exit %d, stderr %q", code, stderr)
	}
	_, stderr, code = cli{env: env, terminal: true}.run(context.Background(), "sync", "--db", filepath.Join(dir, "b.db"))
	if code != exitOK || !strings.Contains(stderr, "syncing") || !strings.Contains(stderr, "records") {
		t.Errorf("terminal: exit %d, stderr %q", code, stderr)
	}
}

// A database that cannot be opened is a local failure (exit code 3), as is
// every other failure of the database; nothing is requested.
func TestSyncDBThatCannotBeOpenedIsALocalFailure(t *testing.T) {
	dir := t.TempDir() // a folder where the database file should be
	_, stderr, code := cli{}.run(context.Background(), "sync", "--db", dir, "--demo")
	if code != exitLocal || !strings.HasPrefix(stderr, "error: ") {
		t.Fatalf("sync --db <a folder>: exit %d, stderr %q; want exit %d", code, stderr, exitLocal)
	}
}

// A website is mirrored from one base URL: a run from another (staging and
// production of the same website id) exits 2 before any write, naming both
// URLs and the flag (not the Go option), with no pointer to --help (no flag
// was wrong); with --base-url-moved the run takes the new one.
func TestSyncDBOneSourcePerWebsite(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		srv, env := smallService(t)
		syncOnce(t, env, "--db", target)
		staging := httptest.NewServer(srv.Handler)
		defer staging.Close()
		srv.AddOrders(2)
		elsewhere := withEnv(env, envBaseURL, staging.URL)
		stdout, stderr, code := cli{env: elsewhere}.run(context.Background(), "sync", "--db", target)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, srv.URL) || !strings.Contains(stderr, staging.URL) ||
			!strings.Contains(stderr, "--base-url-moved") || strings.Contains(stderr, "BaseURLMoved") || strings.Contains(stderr, "--help") {
			t.Errorf("a run from another base URL: exit %d, stdout %q, stderr %q; want exit 2, the flag named, no pointer to --help", code, stdout, stderr)
		}
		if got := syncOnce(t, elsewhere, "--db", target, "--base-url-moved"); got[0] != "2" {
			t.Errorf("with --base-url-moved: %v, want the 2 new orders", got)
		}
		if got := syncOnce(t, elsewhere, "--db", target); got[0] != "0" {
			t.Errorf("the next run from the new base URL: %v", got)
		}
	})
}

// A record that cannot be decoded (a lone surrogate) is counted refused,
// kept as sent in refused_records, said on stderr, and the run mirrors the
// rest and exits 0.
func TestSyncDBGoesPastWhatItCannotDecode(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		srv, env := smallService(t)
		spoiled := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			rec := httptest.NewRecorder()
			srv.Handler.ServeHTTP(rec, r)
			body := rec.Body.Bytes()
			if strings.HasSuffix(r.URL.Path, "/orders") {
				body = bytes.Replace(body, []byte(`"title":"`), []byte(`"title":"\ud800`), 1)
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(rec.Code)
			w.Write(body)
		}))
		defer spoiled.Close()
		stdout, stderr, code := cli{env: withEnv(env, envBaseURL, spoiled.URL)}.run(context.Background(), "sync", "--db", target)
		if code != exitOK || !strings.HasPrefix(stdout, "orders: 11 new, 0 updated, 0 unchanged, 0 deleted, 1 refused; messages: 16 new,") ||
			!strings.Contains(stderr, "1 of the records read could not be decoded") || !strings.Contains(stderr, "refused_records") {
			t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
		}
		var raw []byte
		if err := be.Open(t, target).QueryRow("SELECT raw FROM refused_records WHERE resource = 'orders'").Scan(&raw); err != nil ||
			!bytes.Contains(raw, []byte(`"title":"\ud800`)) {
			t.Errorf("refused_records: %.80q, %v", raw, err)
		}
	})
}

// TestSyncDBKeepsTheKeySecret: a server that quotes the API key in the
// message of its error gets it masked in the run's error line, as the
// database's password is.
func TestSyncDBKeepsTheKeySecret(t *testing.T) {
	srv, env := smallService(t)
	echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprintf(w, `{"message":"the key %s (%s) may not read this website"}`, srv.APIKey, r.Header.Get("Authorization"))
	}))
	defer echo.Close()
	// The key, and the credentials that carry it, which decode to it.
	credentials := base64.StdEncoding.EncodeToString([]byte(srv.APIKey + ":"))
	// sync, and any other command.
	for _, args := range [][]string{{"sync", "--db", filepath.Join(t.TempDir(), "m.db")}, {"orders", "list"}, {"messages", "get", "1"}} {
		stdout, stderr, code := cli{env: withEnv(env, envBaseURL, echo.URL)}.run(context.Background(), args...)
		if code != exitFailure || !strings.Contains(stderr, "may not read this website") || strings.Contains(stdout+stderr, srv.APIKey) || strings.Contains(stdout+stderr, credentials) {
			t.Errorf("%q: exit %d (want 1), stdout %q, stderr %q: want the server's message without the key", args, code, stdout, stderr)
		}
	}
}

// A reconcile after the server deleted every order (or a listing that comes
// back empty with 404s) fails the website, exit 1, names the flag (not the
// Go option) and how many, and marks nothing deleted; --allow-mass-delete
// then marks them all.
func TestSyncDBRefusesAMassDelete(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 42, Websites: 1, OrdersPerWebsite: 30, MessagesPerWebsite: 5}))
		t.Cleanup(srv.Close)
		env := map[string]string{envBaseURL: srv.URL, envAPIKey: srv.APIKey, envWebsiteID: fmt.Sprint(srv.WebsiteID)}
		syncOnce(t, env, "--db", target)
		var ids []int64
		srv.Handler.Snapshot(func(ds *ordermsgtest.Dataset) {
			for _, o := range ds.Websites[0].Orders {
				ids = append(ids, o.ID)
			}
		})
		for _, id := range ids {
			srv.Handler.DeleteOrder(srv.WebsiteID, id)
		}
		stdout, stderr, code := cli{env: env}.run(context.Background(), "sync", "--db", target, "--reconcile")
		if code != exitFailure || !strings.Contains(stderr, "--allow-mass-delete") || strings.Contains(stderr, "AllowMassDelete") ||
			!strings.Contains(stderr, "found 30 of its 30 live orders gone") || strings.Contains(stderr, "Run 'ordermsg sync --help'") {
			t.Errorf("a reconcile that finds every order gone: exit %d, stdout %q, stderr %q", code, stdout, stderr)
		}
		var live int
		if err := be.Open(t, target).QueryRow("SELECT count(*) FROM orders WHERE deleted_at IS NULL").Scan(&live); err != nil || live != 30 {
			t.Errorf("%d live orders after the refused reconcile (%v); want 30", live, err)
		}
		if got := syncOnce(t, env, "--db", target, "--reconcile", "--allow-mass-delete"); got[3] != "30" {
			t.Errorf("with --allow-mass-delete: %v; want 30 orders deleted", got)
		}
	})
}
