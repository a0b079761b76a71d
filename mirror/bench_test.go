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

// inThePast moves the creation time of every order and message of ds back
// by the same amount, so that the newest was created a day ago: the fake
// creates a record every few hours from 2024 on, so 10,000 reach years
// ahead, and Sync refuses a record dated in the future (ErrFutureRecord).
func inThePast(ds *ordermsgtest.Dataset) {
	var newest time.Time
	for _, w := range ds.Websites {
		for _, o := range w.Orders {
			newest = latest(newest, o.DateCreated.Time)
		}
		for _, m := range w.Messages {
			newest = latest(newest, m.DateCreated.Time)
		}
	}
	shift := time.Until(newest) + 24*time.Hour
	if shift <= 0 {
		return
	}
	for _, w := range ds.Websites {
		for _, o := range w.Orders {
			o.DateCreated.Time = o.DateCreated.Add(-shift)
		}
		for _, m := range w.Messages {
			m.DateCreated.Time = m.DateCreated.Add(-shift)
		}
	}
}

func latest(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

func rawOf[T interface{ RawJSON() []byte }](v T, err error) ([]byte, error) {
	if err != nil {
		return nil, err
	}
	return v.RawJSON(), nil
}

// BenchmarkMirror mirrors 10,000 orders and 10,000 messages, with every
// include, from a loopback fake into a new database of each backend, and in
// the same iteration exports the same records as JSON Lines. It reports the
// mirror's records per second, its time as a ratio to the export's, and the
// requests and time of a second run with nothing new.
func BenchmarkMirror(b *testing.B) {
	const orders, messages, count = 10000, 10000, 100
	ds := ordermsgtest.Generate(ordermsgtest.Config{Seed: 9, Websites: 1, OrdersPerWebsite: orders, MessagesPerWebsite: messages})
	inThePast(ds)
	srv := ordermsgtest.NewServer(ds)
	defer srv.Close()
	s := siteOf(b, srv, 0)
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
