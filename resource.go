package ordermsg

import (
	"context"
	"errors"
	"iter"
	"net/url"
	"strconv"

	"github.com/google/go-querystring/query"
	"github.com/ordermsg/ordermsg-go/internal/resources"
)

// queryOptions is an options struct of a request, never nil (orNew): it
// checks itself before it is encoded, says whether to keep the records'
// bytes, and where the response goes (nil: nowhere).
type queryOptions interface {
	validate() error
	keepsRawJSON() bool
	responseInto() *Response
}

// listOptions are the options of a list, which a walk pages through.
type listOptions interface {
	queryOptions
	startPage() int
}

// syncOptions are list options that a Sync can take. forSync returns a copy
// that lists the records created from start on in ascending creation order,
// and sends each page's response to into, or an error when the caller set
// what Sync chooses. certainlyLists reports
// whether rec, read by id, surely belongs in the list: its status or type
// matches, and no Search is set (the spec does not say what a search reads).
type syncOptions[T any] interface {
	listOptions
	forSync(start Date, into *Response) (listOptions, error)
	certainlyLists(rec *T) bool
}

// noOptions is a request without options.
type noOptions struct{}

func (noOptions) validate() error         { return nil }
func (noOptions) keepsRawJSON() bool      { return false }
func (noOptions) responseInto() *Response { return nil }

// orNew returns o, or new zero options for nil.
func orNew[O any](o *O) *O {
	if o == nil {
		return new(O)
	}
	return o
}

// resource is the code that orders and messages share: both are read one at
// a time or a page at a time, under /websites/:website_id/<collection>.
type resource[T any, P record[T]] struct {
	c          *Client
	collection string      // path segment: "orders" or "messages"
	kind       string      // the records' "object": "order" or "message"
	ops        *operations // its kinds of call, as an Observer sees them
}

// newResource returns the resource of c that res names.
func newResource[T any, P record[T]](c *Client, res resources.Resource) resource[T, P] {
	r := resource[T, P]{c: c, collection: res.Collection, kind: res.Object}
	r.ops = newOperations(r.collection, r.kind, c.baseURL.Path, r.recordPath, r.listPath)
	return r
}

// formatID is an id as a path holds it.
func formatID(id int64) string { return strconv.FormatInt(id, 10) }

// recordPath is the path of one record, /websites/:website_id/<collection>/:id,
// and listPath the path of the website's list of records. The ids are text:
// numbers in a request's path, placeholders in its template (Operation).
func (r resource[T, P]) recordPath(website, id string) string {
	return "/websites/" + website + "/" + r.collection + "/" + id
}

func (r resource[T, P]) listPath(website string) string {
	return "/websites/" + website + "/" + r.collection
}

// get reads one record: GET /websites/:website_id/<collection>/:id.
func (r resource[T, P]) get(ctx context.Context, websiteID, id int64, opts queryOptions) (*T, error) {
	if err := checkID("website", websiteID); err != nil {
		return nil, err
	}
	if err := checkID(r.kind, id); err != nil {
		return nil, err
	}
	q, err := encodeOptions(opts)
	if err != nil {
		return nil, err
	}
	ctx, w := r.c.watch(ctx, &r.ops.get)
	out, err := r.getRecord(ctx, w, r.recordPath(formatID(websiteID), formatID(id)), q, opts)
	records := 0
	if out != nil {
		records = 1
	}
	w.done(records, err)
	return out, err
}

// getRecord sends get's request, in the call that w watches, and decodes
// its answer.
func (r resource[T, P]) getRecord(ctx context.Context, w *callWatch, path string, q url.Values, opts queryOptions) (*T, error) {
	a, err := r.c.get(ctx, w, path, q)
	if err != nil {
		return nil, err
	}
	out, err := decodeRecord[T, P](a.url, a.body, r.kind, opts.keepsRawJSON())
	a.decoded()
	if err != nil {
		return nil, err
	}
	a.report(opts.responseInto())
	return out, nil
}

// list reads one page: GET /websites/:website_id/<collection>.
func (r resource[T, P]) list(ctx context.Context, websiteID int64, opts listOptions) (*Page[T], error) {
	q, err := r.checkList(websiteID, opts)
	if err != nil {
		return nil, err
	}
	ctx, w := r.c.watch(ctx, &r.ops.list)
	p, err := r.listPage(ctx, w, websiteID, q, opts)
	w.done(p.records(), err)
	return p, err
}

