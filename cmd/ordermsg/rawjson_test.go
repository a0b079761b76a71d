package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A server whose records carry members the spec does not list and lack
// members the SDK knows, with its own spacing and escapes: get, list and
// export print each record as it was sent, member for member.
const (
	sentOrder1 = `{"object":"order", "id":11, "currency":"\u0065ur", "loyalty":{"tier":"gold","points":1.50}, "status":"new"}`
	sentOrder2 = "{\"object\":\"order\",\n  \"id\":12,\n  \"note\":\"caf\\u00e9 <b>\"\n}"
	sentMsg    = `{"object":"message","id":21,"message_type":"general_contact","channel":"sms"}`
)

func sentPage(records ...string) string {
	return fmt.Sprintf(`{"object":"list","data":[%s],"meta":{"pagination":{"total":%d,"count":%[2]d,"per_page":100,"current_page":1,"total_pages":1},"next":null},"trace":"t1"}`,
		strings.Join(records, ","), len(records))
}

func newSendingServer(t *testing.T) map[string]string {
	bodies := map[string]string{
		"/websites/7/orders/11":   sentOrder1,
		"/websites/7/orders":      sentPage(sentOrder1, sentOrder2),
		"/websites/7/messages":    sentPage(sentMsg),
		"/websites/7/messages/21": sentMsg,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := bodies[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, body)
	}))
	t.Cleanup(srv.Close)
	return map[string]string{envBaseURL: srv.URL, envAPIKey: "k", envWebsiteID: "7"}
}

func compact(t *testing.T, s string) string {
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestPrintsRecordsAsSent(t *testing.T) {
	env := newSendingServer(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"orders", "get", "11"}, sentOrder1 + "\n"},
		{[]string{"messages", "get", "21"}, sentMsg + "\n"},
		{[]string{"orders", "list"}, sentPage(sentOrder1, sentOrder2) + "\n"},
		{[]string{"orders", "export"}, compact(t, sentOrder1) + "\n" + compact(t, sentOrder2) + "\n"},
		{[]string{"messages", "export", "--format", "jsonl"}, sentMsg + "\n"},
	} {
		stdout, stderr, code := cli{env: env}.run(context.Background(), tc.args...)
		if code != exitOK || stdout != tc.want {
			t.Errorf("%v: exit %d, %s\nstdout:\n%s\nwant:\n%s", tc.args, code, stderr, stdout, tc.want)
		}
	}
}

func TestExportFileHoldsRecordsAsSent(t *testing.T) {
	env := newSendingServer(t)
	out := filepath.Join(t.TempDir(), "orders.jsonl")
	if _, stderr, code := (cli{env: env}).run(context.Background(), "orders", "export", "-o", out); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if want := compact(t, sentOrder1) + "\n" + compact(t, sentOrder2) + "\n"; string(got) != want {
		t.Errorf("file:\n%s\nwant:\n%s", got, want)
	}
}

func TestPrintIndentsOnATerminalKeepingEveryMember(t *testing.T) {
	env := newSendingServer(t)
	var out bytes.Buffer
	a := &app{stdout: &out, stderr: &bytes.Buffer{}, getenv: func(k string) string { return env[k] },
		isTerminal: func(any) bool { return true }}
	if code := a.run(context.Background(), []string{"orders", "get", "11"}); code != exitOK {
		t.Fatalf("exit %d", code)
	}
	if !strings.Contains(out.String(), "\n  \"loyalty\": {") || compact(t, out.String()) != compact(t, sentOrder1) {
		t.Errorf("indented output:\n%s", out.String())
	}
}
