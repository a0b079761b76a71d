package ordermsgtest

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/ordermsg/ordermsg-go"
)

// Record is what the responders serve as a record: an order or a message
// of package ordermsg, or the raw JSON of one. Values are encoded as
// json.Marshal encodes them (a record the SDK decoded gives back the JSON it
// came from), at each request, so that a test may change them in between.
// A value made by hand must set its Object (ordermsg.ObjectOrder or
// ordermsg.ObjectMessage), which the SDK checks.
type Record interface {
	*ordermsg.Order | *ordermsg.Message | json.RawMessage
}

// RecordResponder answers every request with record, as the API's retrieve
// operations do: status 200 and its JSON. Register it for the record's
// URL, such as https://api.example.com/websites/1001/orders/7 (the layout
// is /websites/{website_id}/orders/{order_id} and
// /websites/{website_id}/messages/{message_id}).
func RecordResponder[R Record](record R) httpmock.Responder {
	return func(*http.Request) (*http.Response, error) {
		body, err := json.Marshal(record)
		if err != nil {
			return nil, fmt.Errorf("ordermsgtest: RecordResponder: %w", err)
		}
		return reply{status: http.StatusOK, header: jsonHeader(), body: body}.response(), nil
	}
}

// PageResponder answers every request with one page of a list holding
// records, in their order, as the API's list operations do: the list
// envelope {"object": "list", "data": [...], "meta": {"pagination": {...}}}
// with its pagination filled in for page 1 of 1 (0 pages when records is
// empty), per_page the larger of len(records) and DefaultCount. A walk
// (All) reads that page and stops. For a list of several pages, use
// ListResponder.
func PageResponder[R Record](records []R) httpmock.Responder {
	return func(*http.Request) (*http.Response, error) {
		_, _, p := paginate(len(records), 1, max(len(records), DefaultCount))
		return listResponse("PageResponder", records, p)
	}
}

// ListResponder serves records as every page of a list, as the API's list
// operations do: it reads the request's page (default 1) and count
// (default DefaultCount, the fake's; any count from 1, since the spec
// gives no bound), answers the records of that page, in the order of
// records, and fills in the pagination (total, count, per_page,
// current_page, total_pages); a page past the end is empty. A page or
// count that is not an integer from 1 gets the fake's 400. It filters and
// sorts nothing: the other parameters (dates, status, message_type,
// search, sort, direction, includes) are ignored.
// Register it for the list's URL, such as
// https://api.example.com/websites/1001/orders: httpmock matches a request
// with any query to it.
func ListResponder[R Record](records []R) httpmock.Responder {
	return func(r *http.Request) (*http.Response, error) {
		page, count, err := parsePaging(r.URL.Query(), math.MaxInt)
		if err != nil {
			return errorReply(http.StatusBadRequest, "%v", err).response(), nil
		}
		from, to, p := paginate(len(records), page, count)
		return listResponse("ListResponder", records[from:to], p)
	}
}

// listResponse is the list envelope of records with pagination p.
func listResponse[R Record](responder string, records []R, p ordermsg.Pagination) (*http.Response, error) {
	body, err := json.Marshal(struct {
		Object string            `json:"object"`
		Data   []R               `json:"data"`
		Meta   ordermsg.ListMeta `json:"meta"`
	}{ordermsg.ObjectList, append(make([]R, 0, len(records)), records...), ordermsg.ListMeta{Pagination: p}})
	if err != nil {
		return nil, fmt.Errorf("ordermsgtest: %s: %w", responder, err)
	}
	return reply{status: http.StatusOK, header: jsonHeader(), body: body}.response(), nil
}

// ErrorResponder answers every request with status and the fake's error
// body, {"object": "error", "status": <status>, "message": <message>}: the
// SDK returns an *ordermsg.APIError whose Message is message and which
// matches the sentinel of the status (ordermsg.ErrNotFound for 404, ...).
// A client retries a 429 and a 5xx but 501 by default: give it
// ordermsg.WithRetry(ordermsg.RetryPolicy{}) for the error to come back at
// once.
func ErrorResponder(status int, message string) httpmock.Responder {
	return func(*http.Request) (*http.Response, error) {
		return errorReply(status, "%s", message).response(), nil
	}
}

// RateLimitResponder answers every request with a 429 whose Retry-After
// header asks for retryAfter, in whole seconds rounded up (none when
// retryAfter is not positive). A client without retries returns an
// *ordermsg.APIError with RetryAfter set. With the default policy, a wait up
// to its MaxWait (30s) is slept before each of the three retries (a call to
// RateLimitResponder(30*time.Second) fails after 90 seconds), and a longer
// one is returned at once.
func RateLimitResponder(retryAfter time.Duration) httpmock.Responder {
	return func(*http.Request) (*http.Response, error) {
		rep := errorReply(http.StatusTooManyRequests, "rate limited")
		if retryAfter > 0 {
			rep.header.Set("Retry-After", strconv.FormatInt(int64(math.Ceil(retryAfter.Seconds())), 10))
		}
		return rep.response(), nil
	}
}
