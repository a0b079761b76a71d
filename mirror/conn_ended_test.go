package mirror_test

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// TestConnectionEndedUnderAWriter: a SQLite driver that says a writer's
// connection has ended (driver.ErrBadConn) as a batch saves its
// checkpoint fails the run with ErrDatabase, and the next run, at once,
// mirrors every record. The batch's INSERTs are closed before database/sql
// ends the connection: an INSERT prepared on it and left open kept its
// transaction's write lock until the process ended (and closing it after
// the connection crashed modernc.org/sqlite). The leases that the ended
// connection held are released from another, so the next run does not
// wait for them.
func TestConnectionEndedUnderAWriter(t *testing.T) {
	be := sqliteBackend(t)
	target := be.New(t)
	plain := be.Open(t, target)
	var armed atomic.Bool
	db := sql.OpenDB(endingConnector{countingConnector{d: plain.Driver(), dsn: mirrortest.SQLiteDSN(target), s: &statements{}}, &armed})
	t.Cleanup(func() { db.Close() })
	srv := newFake(t, ordermsgtest.Config{Seed: 3, Websites: 1, OrdersPerWebsite: 5, MessagesPerWebsite: 5})
	s := siteOf(t, srv, 0)
	m := openMirror(t, be, db)
	syncSite(t, m, s, nil)
	added := srv.AddOrders(3)
	armed.Store(true)
	_, err := m.Sync(context.Background(), s.c, s.id, nil)
	if !errors.Is(err, mirror.ErrDatabase) || !errors.Is(err, driver.ErrBadConn) {
		t.Fatalf("Sync with its connection ended: %v; want ErrDatabase and driver.ErrBadConn", err)
	}
	if armed.Load() {
		t.Fatal("no checkpoint was saved")
	}
	mirror.OnLeaseWait(t, func() { t.Error("the next run waited for a lease") })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := m.Sync(ctx, s.c, s.id, nil); err != nil {
		t.Fatalf("the run after: %v", err)
	}
	if n := count(t, db, "SELECT count(*) FROM orders"); n != 5+len(added) {
		t.Errorf("%d orders mirrored; want %d", n, 5+len(added))
	}
	sameRecords(t, db, s)
}

// endingConnector makes connections that say, once armed, that they have
// ended, when asked to save a checkpoint.
type endingConnector struct {
	countingConnector
	armed *atomic.Bool
}

func (k endingConnector) Connect(ctx context.Context) (driver.Conn, error) {
	c, err := k.countingConnector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &endingConn{c.(*countingConn), k.armed}, nil
}

// endingConn is a connection of endingConnector.
type endingConn struct {
	*countingConn
	armed *atomic.Bool
}

func (c *endingConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	if strings.HasPrefix(query, "INSERT INTO sync_state") && c.armed.CompareAndSwap(true, false) {
		return nil, driver.ErrBadConn
	}
	return c.countingConn.ExecContext(ctx, query, args)
}
