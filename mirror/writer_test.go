package mirror

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestBatchesAreBoundedInBytes holds a writer's batches to batchSize
// records and batchBytes of JSON, whichever comes first, so that a worker's
// memory is bounded whatever the size of the records: records of 300 KB go
// 4 to a batch (the fourth passes the bound), records of 1 KB 500 to one.
func TestBatchesAreBoundedInBytes(t *testing.T) {
	type record struct {
		id  int64
		raw []byte
	}
	tbl := &table[record]{name: "orders", id: func(r *record) int64 { return r.id }, raw: func(r *record) []byte { return r.raw }}
	for _, c := range []struct {
		size, records, perBatch int
	}{{300 << 10, 10, 4}, {1 << 10, 1200, batchSize}} {
		t.Run(fmt.Sprintf("%d-bytes", c.size), func(t *testing.T) {
			w := &writer[record]{b: SQLite, t: tbl, jobs: make(chan batch, c.records)}
			raw := []byte(`{"x":"` + strings.Repeat("a", c.size-8) + `"}`)
			for i := range c.records {
				if err := w.add(&record{int64(i + 1), raw}, time.Now(), nil); err != nil {
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
