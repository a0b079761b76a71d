package ordermsg

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/go-json-experiment/json"
)

// Every exported error type and sentinel of the package is defined in this
// file, and their text follows one rule:
//
// An error the SDK returns reads "ordermsg: " once, at its start, then what
// went wrong, the most general first. The prefix is written by the outermost
// error only: a sentinel (ErrNotFound reads "ordermsg: not found"), an error
// type's Error method (APIError, DecodeError, …), invalidArgument, and
// requestError, which writes "ordermsg: GET <url>: " before the error of an
// attempt. An error found inside an attempt (a transport error, a body cut
// short or too large, a refused redirect, a wrong Content-Range) is written
// without the prefix, for requestError to name the URL once. A detail is
// added after a sentinel, as fmt.Errorf("%w: detail", ErrEmptyPage) does,
// so that the sentinel's prefix stays first. The one exception is the
// context's own error (context.Canceled, context.DeadlineExceeded), which a
// call ended by its context returns as it is, for callers to compare with ==.

// Sentinel errors. An *APIError matches the one for its status code with
// errors.Is; the others are returned (wrapped) as they say.
var (
	ErrBadRequest   = errors.New("ordermsg: bad request")  // 400
	ErrUnauthorized = errors.New("ordermsg: unauthorized") // 401
	ErrForbidden    = errors.New("ordermsg: forbidden")    // 403
	ErrNotFound     = errors.New("ordermsg: not found")    // 404
	ErrRateLimited  = errors.New("ordermsg: rate limited") // 429
	ErrServer       = errors.New("ordermsg: server error") // 5xx
	ErrBodyTooLarge = errors.New("ordermsg: response body too large")
	// ErrInvalidArgument is matched by every error about the caller's own
	// input, returned before any request is sent: an id that is not
	// positive, a negative page or count, a malformed date or include, a bad
	// option or base URL given to NewClient.
	ErrInvalidArgument = errors.New("ordermsg: invalid argument")
	// ErrPlainHTTP is matched, beside ErrInvalidArgument, by NewClient's error
	// for a plain http:// base URL to a host that is not loopback without
	// WithAllowHTTP: the API key would cross the network in the clear.
	ErrPlainHTTP = errors.New("ordermsg: plain http to a host that is not loopback")
)

// invalidArgument returns an error about the caller's input.
func invalidArgument(format string, args ...any) error {
	return &argumentError{msg: "ordermsg: " + fmt.Sprintf(format, args...)}
}

// argumentError is an error about the caller's input. errors.Is matches it
// with ErrInvalidArgument, and with kind when that is set.
type argumentError struct {
	msg  string
	kind error
}

func (e *argumentError) Error() string { return e.msg }
func (e *argumentError) Is(target error) bool {
	return target == ErrInvalidArgument || (e.kind != nil && target == e.kind)
}

// requestError is the error of a request that got no answer to return: the
// method and URL once, then what went wrong.
type requestError struct {
	url string // as errors show it: no secrets
	err error
}

func (e *requestError) Error() string { return "ordermsg: GET " + e.url + ": " + causeText(e.err) }
func (e *requestError) Unwrap() error { return e.err }

// callFailed is the error of a call whose attempts ended with err: the
// context's error when the context ended the call; an *APIError, or an
// error that wraps one or matches ErrLinkExpired, as it is (they name what
// they are about themselves); else a requestError that names url.
func callFailed(ctx context.Context, url string, err error) error {
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.As(err, new(*APIError)), errors.Is(err, ErrLinkExpired):
		return err
	}
	return &requestError{url: url, err: err}
}

// causeText is err's text without the `Get "URL": ` of net/http's
// *url.Error, which would repeat the URL that a requestError names.
func causeText(err error) string {
	if ue, ok := err.(*url.Error); ok {
		return ue.Err.Error()
	}
	return err.Error()
}

// bodyTooLarge is an error that matches ErrBodyTooLarge, its text written to
// follow a requestError's URL.
func bodyTooLarge(format string, args ...any) error {
	return &tooLargeError{detail: fmt.Sprintf(format, args...)}
}

