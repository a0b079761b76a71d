package mirror

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// ErrOtherSource is matched (errors.Is) by the *SourceError of a Sync from
// another base URL than the website's records came from.
var ErrOtherSource = errors.New("mirror: the website is mirrored from another base URL")

// SourceError is the error of a Sync of a website whose records came from
// another base URL than the client's: the same website id at another
// service (staging and production, two fakes) would mix other records into
// the mirror. Nothing was written. When the service really moved, run
// with Options.BaseURLMoved (ordermsg sync --base-url-moved).
type SourceError struct {
	WebsiteID int64
	// Recorded is the base URL the website is mirrored from, Given the
	// client's.
	Recorded, Given string
}

// Error names the website and both URLs, and what to do.
func (e *SourceError) Error() string {
	return fmt.Sprintf("mirror: website %d is mirrored from %s, not from %s: a mirror keeps one source per website, "+
		"so that the records of two services never mix; if the service really moved to %s, run with BaseURLMoved "+
		"(ordermsg sync --base-url-moved) once", e.WebsiteID, e.Recorded, e.Given, e.Given)
}

// Is makes errors.Is(err, ErrOtherSource) true.
func (e *SourceError) Is(target error) bool { return target == ErrOtherSource }

// checkSource checks, before any write, that the website is mirrored from
// the client's base URL, and records it when the website has none yet (its
// first run, or the first since an earlier version) or the service moved.
func (r *run) checkSource(ctx context.Context) error {
	given := r.c.BaseURL() // in one spelling: scheme and host in lower case, no default port
	b := r.m.backend
	recordedQuery := b.rebind("SELECT base_url FROM website_sources WHERE website_id = ?")
	return r.withConn(ctx, func(conn *sql.Conn) error {
		// Every run but a website's first finds its base URL recorded
		// already: one read, with no transaction, says so.
		var recorded string
		err := conn.QueryRowContext(ctx, recordedQuery, r.site).Scan(&recorded)
		switch {
		case err == nil && recorded == given:
			return nil
		case err != nil && !errors.Is(err, sql.ErrNoRows):
			return dbErrOf(ctx, err)
		}
		return inTx(ctx, b, conn, func() error {
			// A second run at once waits here for the first's row.
			_, err = conn.ExecContext(ctx, b.rebind(`INSERT INTO website_sources (website_id, base_url, recorded_at) VALUES (?, ?, ?)
				ON CONFLICT (website_id) DO NOTHING`), r.site, given, b.value(typeStamp, time.Now()))
			if err != nil {
				return dbErrOf(ctx, err)
			}
			err = conn.QueryRowContext(ctx, recordedQuery, r.site).Scan(&recorded)
			switch {
			case err != nil:
				return dbErrOf(ctx, err)
			case recorded == given:
				return nil
			case !r.opts.BaseURLMoved:
				return &SourceError{WebsiteID: r.site, Recorded: recorded, Given: given}
			}
			_, err = conn.ExecContext(ctx, b.rebind("UPDATE website_sources SET base_url = ?, recorded_at = ? WHERE website_id = ?"),
				given, b.value(typeStamp, time.Now()), r.site)
			return dbErrOf(ctx, err)
		})
	})
}
