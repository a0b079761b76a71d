package main

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// BenchmarkSyncDB runs sync --db into a new database from a loopback fake
// of 5,000 orders and 5,000 messages (every order's and message's JSON is
// stored), then a run with nothing new. It reports orders per second of the
// whole first run (messages included in its time), records per second, and
// the requests of the no-change run against those of the first.
func BenchmarkSyncDB(b *testing.B) {
	const orders, messages = 5000, 5000
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 9, Websites: 1, OrdersPerWebsite: orders, MessagesPerWebsite: messages}))
	defer srv.Close()
	env := map[string]string{envBaseURL: srv.URL, envAPIKey: srv.APIKey, envWebsiteID: fmt.Sprint(srv.WebsiteID)}
	sync := func(db string, args ...string) {
		stdout, stderr, code := cli{env: env}.run(context.Background(), append([]string{"sync", "--db", db}, args...)...)
		if code != exitOK {
			b.Fatalf("exit %d: %s %s", code, stdout, stderr)
		}
	}
	var full, noChange, refresh int64
	var elapsed time.Duration
	for i := range b.N {
		db := filepath.Join(b.TempDir(), fmt.Sprintf("bench%d.db", i))
		before := srv.Handler.Stats().Requests
		start := time.Now()
		sync(db)
		elapsed += time.Since(start)
		afterFull := srv.Handler.Stats().Requests
		b.StopTimer()
		sync(db)
		afterNoChange := srv.Handler.Stats().Requests
		sync(db, "--refresh-days", "7")
		full, noChange, refresh = afterFull-before, afterNoChange-afterFull, srv.Handler.Stats().Requests-afterNoChange
		b.StartTimer()
	}
	b.ReportMetric(float64(orders*b.N)/elapsed.Seconds(), "orders/s")
	b.ReportMetric(float64((orders+messages)*b.N)/elapsed.Seconds(), "records/s")
	b.ReportMetric(float64(full), "requests/full-run")
	b.ReportMetric(float64(noChange), "requests/no-change-run")
	b.ReportMetric(float64(refresh), "requests/refresh-7d-run")
}
