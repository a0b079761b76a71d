package ordermsgtest

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/ordermsg/ordermsg-go"
)

// Config sizes a generated Dataset.
type Config struct {
	// Seed makes the dataset: the same seed and sizes give the same records.
	Seed uint64
	// Websites is the number of websites; each belongs to its own account,
	// with its own API key.
	Websites int
	// OrdersPerWebsite is the number of orders of each website. Every order
	// is linked to an online_order message.
	OrdersPerWebsite int
	// MessagesPerWebsite is the number of messages of each website; it is
	// raised to OrdersPerWebsite when smaller. The messages beyond the
	// orders' own are event_management and general_contact messages.
	MessagesPerWebsite int
	// Now is the time the dataset is made at: no record is created after
	// it. The zero Now is time.Now(). A website's records are created a
	// few hours apart from 2024-01-01 08:00 UTC on; when the newest would
	// then come after Now (past about 7,000 messages in late 2026), the
	// website's records are all moved back by the same whole number of
	// minutes, keeping their spacing, so that the newest is created in the
	// minute before Now or at it. A smaller website keeps its dates
	// whatever Now is, so the same Seed and sizes give the same records; a
	// website that is moved depends on Now too.
	Now time.Time
}

// DefaultConfig is the dataset the examples and the CLI's demo use: two
// websites of 420 orders and 540 messages each, enough that walking is real
// at any page size.
func DefaultConfig() Config {
	return Config{Seed: 1, Websites: 2, OrdersPerWebsite: 420, MessagesPerWebsite: 540}
}

// Dataset is a generated set of linked records. Its records are canonical:
// every include applied, so they show all there is. What a response shows
// of them depends on the includes and the context, as the spec says; the
// Handler does that rendering.
type Dataset struct {
	Websites []*Website
}

// Website is one website with its records, sorted by id (which is also the
// order of their creation dates).
type Website struct {
	ID int64
	// APIKey is the key of the account that owns the website; it reads this
	// website and no other.
	APIKey   string
	Orders   []*ordermsg.Order
	Messages []*ordermsg.Message

	orderByID   map[int64]*ordermsg.Order
	messageByID map[int64]*ordermsg.Message
	live        *liveState // for AddOrders and AddMessages (live.go)
}

// Website returns the website with the given id, or nil.
func (d *Dataset) Website(id int64) *Website {
	for _, w := range d.Websites {
		if w.ID == id {
			return w
		}
	}
	return nil
}

// Order returns the canonical order with the given id, or nil. An order
// appended to Orders after Generate, or in a Website built by hand, is found
// as well.
func (w *Website) Order(id int64) *ordermsg.Order {
	return lookup(w.orderByID, w.Orders, id, func(o *ordermsg.Order) int64 { return o.ID })
}

// Message returns the canonical message with the given id, or nil; like
// Order, it finds messages added by hand too.
func (w *Website) Message(id int64) *ordermsg.Message {
	return lookup(w.messageByID, w.Messages, id, func(m *ordermsg.Message) int64 { return m.ID })
}

// lookup finds the record with the given id: in the index Generate built,
// else in the records themselves, which may have been added to since.
func lookup[T any](index map[int64]*T, records []*T, id int64, idOf func(*T) int64) *T {
	if r := index[id]; r != nil {
		return r
	}
	for _, r := range records {
		if r != nil && idOf(r) == id {
			return r
		}
	}
	return nil
}

