package main

import (
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

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

// The admin endpoint opens with its token alone, sent as a Bearer token:
// no header, another token, or the website's API key (as the API takes it,
// Basic) gets 401, and the token opens nothing of the API (the fake's 401).
// What it cannot do is refused in words: an unknown path (404), a record
// or website that is not there (404), a body that is not what it takes or
// a date in the future (400). A refused request changes nothing.
func TestServeAdminWantsItsTokenAndSaysWhatItRefuses(t *testing.T) {
	s := startServe(t, nil, "--websites", "1", "--orders", "3", "--messages", "3")
	defer s.stop()
	a := adminOf(t, s)
	orders := fmt.Sprintf("%s/_admin/websites/%d/orders", s.url, s.websiteID)
	basic := "Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte(s.key+":"))
	for _, header := range []string{"", "Authorization: Bearer " + strings.Repeat("0", 32), basic, "Authorization: Bearer " + s.key, "Authorization: " + strings.TrimPrefix(a.header, "Authorization: Bearer ")} {
		code, body := do(t, "POST", orders, header, "")
		if code != http.StatusUnauthorized || !strings.Contains(body, "Bearer TOKEN") {
			t.Errorf("POST %s with %q: %d %s; want 401", orders, header, code, body)
		}
	}
	list := fmt.Sprintf("%s/websites/%d/orders", s.url, s.websiteID)
	req, _ := http.NewRequest("GET", list, nil)
	req.Header.Set("Authorization", strings.TrimPrefix(a.header, "Authorization: "))
	name, value, _ := strings.Cut(s.header, ": ")
	req.Header.Set(name, value)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("GET %s with the admin token: %d; want the fake's 401", list, resp.StatusCode)
	}

	site := fmt.Sprintf("websites/%d/", s.websiteID)
	for _, c := range []struct {
		method, path, body string
		want               int
	}{
		{"GET", site + "orders", "", http.StatusMethodNotAllowed},
		{"POST", site + "portals", "", http.StatusNotFound},
		{"POST", "websites/999/orders", "", http.StatusNotFound},
		{"PATCH", site + "orders/1", `{"status":"refunded"}`, http.StatusNotFound},
		{"DELETE", site + "messages/1", "", http.StatusNotFound},
		{"PATCH", site + "orders/x", `{"status":"refunded"}`, http.StatusBadRequest},
		{"POST", site + "orders", `{"total":3}`, http.StatusBadRequest},
		{"POST", site + "orders", `{"message_type":"general_contact"}`, http.StatusBadRequest},
		{"POST", site + "messages", `{"date_created":"2024-01-01T10:00:00Z"}`, http.StatusBadRequest},
		{"POST", site + "orders", fmt.Sprintf(`{"date_created":%q}`, time.Now().Add(time.Hour).Format(time.RFC3339)), http.StatusBadRequest},
		{"POST", site + "orders", `{"date_created":"yesterday"}`, http.StatusBadRequest},
		{"POST", site + "orders", `{} {}`, http.StatusBadRequest},
		{"POST", site + "orders", strings.Repeat(" ", adminBodyLimit+1) + "{}", http.StatusBadRequest},
	} {
		a.call(t, c.want, c.method, c.path, c.body)
	}
	var listed struct {
		Meta struct {
			Pagination struct{ Total int } `json:"pagination"`
		} `json:"meta"`
	}
	req, _ = http.NewRequest("GET", list, nil)
	req.SetBasicAuth(s.key, "")
	req.Header.Set(name, value)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(&listed); err != nil || listed.Meta.Pagination.Total != 3 {
		t.Errorf("after the refused requests the website has %d orders (%v); want its 3", listed.Meta.Pagination.Total, err)
	}
}

// Every curl line of docs/cli.md's section on serve's admin endpoint runs
// as written, in order, against a served fake of the default dataset (the
// ids the lines name), with FAKE and ADMIN set as the section says, and
// succeeds (curl -f: any answer from 400 on fails).
func TestServeAdminCurlExamplesRun(t *testing.T) {
	text, err := os.ReadFile(filepath.Join(repoTop(t), "docs", "cli.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(text), "\n## Changing the fake's records")
	section, _, _ = strings.Cut(section, "\n## ")
	if !ok {
		t.Fatal(`docs/cli.md has no section "Changing the fake's records"`)
	}
	var lines []string
	for line := range strings.Lines(section) {
		if line = strings.TrimSpace(line); strings.HasPrefix(line, "curl ") {
			lines = append(lines, line)
		}
	}
	if len(lines) < 6 {
		t.Fatalf("the section shows %d curl lines; want adds, changes and deletes of orders and messages", len(lines))
	}
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("curl is not installed: the lines cannot run here")
	}
	s := startServe(t, nil)
	defer s.stop()
	a := adminOf(t, s)
	env := map[string]string{envBaseURL: s.url, envAPIKey: s.key, envWebsiteID: fmt.Sprint(s.websiteID), envVersionHeader: s.header}
	target := filepath.Join(t.TempDir(), "try.db")
	before := syncOnce(t, env, "--db", target)
	for _, line := range lines {
		cmd := exec.Command("sh", "-c", line)
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "FAKE=" + a.url, "ADMIN=" + a.header}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: %v\n%s", line, err, out)
		}
	}
	// What the section says the reconcile then counts.
	want := fmt.Sprintf("[2 1 %s 1 3 1 %s 1]", minus(t, before[0], 2), minus(t, before[4], 2))
	if got := syncOnce(t, env, "--db", target, "--reconcile"); fmt.Sprint(got) != want {
		t.Errorf("--reconcile after the section's lines: %v; want %s", got, want)
	}
}

// minus is the decimal n less d.
func minus(t *testing.T, n string, d int) string {
	t.Helper()
	var v int
	if _, err := fmt.Sscan(n, &v); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprint(v - d)
}
