package ordermsg

import (
	"context"
	"fmt"
	"iter"
	"maps"
	"runtime"
	"strconv"
	"sync"
	"time"

	"github.com/ordermsg/ordermsg-go/internal/listtotals"
)

// entry is an element of a page's data as a walk yields it: a record, or
// the error of one that could not be decoded (WithSkipUndecodable).
type entry[T any, P record[T]] struct {
	rec  *T
	bad  *RecordDecodeError
	resp Response // its page's, in a Sync whose caller asked for it
	// unplaceable is set on the error of a record that decoded but that a
	// Sync cannot place (see Sync's WithSkipUndecodable).
	unplaceable bool
}

// id is the record's id; for one that could not be decoded, its id when it
// could be read, else 0.
func (e entry[T, P]) id() int64 {
	if e.bad != nil {
		return e.bad.ID
	}
	return P(e.rec).refID()
}

// created is the record's creation time; for one that could not be decoded,
// its creation time when it could be read, else the zero time.
func (e entry[T, P]) created() time.Time {
	if e.bad != nil {
		return e.bad.Created
	}
	return P(e.rec).createdAt()
}

// placed reports whether the entry can be placed in creation order: a
// record, or the error of one whose id and creation time could be read.
func (e entry[T, P]) placed() bool {
	return e.bad == nil || (!e.unplaceable && e.bad.ID != 0 && !e.bad.Created.IsZero())
}

// err is the entry's error: nil for a record.
func (e entry[T, P]) err() error {
	if e.bad != nil {
		return e.bad
	}
	return nil
}

// records is the number of records of the page, those that could not be
// decoded included; 0 for nil.
func (p *Page[T]) records() int {
	if p == nil {
		return 0
	}
	return len(p.Data) + len(p.skipped)
}

// entries returns the page's records and skipped records in the order of
// its data.
func entries[T any, P record[T]](p *Page[T]) []entry[T, P] {
	out := make([]entry[T, P], 0, len(p.Data)+len(p.skipped))
	data, skipped := p.Data, p.skipped
	for i := 0; len(data)+len(skipped) > 0; i++ {
		if len(skipped) > 0 && skipped[0].Index == i {
			out = append(out, entry[T, P]{bad: skipped[0]})
			skipped = skipped[1:]
			continue
		}
		out = append(out, entry[T, P]{rec: data[0]})
		data = data[1:]
	}
	return out
}

// WalkOption configures a walk (Orders.All, Messages.All) or a Sync.
type WalkOption func(*walkConfig)

type walkConfig struct {
	concurrency int
	skip        bool      // WithSkipUndecodable
	into        *Response // the options' Response: the caller's, set per page
}

// WithSkipUndecodable makes a walk or a Sync go past a record that cannot
// be decoded (a string that is not valid Unicode, a value of the wrong
// type): it is yielded as a *RecordDecodeError, with a nil record, that
// names it and keeps its bytes, and the walk goes on with the next record
// when the loop continues. The other records of its page are yielded as
// usual. Without it, the default, such a record fails its whole page with a
// *DecodeError, which ends the walk. A page that is not a list apart from
// its records (a broken envelope or pagination, a syntax error, a record
// nested deeper than the decoder's limit of 10,000 levels) fails either
// way.
//
// A record without an id that can be read (null, or an id that is not a
// number) is told from another by its bytes: the walk yields it once even
// when it moves onto the next page, and so does one Sync.
func WithSkipUndecodable() WalkOption {
	return func(c *walkConfig) { c.skip = true }
}

// WithConcurrency lets a walk fetch up to n pages at once once the first page
// has told how many there are. Records are still yielded in exactly the order
// of a sequential walk, and at most n+2 pages are held in memory (n+1
// requested and not yet walked, one being yielded). The default, 1, sends the
// request for the next page as soon as the current page has been read, so
// that decoding and yielding a page overlap the server's time for the next
// one; n above 64 counts as 64.
func WithConcurrency(n int) WalkOption {
	return func(c *walkConfig) { c.concurrency = min(max(n, 1), maxConcurrency) }
}