// Generate builds a dataset from cfg. Sizes below 1 website or 0 records are
// raised to the smallest that work.
func Generate(cfg Config) *Dataset {
	cfg.Websites = max(cfg.Websites, 1)
	cfg.OrdersPerWebsite = max(cfg.OrdersPerWebsite, 0)
	cfg.MessagesPerWebsite = max(cfg.MessagesPerWebsite, cfg.OrdersPerWebsite)
	now := cfg.Now
	if now.IsZero() {
		now = time.Now()
	}
	src := rand.NewPCG(cfg.Seed, cfg.Seed^0x6f72646572)
	g := &generator{rng: rand.New(src), cfg: cfg}
	ds := &Dataset{}
	for i := range cfg.Websites {
		id := int64(1001 + i)
		before := *src
		w := g.website(id, epoch)
		if newest := w.newest(); newest.After(now) {
			// The same draws again, from a start that puts the newest
			// record at now or in the minute before.
			*src = before
			w = g.website(id, now.Add(-newest.Sub(epoch)).Truncate(time.Minute))
		}
		ds.Websites = append(ds.Websites, w)
	}
	return ds
}

// epoch is the creation time of the first record of every website, unless
// the website is moved back (see Config.Now).
var epoch = time.Date(2024, time.January, 1, 8, 0, 0, 0, time.UTC)

type generator struct {
	rng    *rand.Rand
	cfg    Config
	nextID int64
}

func (g *generator) id() int64 {
	g.nextID++
	return g.nextID
}

func (g *generator) pick(n int) int { return g.rng.IntN(n) }

func (g *generator) chance(p float64) bool { return g.rng.Float64() < p }

// website makes the website with the given id, whose records are created
// from start on.
func (g *generator) website(id int64, start time.Time) *Website {
	w := &Website{
		ID:          id,
		APIKey:      fmt.Sprintf("omk_test_%016x", g.rng.Uint64()),
		orderByID:   map[int64]*ordermsg.Order{},
		messageByID: map[int64]*ordermsg.Message{},
	}
	g.nextID = id * 1_000_000 // ids differ across websites
	portal := &ordermsg.Portal{Object: "portal", ID: g.id(), Title: "Trade portal"}
	users := make([]*ordermsg.WebsiteUser, 12)
	for i := range users {
		users[i] = g.websiteUser()
	}
	staff := []ordermsg.AccountUser{
		{Object: "account_user", ID: g.id(), Username: "staff@example.com"},
		{Object: "account_user", ID: g.id(), Username: "owner@example.com"},
	}
	forms := map[ordermsg.MessageType]*ordermsg.Form{
		ordermsg.MessageTypeOnlineOrder:     {Object: "form", ID: g.id(), Title: "Checkout"},
		ordermsg.MessageTypeEventManagement: {Object: "form", ID: g.id(), Title: "Event registration"},
		ordermsg.MessageTypeGeneralContact:  {Object: "form", ID: g.id(), Title: "Contact us"},
	}

	// Messages and orders are interleaved in time: every order has its
	// online_order message, created at the same moment, and the messages
	// that have no order fall between them.
	total := g.cfg.MessagesPerWebsite
	orderEvery := float64(total) / float64(max(g.cfg.OrdersPerWebsite, 1))
	when := start
	orders := 0
	for i := range total {
		when = when.Add(time.Duration(20+g.pick(400)) * time.Minute)
		var user *ordermsg.WebsiteUser
		if g.chance(0.7) {
			user = users[g.pick(len(users))]
		}
		var p *ordermsg.Portal
		if g.chance(0.3) {
			p = portal
		}
		ts := ordermsg.Timestamp{Time: when}
		if orders < g.cfg.OrdersPerWebsite && float64(i) >= float64(orders)*orderEvery {
			orders++
			m := g.message(ts, ordermsg.MessageTypeOnlineOrder, forms, user, p)
			o := g.order(ts, m.ID, user, p, staff)
			m.Order = ordermsg.ExpandedRef(o)
			m.PaymentTransactions = o.PaymentTransactions
			w.Orders = append(w.Orders, o)
			w.Messages = append(w.Messages, m)
			continue
		}
		kind := ordermsg.MessageTypeGeneralContact
		if g.chance(0.4) {
			kind = ordermsg.MessageTypeEventManagement
		}
		w.Messages = append(w.Messages, g.message(ts, kind, forms, user, p))
	}
	for _, o := range w.Orders {
		w.orderByID[o.ID] = o
	}
	for _, m := range w.Messages {
		w.messageByID[m.ID] = m
	}
	w.live = &liveState{gen: &generator{rng: rand.New(rand.NewPCG(g.cfg.Seed, uint64(id))), cfg: g.cfg, nextID: g.nextID},
		portal: portal, users: users, staff: staff, forms: forms}
	return w
}