// listPage sends list's request, in the call that w watches, and decodes
// its answer.
func (r resource[T, P]) listPage(ctx context.Context, w *callWatch, websiteID int64, q url.Values, opts listOptions) (*Page[T], error) {
	a, err := r.c.get(ctx, w, r.listPath(formatID(websiteID)), q)
	if err != nil {
		return nil, err
	}
	p, err := decodePage[T, P](a.url, a.body, r.kind, opts.keepsRawJSON(), false)
	a.decoded()
	if err != nil {
		return nil, err
	}
	a.report(opts.responseInto())
	return p, nil
}

// checkList checks a list request and encodes its query.
func (r resource[T, P]) checkList(websiteID int64, opts listOptions) (url.Values, error) {
	if err := checkID("website", websiteID); err != nil {
		return nil, err
	}
	return encodeOptions(opts)
}

func checkID(what string, id int64) error {
	if id <= 0 {
		return invalidArgument("%s id must be positive, got %d", what, id)
	}
	return nil
}

// checkListOptions checks the fields that both services' list options share
// and reports every problem at once.
func checkListOptions[I ~string](page, count int, start, end Date, includes []I) error {
	var paging, dates error
	if page < 0 || count < 0 {
		paging = invalidArgument("Page (%d) and Count (%d) must not be negative", page, count)
	}
	if err := errors.Join(start.Validate(), end.Validate()); err != nil {
		dates = &argumentError{msg: err.Error()}
	}
	return errors.Join(paging, dates, checkIncludes(includes))
}

// setSyncFields checks that the caller left zero the fields that Sync
// chooses, and sets them: from start on, ascending by date_created (the spec
// does not list the sort names; it is the field records are created by).
func setSyncFields(page *int, dateStart, dateEnd *Date, dir *Direction, sort *string, start Date) error {
	if *page != 0 || !dateStart.IsZero() || !dateEnd.IsZero() || *dir != "" || *sort != "" {
		return invalidArgument("Sync chooses Page, DateStart, DateEnd, Direction and Sort itself; leave them zero")
	}
	*dateStart, *dir, *sort = start, DirectionAsc, "date_created"
	return nil
}

// encodeOptions checks opts and encodes them as a query.
func encodeOptions(opts queryOptions) (url.Values, error) {
	if err := opts.validate(); err != nil {
		return nil, err
	}
	return query.Values(opts) // only a Date's EncodeValues can fail, and validate checked the dates
}

// Resource describes orders or messages to code that handles both alike, as
// the mirror and the command-line tool do: its name, and its calls, which
// send what the calls of Client.Orders (or Client.Messages) send for the
// same options. It holds no client: each call takes the one to send with,
// so a Resource can be described once, before any client is made.
// OrdersResource and MessagesResource give it; Raw gives the same calls
// yielding RawRecords. T is Order, Message or RawRecord.
type Resource[T any] struct {
	name  string
	calls resourceCalls[T]
}

// ResourceOptions are the options of a Resource's calls: the fields of
// ListOrdersOptions and ListMessagesOptions, which mean what they mean
// there, with Filter for Status (orders) or MessageType (messages) and the
// includes as text. Get takes Includes, KeepRawJSON and Response only, and
// refuses the others.
type ResourceOptions struct {
	Page, Count        int
	DateStart, DateEnd Date
	Direction          Direction
	Sort, Search       string
	Filter             string // Status of orders, MessageType of messages
	Includes           []string
	KeepRawJSON        bool
	Response           *Response
}

// Name is the resource's name: "orders" or "messages", the path segment of
// its collection and the resource that its Checkpoints name.
func (r Resource[T]) Name() string { return r.name }

// Get returns one record of the website, as Orders.Get does. opts may be nil.
func (r Resource[T]) Get(ctx context.Context, c *Client, websiteID, id int64, opts *ResourceOptions) (*T, error) {
	if err := r.ready(c); err != nil {
		return nil, err
	}
	return r.calls.get(ctx, c, websiteID, id, orNew(opts))
}

