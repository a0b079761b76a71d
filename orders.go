package ordermsg

import (
	"context"
	"errors"
	"iter"
)

// OrdersService reads a website's orders. Use it as Client.Orders.
type OrdersService struct {
	r resource[Order, *Order]
}

// Get returns one order of the website. opts may be nil.
func (s *OrdersService) Get(ctx context.Context, websiteID, orderID int64, opts *GetOrderOptions) (*Order, error) {
	return s.r.get(ctx, websiteID, orderID, opts)
}

// List returns one page of the website's orders. opts may be nil.
func (s *OrdersService) List(ctx context.Context, websiteID int64, opts *ListOrdersOptions) (*Page[Order], error) {
	return s.r.list(ctx, websiteID, opts)
}

// All walks every page of the website's orders that opts describe, from
// opts.Page (default 1), and yields each order once, in the list's order.
// An error is yielded once, and ends the walk. Breaking out of the loop stops
// the walk at once: nothing it started is left running. opts is not changed.
//
// Records that shift between pages while the walk runs (new records at the
// head of a newest-first list) are not yielded twice. Records deleted during
// the walk can make others shift the other way and be skipped; for a
// consistent walk, sort ascending (Direction: DirectionAsc) within a closed
// date window (DateEnd in the past), so that the pages do not move.
func (s *OrdersService) All(ctx context.Context, websiteID int64, opts *ListOrdersOptions, walk ...WalkOption) iter.Seq2[*Order, error] {
	return s.r.all(ctx, websiteID, opts, walk)
}

// Sync yields, in ascending creation order, every order of the website
// that the checkpoint cp does not cover (every order, for a zero
// Checkpoint; those from a given time on, for NewCheckpointAt), and advances
// *cp as each order is yielded: when the loop body runs for an order, *cp
// already covers it. Save *cp after any order (or after a break, an error or
// a crash) and pass it to a later Sync: that one yields every order not
// yielded yet exactly once. A checkpoint belongs to the orders of one
// website: given one made for another website or for messages, Sync yields a
// *CheckpointMismatchError before sending any request.
//
// The date filters are whole days, and the spec says neither whether a
// bound is inclusive nor in which time zone a day starts, so Sync lists from
// five days before the checkpoint's mark (date_start), sorted by
// date_created in ascending order, and drops exactly the orders that the
// checkpoint remembers having yielded; orders created in the same second are
// told apart by id. Any other order of that overlap is yielded, in the
// list's order: one that the server shows late, created before the mark,
// too, as long as it was created inside the checkpoint's window (from
// midnight UTC two days before the mark's UTC date, less 14 hours: at least
// 62 hours before the mark), which every reading of date_start lists. An
// order shown later still, created before the window, is not yielded. If
// the listing does not hold the newest order the checkpoint remembers, Sync
// reads that order by id before yielding anything created after the mark:
// when it still exists and matches the filter, the server's date filter
// started too late, and Sync yields an *OverlapError (ErrOverlapMissing)
// rather than skip the orders between the mark and that start.
//
// Orders that join or leave the list during a run move the others between
// pages. Pages are fetched one at a time, in order, each asked for once the
// one before it has been answered (Sync takes no walk options),
// and each page's total is compared with the one before. A smaller total
// means orders left, and orders after them moved back onto pages already
// read: Sync lists again from *cp, which yields what it skipped and drops
// what it yielded (it does so at most four times in one run, then yields a
// *ListShiftedError, ErrListShifted, with nothing lost). Orders that join
// only repeat others, which are dropped; one shown during a run, created
// before the page in hand, can also make the list look out of order or
// repeat a page: after a change of total, Sync lists again too. One order
// leaving while another joins between the same two pages leaves the total
// as it was, which no response shows: the order skipped is yielded by the
// next run when it was created inside the window of that run's mark; see
// RELIABILITY.md for the bounds.
//
// A server that orders the orders of one second differently on different
// pages (a sort without a tiebreak) can make a run miss some of them when
// they fill more than a page; a later run lists them again and yields those
// it sees, so such a server makes a run late, not lossy, as long as its
// pages differ from run to run.
//
// opts may be nil; Sync sets Page, DateStart, DateEnd, Direction and Sort
// itself, and refuses options that set them. A filter (Status, Search)
// applies as in All. Status is accepted although an order's status changes
// over its life: Sync yields the orders that have the status when a run
// lists them, once; an order that leaves the status during a run does not
// make Sync lose another, but each such change costs a new listing, and an
// order that takes the status later, created before the window, is not
// yielded. To see every order once whatever happens to its status, sync
// without a Status filter and filter in the loop. If the server does not
// list in ascending creation order, Sync ends with an *OrderingError
// (ErrNotAscending); it yields an order only once the order listed after it
// (or the end of the list) shows the order to be ascending, so a list in the
// wrong order from its start yields nothing and leaves *cp as it was.
func (s *OrdersService) Sync(ctx context.Context, websiteID int64, cp *Checkpoint, opts *ListOrdersOptions) iter.Seq2[*Order, error] {
	return s.r.sync(ctx, websiteID, cp, opts)
}

