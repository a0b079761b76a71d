package ordermsg_test

import (
	"context"
	"iter"
	"log/slog"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
	"go.uber.org/goleak"
)

// retryCounter is a slog handler that counts the SDK's retry log lines.
type retryCounter struct{ n atomic.Int64 }

func (h *retryCounter) Enabled(context.Context, slog.Level) bool { return true }
func (h *retryCounter) Handle(_ context.Context, r slog.Record) error {
	if r.Message == "ordermsg: retrying request" {
		h.n.Add(1)
	}
	return nil
}
func (h *retryCounter) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *retryCounter) WithGroup(string) slog.Handler      { return h }

// soakFigures are what a soak run measured.
type soakFigures struct {
	records, lost, duplicates, outOfOrder int
	requests, faults, retries             int64
	peakHeap                              uint64
	wall                                  time.Duration
}

// soak walks every order and message of the dataset rounds times through a
// server that fails 25% of its responses, and counts what came back.
func soak(tb testing.TB, ds *ordermsgtest.Dataset, rounds int) soakFigures {
	srv := ordermsgtest.NewServer(ds, ordermsgtest.WithFaults(ordermsgtest.Faults{
		Seed: 2026, Rate: 0.25, Kinds: ordermsgtest.AllFaults, RetryAfter: 0, SlowDelay: 5 * time.Millisecond,
	}))
	defer srv.Close()
	counter := &retryCounter{}
	c, err := srv.Client(
		ordermsg.WithRetry(ordermsg.RetryPolicy{MaxRetries: 10, MinWait: time.Millisecond, MaxWait: 20 * time.Millisecond}),
		ordermsg.WithLogger(slog.New(counter)),
	)
	if err != nil {
		tb.Fatal(err)
	}
	defer c.CloseIdleConnections()
	w := ds.Website(srv.WebsiteID)

	var f soakFigures
	var ms runtime.MemStats
	sample := func() {
		runtime.ReadMemStats(&ms)
		f.peakHeap = max(f.peakHeap, ms.HeapAlloc)
	}
	// check compares the ids a walk yielded with the ids it should have.
	check := func(got, want []int64) {
		seen := make(map[int64]int, len(got))
		for _, id := range got {
			seen[id]++
		}
		for _, id := range want {
			if seen[id] == 0 {
				f.lost++
			}
		}
		for _, n := range seen {
			f.duplicates += max(n-1, 0)
		}
		for i := range min(len(got), len(want)) {
			if got[i] != want[i] {
				f.outOfOrder++
			}
		}
		f.records += len(got)
	}
	start := time.Now()
	ctx := context.Background()
	for range rounds {
		check(walkIDs(tb, c.Orders.All(ctx, w.ID, &ordermsg.ListOrdersOptions{Count: 50, Direction: ordermsg.DirectionAsc}, ordermsg.WithConcurrency(4)),
			orderID, sample),
			recordIDs(w.Orders, orderID))
		check(walkIDs(tb, c.Messages.All(ctx, w.ID, &ordermsg.ListMessagesOptions{Count: 50, Direction: ordermsg.DirectionAsc}),
			func(m *ordermsg.Message) int64 { return m.ID }, sample),
			recordIDs(w.Messages, func(m *ordermsg.Message) int64 { return m.ID }))
	}
	f.wall = time.Since(start)
	stats := srv.Handler.Stats()
	f.requests, f.faults, f.retries = stats.Requests, stats.FaultTotal(), counter.n.Load()
	return f
}

// walkIDs runs a walk to its end and returns the ids it yielded, calling
// sample (when not nil) every 1,000 records.
func walkIDs[T any](tb testing.TB, walk iter.Seq2[*T, error], id func(*T) int64, sample func()) []int64 {
	var ids []int64
	for v, err := range walk {
		if err != nil {
			tb.Fatalf("walk after %d records: %v", len(ids), err)
		}
		if ids = append(ids, id(v)); sample != nil && len(ids)%1000 == 0 {
			sample()
		}
	}
	return ids
}

func recordIDs[T any](records []*T, id func(*T) int64) []int64 {
	ids := make([]int64, len(records))
	for i, r := range records {
		ids[i] = id(r)
	}
	return ids
}

var soakData = ordermsgtest.Config{Seed: 11, Websites: 1, OrdersPerWebsite: 5000, MessagesPerWebsite: 5000}

// TestSoak walks 5,000 orders and 5,000 messages through 25% injected faults
// (429 with Retry-After, 500, 503, dropped connections, cut-off bodies, slow
// answers): every record once, in order, and no goroutine left.
func TestSoak(t *testing.T) {
	if testing.Short() {
		t.Skip("soak")
	}
	defer goleak.VerifyNone(t)
	f := soak(t, ordermsgtest.Generate(soakData), 1)
	if f.records != 10_000 || f.lost != 0 || f.duplicates != 0 || f.outOfOrder != 0 {
		t.Fatalf("%+v", f)
	}
	if f.faults < 30 || f.retries < f.faults/3 {
		t.Fatalf("the faults did not bite: %+v", f)
	}
	t.Logf("requests %d, faults %d, retries %d, wall %v", f.requests, f.faults, f.retries, f.wall.Round(time.Millisecond))
}

// BenchmarkSoak is the long soak: ten rounds over the same 10,000 records,
// 100,000 records walked through 25% injected faults. Its figures go in
// RELIABILITY.md:
//
//	go test -run '^$' -bench Soak -benchtime 1x .
func BenchmarkSoak(b *testing.B) {
	ds := ordermsgtest.Generate(soakData)
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	for b.Loop() {
		f := soak(b, ds, 10)
		if f.lost != 0 || f.duplicates != 0 || f.outOfOrder != 0 {
			b.Fatalf("%+v", f)
		}
		b.ReportMetric(float64(f.records), "records")
		b.ReportMetric(float64(f.requests), "requests")
		b.ReportMetric(float64(f.faults), "faults")
		b.ReportMetric(float64(f.retries), "retries")
		b.ReportMetric(float64(f.lost), "lost")
		b.ReportMetric(float64(f.duplicates), "duplicates")
		b.ReportMetric(f.wall.Seconds(), "wall-s")
		b.ReportMetric(float64(f.peakHeap)/(1<<20), "peak-heap-MB")
		b.ReportMetric(float64(base.HeapAlloc)/(1<<20), "dataset-heap-MB")
	}
}
