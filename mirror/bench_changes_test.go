package mirror_test

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"io"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// BenchmarkMirrorChanges mirrors the 10,000 orders and 10,000 messages of
// BenchmarkMirror, pages served as bytes, into two new databases of each
// backend: one with the changes recorded, one without (mirror.RecordChanges
// off, the mirror as it was before the feed). The two take turns at going
// first. It reports the median of the iterations' ratios, with ÷ without.
func BenchmarkMirrorChanges(b *testing.B) {
	const count = 100
	_, s := benchFake(b, true)
	exportJSONLines(b, s.c, s.id, b.TempDir()+"/warm.jsonl", count) // every page rendered once
	for _, be := range mirrortest.Backends() {
		b.Run(be.Name, func(b *testing.B) {
			var ratios []float64
			run := func(record bool) time.Duration {
				mirror.RecordChanges(b, record)
				m := openMirror(b, be, be.Open(b, be.New(b)))
				start := time.Now()
				if res := syncSite(b, m, s, &mirror.Options{PageSize: count}); res.Orders.New != orders || res.Messages.New != messages {
					b.Fatalf("%+v", res)
				}
				return time.Since(start)
			}
			for i := 0; b.Loop(); i++ {
				var with, without time.Duration
				if i%2 == 0 {
					with, without = run(true), run(false)
				} else {
					without, with = run(false), run(true)
				}
				ratios = append(ratios, with.Seconds()/without.Seconds())
			}
			b.ReportMetric(median(ratios), "with/without")
		})
	}
}

// BenchmarkChangesRead reads 100,000 changes (a real order's JSON each)
// with Changes, each written as the line of ordermsg changes, and as its
// peer the same rows with one plain SELECT, each written as a JSON line
// made by hand; the two take turns. It reports the median ratio.
func BenchmarkChangesRead(b *testing.B) {
	const n = 100000
	ds := ordermsgtest.Generate(ordermsgtest.Config{Seed: 9, Websites: 1, OrdersPerWebsite: 1})
	srv := ordermsgtest.NewServer(ds)
	b.Cleanup(srv.Close)
	record, err := rawOf(siteOf(b, srv, 0).c.Orders.GetRaw(context.Background(), srv.WebsiteID, ds.Websites[0].Orders[0].ID, nil))
	if err != nil {
		b.Fatal(err)
	}
	for _, be := range mirrortest.Backends() {
		b.Run(be.Name, func(b *testing.B) {
			db := be.Open(b, be.New(b))
			m := openMirror(b, be, db)
			fill := `WITH RECURSIVE g(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM g WHERE i < ?)
				INSERT INTO mirror_changes (website_id, resource, id, change, recorded_at, json)
				SELECT 1001, 'orders', i, 'new', '2026-11-28T03:00:00.000000Z', ? FROM g`
			order := "seq"
			if be.Backend == mirror.PostgreSQL {
				fill = `INSERT INTO mirror_changes (website_id, resource, id, change, recorded_at, json)
					SELECT 1001, 'orders', i, 'new', now(), $2::json FROM generate_series(1, $1) i`
				order = "xid, seq"
			}
			if _, err := db.Exec(fill, n, string(record)); err != nil {
				b.Fatal(err)
			}
			plain := fmt.Sprintf("SELECT seq, website_id, resource, id, change, recorded_at, CAST(record AS TEXT) FROM mirror_change_records ORDER BY %s", order)
			var ratios []float64
			for i := 0; b.Loop(); i++ {
				var feed, sel time.Duration
				if i%2 == 0 {
					feed, sel = readFeed(b, m, n), readPlain(b, db, plain, n)
				} else {
					sel, feed = readPlain(b, db, plain, n), readFeed(b, m, n)
				}
				ratios = append(ratios, feed.Seconds()/sel.Seconds())
			}
			b.ReportMetric(median(ratios), "changes/select")
		})
	}
}

// readFeed reads every change with Changes, writing each line.
func readFeed(b *testing.B, m *mirror.Mirror, n int) time.Duration {
	start := time.Now()
	out := bufio.NewWriterSize(io.Discard, 64<<10)
	got := 0
	var line []byte
	for c, err := range m.Changes(context.Background(), "", nil) {
		if err != nil {
			b.Fatal(err)
		}
		line = append(c.AppendJSON(line[:0]), '\n')
		out.Write(line)
		got++
	}
	out.Flush()
	if got != n {
		b.Fatalf("read %d changes", got)
	}
	return time.Since(start)
}

// readPlain reads the rows with one SELECT, writing each as a JSON line.
func readPlain(b *testing.B, db *sql.DB, q string, n int) time.Duration {
	start := time.Now()
	rows, err := db.Query(q)
	if err != nil {
		b.Fatal(err)
	}
	defer rows.Close()
	out := bufio.NewWriterSize(io.Discard, 64<<10)
	got := 0
	var line []byte
	for rows.Next() {
		var seq, site, id int64
		var resource, change string
		var at any
		var json []byte
		if err := rows.Scan(&seq, &site, &resource, &id, &change, &at, &json); err != nil {
			b.Fatal(err)
		}
		line = append(line[:0], `{"seq":`...)
		line = strconv.AppendInt(line, seq, 10)
		line = append(line, `,"website_id":`...)
		line = strconv.AppendInt(line, site, 10)
		line = append(line, `,"resource":"`+resource+`","id":`...)
		line = strconv.AppendInt(line, id, 10)
		line = append(line, `,"change":"`+change+`","at":"`+fmt.Sprint(at)+`","record":`...)
		line = append(append(line, json...), "}\n"...)
		out.Write(line)
		got++
	}
	if err := rows.Err(); err != nil || got != n {
		b.Fatalf("read %d rows: %v", got, err)
	}
	out.Flush()
	return time.Since(start)
}

// BenchmarkFollowLatency (PostgreSQL): a follower follows the feed while
// syncs, one after the other, each mirror one new order; for each change
// the time from when the writer recorded it (before its commit) to when
// the follower yields it. It reports the p50 and p99.
func BenchmarkFollowLatency(b *testing.B) {
	be := postgresBackend(b)
	srv, s, _, m := mirrorOf(b, be, be.New(b), ordermsgtest.Config{Seed: 12, Websites: 1, OrdersPerWebsite: 1})
	syncSite(b, m, s, nil)
	var last string
	for c, err := range m.Changes(context.Background(), "", nil) {
		if err != nil {
			b.Fatal(err)
		}
		last = c.Cursor
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	seen := make(chan time.Duration, 16)
	go func() {
		for c, err := range m.FollowChanges(ctx, last, &mirror.ChangeFilter{Resource: "orders"}) {
			if err != nil {
				return
			}
			seen <- time.Since(c.At)
		}
	}()
	var latencies []float64
	for b.Loop() {
		srv.AddOrders(1)
		syncSite(b, m, s, nil)
		latencies = append(latencies, (<-seen).Seconds()*1000)
	}
	slices.Sort(latencies)
	b.ReportMetric(latencies[len(latencies)/2], "p50-ms")
	b.ReportMetric(latencies[(len(latencies)*99)/100], "p99-ms")
}