var (
	firstNames = []string{"Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Frances", "Ken", "Margaret", "Dennis", "Radia", "Niklaus"}
	lastNames  = []string{"Lovelace", "Hopper", "Turing", "Dijkstra", "Liskov", "Knuth", "Allen", "Thompson", "Hamilton", "Ritchie", "Perlman", "Wirth"}
	cities     = []struct{ city, state, postal, country string }{
		{"Springfield", "IL", "62701", "US"}, {"Portland", "OR", "97201", "US"}, {"Leeds", "", "LS1 1AA", "GB"},
		{"Toronto", "ON", "M5V 2T6", "CA"}, {"Lyon", "", "69001", "FR"}, {"Austin", "TX", "73301", "US"},
	}
	products = []struct {
		sku, title, short string
		unit              int64
		weight            float64
	}{
		{"FLY-A5", "Flyers", "A5 flyers", 1500, 0.5},
		{"PST-A2", "Posters", "A2 posters", 4200, 1.2},
		{"BRO-TRI", "Brochures", "Tri-fold brochures", 2600, 0.8},
		{"STK-RND", "Stickers", "Round stickers", 900, 0.1},
		{"BAN-VNL", "Banner", "Vinyl banner", 12500, 3},
	}
	currencies = []string{"usd", "usd", "usd", "eur", "gbp"}
)

func (g *generator) websiteUser() *ordermsg.WebsiteUser {
	first, last := firstNames[g.pick(len(firstNames))], lastNames[g.pick(len(lastNames))]
	u := &ordermsg.WebsiteUser{Object: "website_user", ID: g.id(), Username: fmt.Sprintf("%s.%s%d", lower(first), lower(last), g.pick(100))}
	if g.chance(0.5) {
		u.ThirdPartyIdentifier = fmt.Sprintf("crm-%d", u.ID)
	}
	return u
}

func (g *generator) message(ts ordermsg.Timestamp, kind ordermsg.MessageType, forms map[ordermsg.MessageType]*ordermsg.Form,
	user *ordermsg.WebsiteUser, p *ordermsg.Portal) *ordermsg.Message {
	m := &ordermsg.Message{
		Object:                "message",
		ID:                    g.id(),
		DateCreated:           ts,
		Form:                  ordermsg.ExpandedRef(forms[kind]),
		FormSubmission:        g.contactForm(kind),
		MessageType:           kind,
		Order:                 ordermsg.NewRef[ordermsg.Order](0),
		PaymentTransactions:   []ordermsg.PaymentTransaction{},
		File:                  ordermsg.NullRef[ordermsg.File](),
		Portal:                refOrZero(p),
		User:                  refOrNull(user),
		MessageTrackingNumber: "",
	}
	m.MessageTrackingNumber = fmt.Sprintf("MSG-%d", m.ID)
	if kind == ordermsg.MessageTypeEventManagement {
		m.EventSubmission = g.id()
	}
	if g.chance(0.1) {
		m.OnlineProof = g.id()
	}
	if g.chance(0.25) {
		m.File = ordermsg.ExpandedRef(g.file(ts, "attachment.pdf"))
	}
	return m
}

func (g *generator) file(ts ordermsg.Timestamp, name string) *ordermsg.File {
	id := g.id()
	return &ordermsg.File{
		Object: "file", ID: id, Filename: name,
		URL:     fmt.Sprintf("https://files.example.com/%d/%s", id, name),
		Expires: ordermsg.Timestamp{Time: ts.Add(24 * time.Hour)},
	}
}

