package mirror_test

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// exportJSONLines writes every record of the website, read as the mirror
// reads them (Sync from a zero checkpoint, the same includes, the same page
// size), to a JSON Lines file: the peer of a full mirror run.
func exportJSONLines(b *testing.B, c *ordermsg.Client, site int64, path string, count int) int {
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	n := 0
	write := func(raw []byte, err error) {
		if err != nil {
			b.Fatal(err)
		}
		w.Write(raw)
		w.WriteByte('\n')
		n++
	}
	ctx := context.Background()
	var ocp, mcp ordermsg.Checkpoint
	for o, err := range c.Orders.Sync(ctx, site, &ocp, &ordermsg.ListOrdersOptions{Count: count, Includes: mirror.OrderIncludes(), KeepRawJSON: true}) {
		write(rawOf(o, err))
	}
	for m, err := range c.Messages.Sync(ctx, site, &mcp, &ordermsg.ListMessagesOptions{Count: count, Includes: mirror.MessageIncludes(), KeepRawJSON: true}) {
		write(rawOf(m, err))
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	return n
}

func rawOf[T interface{ RawJSON() []byte }](v T, err error) ([]byte, error) {
	if err != nil {
		return nil, err
	}
	return v.RawJSON(), nil
}

// The benchmarks' website: 10,000 orders and 10,000 messages.
const orders, messages = 10000, 10000

// benchFake starts a loopback fake of the benchmarks' website and returns
// it and its website. The fake dates the newest record now (see
// ordermsgtest.Config.Now), so that Sync never meets a record dated in the
// future.
func benchFake(b *testing.B) (*ordermsgtest.Server, site) {
	ds := ordermsgtest.Generate(ordermsgtest.Config{Seed: 9, Websites: 1, OrdersPerWebsite: orders, MessagesPerWebsite: messages})
	srv := ordermsgtest.NewServer(ds)
	b.Cleanup(srv.Close)
	return srv, siteOf(b, srv, 0)
}

// BenchmarkMirror mirrors 10,000 orders and 10,000 messages, with every
// include, from a loopback fake into a new database of each backend, and in
// the same iteration exports the same records as JSON Lines. It reports the
// mirror's records per second, its time as a ratio to the export's, and the
// requests and time of a second run with nothing new.
func BenchmarkMirror(b *testing.B) {
	const count = 100
	srv, s := benchFake(b)
	for _, be := range mirrortest.Backends() {
		b.Run(be.Name, func(b *testing.B) {
			var mirrorTime, exportTime, idleTime time.Duration
			var idleRequests int64
			for range b.N {
				b.StopTimer()
				target := be.New(b)
				m := openMirror(b, be, be.Open(b, target))
				jsonl := filepath.Join(b.TempDir(), "export.jsonl")
				b.StartTimer()

				start := time.Now()
				if n := exportJSONLines(b, s.c, s.id, jsonl, count); n != orders+messages {
					b.Fatalf("exported %d records", n)
				}
				exportTime += time.Since(start)

				start = time.Now()
				res := syncSite(b, m, s, &mirror.Options{PageSize: count})
				mirrorTime += time.Since(start)
				if res.Orders.New != orders || res.Messages.New != messages {
					b.Fatalf("%+v", res)
				}

				before := srv.Handler.Stats().Requests
				start = time.Now()
				if res := syncSite(b, m, s, &mirror.Options{PageSize: count}); res != (mirror.Result{}) {
					b.Fatalf("nothing new: %+v", res)
				}
				idleTime += time.Since(start)
				idleRequests = srv.Handler.Stats().Requests - before
			}
			n := float64(b.N)
			b.ReportMetric(float64(orders+messages)*n/mirrorTime.Seconds(), "records/s")
			b.ReportMetric(float64(orders+messages)*n/exportTime.Seconds(), "export-records/s")
			b.ReportMetric(mirrorTime.Seconds()/exportTime.Seconds(), "time/export-time")
			b.ReportMetric(float64(idleRequests), "requests/no-change-run")
			b.ReportMetric(idleTime.Seconds()*1000/n, "ms/no-change-run")
		})
	}
}

// listAll walks every record of the website as a reconcile lists them (All,
// ascending by date_created, the mirror's includes, raw JSON kept, pages of
// count, concurrency pages at once) and returns how many it read: the peer
// of a reconcile.
func listAll(b *testing.B, c *ordermsg.Client, site int64, count, concurrency int) int {
	ctx := context.Background()
	n := 0
	walk := ordermsg.WithConcurrency(concurrency)
	for o, err := range c.Orders.All(ctx, site, &ordermsg.ListOrdersOptions{Count: count, Includes: mirror.OrderIncludes(), KeepRawJSON: true,
		Direction: ordermsg.DirectionAsc, Sort: "date_created"}, walk) {
		if _, err := rawOf(o, err); err != nil {
			b.Fatal(err)
		}
		n++
	}
	for m, err := range c.Messages.All(ctx, site, &ordermsg.ListMessagesOptions{Count: count, Includes: mirror.MessageIncludes(), KeepRawJSON: true,
		Direction: ordermsg.DirectionAsc, Sort: "date_created"}, walk) {
		if _, err := rawOf(m, err); err != nil {
			b.Fatal(err)
		}
		n++
	}
	return n
}

// BenchmarkReconcile measures what a reconcile costs on a mirror of 10,000
// orders and 10,000 messages where nothing changed, from a loopback fake:
// each iteration runs a Sync with Reconcile (which must find every record
// unchanged) and, as its peer, a walk of every record as the reconcile lists
// them. It reports the reconcile's requests and milliseconds per 1,000
// records, and its time as a ratio to the walk's.
func BenchmarkReconcile(b *testing.B) {
	const count, concurrency = 100, 4
	srv, s := benchFake(b)
	for _, be := range mirrortest.Backends() {
		b.Run(be.Name, func(b *testing.B) {
			m := openMirror(b, be, be.Open(b, be.New(b)))
			syncSite(b, m, s, &mirror.Options{PageSize: count})
			var reconcileTime, listTime time.Duration
			var requests int64
			b.ResetTimer()
			for range b.N {
				before := srv.Handler.Stats().Requests
				start := time.Now()
				res := syncSite(b, m, s, &mirror.Options{Reconcile: true, PageSize: count, Concurrency: concurrency})
				reconcileTime += time.Since(start)
				requests += srv.Handler.Stats().Requests - before
				if res.Orders != (mirror.Counts{Unchanged: orders}) || res.Messages != (mirror.Counts{Unchanged: messages}) {
					b.Fatalf("reconcile with nothing changed: %+v", res)
				}

				start = time.Now()
				if n := listAll(b, s.c, s.id, count, concurrency); n != orders+messages {
					b.Fatalf("listed %d records", n)
				}
				listTime += time.Since(start)
			}
			per1000 := float64(b.N) * float64(orders+messages) / 1000
			b.ReportMetric(float64(requests)/per1000, "requests/1000-records")
			b.ReportMetric(reconcileTime.Seconds()*1000/per1000, "ms/1000-records")
			b.ReportMetric(reconcileTime.Seconds()/listTime.Seconds(), "time/listing-time")
		})
	}
}