type tooLargeError struct{ detail string }

func (e *tooLargeError) Error() string        { return "response body too large: " + e.detail }
func (e *tooLargeError) Is(target error) bool { return target == ErrBodyTooLarge }

// maxErrorBody caps how much of an error response is read and kept.
const maxErrorBody = 64 << 10

// APIError is the error for any response whose status is not 2xx.
type APIError struct {
	// StatusCode is the HTTP status code.
	StatusCode int
	// Method and URL are those of the request; URL never carries credentials.
	Method string
	URL    string
	// Message is the server's message from a JSON body (its "message",
	// "error", or "error.message"), else the status text. The spec shows no
	// error shape, so these places are tried in turn.
	Message string
	// Body is the start of the response body, at most 64 KiB.
	Body []byte
	// Header is the response's header.
	Header http.Header
	// RetryAfter is the wait a 429 or 503 asked for in a Retry-After header
	// (seconds or an HTTP date), or 0; one too long for a Duration is the
	// largest Duration. A wait beyond the retry policy's MaxWait is returned
	// here rather than slept through, so the caller decides.
	RetryAfter time.Duration
	// Hint, when not empty, is the SDK's reading of a likely cause and its
	// remedy, which Error appends. It is set on a 400 to an API call (not a
	// file download) that sent the version header under
	// DefaultVersionHeader, the documentation's neutral name, which the real
	// service may not know, when the response does not point elsewhere: its
	// body mentions a version (in any case), or it holds no message at all
	// (empty, or JSON without one). It says to set the maker's name with
	// WithVersionHeader, without guessing it. A 400 whose message is about
	// something else, such as "date_start must be a date", has none.
	Hint string
}

// Error describes the failed request without credentials.
func (e *APIError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "ordermsg: %s %s: %d %s", e.Method, e.URL, e.StatusCode, http.StatusText(e.StatusCode))
	if e.Message != "" && e.Message != http.StatusText(e.StatusCode) {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	if e.RetryAfter > 0 {
		fmt.Fprintf(&b, " (retry after %s)", e.RetryAfter)
	}
	if e.Hint != "" {
		b.WriteString("; ")
		b.WriteString(e.Hint)
	}
	return b.String()
}

// Is lets errors.Is match an APIError against the sentinel for its status.
func (e *APIError) Is(target error) bool {
	if target == ErrServer {
		return e.StatusCode >= 500 && e.StatusCode <= 599
	}
	return target != nil && target == statusErrors[e.StatusCode]
}

// statusErrors are the sentinels an *APIError matches by its exact status.
var statusErrors = map[int]error{400: ErrBadRequest, 401: ErrUnauthorized, 403: ErrForbidden, 404: ErrNotFound, 429: ErrRateLimited}

// errorMessage finds the server's message in an error body, trying the
// common shapes {"message": …}, {"error": "…"} and {"error": {"message": …}},
// and keeps it to one line of at most 500 bytes.
func errorMessage(status int, body []byte) string {
	var shape struct {
		Message any `json:"message"`
		Error   any `json:"error"`
	}
	if json.Unmarshal(body, &shape) != nil {
		return http.StatusText(status)
	}
	s, _ := shape.Message.(string)
	if s == "" {
		switch e := shape.Error.(type) {
		case string:
			s = e
		case map[string]any:
			s, _ = e["message"].(string)
		}
	}
	if s == "" {
		return http.StatusText(status)
	}
	s = strings.Join(strings.Fields(s), " ")
	// A control character would act on the terminal that shows the
	// message (backspaces that draw the key over a spelling no mask finds,
	// an escape sequence): it is shown as U+FFFD.
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return utf8.RuneError
		}
		return r
	}, s)
	if len(s) > 500 {
		s = s[:500] + "…"
	}
	return s
}

