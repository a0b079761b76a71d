package webhook_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go/mirror/webhook"
)

// BenchmarkDelivery10k delivers 10,000 changes through River on
// PostgreSQL to a loopback endpoint, from Enqueue to the last answer:
// changes/s (goal ≥ 1,000) and the live heap after 2,000 and after 10,000
// deliveries, whose ratio (goal ≤ 1.1) shows memory flat in the number of
// changes.
func BenchmarkDelivery10k(b *testing.B) {
	const n = 10000
	var delivered atomic.Int64
	var mark chan struct{}
	at2k := make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		switch delivered.Add(1) {
		case 2000:
			at2k <- struct{}{}
		case n:
			close(mark)
		}
	}))
	defer srv.Close()
	changes := &fakeChanges{}
	d, err := webhook.NewDeliverer(changes, []webhook.Endpoint{{URL: srv.URL, Secret: mustSecret(b)}})
	if err != nil {
		b.Fatal(err)
	}
	pg := newPGRiver(b, d)
	ctx := context.Background()
	var heap2k, heap10k, elapsed float64
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		delivered.Store(0)
		mark = make(chan struct{})
		changes.add(n)
		start := time.Now()
		if got, err := webhook.Enqueue(ctx, pg.client, pg.store, d); err != nil || got != n {
			b.Fatalf("Enqueue = %d, %v", got, err)
		}
		<-at2k
		heap2k += liveHeapMB()
		waitFor(b, mark, "10,000 deliveries")
		elapsed += time.Since(start).Seconds()
		heap10k += liveHeapMB()
	}
	runs := float64(b.N)
	b.ReportMetric(n*runs/elapsed, "changes/s")
	b.ReportMetric(heap2k/runs, "heapMB@2k")
	b.ReportMetric(heap10k/runs, "heapMB@10k")
	b.ReportMetric(heap10k/heap2k, "heap10k/2k")
}

// liveHeapMB is the heap in use after a collection, in MB.
func liveHeapMB() float64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return float64(m.HeapInuse) / 1e6
}