// walkList walks the pages of the list that opts describe from opts.Page,
// passing check on to walk, after the function of ctx's listtotals, if
// any; each page is a call of op (r.ops.all or sync).
func (r resource[T, P]) walkList(ctx context.Context, op *Operation, websiteID int64, opts listOptions, walkOpts []WalkOption, check func(Pagination) error) iter.Seq2[*T, error] {
	cfg := walkConfig{concurrency: 1}
	for _, o := range walkOpts {
		if o != nil {
			o(&cfg)
		}
	}
	q, err := r.checkList(websiteID, opts)
	start, keepRaw := max(opts.startPage(), 1), opts.keepsRawJSON() // as the call found them, like q
	cfg.into = opts.responseInto()
	fetchPage := func(ctx context.Context, w *callWatch, page int, received func()) (*Page[T], error) {
		pq := maps.Clone(q)
		pq.Set("page", strconv.Itoa(page))
		a, err := r.c.get(ctx, w, r.listPath(formatID(websiteID)), pq)
		received()
		if err != nil {
			return nil, err
		}
		p, err := decodePage[T, P](a.url, a.body, r.kind, keepRaw, cfg.skip)
		a.decoded()
		if p != nil && cfg.into != nil {
			p.resp = new(Response)
			a.report(p.resp)
		}
		return p, err
	}
	fetch := func(ctx context.Context, page int, received func()) (*Page[T], error) {
		ctx, w := r.c.watch(ctx, op)
		p, err := fetchPage(ctx, w, page, received)
		w.done(p.records(), err)
		return p, err
	}
	if ctx == nil {
		err = invalidArgument("nil context")
	} else if f := listtotals.Of(ctx); f != nil {
		check = withTotals(check, f)
	}
	return func(yield func(*T, error) bool) {
		if err != nil {
			yield(nil, err)
			return
		}
		walk[T, P](ctx, fetch, start, cfg, check, yield)
	}
}

// withTotals is check that first hands the page's total to f (see package
// listtotals).
func withTotals(check func(Pagination) error, f func(total int)) func(Pagination) error {
	return func(pg Pagination) error {
		f(pg.Total)
		if check != nil {
			return check(pg)
		}
		return nil
	}
}

// walk yields the records of pages start, start+1, … in order, up to the
// last (current_page ≥ total_pages). Pages are requested only up to the
// total_pages of the last page walked in order, never guessed. Nothing but
// ctx's error is yielded once ctx is done, and when walk returns every
// request it started has ended.
//
// A request holds one of concurrency slots until its response has been read
// (fetch calls received) or fetch returns, so that at most concurrency
// requests are open at once; its goroutine then gives way
// (runtime.Gosched), so that the walk sends the next request before the page
// is decoded there (BENCHMARKS.md). At most concurrency+1 pages are fetched,
// not yet yielded.
//
// check, when not nil, sees each page's pagination once the page is known to
// be the one asked for, before its records; its error ends the walk. The
// records of a page that could not be decoded (cfg.skip) are yielded as
// their *RecordDecodeError in their place, and cfg.into, when set, receives
// each page's response before the page's first record.
func walk[T any, P record[T]](ctx context.Context, fetch func(ctx context.Context, page int, received func()) (*Page[T], error),
	start int, cfg walkConfig, check func(Pagination) error, yield func(*T, error) bool) {
	concurrency := cfg.concurrency
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
	var window []chan result                  // pages requested and not yet walked, in page order
	slots := make(chan struct{}, concurrency) // one per request whose response is not read yet
	next := start                             // the next page to request
	known := 0                                // total_pages of the last page walked; 0 before the first
	// launch requests page next; a slot has been taken for it.
	launch := func() {
		ch := make(chan result, 1) // buffered: a request never waits for a reader
		page := next
		next++
		wg.Go(func() {
			free := sync.OnceFunc(func() {
				<-slots
				runtime.Gosched() // let the walk send the next request first
			})
			p, err := fetch(ctx, page, free)
			free() // before the result: an empty window always has every slot free
			ch <- result{p, err}
		})
		window = append(window, ch)
	}
	// wanted is the slots channel when another page may be requested with
	// ahead pages not yet walked, else nil (a select never sends on it).
	wanted := func(ahead int) chan struct{} {
		if next <= known && len(window) < ahead {
			return slots
		}
		return nil
	}
	// fill requests up to concurrency pages ahead of the one being yielded;
	// one more is requested only while the walk waits for a page (below), so
	// that the next request leaves while that page is decoded, and a break
	// meets no more than concurrency pages asked for ahead.
	fill := func() {
		for {
			select {
			case wanted(concurrency) <- struct{}{}:
				launch()
			default:
				return
			}
		}
	}

	seen := pageMemory[T, P]{prev: map[int64]struct{}{}, cur: map[int64]struct{}{}}
	arrived := 0 // records on the pages walked, repeats included
	slots <- struct{}{}
	launch()
	for want := start; len(window) > 0; want++ {
		var res result
	wait:
		for {
			select {
			case res = <-window[0]:
				break wait
			case wanted(concurrency + 1) <- struct{}{}:
				launch()
			case <-ctx.Done():
				yield(nil, ctx.Err())
				return
			}
		}
		window = window[1:]
		if res.err != nil {
			yield(nil, res.err)
			return
		}
		pg := res.page.Meta.Pagination
		err := checkCurrentPage(pg, start, want)
		if err == nil && check != nil {
			err = check(pg)
		}
		if err != nil {
			yield(nil, err)
			return
		}
		last := pg.CurrentPage >= pg.TotalPages
		// Records before page start count as arrived: the caller chose to
		// skip them; never more than total (a per_page too large to
		// multiply means every record is before start).
		before := pg.Total
		if perPage := max(pg.PerPage, 0); perPage == 0 || start-1 <= pg.Total/perPage {
			before = (start - 1) * perPage
		}
		elems := entries[T, P](res.page)
		if len(elems) == 0 && !last {
			if before+arrived < pg.Total {
				yield(nil, fmt.Errorf("%w: page %d of %d is empty after %d of %d records", ErrEmptyPage, want, pg.TotalPages, before+arrived, pg.Total))
				return
			}
			last = true // every record of total has arrived: total_pages overstates
		}
		arrived += len(elems)
		fresh, err := seen.next(elems)
		if err != nil {
			yield(nil, fmt.Errorf("%w: page %d", err, want))
			return
		}
		if !last {
			known = pg.TotalPages
			fill()
		}
		if cfg.into != nil && res.page.resp != nil {
			*cfg.into = *res.page.resp
		}
		for _, e := range fresh {
			if err := ctx.Err(); err != nil {
				yield(nil, err)
				return
			}
			if e.bad != nil {
				e.bad.Page = want
			}
			if !yield(e.rec, e.err()) {
				return
			}
		}
		if last {
			return
		}
	}
}

