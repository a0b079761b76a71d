package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/ordermsg/ordermsg-go/internal/secretmask/secretmasktest"
	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// sdkMessageCut is the length at which the SDK cuts a server's message,
// marking the cut with "…".
const sdkMessageCut = 500

// quotingKey is a key of a hostile server's tests: characters that URL
// and JSON escaping change, one beyond U+FFFF, then three digits that tell
// the websites of a fleet apart without changing any spelling's length.
func quotingKey(n int) string { return fmt.Sprintf("Ab+/é😀=%%~%03d", n) }

// quote is a hostile server's error message that quotes a key, spelled
// one way, from byte at on.
type quote struct {
	spelling secretmasktest.Spelling
	at       int
}

// quotes are the messages that quote key in each of its spellings at
// every byte around the SDK's cut: wholly before it, across it at every
// offset, and from it on.
func quotes(key string) []quote {
	var qs []quote
	for _, sp := range secretmasktest.Spellings(key) {
		for at := sdkMessageCut - len(sp.Text) - 1; at <= sdkMessageCut; at++ {
			qs = append(qs, quote{sp, at})
		}
	}
	return qs
}

func (q quote) message() string {
	return strings.Repeat(".", q.at) + q.spelling.Text + " is not your key " + strings.Repeat(".", 600)
}

// shown is what the output must show of the message: the SDK's cut of it
// at 500 bytes, where the key's spelling, or the piece of it the cut left,
// is masked.
func (q quote) shown() string {
	msg := q.message()[:sdkMessageCut]
	if q.at < sdkMessageCut {
		msg = msg[:q.at] + "xxxxx" + msg[min(q.at+len(q.spelling.Text), sdkMessageCut):]
	}
	return msg + "…"
}

func (q quote) String() string { return fmt.Sprintf("%s at byte %d", q.spelling.Name, q.at) }

// writeQuote answers with q's message in JSON: a 401, or for every other
// offset a 500, retried at once (Retry-After: 0) until the SDK gives up.
func writeQuote(w http.ResponseWriter, q quote) {
	body, _ := json.Marshal(map[string]string{"message": q.message()})
	w.Header().Set("Content-Type", "application/json")
	status := http.StatusUnauthorized
	if q.at%2 == 1 {
		status = http.StatusInternalServerError
		w.Header().Set("Retry-After", "0")
	}
	w.WriteHeader(status)
	w.Write(body)
}

// TestKeyMaskedInEverySpellingAroundTheCut: a server whose 401 or 500
// quotes the key, in any spelling, at any byte around the 500 bytes at
// which the SDK cuts its message, gets neither the key nor the piece the
// cut left of it shown by orders list, nor by sync --db of one website:
// the output holds the message as cut, the spelling masked. A sync opens
// its database each time, so it takes a sample: each spelling across the
// cut, and the key as itself at every byte around it.
func TestKeyMaskedInEverySpellingAroundTheCut(t *testing.T) {
	key := quotingKey(0)
	var mu sync.Mutex
	var current quote
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		q := current
		mu.Unlock()
		writeQuote(w, q)
	}))
	t.Cleanup(srv.Close)
	env := map[string]string{envBaseURL: srv.URL, envAPIKey: key, envWebsiteID: "77"}
	all := quotes(key)
	var sample []quote
	for _, q := range all {
		if q.spelling.Name == "itself" || q.at == sdkMessageCut-len(q.spelling.Text)/2 {
			sample = append(sample, q)
		}
	}
	db := filepath.Join(t.TempDir(), "m.db")
	for _, c := range []struct {
		args   []string
		quotes []quote
	}{{[]string{"orders", "list"}, all}, {[]string{"sync", "--db", db}, sample}} {
		for _, q := range c.quotes {
			mu.Lock()
			current = q
			mu.Unlock()
			stdout, stderr, code := cli{env: env}.run(context.Background(), c.args...)
			out := stdout + stderr
			if code != exitFailure || !strings.Contains(out, q.shown()) || strings.Contains(out, q.spelling.Text) {
				t.Fatalf("%q, %v: exit %d (want 1), output %q; want it to hold %q", c.args, q, code, out, q.shown())
			}
		}
	}
}

