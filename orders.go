package ordermsg

import "context"

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
