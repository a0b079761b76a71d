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
