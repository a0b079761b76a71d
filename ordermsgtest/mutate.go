package ordermsgtest

import (
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/ordermsg/ordermsg-go"
)

// ListRequest is a list request about to be answered, as a hook set with
// WithBeforeList sees it.
type ListRequest struct {
	// WebsiteID is the website whose records are listed.
	WebsiteID int64
	// Resource is "orders" or "messages".
	Resource string
	// Page is the page asked for (1 when the query does not say).
	Page int
	// Query is the request's query, to be read, not changed.
	Query map[string][]string
}

// WithBeforeList runs f before each list request is answered, outside the
// handler's lock, so that f may change the records (DeleteOrder,
// SetOrderStatus, AddOrders, …) between the pages of a walk, as a busy
// server's users would. f runs on the request's goroutine: requests served
// at once call it at once.
func WithBeforeList(f func(ListRequest)) Option { return func(h *Handler) { h.beforeList = f } }

// runBeforeList calls the WithBeforeList hook for r, a request routed to the
// list of resource ("orders" or "messages"); a HEAD, routed there too, does
// not list.
func (h *Handler) runBeforeList(r *http.Request, resource string) {
	if h.beforeList == nil || r.Method != http.MethodGet {
		return
	}
	site, err := strconv.ParseInt(pathValue(r, "website_id"), 10, 64)
	if err != nil {
		return
	}
	q := r.URL.Query()
	page, err := strconv.Atoi(q.Get("page"))
	if err != nil {
		page = 1
	}
	h.beforeList(ListRequest{WebsiteID: site, Resource: resource, Page: page, Query: q})
}

// change runs f on the website with the given id under the write lock; it
// reports whether there is such a website and f found its record.
func (h *Handler) change(websiteID int64, f func(w *Website) bool) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	w := h.ds.Website(websiteID)
	return w != nil && f(w)
}

// without returns records without the one whose id is id, in a new slice
// (readers of the old one keep it whole), and whether it was there.
func without[T any](records []*T, id int64, idOf func(*T) int64) ([]*T, bool) {
	i := slices.IndexFunc(records, func(r *T) bool { return idOf(r) == id })
	if i < 0 {
		return records, false
	}
	return slices.Concat(records[:i], records[i+1:]), true
}

// DeleteOrder removes an order from the website while the handler serves:
// it is listed and retrieved no more (404). Its message stays. It reports
// whether the order was there.
func (h *Handler) DeleteOrder(websiteID, orderID int64) bool {
	return h.change(websiteID, func(w *Website) (found bool) {
		w.Orders, found = without(w.Orders, orderID, orderOps.id)
		delete(w.orderByID, orderID)
		return found
	})
}

// DeleteMessage removes a message from the website while the handler
// serves, as DeleteOrder removes an order.
func (h *Handler) DeleteMessage(websiteID, messageID int64) bool {
	return h.change(websiteID, func(w *Website) (found bool) {
		w.Messages, found = without(w.Messages, messageID, messageOps.id)
		delete(w.messageByID, messageID)
		return found
	})
}

// SetOrderStatus changes an order's status while the handler serves, so
// that it leaves (or joins) the lists filtered by status. It reports whether
// the order was there.
func (h *Handler) SetOrderStatus(websiteID, orderID int64, status ordermsg.OrderStatus) bool {
	return update(h, websiteID, func(w *Website) *ordermsg.Order { return w.Order(orderID) },
		func(o *ordermsg.Order) { o.Status = status })
}

// SetMessageType changes a message's type while the handler serves, so that
// it leaves (or joins) the lists filtered by message_type. It reports
// whether the message was there.
func (h *Handler) SetMessageType(websiteID, messageID int64, t ordermsg.MessageType) bool {
	return update(h, websiteID, func(w *Website) *ordermsg.Message { return w.Message(messageID) },
		func(m *ordermsg.Message) { m.MessageType = t })
}

// update applies set to the record that find returns from the website,
// under the write lock, and reports whether there was one.
func update[T any](h *Handler, websiteID int64, find func(*Website) *T, set func(*T)) bool {
	return h.change(websiteID, func(w *Website) bool {
		r := find(w)
		if r != nil {
			set(r)
		}
		return r != nil
	})
}

// AddLateOrders adds n orders (each with its online_order message) created
// at the given time, earlier than records already listed: orders whose
// transactions committed late, which a list shows only from now on. It
// returns them, or nil when there is no such website.
func (h *Handler) AddLateOrders(websiteID int64, created time.Time, n int) []*ordermsg.Order {
	var out []*ordermsg.Order
	h.change(websiteID, func(w *Website) bool {
		s := w.liveOf()
		last := s.last
		out = slices.Clip(w.addOrders(n, nil))
		s.last = last // the next records follow the newest, not these
		for _, o := range out {
			o.DateCreated = ordermsg.Timestamp{Time: created}
			if m := w.Message(o.Message.ID); m != nil {
				m.DateCreated = o.DateCreated
			}
		}
		return true
	})
	return out
}