// VersionHeaderError is the error of a version header that cannot be sent
// (see CheckVersionHeader and ParseVersionHeader). It matches
// ErrInvalidArgument.
type VersionHeaderError struct {
	// Source is where the header was given: "WithVersionHeader" (and
	// CheckVersionHeader), "ParseVersionHeader", or EnvVersionHeader for
	// NewClientFromEnv.
	Source string
	// Reason says what is wrong. It never holds the header's value, and
	// names the header only when it is one the client or net/http reserves.
	Reason string
}

// Error says where the header was given and what is wrong with it.
func (e *VersionHeaderError) Error() string {
	return "ordermsg: " + cmp.Or(e.Source, "version header") + ": " + e.Reason
}

// Is makes errors.Is(err, ErrInvalidArgument) true.
func (e *VersionHeaderError) Is(target error) bool { return target == ErrInvalidArgument }

// DecodeError is returned when a 2xx response is not the JSON expected: empty,
// not JSON, cut short, or of the wrong shape. No value is returned with it.
type DecodeError struct {
	// URL is the request's URL, without credentials.
	URL string
	// Offset is the byte offset in the body where decoding failed, or -1
	// when the decoder did not say.
	Offset int64
	// Err is the underlying error, usually from encoding/json.
	Err error
}

// Error names the URL and, when known, the byte offset.
func (e *DecodeError) Error() string {
	if e.Offset >= 0 {
		return fmt.Sprintf("ordermsg: decoding response of %s at byte %d: %v", e.URL, e.Offset, e.Err)
	}
	return fmt.Sprintf("ordermsg: decoding response of %s: %v", e.URL, e.Err)
}

// Unwrap returns the underlying error.
func (e *DecodeError) Unwrap() error { return e.Err }

// RecordDecodeError is a record of a list page that could not be decoded,
// which All and Sync yield (with a nil record) when they were given
// WithSkipUndecodable, and then go on past it. It names the record as well
// as its bytes allow, and keeps them exactly as sent. Unwrap gives Err, a
// *DecodeError whose Offset is the failing byte's in the page's body, so
// errors.As finds a *DecodeError as it does when the whole page fails.
//
// Sync with WithSkipUndecodable also yields one for a record that decoded
// but that it cannot place in creation order: Err then matches
// ErrNoCreationTime or ErrFutureRecord, Index and Offset are -1, and Raw is
// the record as sent (with KeepRawJSON) or its encoding.
type RecordDecodeError struct {
	// Object is the kind of record the list holds: "order" or "message".
	Object string
	// ID is the record's "id" when it can be read (a number, given once),
	// else 0.
	ID int64
	// Created is the record's "date_created" when it can be read, else the
	// zero time.
	Created time.Time
	// Page is the number of the page, and Index the record's position in
	// its data, from 0.
	Page, Index int
	// Offset is the byte offset at which the record starts in the page's
	// body.
	Offset int64
	// Raw is the record exactly as the server sent it.
	Raw []byte
	// Err is why the record could not be decoded: a *DecodeError.
	Err error
}

// Error names the page, the record, where it starts and why it could not
// be decoded.
func (e *RecordDecodeError) Error() string {
	what := fmt.Sprintf("%s %d", e.Object, e.ID)
	if e.ID == 0 {
		what = e.Object + " whose id cannot be read"
	}
	var de *DecodeError
	switch {
	case e.Index < 0: // decoded, but not placed (see the type's doc)
		return fmt.Sprintf("%v (page %d)", e.Err, e.Page)
	case !errors.As(e.Err, &de):
		return fmt.Sprintf("ordermsg: record %d of page %d (%s, at byte %d) cannot be decoded: %v", e.Index, e.Page, what, e.Offset, e.Err)
	}
	return fmt.Sprintf("ordermsg: decoding response of %s: record %d of page %d (%s, at byte %d) cannot be decoded: %v",
		de.URL, e.Index, e.Page, what, e.Offset, de.Err)
}

// Unwrap returns Err.
func (e *RecordDecodeError) Unwrap() error { return e.Err }

