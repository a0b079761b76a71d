package ordermsgtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/ordermsg/ordermsg-go"
)

// Record is what the responders serve as a record: an order or a message
// of package ordermsg, or the raw JSON of one. Values are encoded as
// json.Marshal encodes them (a record the SDK decoded gives back the JSON it
// came from), at each request, so that a test may change them in between.
// A value made by hand must set its Object (ordermsg.ObjectOrder or
// ordermsg.ObjectMessage), which the SDK checks.
//
// The responders check their records when they are made, as httpmock's
// *OrPanic constructors do, and panic on a record that no API response
// holds, with a message that says which and why: a nil *ordermsg.Order or
// *ordermsg.Message, and raw JSON that is not a JSON object.
type Record interface {
	*ordermsg.Order | *ordermsg.Message | json.RawMessage
}

// mustBeRecords panics, naming the responder and the record, when one of
// records cannot be served (see Record).
func mustBeRecords[R Record](responder string, records []R) {
	for i, r := range records {
		if problem := recordProblem(r); problem != "" {
			panic(fmt.Sprintf("ordermsgtest: %s: records[%d] %s", responder, i, problem))
		}
	}
}

// recordProblem says why r cannot be served as a record, or is "".
func recordProblem[R Record](r R) string {
	switch v := any(r).(type) {
	case *ordermsg.Order:
		if v == nil {
			return "is a nil *ordermsg.Order"
		}
	case *ordermsg.Message:
		if v == nil {
			return "is a nil *ordermsg.Message"
		}
	case json.RawMessage:
		if !json.Valid(v) || bytes.TrimLeft(v, " \t\r\n")[0] != '{' {
			return "is not a JSON object"
		}
	}
	return ""
}

// RecordResponder answers every request with record, as the API's retrieve
// operations do: status 200 and its JSON. Register it for the record's
// URL, such as https://api.example.com/websites/1001/orders/7 (the layout
// is /websites/{website_id}/orders/{order_id} and
// /websites/{website_id}/messages/{message_id}). It panics on a nil record
// or raw JSON that is not a JSON object (see Record).
func RecordResponder[R Record](record R) func(*http.Request) (*http.Response, error) {
	if problem := recordProblem(record); problem != "" {
		panic("ordermsgtest: RecordResponder: the record " + problem)
	}
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
// ListResponder. It panics on a record that is nil or raw JSON that is not
// a JSON object (see Record).
func PageResponder[R Record](records []R) func(*http.Request) (*http.Response, error) {
	mustBeRecords("PageResponder", records)
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
// with any query to it. It panics on a record that is nil or raw JSON that
// is not a JSON object (see Record).
func ListResponder[R Record](records []R) func(*http.Request) (*http.Response, error) {
	mustBeRecords("ListResponder", records)
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
// once. status must be an error's, from 400 to 599: another panics, as a
// fixture that would not be the error it is named for.
func ErrorResponder(status int, message string) func(*http.Request) (*http.Response, error) {
	if status < 400 || status > 599 {
		panic(fmt.Sprintf("ordermsgtest: ErrorResponder: status %d is not an error's: want 400 to 599", status))
	}
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
func RateLimitResponder(retryAfter time.Duration) func(*http.Request) (*http.Response, error) {
	return func(*http.Request) (*http.Response, error) {
		rep := errorReply(http.StatusTooManyRequests, "rate limited")
		if retryAfter > 0 {
			rep.header.Set("Retry-After", strconv.FormatInt(int64(math.Ceil(retryAfter.Seconds())), 10))
		}
		return rep.response(), nil
	}
}