// List returns one page of the website's records, as Orders.List does.
// opts may be nil.
func (r Resource[T]) List(ctx context.Context, c *Client, websiteID int64, opts *ResourceOptions) (*Page[T], error) {
	if err := r.ready(c); err != nil {
		return nil, err
	}
	return r.calls.list(ctx, c, websiteID, orNew(opts))
}

// All walks the website's records that opts describe, as Orders.All does.
// opts may be nil.
func (r Resource[T]) All(ctx context.Context, c *Client, websiteID int64, opts *ResourceOptions, walk ...WalkOption) iter.Seq2[*T, error] {
	if err := r.ready(c); err != nil {
		return failed[T](err)
	}
	return r.calls.all(ctx, c, websiteID, orNew(opts), walk, nil)
}

// AllSince walks, as All does, the website's records listed from the date
// since on (every record, for a zero Date) in ascending date_created order:
// the listing that Sync reads. It refuses options that set Page, DateStart,
// DateEnd, Direction or Sort.
func (r Resource[T]) AllSince(ctx context.Context, c *Client, websiteID int64, since Date, opts *ResourceOptions, walk ...WalkOption) iter.Seq2[*T, error] {
	if err := r.ready(c); err != nil {
		return failed[T](err)
	}
	return r.calls.all(ctx, c, websiteID, orNew(opts), walk, &since)
}

// Sync yields what the checkpoint cp does not cover and advances it, as
// Orders.Sync does, with the same checkpoints, options and errors.
func (r Resource[T]) Sync(ctx context.Context, c *Client, websiteID int64, cp *Checkpoint, opts *ResourceOptions, walk ...WalkOption) iter.Seq2[*T, error] {
	if err := r.ready(c); err != nil {
		return failed[T](err)
	}
	return r.calls.sync(ctx, c, websiteID, cp, orNew(opts), walk)
}

// Raw returns the resource whose calls yield each record as a *RawRecord,
// as Orders.GetRaw, AllRaw and SyncRaw do.
func (r Resource[T]) Raw() Resource[RawRecord] {
	if r.calls == nil {
		return Resource[RawRecord]{}
	}
	return Resource[RawRecord]{name: r.name, calls: r.calls.raw()}
}

// ready refuses a zero Resource, and a nil Client.
func (r Resource[T]) ready(c *Client) error {
	switch {
	case r.calls == nil:
		return invalidArgument("a zero Resource has no calls: use OrdersResource or MessagesResource")
	case c == nil:
		return invalidArgument("nil Client")
	}
	return nil
}

// failed yields err once.
func failed[T any](err error) iter.Seq2[*T, error] {
	return func(yield func(*T, error) bool) { yield(nil, err) }
}

// resourceCalls are the calls of a Resource, opts never nil; all walks from
// *since in ascending date_created order when since is not nil.
type resourceCalls[T any] interface {
	get(ctx context.Context, c *Client, websiteID, id int64, opts *ResourceOptions) (*T, error)
	list(ctx context.Context, c *Client, websiteID int64, opts *ResourceOptions) (*Page[T], error)
	all(ctx context.Context, c *Client, websiteID int64, opts *ResourceOptions, walk []WalkOption, since *Date) iter.Seq2[*T, error]
	sync(ctx context.Context, c *Client, websiteID int64, cp *Checkpoint, opts *ResourceOptions, walk []WalkOption) iter.Seq2[*T, error]
	raw() resourceCalls[RawRecord]
}

// typedCalls are the calls of the resource that of picks on a client, with
// the service's options (G for Get, L for the lists) that convert makes of
// a ResourceOptions.
type typedCalls[T any, P recordValidator[T], G queryOptions, L syncOptions[T]] struct {
	of      func(*Client) resource[T, P]
	convert func(*ResourceOptions) (G, L)
}

// getOptions converts opts for Get, which takes none of the list's fields.
func (d typedCalls[T, P, G, L]) getOptions(opts *ResourceOptions) (G, error) {
	g, _ := d.convert(opts)
	if opts.Page != 0 || opts.Count != 0 || !opts.DateStart.IsZero() || !opts.DateEnd.IsZero() ||
		opts.Direction != "" || opts.Sort != "" || opts.Search != "" || opts.Filter != "" {
		return g, invalidArgument("Get takes Includes, KeepRawJSON and Response of ResourceOptions; leave the others zero")
	}
	return g, nil
}