func (g *generator) order(ts ordermsg.Timestamp, messageID int64, user *ordermsg.WebsiteUser, p *ordermsg.Portal,
	staff []ordermsg.AccountUser) *ordermsg.Order {
	o := &ordermsg.Order{
		Object:                "order",
		ID:                    g.id(),
		AdditionalInformation: g.additionalInformation(),
		BillingAddress:        g.addressForm(true),
		ContentCatalog:        int64(7 + g.pick(3)),
		Currency:              currencies[g.pick(len(currencies))],
		DateCreated:           ts,
		IsPayLater:            g.chance(0.15),
		Message:               ordermsg.NewRef[ordermsg.Message](messageID),
		Notes:                 []ordermsg.OrderNote{},
		OrderType:             ordermsg.OrderTypeEcommerce,
		PaymentTransactions:   []ordermsg.PaymentTransaction{},
		Portal:                refOrZero(p),
		PromoCode:             ordermsg.NullRef[ordermsg.OrderPromoCode](),
		Shipments:             []ordermsg.OrderShipment{},
		Status:                ordermsg.OrderStatusNew,
		User:                  refOrNull(user),
	}
	if g.chance(0.3) {
		o.OrderType = ordermsg.OrderTypeCatalog
	}
	var subtotal int64
	for i := range 1 + g.pick(3) {
		versadoc := i == 0 && g.chance(0.25)
		it := g.item(ts, o.ContentCatalog, p, versadoc)
		subtotal += it.Pricing.Subtotal
		o.Items = append(o.Items, it)
	}
	pricing := ordermsg.OrderPricing{Object: "order_pricing", Subtotal: subtotal}
	if g.chance(0.3) {
		promo := &ordermsg.OrderPromoCode{
			Object: "order_promo_code", ID: g.id(),
			PromoCode:        ordermsg.PromoCode{Object: "promo_code", ID: g.id(), PromoCode: "SAVE10"},
			SubtotalDiscount: subtotal / 10,
		}
		o.PromoCode = ordermsg.ExpandedRef(promo)
		pricing.SubtotalDiscount = promo.SubtotalDiscount
	}
	if g.chance(0.6) {
		pricing.Shipping = int64(500 + 100*g.pick(11))
		o.ShippingTaxPercentage = 0.2
		o.Shipments = append(o.Shipments, g.shipment(ts, pricing.Shipping))
		for i := range o.Items {
			if !o.Items[i].ExemptFromShipping {
				o.Items[i].Shipment = o.Shipments[0].ID
			}
		}
	}
	pricing.Tax = (pricing.Subtotal - pricing.SubtotalDiscount) * 8 / 100
	pricing.Total = pricing.Subtotal - pricing.SubtotalDiscount + pricing.Shipping + pricing.Tax
	o.Pricing = pricing
	if !o.IsPayLater {
		tx := ordermsg.PaymentTransaction{
			Object: "payment_transaction", ID: g.id(), Amount: pricing.Total, Currency: o.Currency,
			DateCreated: ordermsg.Timestamp{Time: ts.Add(30 * time.Second)}, PaymentType: ordermsg.PaymentTypeCreditCard,
			TestMode: true, TransactionStatus: ordermsg.TransactionStatusCaptured, TransactionType: ordermsg.TransactionTypePayment,
		}
		tx.TransactionID = fmt.Sprintf("ch_%d", tx.ID)
		o.PaymentTransactions = append(o.PaymentTransactions, tx)
		o.AmountPaid = tx.Amount
	}
	for range g.pick(3) {
		note := ordermsg.OrderNote{
			Object: "order_note", ID: g.id(), DateCreated: ordermsg.Timestamp{Time: ts.Add(time.Hour)},
			Note: "Customer asked about delivery.", User: staff[g.pick(len(staff))],
		}
		o.Notes = append(o.Notes, note)
	}
	return o
}

