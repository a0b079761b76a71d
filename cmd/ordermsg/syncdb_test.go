package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// serverRecords returns every record of a resource as the fake sends it in a
// list, by id, as JSON values.
func serverRecords(t testing.TB, srv *ordermsgtest.Server, resource string) map[int64]any {
	t.Helper()
	out := map[int64]any{}
	for page := 1; ; page++ {
		req, _ := http.NewRequest(http.MethodGet, fmt.Sprintf("%s/websites/%d/%s?direction=asc&count=100&page=%d", srv.URL, srv.WebsiteID, resource, page), nil)
		req.SetBasicAuth(srv.APIKey, "")
		req.Header.Set(ordermsgtest.VersionHeader, ordermsgtest.APIVersion)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var list struct {
			Data []map[string]any `json:"data"`
		}
		err = json.NewDecoder(resp.Body).Decode(&list)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(list.Data) == 0 {
			return out
		}
		for _, rec := range list.Data {
			out[int64(rec["id"].(float64))] = any(rec)
		}
	}
}

// mirrored returns the records of a table of the database, by id, as JSON
// values; it fails on a row whose id is not its JSON's.
func mirrored(t testing.TB, path, table string) map[int64]any {
	t.Helper()
	db := openForTest(t, path)
	rows, err := db.Query("SELECT id, json FROM " + table)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[int64]any{}
	for rows.Next() {
		var id int64
		var raw string
		if err := rows.Scan(&id, &raw); err != nil {
			t.Fatal(err)
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(raw), &v); err != nil {
			t.Fatalf("%s %d: %v", table, id, err)
		}
		if int64(v["id"].(float64)) != id {
			t.Fatalf("%s row %d holds the JSON of %v", table, id, v["id"])
		}
		out[id] = any(v)
	}
	return out
}

func openForTest(t testing.TB, path string) *sql.DB {
	t.Helper()
	dsn, err := mirrorDSN(path)
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// sameRecords fails unless the mirror holds exactly the server's records,
// with the same JSON.
func sameRecords(t testing.TB, srv *ordermsgtest.Server, path string) {
	t.Helper()
	for _, table := range []string{"orders", "messages"} {
		want, got := serverRecords(t, srv, table), mirrored(t, path, table)
		if len(got) != len(want) {
			t.Errorf("%s: the database holds %d records, the server %d", table, len(got), len(want))
		}
		for id, w := range want {
			if g, ok := got[id]; !ok {
				t.Errorf("%s %d is missing", table, id)
			} else if !reflect.DeepEqual(g, w) {
				t.Errorf("%s %d: stored JSON %v\nserver's %v", table, id, g, w)
			}
		}
	}
}

var summaryLine = regexp.MustCompile(`^orders: (\d+) new, (\d+) updated, (\d+) unchanged; messages: (\d+) new, (\d+) updated, (\d+) unchanged; \d+\.\d\ds\n$`)

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
	srv, env := smallService(t)
	db := filepath.Join(t.TempDir(), "a ?weird#name.db")
	if got := syncOnce(t, env, "--db", db, "--count", "5"); fmt.Sprint(got) != "[12 0 0 16 0 0]" {
		t.Errorf("first run: %v, want 12 new orders and 16 new messages", got)
	}
	sameRecords(t, srv, db)
	if _, err := os.Stat(db); err != nil {
		t.Fatalf("the database is not at its name: %v", err)
	}
	if got := syncOnce(t, env, "--db", db); fmt.Sprint(got) != "[0 0 0 0 0 0]" {
		t.Errorf("a run with nothing new: %v", got)
	}
	srv.AddOrders(4)
	srv.AddMessages(3)
	if got := syncOnce(t, env, "--db", db, "--count", "2"); fmt.Sprint(got) != "[4 0 0 7 0 0]" {
		t.Errorf("after 4 new orders and 3 new messages: %v", got)
	}
	sameRecords(t, srv, db)

	// Statuses change and nothing says so: --refresh-days reads the
	// recent records again.
	var changed *ordermsg.Order
	srv.Handler.Snapshot(func(ds *ordermsgtest.Dataset) {
		orders := ds.Websites[0].Orders
		changed = orders[len(orders)-2]
	})
	changed.Status = "shipped" // no request is in flight
	if got := syncOnce(t, env, "--db", db); fmt.Sprint(got) != "[0 0 0 0 0 0]" {
		t.Errorf("without --refresh-days a change is not seen: %v", got)
	}
	got := syncOnce(t, env, "--db", db, "--refresh-days", "1")
	if got[0] != "0" || got[1] != "1" || got[3] != "0" || got[4] != "0" {
		t.Errorf("--refresh-days 1 after one status change: %v", got)
	}
	sameRecords(t, srv, db)

	var status string
	sqldb := openForTest(t, db)
	if err := sqldb.QueryRow("SELECT status FROM orders WHERE id = ?", changed.ID).Scan(&status); err != nil || status != "shipped" {
		t.Errorf("status column: %q, %v", status, err)
	}
	var nulls int
	sqldb.QueryRow("SELECT count(*) FROM messages WHERE order_id IS NULL AND json LIKE '%\"order\":0%'").Scan(&nulls)
	if nulls == 0 {
		t.Error("no message with order 0 has a NULL order_id")
	}
}

func TestSyncDBRefusesAnotherWebsitesDatabase(t *testing.T) {
	_, env := smallService(t)
	db := filepath.Join(t.TempDir(), "shop.db")
	syncOnce(t, env, "--db", db)
	env2 := map[string]string{}
	for k, v := range env {
		env2[k] = v
	}
	env2[envWebsiteID] = "1002"
	_, stderr, code := cli{env: env2}.run(context.Background(), "sync", "--db", db)
	if code == exitOK || !strings.Contains(stderr, "mirrors website 1001, not 1002") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

func TestSyncDBUsage(t *testing.T) {
	for _, args := range [][]string{
		{"sync", "--demo"},
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
	srv, env := smallService(t)
	db := filepath.Join(t.TempDir(), "shop.db")
	syncOnce(t, env, "--db", db)
	srv.AddOrders(3)
	broken := map[string]string{}
	for k, v := range env {
		broken[k] = v
	}
	broken[envAPIKey] = "wrong"
	if _, _, code := (cli{env: broken}).run(context.Background(), "sync", "--db", db); code != exitFailure {
		t.Fatalf("exit %d with a wrong key", code)
	}
	if got := syncOnce(t, env, "--db", db); got[0] != "3" {
		t.Errorf("after a failed run: %v, want the 3 new orders", got)
	}
	sameRecords(t, srv, db)
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
