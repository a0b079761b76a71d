package mirror

import (
	"context"
	"iter"
	"time"

	"github.com/ordermsg/ordermsg-go"
)

// table is what the mirror needs to know of a resource.
type table[T any] struct {
	name    string   // table and resource: "orders" or "messages"
	columns []string // every column of a row, json last
	row     func(site int64, v *T) []any
	id      func(*T) int64
	created func(*T) time.Time
	raw     func(*T) []byte
	// sync walks what was created after cp, advancing it; all lists the
	// records created from since on, oldest first.
	sync func(ctx context.Context, c *ordermsg.Client, site int64, cp *ordermsg.Checkpoint, count int) iter.Seq2[*T, error]
	all  func(ctx context.Context, c *ordermsg.Client, site int64, since ordermsg.Date, count int, walk ordermsg.WalkOption) iter.Seq2[*T, error]
}

// ref is a reference as a column: NULL when the API sent 0 or null.
func ref[R any](r ordermsg.Ref[R]) any {
	if r.ID == 0 {
		return nil
	}
	return r.ID
}

// utc is a creation time as a column: UTC, RFC 3339, so that it sorts as
// time does.
func utc(t ordermsg.Timestamp) string { return t.UTC().Format(time.RFC3339) }

// promoCode is the text of an order's promo code, NULL when none.
func promoCode(o *ordermsg.Order) any {
	if p := o.PromoCode.Expanded; p != nil {
		return p.PromoCode.PromoCode
	}
	return nil
}

var ordersTable = &table[ordermsg.Order]{
	name: "orders",
	columns: []string{"website_id", "id", "date_created", "status", "order_type", "currency", "total", "amount_paid",
		"message_id", "user_id", "portal_id", "promo_code_id", "promo_code", "json"},
	row: func(site int64, o *ordermsg.Order) []any {
		return []any{site, o.ID, utc(o.DateCreated), string(o.Status), string(o.OrderType), o.Currency, o.Pricing.Total, o.AmountPaid,
			ref(o.Message), ref(o.User), ref(o.Portal), ref(o.PromoCode), promoCode(o), string(o.RawJSON())}
	},
	id:      func(o *ordermsg.Order) int64 { return o.ID },
	created: func(o *ordermsg.Order) time.Time { return o.DateCreated.Time },
	raw:     (*ordermsg.Order).RawJSON,
	sync: func(ctx context.Context, c *ordermsg.Client, site int64, cp *ordermsg.Checkpoint, count int) iter.Seq2[*ordermsg.Order, error] {
		return c.Orders.Sync(ctx, site, cp, &ordermsg.ListOrdersOptions{Count: count, Includes: OrderIncludes(), KeepRawJSON: true})
	},
	all: func(ctx context.Context, c *ordermsg.Client, site int64, since ordermsg.Date, count int, walk ordermsg.WalkOption) iter.Seq2[*ordermsg.Order, error] {
		return c.Orders.All(ctx, site, &ordermsg.ListOrdersOptions{Count: count, Includes: OrderIncludes(), KeepRawJSON: true,
			DateStart: since, Direction: ordermsg.DirectionAsc, Sort: "date_created"}, walk)
	},
}

var messagesTable = &table[ordermsg.Message]{
	name: "messages",
	columns: []string{"website_id", "id", "date_created", "message_type", "order_id", "form_id", "user_id", "portal_id",
		"file_id", "json"},
	row: func(site int64, m *ordermsg.Message) []any {
		return []any{site, m.ID, utc(m.DateCreated), string(m.MessageType), ref(m.Order), ref(m.Form), ref(m.User),
			ref(m.Portal), ref(m.File), string(m.RawJSON())}
	},
	id:      func(m *ordermsg.Message) int64 { return m.ID },
	created: func(m *ordermsg.Message) time.Time { return m.DateCreated.Time },
	raw:     (*ordermsg.Message).RawJSON,
	sync: func(ctx context.Context, c *ordermsg.Client, site int64, cp *ordermsg.Checkpoint, count int) iter.Seq2[*ordermsg.Message, error] {
		return c.Messages.Sync(ctx, site, cp, &ordermsg.ListMessagesOptions{Count: count, Includes: MessageIncludes(), KeepRawJSON: true})
	},
	all: func(ctx context.Context, c *ordermsg.Client, site int64, since ordermsg.Date, count int, walk ordermsg.WalkOption) iter.Seq2[*ordermsg.Message, error] {
		return c.Messages.All(ctx, site, &ordermsg.ListMessagesOptions{Count: count, Includes: MessageIncludes(), KeepRawJSON: true,
			DateStart: since, Direction: ordermsg.DirectionAsc, Sort: "date_created"}, walk)
	},
}
