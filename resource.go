package ordermsg

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"time"
)

// record is the constraint on the records a resource reads, Order and
// Message: P is *T, with the methods that the resource, the walk and Sync
// call. The compiler checks it where the services are made (NewClient).
type record[T any] interface {
	*T
	kind() string         // the record's "object"
	refID() int64         // its id
	createdAt() time.Time // its date_created
	setRaw(raw []byte)    // keeps its bytes as sent (KeepRawJSON)
}

// queryOptions is an options struct of a request: it checks itself before
// it is encoded, and says whether the records' bytes are to be kept.
type queryOptions interface {
	validate() error
	keepsRawJSON() bool
}

// listOptions are the options of a list, which a walk pages through.
type listOptions interface {
	queryOptions
	paging() (page, count int)
}

// syncOptions are list options that a Sync can take: it chooses the page,
// the date window and the order itself.
type syncOptions[T any] interface {
	listOptions
	// forSync returns a copy of the options that lists, in ascending
	// creation order, the records created from start on (all of them when
	// start is zero). It fails when the caller set what Sync chooses.
	forSync(start Date) (listOptions, error)
	// certainlyLists reports whether rec, as read by id, belongs in the
	// list the options describe, as far as the client can tell: its status
	// or type matches, and no Search is set (the spec does not say which
	// fields a search reads).
	certainlyLists(rec *T) bool
}

// noOptions is a request without options.
type noOptions struct{}

func (noOptions) validate() error    { return nil }
func (noOptions) keepsRawJSON() bool { return false }

// resource is the code that orders and messages share: both are read one at
// a time or a page at a time, under /websites/:website_id/<collection>.
type resource[T any, P record[T]] struct {
	c          *Client
	collection string // path segment: "orders" or "messages"
	kind       string // the records' "object": "order" or "message"
}

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
	var out *T
	keepRaw := opts.keepsRawJSON()
	err = r.c.do(ctx, fmt.Sprintf("/websites/%d/%s/%d", websiteID, r.collection, id), q, !keepRaw, nil,
		func(u string, body []byte) (err error) {
			out, err = decodeRecord[T, P](u, body, r.kind, keepRaw)
			return err
		})
	return out, err
}

func (r resource[T, P]) list(ctx context.Context, websiteID int64, opts listOptions) (*Page[T], error) {
	q, err := r.checkList(websiteID, opts)
	if err != nil {
		return nil, err
	}
	return r.fetchPage(ctx, websiteID, q, opts.keepsRawJSON(), nil)
}

// checkList checks a list request and encodes its query.
func (r resource[T, P]) checkList(websiteID int64, opts listOptions) (url.Values, error) {
	if err := checkID("website", websiteID); err != nil {
		return nil, err
	}
	return encodeOptions(opts)
}

// fetchPage fetches one page with an encoded, checked query, calling
// gotHeaders (when not nil) once a 2xx response's headers are in, before its
// body is read.
func (r resource[T, P]) fetchPage(ctx context.Context, websiteID int64, q url.Values, keepRaw bool, gotHeaders func()) (*Page[T], error) {
	var out *Page[T]
	err := r.c.do(ctx, fmt.Sprintf("/websites/%d/%s", websiteID, r.collection), q, !keepRaw, gotHeaders,
		func(u string, body []byte) (err error) {
			out, err = decodePage[T, P](u, body, r.kind, keepRaw)
			return err
		})
	return out, err
}

// checkID refuses an id that cannot name a record.
func checkID(what string, id int64) error {
	if id <= 0 {
		return invalidArgument("%s id must be positive, got %d", what, id)
	}
	return nil
}

func checkPaging(page, count int) error {
	if page < 0 || count < 0 {
		return invalidArgument("Page (%d) and Count (%d) must not be negative", page, count)
	}
	return nil
}

func checkDates(start, end Date) error {
	if err := errors.Join(start.Validate(), end.Validate()); err != nil {
		return &argumentError{msg: err.Error()}
	}
	return nil
}

// setSyncFields checks that the caller left zero the fields that Sync
// chooses, and sets them: from start on, ascending by creation.
func setSyncFields(page *int, dateStart, dateEnd *Date, dir *Direction, sort *string, start Date) error {
	if *page != 0 || !dateStart.IsZero() || !dateEnd.IsZero() || *dir != "" || *sort != "" {
		return invalidArgument("Sync chooses Page, DateStart, DateEnd, Direction and Sort itself; leave them zero")
	}
	*dateStart, *dir, *sort = start, DirectionAsc, syncSort
	return nil
}

// syncSort is the sort a Sync asks for. The spec does not list the sort
// names; date_created is the field the records are created by.
const syncSort = "date_created"
