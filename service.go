package ordermsg

import (
	"context"
	"fmt"
	"net/url"
)

// resource is the code that orders and messages share: both are read one at
// a time or a page at a time, under /websites/:website_id/<collection>.
type resource[T any] struct {
	c          *Client
	collection string // path segment: "orders" or "messages"
	kind       string // the records' "object": "order" or "message"
}

func (r resource[T]) get(ctx context.Context, websiteID, id int64, opts queryOptions) (*T, error) {
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
	keepRaw := keepsRawJSON(opts)
	err = r.c.do(ctx, fmt.Sprintf("/websites/%d/%s/%d", websiteID, r.collection, id), q, !keepRaw,
		func(u string, body []byte) (err error) {
			out, err = decodeRecord[T](u, body, r.kind, keepRaw)
			return err
		})
	return out, err
}

func (r resource[T]) list(ctx context.Context, websiteID int64, opts listOptions) (*Page[T], error) {
	q, err := r.checkList(websiteID, opts)
	if err != nil {
		return nil, err
	}
	return r.page(ctx, websiteID, q, keepsRawJSON(opts))
}

// checkList checks a list request and encodes its query.
func (r resource[T]) checkList(websiteID int64, opts listOptions) (url.Values, error) {
	if err := checkID("website", websiteID); err != nil {
		return nil, err
	}
	return encodeOptions(opts)
}

// page fetches one page with an encoded, checked query.
func (r resource[T]) page(ctx context.Context, websiteID int64, q url.Values, keepRaw bool) (*Page[T], error) {
	return r.fetchPage(ctx, websiteID, q, keepRaw, nil)
}

// fetchPage is page, calling received (when not nil) once the response is
// read, before it is decoded.
func (r resource[T]) fetchPage(ctx context.Context, websiteID int64, q url.Values, keepRaw bool, received func()) (*Page[T], error) {
	var out *Page[T]
	err := r.c.do(ctx, fmt.Sprintf("/websites/%d/%s", websiteID, r.collection), q, !keepRaw,
		func(u string, body []byte) (err error) {
			if received != nil {
				received()
			}
			out, err = decodePage[T](u, body, r.kind, keepRaw)
			return err
		})
	return out, err
}