// TestSyncFleetCLIMasksKeysInEverySpellingAroundTheCut: in a fleet whose
// server quotes each website's own key around the SDK's cut of its
// message (a website for each case), neither the key nor the piece the
// cut left of it shows in the website's line or in its row of
// mirror_runs, which hold the message as cut, the spelling masked; in
// SQLite and in PostgreSQL. The cases: each spelling wholly before the
// cut, across it by half and by one byte; and the key spelled by a
// mixture of escapes at every byte around it.
func TestSyncFleetCLIMasksKeysInEverySpellingAroundTheCut(t *testing.T) {
	// The spellings of every website's key have the same lengths.
	var cases []quote
	for _, q := range quotes(quotingKey(0)) {
		if n := len(q.spelling.Text); q.spelling.Name == "mixed by character" || q.at == sdkMessageCut-n || q.at == sdkMessageCut-n/2 || q.at == sdkMessageCut-1 {
			cases = append(cases, q)
		}
	}
	byWebsite := map[int64]quote{}
	var file strings.Builder
	for i, c := range cases {
		id, key := int64(1000+i), quotingKey(i)
		q := quote{at: c.at}
		for _, sp := range secretmasktest.Spellings(key) {
			if sp.Name == c.spelling.Name {
				q.spelling = sp
			}
		}
		byWebsite[id] = q
		fmt.Fprintf(&file, "%d %s\n", id, key)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		site, _, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/websites/"), "/")
		id, _ := strconv.ParseInt(site, 10, 64)
		writeQuote(w, byWebsite[id])
	}))
	t.Cleanup(srv.Close)
	websites := websitesFile(t, file.String())
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		env := map[string]string{envBaseURL: srv.URL, envAPIKey: "ignored-with-websites", envWebsiteID: "77"}
		stdout, stderr, code := cli{env: env}.run(context.Background(), "sync", "--db", target, "--websites", websites, "--parallel", "8")
		if code != exitFailure {
			t.Fatalf("exit %d, want 1:\n%s", code, stderr)
		}
		lines, _ := fleetLines(t, stdout)
		runs := runsOf(t, be.Open(t, target))
		for id, q := range byWebsite {
			line, run := lines[fmt.Sprint(id)], runs[id]
			if !strings.Contains(line, q.shown()) || strings.Contains(line, q.spelling.Text) {
				t.Errorf("website %d, %v: line %q; want it to hold %q", id, q, line, q.shown())
			}
			if len(run) != 1 || !strings.Contains(run[0], q.shown()) || strings.Contains(run[0], q.spelling.Text) {
				t.Errorf("website %d, %v: mirror_runs %q; want the failure, holding %q", id, q, run, q.shown())
			}
		}
		if strings.Contains(stderr, "Ab+/") {
			t.Errorf("stderr shows a key: %s", stderr)
		}
	})
}

// TestFilesDownloadMasksTheKeyAFileHostQuotes: a file on the API's origin
// (which gets the key) refused by a 401 that quotes the key, in every
// spelling, the last cut by the SDK, is named in a line that shows none of
// them.
func TestFilesDownloadMasksTheKeyAFileHostQuotes(t *testing.T) {
	// A bare handler: its links take the origin of the request, the front's.
	h := ordermsgtest.NewHandler(ordermsgtest.Generate(ordermsgtest.Config{Seed: 42, Websites: 1, OrdersPerWebsite: 12, MessagesPerWebsite: 16}))
	site := h.Dataset().Websites[0]
	var quoted []string
	for _, sp := range secretmasktest.Spellings(site.APIKey) {
		quoted = append(quoted, sp.Text)
	}
	body, _ := json.Marshal(map[string]string{"message": "the key " + strings.Join(quoted, " ; ")})
	front := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/files/") {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			w.Write(body)
			return
		}
		h.ServeHTTP(w, r)
	})
	env := map[string]string{envBaseURL: newLoopback(t, front), envAPIKey: site.APIKey, envWebsiteID: fmt.Sprint(site.ID)}
	_, stderr, code := cli{env: env}.run(context.Background(), "files", "download", "-o", t.TempDir(), "--concurrency", "1")
	if code != exitFailure || !strings.Contains(stderr, "401 Unauthorized: the key xxxxx ; xxxxx ;") || !strings.Contains(stderr, " ; xxxxx…") {
		t.Fatalf("exit %d (want 1), stderr %q: want each file's line with the key masked", code, stderr)
	}
	for _, q := range quoted {
		if strings.Contains(stderr, q) {
			t.Errorf("stderr holds %q:\n%s", q, stderr)
		}
	}
}

// TestShortKeyIsNotMasked: a key shorter than 8 bytes is masked nowhere,
// for its spellings are common text: a server's message that holds it
// shows as it is, in the error a command ends with and in a fleet's line.
func TestShortKeyIsNotMasked(t *testing.T) {
	const key = "Order12"
	message := "Order12 of page %4F: see Order1…"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := json.Marshal(map[string]string{"message": message})
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusForbidden)
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	env := map[string]string{envBaseURL: srv.URL, envAPIKey: key, envWebsiteID: "77"}
	if _, stderr, code := (cli{env: env}).run(context.Background(), "orders", "list"); code != exitFailure || !strings.Contains(stderr, message) {
		t.Errorf("orders list: exit %d, stderr %q; want 1 and the message as sent", code, stderr)
	}
	websites := websitesFile(t, "77 "+key+"\n")
	stdout, stderr, code := cli{env: env}.run(context.Background(), "sync", "--db", filepath.Join(t.TempDir(), "m.db"), "--websites", websites)
	if code != exitFailure || !strings.Contains(stdout, message) {
		t.Errorf("sync --websites: exit %d, output %q; want 1 and the message as sent", code, stdout+stderr)
	}
}
