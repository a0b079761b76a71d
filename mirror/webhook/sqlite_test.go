package webhook_test

import (
	"context"
	"database/sql"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"
	_ "modernc.org/sqlite"

	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/mirror/webhook"
)

// TestDeliverySQLite: on SQLite, through River's riversqlite driver over
// modernc.org/sqlite (the mirror's driver), the same deliveries as on
// PostgreSQL: three 500s, then every change, verified, under its id.
func TestDeliverySQLite(t *testing.T) {
	const n = 10
	rc := newReceiver(t, 3, n)
	srv := httptest.NewServer(rc)
	defer srv.Close()
	changes := &fakeChanges{}
	changes.add(n)
	d, err := webhook.NewDeliverer(changes, []webhook.Endpoint{{URL: srv.URL, Secret: mustSecret(t)}}, webhook.WithSchedule(fastSchedule))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	db, err := sql.Open("sqlite", mirrortest.SQLiteDSN(filepath.Join(t.TempDir(), "mirror.db")))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	migrator, err := rivermigrate.New(riversqlite.New(db), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := migrator.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		t.Fatal(err)
	}
	store := webhook.SQLiteStore{DB: db}
	if err := store.CreateTable(ctx); err != nil {
		t.Fatal(err)
	}
	workers, queues := fastWorkers(t, d)
	client, err := river.NewClient(riversqlite.New(db), &river.Config{Queues: queues, Workers: workers, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	if err := client.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer client.StopAndCancel(ctx)
	if got, err := webhook.Enqueue(ctx, client, store, d); err != nil || got != n {
		t.Fatalf("Enqueue = %d, %v; want %d", got, err, n)
	}
	waitFor(t, rc.done, "every change delivered")
	rc.mu.Lock()
	defer rc.mu.Unlock()
	for i := 1; i <= n; i++ {
		line, _ := changes.Line(ctx, cursorOf(i))
		if got := rc.byID[webhook.DeliveryID(cursorOf(i))]; got != string(line) {
			t.Errorf("change %d: delivered %q, want %q", i, got, line)
		}
	}
	if again, err := webhook.Enqueue(ctx, client, store, d); err != nil || again != 0 {
		t.Errorf("a second Enqueue = %d, %v; want 0", again, err)
	}
}