// GetOrderOptions are the query parameters of Orders.Get.
type GetOrderOptions struct {
	// Includes asks for additional fields; sent as one comma-separated value.
	Includes []OrderInclude `url:"includes,comma,omitempty"`
	// KeepRawJSON keeps each record's bytes exactly as the server sent them,
	// for RawJSON. It costs nothing when false.
	KeepRawJSON bool `url:"-"`
}

// ListOrdersOptions are the query parameters of Orders.List and Orders.All.
// Zero values are left out of the query, so the server's defaults apply.
type ListOrdersOptions struct {
	// Page is the page number; the server's default is 1.
	Page int `url:"page,omitempty"`
	// Count is the page size. Its bounds are not given by the spec.
	Count int `url:"count,omitempty"`
	// DateStart keeps orders created after this date. Whether the bound is
	// inclusive is not given by the spec.
	DateStart Date `url:"date_start,omitempty"`
	// DateEnd keeps orders created before this date.
	DateEnd Date `url:"date_end,omitempty"`
	// Direction orders the result; see Direction for the assumed values.
	Direction Direction `url:"direction,omitempty"`
	// Sort names the field to sort by; the allowed names are not given by
	// the spec.
	Sort string `url:"sort,omitempty"`
	// Search is a search string; which fields it searches is not given by
	// the spec.
	Search string `url:"search,omitempty"`
	// Status keeps orders with this status.
	Status OrderStatus `url:"status,omitempty"`
	// Includes asks for additional fields.
	Includes []OrderInclude `url:"includes,comma,omitempty"`
	// KeepRawJSON keeps each record's bytes exactly as the server sent them,
	// for RawJSON. It costs nothing when false.
	KeepRawJSON bool `url:"-"`
}

func (o *GetOrderOptions) validate() error {
	if o == nil {
		return nil
	}
	return checkIncludes(o.Includes)
}

func (o *ListOrdersOptions) validate() error {
	if o == nil {
		return nil
	}
	return errors.Join(checkPaging(o.Page, o.Count), checkDates(o.DateStart, o.DateEnd), checkIncludes(o.Includes))
}

func (o *ListOrdersOptions) paging() (int, int) {
	if o == nil {
		return 0, 0
	}
	return o.Page, o.Count
}

func (o *GetOrderOptions) keepsRawJSON() bool   { return o != nil && o.KeepRawJSON }
func (o *ListOrdersOptions) keepsRawJSON() bool { return o != nil && o.KeepRawJSON }

func (o *ListOrdersOptions) forSync(start Date) (listOptions, error) {
	out := ListOrdersOptions{}
	if o != nil {
		out = *o
	}
	return &out, setSyncFields(&out.Page, &out.DateStart, &out.DateEnd, &out.Direction, &out.Sort, start)
}

func (o *ListOrdersOptions) certainlyLists(rec *Order) bool {
	return o == nil || (o.Search == "" && (o.Status == "" || o.Status == rec.Status))
}
