package ordermsg

import (
	"context"
	"iter"

	"github.com/ordermsg/ordermsg-go/internal/resources"
)

// OrdersService reads a website's orders. Use it as Client.Orders.
type OrdersService struct {
	r resource[Order, *Order]
}

// Get returns one order of the website. opts may be nil.
func (s *OrdersService) Get(ctx context.Context, websiteID, orderID int64, opts *GetOrderOptions) (*Order, error) {
	return s.r.get(ctx, websiteID, orderID, orNew(opts))
}

// List returns one page of the website's orders. opts may be nil.
func (s *OrdersService) List(ctx context.Context, websiteID int64, opts *ListOrdersOptions) (*Page[Order], error) {
	return s.r.list(ctx, websiteID, orNew(opts))
}

// All walks every page of the website's orders that opts describe, from
// opts.Page (default 1), and yields each order once, in the list's order.
// An error is yielded once, and ends the walk. Breaking out of the loop stops
// the walk at once: nothing it started is left running. opts is not changed.
//
// Records pushed onto the next page during the walk (new records at the head
// of a newest-first list) are not yielded twice; records deleted during the
// walk can make others shift back and be skipped. For a consistent walk, sort
// ascending (DirectionAsc) within a closed date window (DateEnd in the past).
func (s *OrdersService) All(ctx context.Context, websiteID int64, opts *ListOrdersOptions, walk ...WalkOption) iter.Seq2[*Order, error] {
	return s.r.walkList(ctx, &s.r.ops.all, websiteID, orNew(opts), walk, nil)
}

// Sync yields, in ascending creation order, every order of the website that
// the checkpoint cp does not cover (all, for a zero Checkpoint; those from a
// given time on, for NewCheckpointAt), and advances *cp as each is yielded:
// when the loop body runs for an order, *cp already covers it. Save *cp at
// any point (after an order, a break, an error) and pass it to a later Sync,
// which yields every order not yielded yet exactly once. Pages are fetched
// one at a time, whatever WithConcurrency says. opts may be nil; Sync sets
// Page, DateStart, DateEnd, Direction and Sort itself and refuses options
// that set them. Of the walk options it takes WithSkipUndecodable.
//
// Before any request, Sync yields a *CheckpointMismatchError for a
// checkpoint of another website or of messages, and ErrFutureCheckpoint for
// one whose mark is ahead of this machine's clock. A listing it cannot trust
// ends it with an *OverlapError, a *ListShiftedError or an *OrderingError,
// having yielded nothing out of order and lost nothing. docs/sync.md says
// how Sync reads the whole-day date filters, what each error means, and
// what a record that cannot be decoded or is late does to the checkpoint;
// RELIABILITY.md gives the bounds.
func (s *OrdersService) Sync(ctx context.Context, websiteID int64, cp *Checkpoint, opts *ListOrdersOptions, walk ...WalkOption) iter.Seq2[*Order, error] {
	return s.r.sync(ctx, websiteID, cp, orNew(opts), walk)
}

// GetRaw returns one order of the website as a *RawRecord: checked as Get
// decodes it, with the same errors, but not decoded. opts may be nil; a
// RawRecord keeps its bytes without KeepRawJSON, which only costs time.
func (s *OrdersService) GetRaw(ctx context.Context, websiteID, orderID int64, opts *GetOrderOptions) (*RawRecord, error) {
	return getRaw(ctx, s.r, websiteID, orderID, orNew(opts))
}

// AllRaw walks the website's orders as All does, with the same options,
// walk options and errors, and yields each order as a *RawRecord: checked
// exactly as All decodes it (an order All refuses, AllRaw refuses alike)
// but not decoded, for a fraction of the time and memory. A RawRecord
// keeps its bytes without KeepRawJSON, which only costs time.
func (s *OrdersService) AllRaw(ctx context.Context, websiteID int64, opts *ListOrdersOptions, walk ...WalkOption) iter.Seq2[*RawRecord, error] {
	return allRaw(ctx, s.r, websiteID, orNew(opts), walk)
}

// SyncRaw is Sync yielding each order as a *RawRecord, as AllRaw is All:
// the same checkpoints (a checkpoint of Sync goes on with SyncRaw, and the
// other way round), options, walk options and errors.
func (s *OrdersService) SyncRaw(ctx context.Context, websiteID int64, cp *Checkpoint, opts *ListOrdersOptions, walk ...WalkOption) iter.Seq2[*RawRecord, error] {
	return syncRaw(ctx, s.r, websiteID, cp, orNew(opts), walk)
}

