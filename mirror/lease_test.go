package mirror_test

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// TestSQLiteLeases: in SQLite, runs of a website's table take turns
// through a lease (mirror_leases). A lease whose time is past, or held by a
// process of this host that no longer runs (a run killed with kill -9), is
// taken at once; one held by a live process is waited for, and taken once
// it is gone; and a run leaves no lease behind.
func TestSQLiteLeases(t *testing.T) {
	be := sqliteBackend(t)
	_, s, db, m := mirrorOf(t, be, be.New(t), ordermsgtest.Config{Seed: 3, OrdersPerWebsite: 5, MessagesPerWebsite: 5})
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	gone := exec.Command("go", "version")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	stamp := func(d time.Duration) string { return time.Now().Add(d).UTC().Format("2006-01-02T15:04:05.000000Z") }
	lease := func(resource, host string, pid int, expires string) {
		t.Helper()
		if _, err := db.Exec(`INSERT INTO mirror_leases (website_id, resource, host, pid, token, expires_at) VALUES (?, ?, ?, ?, 'other', ?)
			ON CONFLICT (website_id, resource) DO UPDATE SET host = excluded.host, pid = excluded.pid, expires_at = excluded.expires_at`,
			s.id, resource, host, pid, expires); err != nil {
			t.Fatal(err)
		}
	}
	waited := make(chan struct{}, 1)
	mirror.OnLeaseWait(t, func() {
		select {
		case waited <- struct{}{}:
		default:
		}
	})

	lease("orders", host, gone.Process.Pid, stamp(time.Hour))        // killed
	lease("messages", "elsewhere", os.Getpid(), stamp(-time.Second)) // past its time
	syncSite(t, m, s, nil)
	select {
	case <-waited:
		t.Errorf("a run waited for a lease of a process that no longer runs, or past its time")
	default:
	}
	if n := count(t, db, "SELECT count(*) FROM mirror_leases"); n != 0 {
		t.Errorf("%d leases left after the run", n)
	}

	lease("orders", host, os.Getpid(), stamp(time.Hour)) // a live run's
	done := make(chan error, 1)
	go func() {
		_, err := m.Sync(context.Background(), s.c, s.id, nil)
		done <- err
	}()
	<-waited
	select {
	case err := <-done:
		t.Fatalf("a run went on while another held its lease: %v", err)
	default:
	}
	// The held lease goes (not the messages', which the run holds).
	if _, err := db.Exec("DELETE FROM mirror_leases WHERE resource = 'orders' AND token = 'other'"); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("the run, once the lease was released: %v", err)
	}
}
