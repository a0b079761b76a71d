package webhook_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"

	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/mirror/webhook"
)

// testSecret is a secret of 32 bytes, as `openssl rand -base64 32` writes.
const testSecret = "whsec_dGhpcy1pcy1hLXRlc3Qtc2VjcmV0LW9mLTMyLWJ5dGU="

// fakeChanges is a change feed in memory: cursor i is "c" and i in ten
// digits, and its line names i.
type fakeChanges struct {
	mu    sync.Mutex
	lines []string
}

func (f *fakeChanges) add(n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for range n {
		i := len(f.lines) + 1
		f.lines = append(f.lines, fmt.Sprintf(`{"cursor":%q,"website_id":1,"resource":"orders","id":%d,"change":"new","at":"2026-11-28T03:00:00Z","record":{"id":%d}}`, cursorOf(i), i, i))
	}
}

func cursorOf(i int) string { return fmt.Sprintf("c%010d", i) }

func indexOf(cursor string) int {
	i, err := strconv.Atoi(strings.TrimPrefix(cursor, "c"))
	if err != nil {
		return 0
	}
	return i
}

func (f *fakeChanges) After(_ context.Context, cursor string, limit int) ([]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for i := indexOf(cursor) + 1; i <= len(f.lines) && len(out) < limit; i++ {
		out = append(out, cursorOf(i))
	}
	return out, nil
}

func (f *fakeChanges) Line(_ context.Context, cursor string) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	i := indexOf(cursor)
	if i < 1 || i > len(f.lines) {
		return nil, fmt.Errorf("cursor %s: %w", cursor, webhook.ErrNoChange)
	}
	return []byte(f.lines[i-1]), nil
}

// verifySW checks a request as a Standard Webhooks receiver does, written
// from the specification alone: the secret's bytes are the base64 after
// whsec_; the signed content is id.timestamp.body; the header holds
// space-separated "v1,<base64 HMAC-SHA256>" of which one must match; the
// timestamp must be within 5 minutes of now.
func verifySW(secret string, h http.Header, body []byte) error {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil {
		return err
	}
	id, ts, sigs := h.Get("webhook-id"), h.Get("webhook-timestamp"), h.Get("webhook-signature")
	if id == "" || ts == "" || sigs == "" {
		return fmt.Errorf("missing headers: id %q timestamp %q signature %q", id, ts, sigs)
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return fmt.Errorf("timestamp %q: %v", ts, err)
	}
	if d := time.Since(time.Unix(sec, 0)); math.Abs(d.Seconds()) > 300 {
		return fmt.Errorf("timestamp %s is %s away", ts, d)
	}
	mac := hmac.New(sha256.New, key)
	io.WriteString(mac, id+"."+ts+"."+string(body))
	want := base64.StdEncoding.EncodeToString(mac.Sum(nil))
	for _, s := range strings.Fields(sigs) {
		version, sig, _ := strings.Cut(s, ",")
		if version == "v1" && hmac.Equal([]byte(sig), []byte(want)) {
			return nil
		}
	}
	return fmt.Errorf("no signature matches in %q", sigs)
}

// fastSchedule retries at once, so that tests wait on nothing but River.
var fastSchedule = webhook.Schedule{First: time.Millisecond, Max: 2 * time.Millisecond, GiveUpAfter: time.Hour}

// pgRiver is a PostgreSQL database of its own with River's tables and
// mirror_webhook_cursors, and a started River client working d's queues.
type pgRiver struct {
	pool   *pgxpool.Pool
	client *river.Client[pgx.Tx]
	store  webhook.PgxStore
}

func newPGRiver(t testing.TB, d *webhook.Deliverer) *pgRiver {
	t.Helper()
	ctx := context.Background()
	target := mirrortest.Backends()[1].New(t)
	pool, err := pgxpool.New(ctx, target)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	migrator, err := rivermigrate.New(riverpgxv5.New(pool), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := migrator.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		t.Fatal(err)
	}
	store := webhook.PgxStore{Pool: pool}
	if err := store.CreateTable(ctx); err != nil {
		t.Fatal(err)
	}
	workers, queues := fastWorkers(t, d)
	client, err := river.NewClient(riverpgxv5.New(pool), &river.Config{
		Queues:  queues,
		Workers: workers,
		Logger:  slog.New(slog.DiscardHandler),
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := client.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		client.StopAndCancel(ctx)
	})
	return &pgRiver{pool: pool, client: client, store: store}
}

// waitFor fails the test when done is not closed within a minute: a
// bound on a hang, not a timing assertion.
func waitFor(t testing.TB, done <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatalf("gave up waiting for %s", what)
	}
}

// fastWorkers registers d with new workers and returns them with d's
// queues, each polled every 20 ms so that tests need not wait on River.
func fastWorkers(t testing.TB, d *webhook.Deliverer) (*river.Workers, map[string]river.QueueConfig) {
	t.Helper()
	workers := river.NewWorkers()
	if err := d.Register(workers); err != nil {
		t.Fatal(err)
	}
	queues := d.Queues()
	for name, q := range queues {
		q.FetchPollInterval = 20 * time.Millisecond
		queues[name] = q
	}
	return workers, queues
}