// Errors of an incremental sync (Orders.Sync, Messages.Sync) and of its
// checkpoint.
var (
	// ErrInvalidCheckpoint is matched by the error of a checkpoint that
	// cannot be read: not JSON, a version this package does not know, or
	// fields that contradict each other. The error's text says which.
	ErrInvalidCheckpoint = errors.New("ordermsg: invalid checkpoint")
	// ErrCheckpointMismatch is matched by a *CheckpointMismatchError.
	ErrCheckpointMismatch = errors.New("ordermsg: the checkpoint belongs to another resource or website")
	// ErrListShifted is matched by a *ListShiftedError.
	ErrListShifted = errors.New("ordermsg: the list kept changing during the sync")
	// ErrOverlapMissing is matched by an *OverlapError.
	ErrOverlapMissing = errors.New("ordermsg: the server did not list again the records the checkpoint remembers")
	// ErrFutureCheckpoint is matched by the error of a Sync given a
	// checkpoint whose mark is more than FutureTolerance after this
	// machine's clock: a machine with a wrong clock made it, or it was
	// edited. Such a checkpoint would count every record created until its
	// mark as yielded, so Sync refuses it before any request.
	ErrFutureCheckpoint = errors.New("ordermsg: the checkpoint's mark is in the future")
)

// CheckpointMismatchError is the error of a Sync given a checkpoint made by
// a Sync of another resource or website. It is returned before any request
// is sent, and the checkpoint is left as it was.
type CheckpointMismatchError struct {
	// CheckpointResource and CheckpointWebsite are what the checkpoint is for.
	CheckpointResource string
	CheckpointWebsite  int64
	// Resource ("orders" or "messages") and Website are what Sync was asked for.
	Resource string
	Website  int64
}

// Error names both.
func (e *CheckpointMismatchError) Error() string {
	return fmt.Sprintf("%v: it is for the %s of website %d, not the %s of website %d",
		ErrCheckpointMismatch, e.CheckpointResource, e.CheckpointWebsite, e.Resource, e.Website)
}

// Is makes errors.Is(err, ErrCheckpointMismatch) true.
func (e *CheckpointMismatchError) Is(target error) bool { return target == ErrCheckpointMismatch }

// ListShiftedError is the error of a Sync that saw the list change under it
// (records leaving it between two page requests) in each of its Listings
// listings from its checkpoint. Nothing is lost: the checkpoint covers
// exactly the records yielded, and the next Sync lists the rest again.
type ListShiftedError struct {
	// Object is the records' kind: "order" or "message".
	Object string
	// Listings is how many times the Sync listed from its checkpoint.
	Listings int
	// Before and After are the list's total on the two pages between
	// which it last changed.
	Before, After int
}

// Error says how often the list changed.
func (e *ListShiftedError) Error() string {
	return fmt.Sprintf("%v: the %ss listed went from %d to %d between two pages, in each of %d listings; run the sync again",
		ErrListShifted, e.Object, e.Before, e.After, e.Listings)
}

// Is makes errors.Is(err, ErrListShifted) true.
func (e *ListShiftedError) Is(target error) bool { return target == ErrListShifted }

// OverlapError is the error of a Sync whose listing from the checkpoint did
// not hold a record the checkpoint remembers, although that record still
// exists and matches the list's filter: the server's date filter starts later
// than any reading of date_start that Sync allows for, so records created
// after the checkpoint's mark may be missing too. None of those is yielded,
// and the mark stays where it was.
type OverlapError struct {
	// Object is the records' kind: "order" or "message".
	Object string
	// ID and Created name the record the checkpoint remembers.
	ID      int64
	Created time.Time
	// DateStart is the date_start the Sync asked for.
	DateStart Date
}

// Error names the record and the date asked for.
func (e *OverlapError) Error() string {
	return fmt.Sprintf("%v: %s %d (created %s) exists but was not listed from date_start=%s",
		ErrOverlapMissing, e.Object, e.ID, e.Created.Format(time.RFC3339), e.DateStart)
}

// Is makes errors.Is(err, ErrOverlapMissing) true.
func (e *OverlapError) Is(target error) bool { return target == ErrOverlapMissing }

