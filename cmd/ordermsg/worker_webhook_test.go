//go:build unix

package main

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/mirror/webhook"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// webhookSecret is a Standard Webhooks secret of 32 bytes.
const webhookSecret = "whsec_d2lyZS10aGUtd29ya2VyLXRvLWl0cy13ZWJob29rcyE="

// checkStandardWebhook checks a delivery as a Standard Webhooks receiver
// does, written from the specification alone: the key is the base64 after
// whsec_; the signed content is "id.timestamp.body"; webhook-signature
// holds space-separated "v1,<base64 HMAC-SHA256>", one of which must
// match; the timestamp is within five minutes of now.
func checkStandardWebhook(secret string, h http.Header, body []byte) error {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil {
		return err
	}
	id, ts, sigs := h.Get("webhook-id"), h.Get("webhook-timestamp"), h.Get("webhook-signature")
	if id == "" || ts == "" || sigs == "" {
		return fmt.Errorf("headers missing: id %q, timestamp %q, signature %q", id, ts, sigs)
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return fmt.Errorf("timestamp %q: %v", ts, err)
	}
	if d := time.Since(time.Unix(sec, 0)); math.Abs(d.Seconds()) > 300 {
		return fmt.Errorf("timestamp %s is %v away", ts, d)
	}
	mac := hmac.New(sha256.New, key)
	io.WriteString(mac, id+"."+ts+"."+string(body))
	want := base64.StdEncoding.EncodeToString(mac.Sum(nil))
	for _, s := range strings.Fields(sigs) {
		if version, sig, _ := strings.Cut(s, ","); version == "v1" && hmac.Equal([]byte(sig), []byte(want)) {
			return nil
		}
	}
	return fmt.Errorf("no signature of %q matches", sigs)
}

// webhookEndpoint answers 500 to the first failFirst attempts of each
// webhook-id, and to every attempt while down; then it checks the
// signature and keeps the body under its id.
type webhookEndpoint struct {
	failFirst int
	down      atomic.Bool

	mu       sync.Mutex
	attempts map[string]int
	bodies   map[string]string
	bad      []string
}

func (e *webhookEndpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	e.mu.Lock()
	defer e.mu.Unlock()
	id := r.Header.Get("webhook-id")
	e.attempts[id]++
	if e.attempts[id] <= e.failFirst || e.down.Load() {
		http.Error(w, "not now", http.StatusInternalServerError)
		return
	}
	if err := checkStandardWebhook(webhookSecret, r.Header, body); err != nil {
		e.bad = append(e.bad, err.Error())
		http.Error(w, err.Error(), http.StatusUnauthorized)
		return
	}
	e.bodies[id] = string(body)
}

// delivered is the number of changes delivered.
func (e *webhookEndpoint) delivered() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.bodies)
}

// secretFile writes text to a file of the given mode and returns its path.
func secretFile(t *testing.T, text string, mode os.FileMode) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "webhook.secret")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
	return path
}

// changeLines reads the changes m keeps, by webhook-id, as a delivery's
// body is: the line of ordermsg changes.
func changeLines(t *testing.T, m *mirror.Mirror) map[string]string {
	t.Helper()
	out := map[string]string{}
	for ch, err := range m.Changes(context.Background(), "", nil) {
		if err != nil {
			t.Fatal(err)
		}
		out[webhook.DeliveryID(ch.Cursor)] = string(ch.AppendJSON(nil))
	}
	return out
}

