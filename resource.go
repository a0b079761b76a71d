package ordermsg

import (
	"context"
	"errors"
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
