package mirror

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go"
)

// TestBatchesAreBoundedInBytes holds a writer's batches to batchSize
// records and batchBytes of JSON, whichever comes first, so that a worker's
// memory is bounded whatever the size of the records: records of 300 KB go
// 4 to a batch (the fourth passes the bound), records of 1 KB 500 to one.
func TestBatchesAreBoundedInBytes(t *testing.T) {
	tbl := &table{name: "orders"}
	for _, c := range []struct {
		size, records, perBatch int
	}{{300 << 10, 10, 4}, {1 << 10, 1200, batchSize}} {
		t.Run(fmt.Sprintf("%d-bytes", c.size), func(t *testing.T) {
			w := &writer{b: SQLite, t: tbl, jobs: make(chan batch, c.records)}
			rec := rawOrderOfSize(t, c.size)
			for range c.records {
				if err := w.add(rec, time.Now(), nil); err != nil {
					t.Fatal(err)
				}
			}
			close(w.jobs)
			var sizes []int
			for b := range w.jobs {
				sizes = append(sizes, len(b.records))
				if len(b.records) > c.perBatch || b.bytes > batchBytes+c.size {
					t.Errorf("a batch of %d records, %d bytes", len(b.records), b.bytes)
				}
			}
			if held := len(w.pending.records); held >= c.perBatch || len(sizes) != c.records/c.perBatch {
				t.Errorf("batches of %v records, %d held; want %d of %d", sizes, held, c.records/c.perBatch, c.perBatch)
			}
		})
	}
}

// rawOrderOfSize is an order of size bytes of JSON, read as the mirror
// reads records: a RawRecord from a server.
func rawOrderOfSize(t *testing.T, size int) *ordermsg.RawRecord {
	t.Helper()
	head := `{"object":"order","id":1,"date_created":"2024-05-02T11:00:00+00:00","currency":"`
	order := head + strings.Repeat("a", size-len(head)-2) + `"}`
	c := servePages(t, []string{order}, nil)
	for r, err := range c.Orders.AllRaw(context.Background(), 1, nil) {
		if err != nil || len(r.RawJSON()) != size {
			t.Fatalf("%d bytes, %v; want %d", len(r.RawJSON()), err, size)
		}
		return r
	}
	t.Fatal("no order listed")
	return nil
}
