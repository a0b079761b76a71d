package ordermsg

import (
	"errors"
	"fmt"
	"net/url"

	"github.com/google/go-querystring/query"
)

// GetOrderOptions are the query parameters of Orders.Get.
type GetOrderOptions struct {
	// Includes asks for additional fields; sent as one comma-separated value.
	Includes []OrderInclude `url:"includes,comma,omitempty"`
	// KeepRawJSON keeps each record's bytes exactly as the server sent them,
	// for RawJSON. It costs nothing when false.
	KeepRawJSON bool `url:"-"`
}

// ListOrdersOptions are the query parameters of Orders.List and Orders.All.
// Zero values are left out of the query, so the server's defaults apply.
type ListOrdersOptions struct {
	// Page is the page number; the server's default is 1.
	Page int `url:"page,omitempty"`
	// Count is the page size. Its bounds are not given by the spec.
	Count int `url:"count,omitempty"`
	// DateStart keeps orders created after this date. Whether the bound is
	// inclusive is not given by the spec.
	DateStart Date `url:"date_start,omitempty"`
	// DateEnd keeps orders created before this date.
	DateEnd Date `url:"date_end,omitempty"`
	// Direction orders the result; see Direction for the assumed values.
	Direction Direction `url:"direction,omitempty"`
	// Sort names the field to sort by; the allowed names are not given by
	// the spec.
	Sort string `url:"sort,omitempty"`
	// Search is a search string; which fields it searches is not given by
	// the spec.
	Search string `url:"search,omitempty"`
	// Status keeps orders with this status.
	Status OrderStatus `url:"status,omitempty"`
	// Includes asks for additional fields.
	Includes []OrderInclude `url:"includes,comma,omitempty"`
	// KeepRawJSON keeps each record's bytes exactly as the server sent them,
	// for RawJSON. It costs nothing when false.
	KeepRawJSON bool `url:"-"`
}

// GetMessageOptions are the query parameters of Messages.Get.
type GetMessageOptions struct {
	// Includes asks for additional fields; sent as one comma-separated value.
	Includes []MessageInclude `url:"includes,comma,omitempty"`
	// KeepRawJSON keeps each record's bytes exactly as the server sent them,
	// for RawJSON. It costs nothing when false.
	KeepRawJSON bool `url:"-"`
}

// ListMessagesOptions are the query parameters of Messages.List and
// Messages.All. Zero values are left out of the query.
type ListMessagesOptions struct {
	// Page is the page number; the server's default is 1.
	Page int `url:"page,omitempty"`
	// Count is the page size. Its bounds are not given by the spec.
	Count int `url:"count,omitempty"`
	// DateStart keeps messages created after this date.
	DateStart Date `url:"date_start,omitempty"`
	// DateEnd keeps messages created before this date.
	DateEnd Date `url:"date_end,omitempty"`
	// Direction orders the result; see Direction for the assumed values.
	Direction Direction `url:"direction,omitempty"`
	// Sort names the field to sort by.
	Sort string `url:"sort,omitempty"`
	// Search is a search string.
	Search string `url:"search,omitempty"`
	// MessageType keeps messages of this type.
	MessageType MessageType `url:"message_type,omitempty"`
	// Includes asks for additional fields.
	Includes []MessageInclude `url:"includes,comma,omitempty"`
	// KeepRawJSON keeps each record's bytes exactly as the server sent them,
	// for RawJSON. It costs nothing when false.
	KeepRawJSON bool `url:"-"`
}

// queryOptions is an options struct that checks itself before it is encoded.
type queryOptions interface{ validate() error }

// listOptions are the options of a list, which a walk pages through.
type listOptions interface {
	queryOptions
	paging() (page, count int)
}

func (o *GetOrderOptions) validate() error {
	if o == nil {
		return nil
	}
	return checkIncludes(o.Includes)
}

func (o *GetMessageOptions) validate() error {
	if o == nil {
		return nil
	}
	return checkIncludes(o.Includes)
}

func (o *ListOrdersOptions) validate() error {
	if o == nil {
		return nil
	}
	return errors.Join(checkPaging(o.Page, o.Count), checkDates(o.DateStart, o.DateEnd), checkIncludes(o.Includes))
}

func (o *ListMessagesOptions) validate() error {
	if o == nil {
		return nil
	}
	return errors.Join(checkPaging(o.Page, o.Count), checkDates(o.DateStart, o.DateEnd), checkIncludes(o.Includes))
}

func (o *ListOrdersOptions) paging() (int, int) {
	if o == nil {
		return 0, 0
	}
	return o.Page, o.Count
}

func (o *ListMessagesOptions) paging() (int, int) {
	if o == nil {
		return 0, 0
	}
	return o.Page, o.Count
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

// encodeOptions checks opts and encodes them as a query.
func encodeOptions(opts queryOptions) (url.Values, error) {
	if err := opts.validate(); err != nil {
		return nil, err
	}
	q, err := query.Values(opts)
	if err != nil {
		return nil, fmt.Errorf("ordermsg: encoding options: %w", err)
	}
	return q, nil
}

// checkID refuses an id that cannot name a record.
func checkID(what string, id int64) error {
	if id <= 0 {
		return invalidArgument("%s id must be positive, got %d", what, id)
	}
	return nil
}
