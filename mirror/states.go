package mirror

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// WebsiteState is the state of a website's runs, as the view
// mirror_website_states gives it: a row per website that has a run in
// mirror_runs.
type WebsiteState struct {
	WebsiteID int64
	// LastSuccess is when the website's last successful run finished; zero
	// when none succeeded.
	LastSuccess time.Time
	// LastStarted and LastFinished bound its last run.
	LastStarted, LastFinished time.Time
	// LastStatus is the status of its last run: "ok" or "failed".
	LastStatus string
	// LastError is the text of its last run's failure, with the secrets of
	// that run masked (Options.Secrets, Website.Secrets); "" when it
	// succeeded.
	LastError string
	// ConsecutiveFailures is the number of its runs that failed since its
	// last success (every run, when none succeeded): 0 when its last run
	// succeeded.
	ConsecutiveFailures int
}

// WebsiteStates reads the state of every website that has a run in
// mirror_runs, ordered by website id, from the view mirror_website_states.
// The view reads a few rows of mirror_runs per website, however long its
// history, and the failures since its last success. Errors match
// ErrDatabase.
func (m *Mirror) WebsiteStates(ctx context.Context) ([]WebsiteState, error) {
	rows, err := m.db.QueryContext(ctx, `SELECT website_id, last_success_at, last_run_started_at, last_run_finished_at,
		last_status, last_error, consecutive_failures FROM mirror_website_states ORDER BY website_id`)
	if err != nil {
		return nil, dbErrOf(ctx, fmt.Errorf("mirror: reading the websites' states: %w", err))
	}
	defer rows.Close()
	var out []WebsiteState
	for rows.Next() {
		var s WebsiteState
		var success, started, finished stamp
		var text sql.NullString
		if err := rows.Scan(&s.WebsiteID, &success, &started, &finished, &s.LastStatus, &text, &s.ConsecutiveFailures); err != nil {
			return nil, dbErrOf(ctx, fmt.Errorf("mirror: reading the websites' states: %w", err))
		}
		s.LastSuccess, s.LastStarted, s.LastFinished, s.LastError = success.t, started.t, finished.t, text.String
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		return nil, dbErrOf(ctx, fmt.Errorf("mirror: reading the websites' states: %w", err))
	}
	return out, nil
}

// stamp scans a time of mirror_runs: a timestamptz (PostgreSQL) or its
// UTC text (SQLite: stampLayout, or any RFC 3339 time a row was given);
// NULL is the zero time.
type stamp struct{ t time.Time }

// Scan reads a time.Time, RFC 3339 text as a string or []byte, or NULL.
func (s *stamp) Scan(v any) error {
	var err error
	switch v := v.(type) {
	case nil:
		s.t = time.Time{}
	case time.Time:
		s.t = v.UTC()
	case string:
		s.t, err = parseStamp(v)
	case []byte:
		s.t, err = parseStamp(string(v))
	default:
		err = fmt.Errorf("mirror: a time of mirror_runs of type %T", v)
	}
	return err
}

// OpenExisting is Open for a database that holds a mirror already, for
// those that only read it (ordermsg status): a database that holds none
// of the mirror's tables is refused with an error that matches ErrSchema,
// and left as it was, where Open would make them. A mirror of an earlier
// version is upgraded in place, as Open does.
func OpenExisting(ctx context.Context, db *sql.DB, backend Backend) (*Mirror, error) {
	if !backend.valid() {
		return nil, fmt.Errorf("mirror: unknown backend %v", backend)
	}
	m := &Mirror{db: db, backend: backend, ops: backend.ops()}
	err := m.withConn(ctx, func(conn *sql.Conn) error {
		version, err := schemaVersion(ctx, backend, conn)
		if err == nil && version == 0 {
			err = fmt.Errorf("%w: it holds no mirror (none of its tables)", ErrSchema)
		}
		return err
	})
	if err != nil {
		return nil, dbErrOf(ctx, err)
	}
	return Open(ctx, db, backend)
}

// parseStamp reads RFC 3339 text, in UTC.
func parseStamp(text string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, text)
	return t.UTC(), err
}