// TestWorkerDeliversWebhooks runs a PostgreSQL worker with --webhook-url,
// to a loopback endpoint that answers 500 three times to each change and
// then checks each signature as an independent Standard Webhooks receiver:
// every change of the first sync is delivered, once per webhook-id (each
// retry under the same id), its body the line of ordermsg changes; the
// metrics count them. Then the endpoint stays down and the new changes are
// pruned before their retry: their deliveries are given up, counted in
// ordermsg_webhook_failed_total, and ordermsg status says so and exits 1.
// The secret shows in no output.
func TestWorkerDeliversWebhooks(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command, and waits for three retries")
	}
	be := mirrortest.Backends()[1]
	target := be.New(t)
	srv, sites := fakeFleet(t, ordermsgtest.Config{Seed: 41, Websites: 1, OrdersPerWebsite: 4, MessagesPerWebsite: 3})
	file := websitesFile(t, fileOf(sites))
	ep := &webhookEndpoint{failFirst: 3, attempts: map[string]int{}, bodies: map[string]string{}}
	endpoint := httptest.NewServer(ep)
	defer endpoint.Close()
	addr := freeAddr(t)
	cmd, stdout, stderr := fleetWorker(t, srv.URL, target, file, "--every", "3s", "--metrics", addr,
		"--webhook-url", endpoint.URL+"/hooks", "--webhook-secret-file", secretFile(t, webhookSecret+"\n", 0o600))
	defer cmd.Process.Kill()
	db := be.Open(t, target)
	var zero time.Time
	waitUntil(t, time.Minute, "a first ok run", func() bool { return workerRuns(t, db, "ok", zero)[sites[0].ID] > 0 })
	m, err := mirror.OpenExisting(context.Background(), db, be.Backend)
	if err != nil {
		t.Fatal(err)
	}
	want := changeLines(t, m)
	if len(want) == 0 {
		t.Fatal("the first sync recorded no change")
	}
	waitUntil(t, time.Minute, "every change delivered", func() bool { return ep.delivered() >= len(want) })
	ep.mu.Lock()
	for id, line := range want {
		if ep.bodies[id] != line || ep.attempts[id] != 4 {
			t.Errorf("change %s: delivered %q in %d attempts, want %q in 4", id, ep.bodies[id], ep.attempts[id], line)
		}
	}
	if len(ep.bodies) != len(want) || len(ep.bad) > 0 {
		t.Errorf("%d deliveries of %d changes; signatures refused: %q", len(ep.bodies), len(want), ep.bad)
	}
	ep.mu.Unlock()
	families := scrapeURL(t, "http://"+addr+"/metrics")
	if n := value(t, families, "ordermsg_webhook_delivered_total"); n != float64(len(want)) {
		t.Errorf("ordermsg_webhook_delivered_total %v, want %d", n, len(want))
	}
	if r := runTool(t, nil, "status", "--db", target); r.code != exitOK || !strings.Contains(r.stdout, "webhooks: 0 changes given up") {
		t.Errorf("status with every change delivered: %v", r)
	}

	ep.down.Store(true)
	srv.Handler.AddOrders(sites[0].ID, 2)
	var added int
	waitUntil(t, time.Minute, "the new orders synced, and a failed attempt of each of their changes", func() bool {
		added = len(changeLines(t, m)) - len(want)
		ep.mu.Lock()
		defer ep.mu.Unlock()
		return added > 0 && len(ep.attempts) == len(want)+added
	})
	if _, err := m.PruneChanges(context.Background(), time.Now()); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, time.Minute, "the pruned changes given up", func() bool {
		f := scrapeURL(t, "http://"+addr+"/metrics")
		return f != nil && value(t, f, "ordermsg_webhook_failed_total") == float64(added)
	})
	givenUp := counted(added, "change")
	// River records a job's end just after its worker returns.
	var r result
	waitUntil(t, time.Minute, "status saying "+givenUp+" given up", func() bool {
		r = runTool(t, nil, "status", "--db", target)
		return strings.Contains(r.stdout, "webhooks: "+givenUp+" given up")
	})
	if r.code != exitFailure || !strings.Contains(r.stderr, givenUp+" never delivered") {
		t.Errorf("status with %s given up: %v, want exit 1 saying so", givenUp, r)
	}

	cmd.Process.Signal(syscall.SIGTERM)
	if code := exitCodeOf(t, cmd.Wait()); code != exitOK {
		t.Errorf("after SIGTERM: exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stderr.String(), "webhook delivery given up") {
		t.Errorf("the worker's log does not say a delivery was given up:\n%s", stderr)
	}
	if strings.Contains(stdout.String()+stderr.String(), strings.TrimPrefix(webhookSecret, "whsec_")) {
		t.Error("the worker printed the webhook secret")
	}
}

// TestWorkerRefusesBadWebhooks: an http:// URL to a host that is not
// loopback, a secret file that others may read, a URL without a secret
// file and a webhook flag without --every are usage errors (exit 2),
// and the secret shows in no message.
func TestWorkerRefusesBadWebhooks(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	srv, sites := fakeFleet(t, ordermsgtest.Config{Seed: 42, Websites: 1, OrdersPerWebsite: 1, MessagesPerWebsite: 1})
	file := websitesFile(t, fileOf(sites))
	db := filepath.Join(t.TempDir(), "m.db")
	good, unsafe := secretFile(t, webhookSecret, 0o600), secretFile(t, webhookSecret, 0o644)
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"--every", "1m", "--webhook-url", "http://hooks.example/in", "--webhook-secret-file", good}, "plain http"},
		{[]string{"--every", "1m", "--webhook-url", "https://hooks.example/in", "--webhook-secret-file", unsafe}, "let group or others read or write it"},
		{[]string{"--every", "1m", "--webhook-url", "https://hooks.example/in"}, "go together"},
		{[]string{"--webhook-url", "https://hooks.example/in", "--webhook-secret-file", good}, "--webhook-url goes with --every"},
	} {
		r := runTool(t, map[string]string{envBaseURL: srv.URL}, append([]string{"sync", "--db", db, "--websites", file}, c.args...)...)
		if r.code != exitUsage || !strings.Contains(r.stderr, c.says) {
			t.Errorf("%q: %v, want exit 2 saying %q", c.args, r, c.says)
		}
		if strings.Contains(r.stdout+r.stderr, strings.TrimPrefix(webhookSecret, "whsec_")) {
			t.Errorf("%q: the secret is printed", c.args)
		}
	}
}