func (g *generator) item(ts ordermsg.Timestamp, catalog int64, p *ordermsg.Portal, versadoc bool) ordermsg.OrderItem {
	prod := products[g.pick(len(products))]
	qty := int64(1 + g.pick(5))
	it := ordermsg.OrderItem{
		Object: ordermsg.ObjectOrderItem, ID: g.id(), CatalogItem: int64(300 + g.pick(50)), ContentCatalog: catalog,
		DateCreated: ts, IsTaxable: true, Portal: refOrZero(p),
		Pricing:  ordermsg.OrderItemPricing{Object: "order_item_pricing", Unit: prod.unit, Subtotal: prod.unit * qty},
		Quantity: qty, ShortDescription: prod.short, SKU: prod.sku, Status: ordermsg.ItemStatusOrdered,
		TaxClass: 2, TaxPercentage: 0.08, Title: prod.title, Weight: prod.weight,
		Attributes: ordermsg.Nullable[ordermsg.FormSubmission]{Value: g.attributes()},
	}
	if g.chance(0.3) {
		it.Description = prod.title + " printed in full colour"
	}
	if !versadoc {
		return it
	}
	it.Object = ordermsg.ObjectVersadocOrderItem
	it.SKU, it.Title, it.ShortDescription = "BC-STD", "Business cards", ""
	it.Attributes = ordermsg.Null[ordermsg.FormSubmission]()
	it.ExemptFromShipping = g.chance(0.5)
	it.IsTaxable, it.TaxClass, it.TaxPercentage, it.Weight = false, 0, 0, 0.4
	it.Pricing = ordermsg.OrderItemPricing{Object: "order_item_pricing", Unit: 2000, Volume: 100 * qty, Subtotal: 2000 * qty}
	it.PrintReadyFiles = []ordermsg.PrintReadyFile{g.printReadyFile(ts, "front", true), g.printReadyFile(ts, "back", g.chance(0.6))}
	it.VersadocOrderForm = &ordermsg.FormSubmission{Object: "form_submission", Fields: ordermsg.FormFields{
		textField("f31", ordermsg.FieldTypeText, "Name on card", firstNames[g.pick(len(firstNames))]+" "+lastNames[g.pick(len(lastNames))]),
	}}
	return it
}

func (g *generator) printReadyFile(ts ordermsg.Timestamp, tag string, ok bool) ordermsg.PrintReadyFile {
	f := ordermsg.PrintReadyFile{
		Object: "print_ready_file", ID: g.id(), DateCreated: ordermsg.Timestamp{Time: ts.Add(time.Minute)},
		Tag: tag, Status: ordermsg.PrintReadyFileStatusFailure,
	}
	if ok {
		f.Status = ordermsg.PrintReadyFileStatusSuccess
		f.File = g.file(ts, tag+".pdf")
	}
	return f
}

func (g *generator) shipment(ts ordermsg.Timestamp, price int64) ordermsg.OrderShipment {
	s := ordermsg.OrderShipment{
		Object: "order_shipment", ID: g.id(),
		DateCreated: ordermsg.Timestamp{Time: ts.Add(2 * time.Hour)}, DateShipped: ordermsg.Timestamp{Time: ts.Add(26 * time.Hour)},
		ShippingAddress:          g.addressForm(false),
		ShippingCarrier:          &ordermsg.ShippingCarrier{Object: "shipping_carrier", ID: 11, CarrierType: ordermsg.CarrierTypeCustom, Title: "Courier Co"},
		ShippingMethod:           &ordermsg.ShippingMethod{Object: "shipping_method", ID: 12, Title: "Next day"},
		ShippingNotificationSent: g.chance(0.8), Status: ordermsg.ShipmentStatusShipped, Price: price,
	}
	s.TrackingNumber = fmt.Sprintf("TRK%09d", s.ID%1_000_000_000)
	return s
}

func refOrZero[T any](v *T) ordermsg.Ref[T] {
	if v == nil {
		return ordermsg.NewRef[T](0)
	}
	return ordermsg.ExpandedRef(v)
}

func refOrNull[T any](v *T) ordermsg.Ref[T] {
	if v == nil {
		return ordermsg.NullRef[T]()
	}
	return ordermsg.ExpandedRef(v)
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