// GetOrderOptions are the query parameters of Orders.Get.
type GetOrderOptions struct {
	Includes    []OrderInclude `url:"includes,comma,omitempty"` // additional fields, sent as one comma-separated value
	KeepRawJSON bool           `url:"-"`                        // keep each record's bytes as sent, for RawJSON; free when false
	// Response, when set, receives the HTTP response behind a successful
	// call: its status and headers. A failed call leaves it as it was.
	// Options that carry a Response are not for calls made at once.
	Response *Response `url:"-"`
}

// ListOrdersOptions are the query parameters of Orders.List and Orders.All.
// Zero values are left out of the query, so the server's defaults apply. The
// spec gives neither Count's bounds, nor whether the date bounds are
// inclusive, nor the Sort names, nor which fields Search reads.
type ListOrdersOptions struct {
	Page        int            `url:"page,omitempty"`           // the page number; the server's default is 1
	Count       int            `url:"count,omitempty"`          // the page size
	DateStart   Date           `url:"date_start,omitempty"`     // keeps orders created after this date
	DateEnd     Date           `url:"date_end,omitempty"`       // keeps orders created before this date
	Direction   Direction      `url:"direction,omitempty"`      // see Direction for the assumed values
	Sort        string         `url:"sort,omitempty"`           // the field to sort by
	Search      string         `url:"search,omitempty"`         // a search string
	Status      OrderStatus    `url:"status,omitempty"`         // keeps orders with this status
	Includes    []OrderInclude `url:"includes,comma,omitempty"` // additional fields
	KeepRawJSON bool           `url:"-"`                        // as in GetOrderOptions
	// Response, as in GetOrderOptions, receives the response of List. In
	// All and Sync it is, in the loop's body, the response of the page
	// that the current record (or record error) came from.
	Response *Response `url:"-"`
}

func (o *GetOrderOptions) validate() error           { return checkIncludes(o.Includes) }
func (o *GetOrderOptions) keepsRawJSON() bool        { return o.KeepRawJSON }
func (o *GetOrderOptions) responseInto() *Response   { return o.Response }
func (o *ListOrdersOptions) keepsRawJSON() bool      { return o.KeepRawJSON }
func (o *ListOrdersOptions) responseInto() *Response { return o.Response }
func (o *ListOrdersOptions) startPage() int          { return o.Page }

func (o *ListOrdersOptions) validate() error {
	return checkListOptions(o.Page, o.Count, o.DateStart, o.DateEnd, o.Includes)
}

func (o *ListOrdersOptions) forSync(start Date, into *Response) (listOptions, error) {
	out := *o
	out.Response = into
	return &out, setSyncFields(&out.Page, &out.DateStart, &out.DateEnd, &out.Direction, &out.Sort, start)
}

func (o *ListOrdersOptions) certainlyLists(rec *Order) bool {
	return o.Search == "" && (o.Status == "" || o.Status == rec.Status)
}

// OrdersResource returns the description of orders that code handling
// orders and messages alike uses (see Resource): its calls are those of
// Client.Orders, with ResourceOptions' Filter as Status.
func OrdersResource() Resource[Order] {
	return Resource[Order]{name: resources.Orders.Collection, calls: typedCalls[Order, *Order, *GetOrderOptions, *ListOrdersOptions]{
		of:      func(c *Client) resource[Order, *Order] { return c.Orders.r },
		convert: ordersOptions,
	}}
}

// ordersOptions are the options of Orders' calls that o gives.
func ordersOptions(o *ResourceOptions) (*GetOrderOptions, *ListOrdersOptions) {
	includes := includesOf[OrderInclude](o.Includes)
	return &GetOrderOptions{Includes: includes, KeepRawJSON: o.KeepRawJSON, Response: o.Response},
		&ListOrdersOptions{Page: o.Page, Count: o.Count, DateStart: o.DateStart, DateEnd: o.DateEnd,
			Direction: o.Direction, Sort: o.Sort, Search: o.Search, Status: OrderStatus(o.Filter),
			Includes: includes, KeepRawJSON: o.KeepRawJSON, Response: o.Response}
}
