package main

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
)

var adminLine = regexp.MustCompile(`(?m)^admin endpoint at (\S+)/_admin/ with header '(Authorization: Bearer [0-9a-f]{32})' \(docs/cli\.md\)$`)

// admin is the admin endpoint of a served fake: its URL's origin and the
// header that opens it.
type admin struct{ url, header string }

// adminOf reads the admin line that serve printed.
func adminOf(t *testing.T, s *served) admin {
	t.Helper()
	m := adminLine.FindStringSubmatch(s.printed)
	if m == nil || m[1] != s.url {
		t.Fatalf("serve printed no admin line for %s:\n%s", s.url, s.printed)
	}
	return admin{m[1], m[2]}
}

// do sends method path with body (none when "") and header ("Name: value",
// none when ""), and returns the status and the body of the answer.
func do(t *testing.T, method, url, header, body string) (int, string) {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, r)
	if err != nil {
		t.Fatal(err)
	}
	if name, value, ok := strings.Cut(header, ":"); ok {
		req.Header.Set(name, strings.TrimSpace(value))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// call sends an admin request that must answer want, and returns the id
// of the record it names (0 for none).
func (a admin) call(t *testing.T, want int, method, path, body string) int64 {
	t.Helper()
	code, answer := do(t, method, a.url+"/_admin/"+path, a.header, body)
	if code != want {
		t.Fatalf("%s /_admin/%s %s: %d %s; want %d", method, path, body, code, answer, want)
	}
	var rec struct {
		ID int64 `json:"id"`
	}
	json.Unmarshal([]byte(answer), &rec)
	return rec.ID
}

// Through serve's admin endpoint a record is added (now, or created long
// ago: shown late), changed and deleted, orders and messages; then
// sync --db --reconcile sees exactly those differences: its counts, and
// the ids new, updated and deleted in the mirror.
func TestServeAdminChangesWhatAReconcileSees(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		s := startServe(t, nil, "--websites", "2", "--orders", "20", "--messages", "30")
		defer s.stop()
		a := adminOf(t, s)
		env := map[string]string{envBaseURL: s.url, envAPIKey: s.key, envWebsiteID: fmt.Sprint(s.websiteID), envVersionHeader: s.header}
		if got := syncOnce(t, env, "--db", target); fmt.Sprint(got) != "[20 0 0 0 30 0 0 0]" {
			t.Fatalf("first run: %v", got)
		}
		db := be.Open(t, target)
		ids := func(query string) string {
			t.Helper()
			var out []string
			for _, row := range adminRows(t, db, query) {
				out = append(out, fmt.Sprint(row))
			}
			return strings.Join(out, " ")
		}
		first := func(table string, skip int) int64 {
			var id int64
			if err := db.QueryRow(fmt.Sprintf("SELECT id FROM %s WHERE website_id = %d ORDER BY id LIMIT 1 OFFSET %d", table, s.websiteID, skip)).Scan(&id); err != nil {
				t.Fatal(err)
			}
			return id
		}
		site := fmt.Sprintf("websites/%d/", s.websiteID)
		added := a.call(t, http.StatusCreated, "POST", site+"orders", "")
		late := a.call(t, http.StatusCreated, "POST", site+"orders", `{"status":"refunded","date_created":"2024-01-01T10:00:00Z"}`)
		changed, gone := first("orders", 2), first("orders", 5)
		a.call(t, http.StatusOK, "PATCH", fmt.Sprintf("%sorders/%d", site, changed), `{"status":"refunded"}`)
		a.call(t, http.StatusNoContent, "DELETE", fmt.Sprintf("%sorders/%d", site, gone), "")
		addedMessage := a.call(t, http.StatusCreated, "POST", site+"messages", `{"message_type":"event_management"}`)
		changedMessage, goneMessage := first("messages", 3), first("messages", 7)
		var kind string
		db.QueryRow(fmt.Sprintf("SELECT message_type FROM messages WHERE id = %d", changedMessage)).Scan(&kind)
		newKind := map[bool]string{true: "general_contact", false: "event_management"}[kind == "event_management"]
		a.call(t, http.StatusOK, "PATCH", fmt.Sprintf("%smessages/%d", site, changedMessage), fmt.Sprintf(`{"message_type":%q}`, newKind))
		a.call(t, http.StatusNoContent, "DELETE", fmt.Sprintf("%smessages/%d", site, goneMessage), "")

		// Orders: the two added new, one changed, one deleted. Messages: the
		// added one and the two orders' messages new, one changed, one
		// deleted.
		if got := syncOnce(t, env, "--db", target, "--reconcile"); fmt.Sprint(got) != "[2 1 18 1 3 1 28 1]" {
			t.Errorf("--reconcile after the admin's changes: %v; want [2 1 18 1 3 1 28 1]", got)
		}
		if got, want := ids(fmt.Sprintf("SELECT id FROM orders WHERE website_id = %d AND deleted_at IS NOT NULL", s.websiteID)), fmt.Sprint("[", gone, "]"); got != want {
			t.Errorf("orders deleted: %s; want %s", got, want)
		}
		if got, want := ids(fmt.Sprintf("SELECT id FROM messages WHERE website_id = %d AND deleted_at IS NOT NULL", s.websiteID)), fmt.Sprint("[", goneMessage, "]"); got != want {
			t.Errorf("messages deleted: %s; want %s", got, want)
		}
		if got, want := ids(fmt.Sprintf("SELECT id, status FROM orders WHERE id IN (%d, %d, %d) ORDER BY id", changed, added, late)),
			fmt.Sprintf("[%d refunded] [%d new] [%d refunded]", changed, added, late); got != want {
			t.Errorf("orders changed and added: %s; want %s", got, want)
		}
		if got, want := ids(fmt.Sprintf("SELECT id, message_type FROM messages WHERE id IN (%d, %d) ORDER BY id", changedMessage, addedMessage)),
			fmt.Sprintf("[%d %s] [%d event_management]", changedMessage, newKind, addedMessage); got != want {
			t.Errorf("messages changed and added: %s; want %s", got, want)
		}
		if got := syncOnce(t, env, "--db", target, "--reconcile"); fmt.Sprint(got) != "[0 0 21 0 0 0 32 0]" {
			t.Errorf("a second reconcile: %v; want nothing changed", got)
		}
	})
}

// adminRows are the values of each row of query, in order.
func adminRows(t *testing.T, db *sql.DB, query string) [][]any {
	t.Helper()
	rows, err := db.Query(query)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out [][]any
	for rows.Next() {
		row := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range row {
			ptrs[i] = &row[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		out = append(out, row)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
