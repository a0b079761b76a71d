package ordermsg

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"maps"
	"net/url"
	"strconv"
	"sync"
)

// Errors of a walk (All) whose server paginates in a way that cannot be
// followed.
var (
	// ErrPaginationStuck is returned when the server answers a page with
	// one already walked: it reports a current_page already seen, or a page
	// whose records were all on the page before it.
	ErrPaginationStuck = errors.New("ordermsg: pagination is stuck")
	// ErrPageMismatch is returned when a page's current_page is not the
	// page asked for, nor one already walked.
	ErrPageMismatch = errors.New("ordermsg: the server returned another page than the one asked for")
	// ErrEmptyPage is returned when a page holds no record while its own
	// metadata says more pages follow (current_page < total_pages): ending
	// the walk there would silently lose every record after it.
	ErrEmptyPage = errors.New("ordermsg: an empty page says more pages follow")
)

// WalkOption configures a walk (Orders.All, Messages.All).
type WalkOption func(*walkConfig)

type walkConfig struct {
	concurrency int
}

// WithConcurrency lets a walk fetch up to n pages at once once the first page
// has told how many there are. Records are still yielded in exactly the order
// of a sequential walk, and at most about n pages are held in memory. The
// default, 1, fetches the next page while the current one is being yielded;
// n above 64 counts as 64.
func WithConcurrency(n int) WalkOption {
	return func(c *walkConfig) { c.concurrency = min(max(n, 1), maxConcurrency) }
}

// maxConcurrency is the most pages a walk fetches at once. The client's own
// transport keeps as many idle connections per host, so that a walk reuses
// its connections instead of closing and opening them again.
const maxConcurrency = 64

// pageFetcher fetches one page of a list.
type pageFetcher[T any] func(ctx context.Context, page int) (*Page[T], error)

// all walks every page of the list that opts describe, from opts.Page.
func (r resource[T]) all(ctx context.Context, websiteID int64, opts listOptions, walkOpts []WalkOption) iter.Seq2[*T, error] {
	cfg := walkConfig{concurrency: 1}
	for _, o := range walkOpts {
		o(&cfg)
	}
	q, err := r.checkList(websiteID, opts)
	start, _ := opts.paging()
	fetch := func(ctx context.Context, page int) (*Page[T], error) {
		pq := maps.Clone(q)
		if pq == nil {
			pq = url.Values{}
		}
		pq.Set("page", strconv.Itoa(page))
		return r.page(ctx, websiteID, pq, keepsRawJSON(opts))
	}
	if ctx == nil {
		err = invalidArgument("nil context")
	}
	return func(yield func(*T, error) bool) {
		if err != nil {
			yield(nil, err)
			return
		}
		walk(ctx, fetch, max(start, 1), cfg.concurrency, yield)
	}
}

// walk yields the records of pages start, start+1, … in order. It keeps up to
// concurrency page requests in flight ahead of the page being yielded, and
// stops after the last page (current_page ≥ total_pages). An empty page
// before the last is ErrEmptyPage. Nothing is yielded once ctx is done but
// ctx's error. When it returns, for whatever reason, every request it started
// has ended.
func walk[T any](ctx context.Context, fetch pageFetcher[T], start, concurrency int, yield func(*T, error) bool) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer func() {
		cancel()
		wg.Wait()
	}()

	type result struct {
		page *Page[T]
		err  error
	}
	var window []chan result // requests in flight, in page order
	next := start            // the next page to request
	launch := func() {
		ch := make(chan result, 1) // buffered: a request never waits for a reader
		page := next
		next++
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, err := fetch(ctx, page)
			ch <- result{p, err}
		}()
		window = append(window, ch)
	}

	var seen pageMemory[T]
	launch()
	for want := start; len(window) > 0; want++ {
		var res result
		select {
		case res = <-window[0]:
		case <-ctx.Done():
			yield(nil, ctx.Err())
			return
		}
		window = window[1:]
		if res.err != nil {
			yield(nil, res.err)
			return
		}
		pg := res.page.Meta.Pagination
		if pg.CurrentPage != want {
			err := ErrPageMismatch
			if pg.CurrentPage >= start && pg.CurrentPage < want {
				err = ErrPaginationStuck
			}
			yield(nil, fmt.Errorf("%w: asked for page %d, got current_page %d", err, want, pg.CurrentPage))
			return
		}
		last := pg.CurrentPage >= pg.TotalPages
		if len(res.page.Data) == 0 && !last {
			yield(nil, fmt.Errorf("%w: page %d of %d", ErrEmptyPage, want, pg.TotalPages))
			return
		}
		if !last {
			for len(window) < concurrency && next <= pg.TotalPages {
				launch()
			}
		}
		fresh, err := seen.next(res.page.Data)
		if err != nil {
			yield(nil, fmt.Errorf("%w: page %d", err, want))
			return
		}
		for _, rec := range fresh {
			if err := ctx.Err(); err != nil {
				yield(nil, err)
				return
			}
			if !yield(rec, nil) {
				return
			}
		}
		if last {
			return
		}
	}
}

// pageMemory remembers the ids of the previous page, so that records that
// shifted onto the next page (new records arriving at the head of a list
// during a walk) are not yielded twice. Its size is one page, whatever the
// length of the walk.
//
// An id seen twice on one page is yielded once, at its first place. A record
// without a positive id cannot be matched with any other: it is always
// yielded, and plays no part in telling that the server repeats itself.
type pageMemory[T any] struct {
	prev, cur map[int64]struct{}
}

// next returns the records of a page that were not on the page before nor
// earlier on the same page. A page whose records all have ids, all of them on
// the page before, means the server is repeating itself.
func (m *pageMemory[T]) next(records []*T) ([]*T, error) {
	if m.cur == nil {
		m.prev, m.cur = map[int64]struct{}{}, map[int64]struct{}{}
	}
	clear(m.cur)
	fresh := records[:0:0]
	repeated := 0
	for _, rec := range records {
		id := idOf(rec)
		if id <= 0 {
			fresh = append(fresh, rec)
			continue
		}
		_, onThisPage := m.cur[id]
		_, onPrevPage := m.prev[id]
		m.cur[id] = struct{}{}
		switch {
		case onPrevPage:
			repeated++
		case !onThisPage:
			fresh = append(fresh, rec)
		}
	}
	m.prev, m.cur = m.cur, m.prev
	if len(records) > 0 && repeated == len(records) {
		return nil, ErrPaginationStuck
	}
	if len(fresh) == len(records) {
		return records, nil
	}
	return fresh, nil
}
