package mirror

import (
	"context"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// BenchmarkRecordWork measures what the mirror does to each record it
// reads, beside the SDK's check and the database's work: the digest of its
// JSON (contentDigest, which finds the file links to leave out) and the
// values of its row (rowOf), over 1,000 orders and 1,000 messages of the
// fake with every include the mirror asks for.
func BenchmarkRecordWork(b *testing.B) {
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 9, Websites: 1, OrdersPerWebsite: 1000, MessagesPerWebsite: 1000}))
	defer srv.Close()
	c, err := srv.Client()
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for _, t := range []*table{ordersTable, messagesTable} {
		var records []*ordermsg.RawRecord
		size := 0
		for r, err := range t.all(ctx, c, srv.WebsiteID, ordermsg.Date{}, 100, 1, new(ordermsg.Response)) {
			if err != nil {
				b.Fatal(err)
			}
			records = append(records, r)
			size += len(r.RawJSON())
		}
		w := &writer{b: PostgreSQL, t: t, site: srv.WebsiteID}
		at := time.Now()
		b.Run(t.name+"/digest", func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				for _, r := range records {
					contentDigest(r.RawJSON())
				}
			}
		})
		b.Run(t.name+"/row", func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				for _, r := range records {
					w.rowOf(r, at, nil)
				}
			}
		})
	}
}
