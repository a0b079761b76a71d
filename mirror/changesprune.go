package mirror

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// PruneChanges removes the changes recorded before before, and returns how
// many it removed. A cursor older than the newest change removed is then
// refused (a *CursorError matching ErrCursorExpired), never read on from
// with a gap. In PostgreSQL it removes only changes that a follower may
// read already (see Changes). ordermsg sync --keep-changes calls it after
// its run.
func (m *Mirror) PruneChanges(ctx context.Context, before time.Time) (int64, error) {
	var removed int64
	err := m.withConn(ctx, func(conn *sql.Conn) error {
		if m.ops.oneWriter() {
			m.writes.Lock()
			defer m.writes.Unlock()
		}
		return inTx(ctx, m.backend, conn, func() error {
			var err error
			removed, err = m.ops.prune(ctx, conn, m.backend.value(typeStamp, before))
			return err
		})
	})
	if err != nil {
		return 0, dbErrOf(ctx, fmt.Errorf("mirror: removing the changes recorded before %s: %w", before.UTC().Format(time.RFC3339), err))
	}
	return removed, nil
}
