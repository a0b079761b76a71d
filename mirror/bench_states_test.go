package mirror_test

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
)

// statesWebsites and statesRuns are the fleet of BenchmarkWebsiteStates:
// 300 websites with 1,000 runs each, a run every 5 minutes for 3.5 days,
// every seventh one failed.
const statesWebsites, statesRuns = 300, 1000

// fillRuns fills mirror_runs with the history of statesWebsites websites,
// in the database itself.
func fillRuns(b *testing.B, be mirrortest.Backend, db *sql.DB) {
	b.Helper()
	q := `INSERT INTO mirror_runs (website_id, started_at, finished_at, status, new_records, updated_records, deleted_records, error)
		SELECT w, timestamptz '2026-01-01 00:00:00Z' + (r * interval '5 minutes'), timestamptz '2026-01-01 00:00:01Z' + (r * interval '5 minutes'),
			CASE WHEN r % 7 = 3 THEN 'failed' ELSE 'ok' END, 1, 0, 0, CASE WHEN r % 7 = 3 THEN 'ordermsg: 503 Service Unavailable' END
		FROM generate_series(1, $1) w, generate_series(1, $2) r`
	if be.Backend == mirror.SQLite {
		q = `WITH RECURSIVE w(w) AS (SELECT 1 UNION ALL SELECT w + 1 FROM w WHERE w < ?1),
			r(r) AS (SELECT 1 UNION ALL SELECT r + 1 FROM r WHERE r < ?2)
		INSERT INTO mirror_runs (website_id, started_at, finished_at, status, new_records, updated_records, deleted_records, error)
		SELECT w, strftime('%Y-%m-%dT%H:%M:%S.000000Z', '2026-01-01 00:00:00', (r * 5) || ' minutes'),
			strftime('%Y-%m-%dT%H:%M:%S.000000Z', '2026-01-01 00:00:01', (r * 5) || ' minutes'),
			CASE WHEN r % 7 = 3 THEN 'failed' ELSE 'ok' END, 1, 0, 0, CASE WHEN r % 7 = 3 THEN 'ordermsg: 503 Service Unavailable' END
		FROM w, r`
	}
	if _, err := db.Exec(q, statesWebsites, statesRuns); err != nil {
		b.Fatal(err)
	}
	// What autovacuum does to an old table: PostgreSQL's index-only scans
	// then skip the table's pages.
	analyze := "VACUUM ANALYZE mirror_runs"
	if be.Backend == mirror.SQLite {
		analyze = "ANALYZE"
	}
	if _, err := db.Exec(analyze); err != nil {
		b.Fatal(err)
	}
}

// groupedStates is what a query of mirror_runs without the view's index
// walk computes, in part: each website's last run and last success, by
// grouping every row. It is the benchmark's peer.
const groupedStates = `SELECT website_id, max(finished_at), max(CASE WHEN status = 'ok' THEN finished_at END)
	FROM mirror_runs GROUP BY website_id`

// BenchmarkWebsiteStates reads the states of 300 websites with 1,000 runs
// each (300,000 rows of mirror_runs) through Mirror.WebsiteStates, and, in
// the same iterations, runs its peer: a GROUP BY of mirror_runs that
// computes less (no status, error or failures) but reads every row. It
// reports the milliseconds of each and their ratio, states/grouped: the
// view reads a few rows per website, so its time does not grow with the
// length of the history.
func BenchmarkWebsiteStates(b *testing.B) {
	for _, be := range mirrortest.Backends() {
		b.Run(be.Name, func(b *testing.B) {
			db := be.Open(b, be.New(b))
			m := openMirror(b, be, db)
			fillRuns(b, be, db)
			ctx := context.Background()
			var statesTime, groupedTime time.Duration
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				start := time.Now()
				states, err := m.WebsiteStates(ctx)
				if err != nil || len(states) != statesWebsites {
					b.Fatalf("%d states, %v", len(states), err)
				}
				statesTime += time.Since(start)

				start = time.Now()
				n := 0
				for _, row := range rowValues(b, db, groupedStates) {
					n += len(row) / 3
				}
				if n != statesWebsites {
					b.Fatalf("the grouped query: %d websites", n)
				}
				groupedTime += time.Since(start)
			}
			b.ReportMetric(statesTime.Seconds()*1000/float64(b.N), "states-ms")
			b.ReportMetric(groupedTime.Seconds()*1000/float64(b.N), "grouped-ms")
			b.ReportMetric(statesTime.Seconds()/groupedTime.Seconds(), "states/grouped")
		})
	}
}
