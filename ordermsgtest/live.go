package ordermsgtest

import (
	"math/rand/v2"
	"slices"
	"time"

	"github.com/ordermsg/ordermsg-go"
)

// liveState is what a website needs to grow new records after the
// generated ones: the generator's next id and the shared records (portal,
// users, staff, forms) that new records link to.
type liveState struct {
	gen    *generator
	portal *ordermsg.Portal
	users  []*ordermsg.WebsiteUser
	staff  []ordermsg.AccountUser
	forms  map[ordermsg.MessageType]*ordermsg.Form
	last   time.Time // creation time of the newest record
}

// liveOf returns w's live state, made on first use. A website that Generate
// did not make starts after its highest record id, with new forms, one
// staff user and no website users.
func (w *Website) liveOf() *liveState {
	if w.live != nil {
		return w.live
	}
	var maxID int64
	for _, o := range w.Orders {
		maxID = max(maxID, o.ID)
	}
	for _, m := range w.Messages {
		maxID = max(maxID, m.ID)
	}
	g := &generator{rng: rand.New(rand.NewPCG(uint64(w.ID), uint64(maxID))), nextID: maxID + 1_000}
	w.live = &liveState{gen: g,
		staff: []ordermsg.AccountUser{{Object: "account_user", ID: g.id(), Username: "staff@example.com"}},
		forms: map[ordermsg.MessageType]*ordermsg.Form{
			ordermsg.MessageTypeOnlineOrder:    {Object: "form", ID: g.id(), Title: "Checkout"},
			ordermsg.MessageTypeGeneralContact: {Object: "form", ID: g.id(), Title: "Contact us"},
		}}
	return w.live
}

// newest returns the creation time of w's newest record.
func (w *Website) newest() time.Time {
	var t time.Time
	for _, o := range w.Orders {
		t = latest(t, o.DateCreated.Time)
	}
	for _, m := range w.Messages {
		t = latest(t, m.DateCreated.Time)
	}
	return t
}

func latest(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// nextTime returns the creation time of the next new record: the newest
// record's time itself (a tie, told apart by the higher id) about a third
// of the time, else up to ten hours later, so that runs of new records
// cross day boundaries.
func (s *liveState) nextTime() time.Time {
	if !s.gen.chance(0.35) {
		s.last = s.last.Add(time.Duration(1+s.gen.pick(600)) * time.Minute)
	}
	return s.last
}

func (s *liveState) user() *ordermsg.WebsiteUser {
	if len(s.users) == 0 || !s.gen.chance(0.7) {
		return nil
	}
	return s.users[s.gen.pick(len(s.users))]
}

// WithClock dates the records that AddOrders and AddMessages add at the
// clock's time (to the second), or at the newest record's when that is
// later, instead of after the generated records' timeline, which lies in the
// past: a poller that starts from now (ordermsg.NewCheckpointAt(time.Now()))
// then sees them. ordermsg serve --add-every uses time.Now.
func WithClock(now func() time.Time) Option { return func(h *Handler) { h.clock = now } }

// grow adds n records to w, made by add at successive creation times after
// (or tied with) every existing record, and returns them. With a clock
// (WithClock), each is created at the clock's time unless a record is newer.
func grow[T any](w *Website, n int, clock func() time.Time, add func(s *liveState, ts ordermsg.Timestamp) *T) []*T {
	s := w.liveOf()
	if s.last.IsZero() {
		s.last = latest(w.newest(), epoch)
	}
	out := make([]*T, 0, max(n, 0))
	for range n {
		t := s.nextTime
		if clock != nil {
			t = func() time.Time { s.last = latest(s.last, clock().UTC().Truncate(time.Second)); return s.last }
		}
		out = append(out, add(s, ordermsg.Timestamp{Time: t()}))
	}
	return out
}

// addOrders adds n orders to w, each with its online_order message.
func (w *Website) addOrders(n int, clock func() time.Time) []*ordermsg.Order {
	return grow(w, n, clock, func(s *liveState, ts ordermsg.Timestamp) *ordermsg.Order {
		user, p := s.user(), s.portalOrNil()
		m := s.gen.message(ts, ordermsg.MessageTypeOnlineOrder, s.forms, user, p)
		o := s.gen.order(ts, m.ID, user, p, s.staff)
		m.Order = ordermsg.ExpandedRef(o)
		m.PaymentTransactions = o.PaymentTransactions
		w.addMessage(m)
		w.Orders = append(w.Orders, o)
		w.indexOrder(o)
		return o
	})
}

// addMessages adds n general_contact messages to w.
func (w *Website) addMessages(n int, clock func() time.Time) []*ordermsg.Message {
	return grow(w, n, clock, func(s *liveState, ts ordermsg.Timestamp) *ordermsg.Message {
		m := s.gen.message(ts, ordermsg.MessageTypeGeneralContact, s.forms, s.user(), s.portalOrNil())
		w.addMessage(m)
		return m
	})
}

func (s *liveState) portalOrNil() *ordermsg.Portal {
	if s.portal == nil || !s.gen.chance(0.3) {
		return nil
	}
	return s.portal
}

func (w *Website) addMessage(m *ordermsg.Message) {
	w.Messages = append(w.Messages, m)
	if w.messageByID == nil {
		w.messageByID = map[int64]*ordermsg.Message{}
	}
	w.messageByID[m.ID] = m
}

func (w *Website) indexOrder(o *ordermsg.Order) {
	if w.orderByID == nil {
		w.orderByID = map[int64]*ordermsg.Order{}
	}
	w.orderByID[o.ID] = o
}

// AddOrders adds n orders to the website with the given id while the
// handler serves, each with its online_order message, and returns them.
// They are created after every existing record, or in the same second as
// the newest (about a third of them share a timestamp), with higher ids (at
// the clock's time with WithClock);
// they are listed and retrieved from then on. It is safe to call while
// requests are served. It returns nil when there is no such website.
func (h *Handler) AddOrders(websiteID int64, n int) []*ordermsg.Order {
	h.mu.Lock()
	defer h.mu.Unlock()
	if w := h.ds.Website(websiteID); w != nil {
		return slices.Clip(w.addOrders(n, h.clock))
	}
	return nil
}

// AddMessages adds n general_contact messages to the website with the given
// id while the handler serves, as AddOrders adds orders, and returns them.
func (h *Handler) AddMessages(websiteID int64, n int) []*ordermsg.Message {
	h.mu.Lock()
	defer h.mu.Unlock()
	if w := h.ds.Website(websiteID); w != nil {
		return slices.Clip(w.addMessages(n, h.clock))
	}
	return nil
}

// AddOrders adds n orders (and their messages) to the first website; see
// Handler.AddOrders.
func (s *Server) AddOrders(n int) []*ordermsg.Order { return s.Handler.AddOrders(s.WebsiteID, n) }

// AddMessages adds n messages to the first website; see Handler.AddMessages.
func (s *Server) AddMessages(n int) []*ordermsg.Message {
	return s.Handler.AddMessages(s.WebsiteID, n)
}

// Snapshot calls f with the handler's dataset while no record is being
// added, for a test that reads the dataset while AddOrders or AddMessages
// may run.
func (h *Handler) Snapshot(f func(*Dataset)) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	f(h.ds)
}
