package mirror

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"os"
	"syscall"
	"time"
)

// In SQLite, which has no advisory locks, the runs of a website's table
// take turns through a lease, as they do through an advisory lock in
// PostgreSQL (see Mirror.lock): a row of mirror_leases names the process
// (host and pid) and the run (a random token) that holds it, and until
// when. The run moves that time on while it holds the lease, and deletes
// the row when done. A lease whose time is past is anyone's, and so is one
// held by a process of this host that no longer runs (a run killed with
// kill -9), so that the next run need not wait out the lease.
//
// Runs of a table take turns so that an older read never overwrites a
// newer one: a run that found a record unchanged writes nothing (not even
// the time of its read), and a run that read the record before it, and
// finds it changed, must not write after it.

// leaseTime is how long a lease lasts unless moved on; its run moves it on
// every leaseTime/4.
const leaseTime = time.Minute

// leaseWaited, when set (by the tests), is called each time a run finds
// the lease it wants held by another.
var leaseWaited func()

// lease takes the lease of a website's resource, in SQLite, on conn,
// waiting for it while another run holds it, and returns its release.
func (m *Mirror) lease(ctx context.Context, conn *sql.Conn, site int64, resource string) (release func(), err error) {
	pause := 5 * time.Millisecond
	for {
		release, err := m.tryLease(ctx, conn, site, resource)
		if err != nil || release != nil {
			return release, err
		}
		if leaseWaited != nil {
			leaseWaited()
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(pause):
		}
		pause = min(2*pause, 500*time.Millisecond)
	}
}

// tryLease takes the lease of a website's resource, in SQLite, on conn,
// unless another run holds it, and returns its release: nil when it is
// held. The lease is moved on while it is held from a connection of its
// own, as conn may be in a transaction or waiting for SQLite's write lock.
func (m *Mirror) tryLease(ctx context.Context, conn *sql.Conn, site int64, resource string) (release func(), err error) {
	token := rand.Text()
	took, err := m.takeLease(ctx, conn, site, resource, token)
	if err != nil || !took {
		return nil, err
	}
	renewCtx, stop := context.WithCancel(context.WithoutCancel(ctx))
	renewed := make(chan struct{})
	go func() {
		defer close(renewed)
		tick := time.NewTicker(leaseTime / 4)
		defer tick.Stop()
		for {
			select {
			case <-renewCtx.Done():
				return
			case <-tick.C:
				// A failure leaves the lease to run out; the next tick
				// tries again.
				m.withConn(renewCtx, func(c *sql.Conn) error {
					_, err := c.ExecContext(renewCtx, "UPDATE mirror_leases SET expires_at = ? WHERE website_id = ? AND resource = ? AND token = ?",
						SQLite.value(typeStamp, time.Now().Add(leaseTime)), site, resource, token)
					return err
				})
			}
		}
	}()
	return func() {
		stop()
		<-renewed
		// When conn has ended, another connection releases the lease,
		// which would otherwise hold the website's next runs for
		// leaseTime.
		ctx := context.WithoutCancel(ctx)
		m.onConnOrAnother(ctx, conn, func(c *sql.Conn) error {
			_, err := c.ExecContext(ctx, "DELETE FROM mirror_leases WHERE website_id = ? AND resource = ? AND token = ?", site, resource, token)
			return err
		})
	}, nil
}

// takeLease takes the lease for the run of token, in one transaction,
// unless another run holds it, and reports whether it took it.
func (m *Mirror) takeLease(ctx context.Context, conn *sql.Conn, site int64, resource, token string) (took bool, err error) {
	host, _ := os.Hostname()
	err = inTx(ctx, SQLite, conn, func() error {
		var holderHost, expires string
		var pid int
		err := conn.QueryRowContext(ctx, "SELECT host, pid, expires_at FROM mirror_leases WHERE website_id = ? AND resource = ?",
			site, resource).Scan(&holderHost, &pid, &expires)
		switch {
		case errors.Is(err, sql.ErrNoRows):
		case err != nil:
			return err
		case expires > SQLite.value(typeStamp, time.Now()).(string) && (holderHost != host || running(pid)):
			return nil // held
		}
		_, err = conn.ExecContext(ctx, `INSERT INTO mirror_leases (website_id, resource, host, pid, token, expires_at) VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (website_id, resource) DO UPDATE SET host = excluded.host, pid = excluded.pid, token = excluded.token, expires_at = excluded.expires_at`,
			site, resource, host, os.Getpid(), token, SQLite.value(typeStamp, time.Now().Add(leaseTime)))
		took = err == nil
		return err
	})
	return took, err
}

// running reports whether a process of this host with the given id runs:
// one that cannot be signalled for another reason (another user's) runs.
func running(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	return !errors.Is(p.Signal(syscall.Signal(0)), os.ErrProcessDone)
}
