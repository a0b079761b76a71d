package ordermsg

import (
	"context"
	"iter"
)

// OrdersService reads a website's orders. Use it as Client.Orders.
type OrdersService struct {
	r resource[Order]
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
// created after the checkpoint cp, and advances *cp as each order is
// yielded: when the loop body runs for an order, *cp already covers it. Save
// *cp after any order (or after a break, an error or a crash) and pass it to
// a later Sync: that one yields every later order exactly once. A zero
// Checkpoint starts from the first order.
//
// The date filters are whole days, and the spec says neither whether a
// bound is inclusive nor in which time zone a day starts, so Sync lists from
// two days before the checkpoint (date_start), sorted by date_created in
// ascending order, and drops what the checkpoint already covers; orders
// created in the same second are told apart by id. Apart from the page in
// hand, it keeps only the ids of the checkpoint's second.
//
// Pages are fetched one at a time, in order, each asked for once the one
// before it has been answered: with offset pagination, pages fetched at once
// can straddle an order that appears meanwhile and miss another, so
// WithConcurrency does not apply to Sync.
//
// opts may be nil; Sync sets Page, DateStart, DateEnd, Direction and Sort
// itself, and refuses options that set them. A filter (Status, Search)
// applies as in All; an order that enters it later, older than the
// checkpoint, is not yielded. If the server does not list in ascending
// creation order, Sync ends with an *OrderingError (ErrNotAscending); it
// yields an order only once the order listed after it (or the end of the
// list) shows the order to be ascending, so a list in the wrong order from
// its start yields nothing and leaves *cp as it was.
// Orders the server shows only after later ones were yielded (created with
// an earlier time) are behind the checkpoint and not yielded.
func (s *OrdersService) Sync(ctx context.Context, websiteID int64, cp *Checkpoint, opts *ListOrdersOptions, walk ...WalkOption) iter.Seq2[*Order, error] {
	return s.r.sync(ctx, websiteID, cp, opts, walk)
}