// Errors of a walk (All) whose server paginates in a way that cannot be
// followed.
var (
	// ErrPaginationStuck is returned when the server answers a page with
	// one already walked: it reports a current_page already seen, or a page
	// whose records were all on the page before it.
	ErrPaginationStuck = errors.New("ordermsg: pagination is stuck")
	// ErrPageMismatch is returned when a page's current_page is not the
	// page asked for, nor one already walked.
	ErrPageMismatch = errors.New("ordermsg: the server returned another page than the one asked for")
	// ErrEmptyPage is returned when a page holds no record while its own
	// metadata says more pages follow and fewer records than its total have
	// arrived. (After total records, an empty page ends the walk quietly.)
	ErrEmptyPage = errors.New("ordermsg: an empty page says more pages follow")
	// ErrNoPagination is returned when a page has no pagination metadata:
	// meta.pagination.current_page is missing (or 0, which no page is).
	ErrNoPagination = errors.New("ordermsg: the page has no pagination metadata")
)

// Errors of a Sync whose server's list cannot be synced from.
var (
	// ErrNotAscending is matched (errors.Is) by the *OrderingError of a
	// Sync whose server did not list the records in ascending creation
	// order when asked to.
	ErrNotAscending = errors.New("ordermsg: the server did not list records in ascending creation order")
	// ErrNoCreationTime is returned by a Sync that meets a record without a
	// date_created: it cannot be placed before or after the checkpoint.
	ErrNoCreationTime = errors.New("ordermsg: a record has no date_created")
	// ErrFutureRecord is returned by a Sync that meets a record created
	// more than a day after the client's clock (FutureTolerance). Such a
	// record is not yielded and the checkpoint does not move to it: its mark
	// would pass every record created from now until that date, and they
	// would all count as yielded. Either the server's data or this machine's
	// clock is wrong; the error names the record.
	ErrFutureRecord = errors.New("ordermsg: a record is dated in the future")
)

// OrderingError is the error of a Sync that met a record created before the
// record listed just before it. Neither of the two is yielded, nor anything
// listed after them.
type OrderingError struct {
	// Object is the records' kind: "order" or "message".
	Object string
	// PrevID and PrevCreated name the record listed first.
	PrevID      int64
	PrevCreated time.Time
	// ID and Created name the record listed after it, created earlier.
	ID      int64
	Created time.Time
}

// Error says which two records came in the wrong order.
func (e *OrderingError) Error() string {
	return fmt.Sprintf("%v: %s %d (created %s) was listed after %s %d (created %s)",
		ErrNotAscending, e.Object, e.ID, e.Created.Format(time.RFC3339), e.Object, e.PrevID, e.PrevCreated.Format(time.RFC3339))
}

// Is makes errors.Is(err, ErrNotAscending) true.
func (e *OrderingError) Is(target error) bool { return target == ErrNotAscending }

// ErrLinkExpired is returned (wrapped) by Download and DownloadFile when a
// file's Expires has passed: before the first request, before a retry, or
// when the file host refuses the link with 403 after it expired. No request
// is sent with an expired link. A link is refreshed by reading its record
// again: the order with OrderIncludeItemsPrintReadyFiles (Orders.Get), or the
// message with MessageIncludeFile (Messages.Get); the file keeps its ID and
// gets a new URL and Expires.
var ErrLinkExpired = errors.New("ordermsg: file link expired")

// ErrNoFile is returned (wrapped) by PrintReadyFile.Downloadable for an
// entry that has no file, as one whose Status is failure.
var ErrNoFile = errors.New("ordermsg: no file to download")

// linkExpiredError matches ErrLinkExpired and unwraps to refused.
type linkExpiredError struct {
	file    int64
	expires time.Time
	refused error
}

func (e *linkExpiredError) Error() string {
	what := fmt.Sprintf("file link expired: file %d expired at %s; read its record again for a fresh link",
		e.file, e.expires.Format(time.RFC3339))
	if e.refused != nil {
		return e.refused.Error() + ": " + what
	}
	return "ordermsg: " + what
}

func (e *linkExpiredError) Is(target error) bool { return target == ErrLinkExpired }
func (e *linkExpiredError) Unwrap() error        { return e.refused }
