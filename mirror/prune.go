package mirror

import (
	"context"
	"fmt"
	"time"
)

// PruneRuns deletes the rows of mirror_runs of the runs that finished
// before the given time, and returns how many it deleted, so that the
// history of a worker that runs for years stays bounded. The state of a
// website (WebsiteStates) is read from the rows that remain: a website
// whose every run was pruned has none, and its last success is then
// unknown. Errors match ErrDatabase.
func (m *Mirror) PruneRuns(ctx context.Context, before time.Time) (int64, error) {
	b := m.backend
	res, err := m.db.ExecContext(ctx, b.rebind("DELETE FROM "+runsTable.name+" WHERE finished_at < ?"), b.value(typeStamp, before))
	if err != nil {
		return 0, dbErrOf(ctx, fmt.Errorf("mirror: pruning the runs before %s: %w", before.UTC().Format(time.RFC3339), err))
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, dbErrOf(ctx, fmt.Errorf("mirror: pruning the runs: %w", err))
	}
	return n, nil
}
