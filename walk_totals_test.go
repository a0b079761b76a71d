package ordermsg

import (
	"context"
	"slices"
	"testing"

	"github.com/ordermsg/ordermsg-go/internal/listtotals"
)

// TestWalkHandsEachPageTotalToListtotals: a walk under a context of
// listtotals.With calls its function with each page's total, in page order,
// before the page's records, with pages fetched at once too; a record
// leaving the list between pages shows as a lower total.
func TestWalkHandsEachPageTotalToListtotals(t *testing.T) {
	for _, concurrency := range []int{1, 4} {
		s := newPageServer(30, 10)
		s.before = func(page int) {
			if page == 2 {
				s.mu.Lock()
				s.ids = s.ids[1:] // the first record leaves the list
				s.mu.Unlock()
			}
		}
		var totals []int
		yielded := 0
		ctx := listtotals.With(context.Background(), func(total int) {
			if want := len(totals) * 10; yielded != want {
				t.Errorf("concurrency %d: the total of page %d came after %d records, want after %d", concurrency, len(totals)+1, yielded, want)
			}
			totals = append(totals, total)
		})
		for _, err := range walkClient(t, s).Orders.All(ctx, 1, &ListOrdersOptions{Count: 10}, WithConcurrency(concurrency)) {
			if err != nil {
				t.Fatal(err)
			}
			yielded++
		}
		if concurrency == 1 && !slices.Equal(totals, []int{30, 29, 29}) {
			t.Errorf("concurrency 1: totals %v; want [30 29 29]", totals)
		}
		// Pages fetched at once: page 3 may be answered before page 2.
		if len(totals) != 3 || totals[0] != 30 || !slices.Contains(totals, 29) {
			t.Errorf("concurrency %d: totals %v; want 3, the first 30, one 29", concurrency, totals)
		}
	}
}