// checkCurrentPage checks that a page is page want of a walk from start.
func checkCurrentPage(pg Pagination, start, want int) error {
	switch {
	case pg.CurrentPage == want:
		return nil
	case pg.CurrentPage == 0:
		return fmt.Errorf("%w: asked for page %d; meta.pagination.current_page is missing or 0", ErrNoPagination, want)
	case pg.CurrentPage >= start && pg.CurrentPage < want:
		return fmt.Errorf("%w: asked for page %d, got current_page %d", ErrPaginationStuck, want, pg.CurrentPage)
	}
	return fmt.Errorf("%w: asked for page %d, got current_page %d", ErrPageMismatch, want, pg.CurrentPage)
}

// pageMemory remembers the ids of the previous page, so that records that
// shifted onto the next page (new records at the head of the list) are not
// yielded twice. A record without a positive id matches no other: it is
// always yielded, and plays no part in telling that the server repeats
// itself; but one that could not be decoded (WithSkipUndecodable), without
// an id that could be read, is told by its bytes.
type pageMemory[T any, P record[T]] struct {
	prev, cur       map[int64]struct{}
	prevRaw, curRaw map[string]struct{} // the bytes of such records, made when first needed
}

// next returns the entries of a page that were not on the page before nor
// earlier on it; ErrPaginationStuck when every one was on the page before.
func (m *pageMemory[T, P]) next(records []entry[T, P]) ([]entry[T, P], error) {
	clear(m.cur)
	clear(m.curRaw)
	fresh := records[:0:0]
	repeated := 0
	for _, rec := range records {
		var onThisPage, onPrevPage bool
		switch id := rec.id(); {
		case id > 0:
			_, onThisPage = m.cur[id]
			_, onPrevPage = m.prev[id]
			m.cur[id] = struct{}{}
		case rec.bad != nil:
			if m.curRaw == nil {
				m.prevRaw, m.curRaw = map[string]struct{}{}, map[string]struct{}{}
			}
			_, onThisPage = m.curRaw[string(rec.bad.Raw)]
			_, onPrevPage = m.prevRaw[string(rec.bad.Raw)]
			m.curRaw[string(rec.bad.Raw)] = struct{}{}
		default:
			fresh = append(fresh, rec)
			continue
		}
		switch {
		case onPrevPage:
			repeated++
		case !onThisPage:
			fresh = append(fresh, rec)
		}
	}
	m.prev, m.cur = m.cur, m.prev
	m.prevRaw, m.curRaw = m.curRaw, m.prevRaw
	if len(records) > 0 && repeated == len(records) {
		return nil, ErrPaginationStuck
	}
	return fresh, nil
}
