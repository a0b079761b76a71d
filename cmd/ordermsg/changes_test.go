package main

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// changeLine is a line of ordermsg changes.
type changeLine struct {
	Cursor    string          `json:"cursor"`
	WebsiteID int64           `json:"website_id"`
	Resource  string          `json:"resource"`
	ID        int64           `json:"id"`
	Change    string          `json:"change"`
	At        string          `json:"at"`
	Record    json.RawMessage `json:"record"`
}

// parseChanges reads the lines of ordermsg changes, checking that the
// cursors grow.
func parseChanges(t testing.TB, out string) []changeLine {
	t.Helper()
	var lines []changeLine
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var l changeLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		if len(lines) > 0 && l.Cursor <= lines[len(lines)-1].Cursor {
			t.Fatalf("cursor %q after %q", l.Cursor, lines[len(lines)-1].Cursor)
		}
		lines = append(lines, l)
	}
	return lines
}

// changesRead runs ordermsg changes with args and returns its lines.
func changesRead(t testing.TB, target string, args ...string) []changeLine {
	t.Helper()
	stdout, stderr, code := cli{}.run(context.Background(), append([]string{"changes", "--db", target}, args...)...)
	if code != exitOK {
		t.Fatalf("changes %v: exit %d, stderr %q", args, code, stderr)
	}
	return parseChanges(t, stdout)
}

// rowKey names a record's row.
type rowKey struct {
	resource string
	id       int64
}

// rowState is a row's JSON, "" when deleted.
type rowState struct{ json string }

// rowsOf reads the JSON of every live row of orders and messages.
func rowsOf(t testing.TB, db *sql.DB) map[rowKey]rowState {
	t.Helper()
	out := map[rowKey]rowState{}
	for _, table := range []string{"orders", "messages"} {
		rows, err := db.Query("SELECT id, CASE WHEN deleted_at IS NULL THEN CAST(json AS TEXT) ELSE '' END FROM " + table)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			k := rowKey{resource: table}
			var s rowState
			if err := rows.Scan(&k.id, &s.json); err != nil {
				t.Fatal(err)
			}
			out[k] = s
		}
		rows.Close()
	}
	return out
}

// difference is the change of each row that differs from before to
// after: "new", "updated" or "deleted", and the JSON after.
func difference(before, after map[rowKey]rowState) map[rowKey]string {
	out := map[rowKey]string{}
	for k, a := range after {
		b, ok := before[k]
		switch {
		case !ok:
			out[k] = "new " + a.json
		case a.json == "" && b.json != "":
			out[k] = "deleted "
		case a.json != "" && a.json != b.json:
			out[k] = "updated " + a.json
		}
	}
	return out
}

// asDifference is the lines as a difference, failing on a record changed
// twice.
func asDifference(t testing.TB, lines []changeLine) map[rowKey]string {
	t.Helper()
	out := map[rowKey]string{}
	for _, l := range lines {
		k := rowKey{l.Resource, l.ID}
		if _, ok := out[k]; ok {
			t.Errorf("%v changed twice", k)
		}
		out[k] = l.Change + " " + string(l.Record)
	}
	return out
}

// TestChangesCommand: through the CLI, on both backends, a first sync
// prints one new change per record with the stored JSON; statuses changed,
// records deleted and added, then a reconcile, print exactly the difference
// of the tables; a run with nothing changed prints nothing; --resource and
// --website narrow; a cursor not issued exits 2, one older than the
// changes kept (sync --keep-changes) exits 4.
func TestChangesCommand(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		srv, env := smallService(t)
		db := be.Open(t, target)
		syncOnce(t, env, "--db", target)
		first := changesRead(t, target)
		before := rowsOf(t, db)
		if got, want := asDifference(t, first), difference(nil, before); !maps.Equal(got, want) || len(first) != 12+16 {
			t.Fatalf("first sync: %d lines, want one new per record (28) with the stored JSON", len(first))
		}
		var orders, messages []int64
		srv.Handler.Snapshot(func(ds *ordermsgtest.Dataset) {
			for _, o := range ds.Websites[0].Orders[:3] {
				orders = append(orders, o.ID)
			}
			for _, m := range ds.Websites[0].Messages[13:] {
				messages = append(messages, m.ID)
			}
		})
		srv.Handler.SetOrderStatus(srv.WebsiteID, orders[0], ordermsg.OrderStatus("cancelled"))
		srv.Handler.DeleteOrder(srv.WebsiteID, orders[1])
		srv.Handler.SetMessageType(srv.WebsiteID, messages[0], ordermsg.MessageType("general_contact"))
		srv.Handler.DeleteMessage(srv.WebsiteID, messages[1])
		srv.AddOrders(2)
		syncOnce(t, env, "--db", target, "--reconcile")
		last := first[len(first)-1].Cursor
		second := changesRead(t, target, "--after", last)
		if got, want := asDifference(t, second), difference(before, rowsOf(t, db)); !maps.Equal(got, want) {
			t.Errorf("after a reconcile:\n%v\nwant the difference of the tables:\n%v", got, want)
		}
		syncOnce(t, env, "--db", target, "--reconcile")
		if again := changesRead(t, target, "--after", second[len(second)-1].Cursor); len(again) != 0 {
			t.Errorf("a run with nothing changed printed %d changes", len(again))
		}
		for _, l := range changesRead(t, target, "--resource", "messages", "--website", fmt.Sprint(srv.WebsiteID)) {
			if l.Resource != "messages" {
				t.Errorf("--resource messages printed %+v", l)
			}
		}
		if got := changesRead(t, target, "--website", fmt.Sprint(srv.WebsiteID+1)); len(got) != 0 {
			t.Errorf("another website: %d changes", len(got))
		}
		for _, bad := range []string{"nonsense", last[:len(last)-4] + "ffff"} {
			if _, stderr, code := (cli{}).run(context.Background(), "changes", "--db", target, "--after", bad); code != exitUsage {
				t.Errorf("--after %q: exit %d (%q), want 2", bad, code, stderr)
			}
		}
		kept := fmt.Sprintf("changes: %d recorded", len(first)+len(second))
		if stdout, stderr, code := (cli{env: env}).run(context.Background(), "sync", "--db", target, "--keep-changes", "1ns"); code != exitOK || !strings.Contains(stdout, kept) {
			t.Fatalf("sync --keep-changes: exit %d, stdout %q, stderr %q", code, stdout, stderr)
		}
		if _, stderr, code := (cli{}).run(context.Background(), "changes", "--db", target, "--after", last); code != exitCursorExpired {
			t.Errorf("a cursor older than the changes kept: exit %d (%q), want 4", code, stderr)
		}
	})
}