// listing converts opts for a list: the records from *since on, ascending
// by date_created, when since is not nil.
func (d typedCalls[T, P, G, L]) listing(opts *ResourceOptions, since *Date) (listOptions, error) {
	_, l := d.convert(opts)
	if since == nil {
		return l, nil
	}
	return l.forSync(*since, l.responseInto())
}

func (d typedCalls[T, P, G, L]) get(ctx context.Context, c *Client, websiteID, id int64, opts *ResourceOptions) (*T, error) {
	g, err := d.getOptions(opts)
	if err != nil {
		return nil, err
	}
	return d.of(c).get(ctx, websiteID, id, g)
}

func (d typedCalls[T, P, G, L]) list(ctx context.Context, c *Client, websiteID int64, opts *ResourceOptions) (*Page[T], error) {
	_, l := d.convert(opts)
	return d.of(c).list(ctx, websiteID, l)
}

func (d typedCalls[T, P, G, L]) all(ctx context.Context, c *Client, websiteID int64, opts *ResourceOptions, walk []WalkOption, since *Date) iter.Seq2[*T, error] {
	l, err := d.listing(opts, since)
	if err != nil {
		return failed[T](err)
	}
	r := d.of(c)
	return r.walkList(ctx, &r.ops.all, websiteID, l, walk, nil)
}

func (d typedCalls[T, P, G, L]) sync(ctx context.Context, c *Client, websiteID int64, cp *Checkpoint, opts *ResourceOptions, walk []WalkOption) iter.Seq2[*T, error] {
	_, l := d.convert(opts)
	return d.of(c).sync(ctx, websiteID, cp, l, walk)
}

func (d typedCalls[T, P, G, L]) raw() resourceCalls[RawRecord] { return rawCalls[T, P, G, L]{d} }

// rawCalls are the calls of typedCalls, yielding RawRecords.
type rawCalls[T any, P recordValidator[T], G queryOptions, L syncOptions[T]] struct {
	typed typedCalls[T, P, G, L]
}

func (d rawCalls[T, P, G, L]) get(ctx context.Context, c *Client, websiteID, id int64, opts *ResourceOptions) (*RawRecord, error) {
	g, err := d.typed.getOptions(opts)
	if err != nil {
		return nil, err
	}
	return getRaw(ctx, d.typed.of(c), websiteID, id, g)
}

func (d rawCalls[T, P, G, L]) list(ctx context.Context, c *Client, websiteID int64, opts *ResourceOptions) (*Page[RawRecord], error) {
	_, l := d.typed.convert(opts)
	p, err := rawResource[T, P](d.typed.of(c)).list(ctx, websiteID, l)
	if p == nil {
		return nil, err
	}
	out := &Page[RawRecord]{Object: p.Object, Data: make([]*RawRecord, len(p.Data)), Meta: p.Meta, Unknown: p.Unknown,
		raw: p.raw, skipped: p.skipped, resp: p.resp}
	for i, v := range p.Data {
		out.Data[i] = (*RawRecord)(v)
	}
	return out, err
}

func (d rawCalls[T, P, G, L]) all(ctx context.Context, c *Client, websiteID int64, opts *ResourceOptions, walk []WalkOption, since *Date) iter.Seq2[*RawRecord, error] {
	l, err := d.typed.listing(opts, since)
	if err != nil {
		return failed[RawRecord](err)
	}
	return allRaw(ctx, d.typed.of(c), websiteID, l, walk)
}

func (d rawCalls[T, P, G, L]) sync(ctx context.Context, c *Client, websiteID int64, cp *Checkpoint, opts *ResourceOptions, walk []WalkOption) iter.Seq2[*RawRecord, error] {
	_, l := d.typed.convert(opts)
	return syncRaw(ctx, d.typed.of(c), websiteID, cp, l, walk)
}

func (d rawCalls[T, P, G, L]) raw() resourceCalls[RawRecord] { return d }

// includesOf is names as includes of type I; nil for none, as the
// services' options leave them.
func includesOf[I ~string](names []string) []I {
	if names == nil {
		return nil
	}
	out := make([]I, len(names))
	for i, n := range names {
		out[i] = I(n)
	}
	return out
}
