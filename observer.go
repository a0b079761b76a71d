package ordermsg

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/go-retryablehttp"
	"golang.org/x/net/http/httpguts"
)

// Observer is told of a client's work as it happens, for telemetry: each
// call, each HTTP attempt of a call, and each retry. The module
// github.com/ordermsg/ordermsg-go/otelordermsg makes one for OpenTelemetry;
// give it to NewClient with WithObserver. Each hook may be nil. Hooks run
// on the goroutine of the work they watch, a call's one after another; a
// walk's pages are calls of their own, which may run at once.
//
// Nothing given to a hook holds the API key, the Authorization header, the
// version header's value or a URL's query. An error given to a hook may hold
// a server's words, which a hostile server can make anything: record its
// kind, not its text.
type Observer struct {
	// StartCall is called as a call starts, before its first attempt, with
	// the caller's context; the call runs in the context it returns (its
	// attempts' hooks are given it), and calls end once as the call ends.
	StartCall func(ctx context.Context, op *Operation) (_ context.Context, end func(CallEnd))
	// StartAttempt is called before each HTTP attempt of a call, with the
	// call's context; end is called once the attempt's answer has been read,
	// or once it failed without one.
	StartAttempt func(ctx context.Context, a *Attempt) (end func(AttemptEnd))
	// Retry is called, with the call's context, when an attempt's failure is
	// retried, before the wait.
	Retry func(ctx context.Context, r RetryWait)
}

// WithObserver has the client tell o of its work (see Observer). Without
// it, or with an Observer without hooks, nothing is observed, at no cost. A
// later WithObserver replaces an earlier one.
func WithObserver(o Observer) Option {
	return func(s *settings) error {
		s.observer = nil
		if o.StartCall != nil || o.StartAttempt != nil || o.Retry != nil {
			s.observer = &o
		}
		return nil
	}
}

// Operation describes a kind of call. Its Name has no ids: "Orders.Get",
// "Orders.List", "Orders.All" (a page of a walk, All or AllRaw),
// "Orders.Sync" (a page of Sync or SyncRaw), the same for Messages (GetRaw
// is named as Get), "Client.Get" and "Client.Download". The calls of a
// kind share their Operation: a hook reads it, never changes it.
type Operation struct {
	// Name names the operation, as above.
	Name string
	// Resource is the collection the call reads, "orders" or "messages", or
	// "" for a download and for a Client.Get of another path.
	Resource string
	// URLTemplate is the path of the call's requests with the ids as
	// placeholders, the base URL's path included, such as
	// /websites/{website_id}/orders/{order_id}; "" for a download and for a
	// Client.Get of a path that is not a resource's.
	URLTemplate string
}

// CallEnd is how a call ended.
type CallEnd struct {
	// Records is the number of records the call decoded (or checked, for
	// the Raw methods), those a walk yields as a *RecordDecodeError included.
	Records int
	// Err is the call's error, nil for a success.
	Err error
}

// Attempt describes one HTTP attempt of a call.
type Attempt struct {
	// Operation is the call's.
	Operation *Operation
	// Method is the request's method: GET.
	Method string
	// ServerAddress and ServerPort are the host and port the attempt goes
	// to (the port of the scheme when the URL names none).
	ServerAddress string
	ServerPort    int
	// ResendCount is the number of attempts of the call before this one.
	ResendCount int

	req    *http.Request
	c      *Client
	cloned bool // req.Header is this attempt's own
}

// SetHeader sets a header on the attempt's request, such as the trace
// context that an observer propagates; call it from StartAttempt, before
// the request is sent. It refuses, with an error matching
// ErrInvalidArgument, an invalid name or value, and a header the client
// sets or that the version header may not take (see CheckVersionHeader).
func (a *Attempt) SetHeader(name, value string) error {
	canonical := http.CanonicalHeaderKey(name)
	switch {
	case !httpguts.ValidHeaderFieldName(name) || !httpguts.ValidHeaderFieldValue(value):
		return invalidArgument("SetHeader: the name or the value is not valid in a header")
	case canonical == a.c.versionHeader || reservedHeaders[canonical] != "" || strings.HasPrefix(canonical, "Proxy-"):
		return invalidArgument("SetHeader: the client sets %s itself", canonical)
	}
	if !a.cloned {
		// An earlier attempt's request shares the map, and may still be read.
		a.req.Header = a.req.Header.Clone()
		a.cloned = true
	}
	a.req.Header.Set(canonical, value)
	return nil
}

// AttemptEnd is how an attempt ended.
type AttemptEnd struct {
	// StatusCode is the answer's status; 0 when there was none.
	StatusCode int
	// Err is the attempt's error: an *APIError for an answer that is not
	// 2xx, or why there was no answer or its body could not be read; nil
	// for a success.
	Err error
}

// RetryWait is a retry that a call is about to wait for.
type RetryWait struct {
	// Attempt is the attempt that failed.
	Attempt *Attempt
	// Wait is how long the call waits before its next attempt.
	Wait time.Duration
	// Err is the failure of the attempt that is retried.
	Err error
}

// operations are the kinds of call of one resource, named for its service
// (Orders, from the collection orders).
type operations struct {
	get, list, all, sync Operation
}

// newOperations returns the operations of the resource whose records, of
// kind, are under recordPath and listPath (resource.go), their templates
// under basePath.
func newOperations(collection, kind, basePath string, recordPath func(website, id string) string, listPath func(website string) string) *operations {
	service := strings.ToUpper(collection[:1]) + collection[1:]
	website, id := "{website_id}", "{"+kind+"_id}"
	record := basePath + recordPath(website, id)
	list := basePath + listPath(website)
	return &operations{
		get:  Operation{Name: service + ".Get", Resource: collection, URLTemplate: record},
		list: Operation{Name: service + ".List", Resource: collection, URLTemplate: list},
		all:  Operation{Name: service + ".All", Resource: collection, URLTemplate: list},
		sync: Operation{Name: service + ".Sync", Resource: collection, URLTemplate: list},
	}
}

// downloadOperation is the operation of Client.Download.
var downloadOperation = Operation{Name: "Client.Download"}

// rawGetOperation is the operation of a Client.Get of path: with the
// template and resource of the resource's record or list that path names,
// if it names one.
func (c *Client) rawGetOperation(path string) *Operation {
	op := &Operation{Name: "Client.Get"}
	rest, ok := strings.CutPrefix(path, "/websites/")
	if !ok {
		return op
	}
	parts := strings.Split(rest, "/")
	for _, ops := range []*operations{c.Orders.r.ops, c.Messages.r.ops} {
		switch {
		case len(parts) < 2 || len(parts) > 3 || parts[1] != ops.list.Resource || !isID(parts[0]):
			continue
		case len(parts) == 2:
			op.Resource, op.URLTemplate = ops.list.Resource, ops.list.URLTemplate
		case isID(parts[2]):
			op.Resource, op.URLTemplate = ops.get.Resource, ops.get.URLTemplate
		}
	}
	return op
}

// isID reports whether s is an id as a path holds it: digits.
func isID(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// callWatch is the observation of one call; nil, and each method a no-op,
// when the client has no Observer.
type callWatch struct {
	o          *Observer
	c          *Client
	ctx        context.Context // the call's, as StartCall returned it
	op         *Operation
	end        func(CallEnd)
	attempts   int
	last       *Attempt         // the latest attempt
	endAttempt func(AttemptEnd) // of the attempt under way
}

// watch starts observing a call of op in ctx: it returns the context the
// call runs in, and the call's watch (nil without an Observer).
func (c *Client) watch(ctx context.Context, op *Operation) (context.Context, *callWatch) {
	if c.observer == nil || ctx == nil {
		return ctx, nil
	}
	w := &callWatch{o: c.observer, c: c, op: op}
	if w.o.StartCall != nil {
		ctx, w.end = w.o.StartCall(ctx, op)
	}
	w.ctx = ctx
	return ctx, w
}

// done ends the call, which decoded records and ended with err.
func (w *callWatch) done(records int, err error) {
	if w == nil {
		return
	}
	w.attemptDone(0, err) // an attempt left open by a failure before it was read
	if w.end != nil {
		w.end(CallEnd{Records: records, Err: err})
		w.end = nil
	}
}

// attempt starts observing an attempt with req.
func (w *callWatch) attempt(req *http.Request) {
	if w == nil {
		return
	}
	w.attemptDone(0, nil)
	port, _ := strconv.Atoi(req.URL.Port())
	switch {
	case port != 0:
	case req.URL.Scheme == "https":
		port = 443
	case req.URL.Scheme == "http":
		port = 80
	}
	w.last = &Attempt{Operation: w.op, Method: req.Method, ServerAddress: req.URL.Hostname(),
		ServerPort: port, ResendCount: w.attempts, req: req, c: w.c}
	w.attempts++
	if w.o.StartAttempt != nil {
		w.endAttempt = w.o.StartAttempt(w.ctx, w.last)
	}
}

// attemptDone ends the attempt under way, if any, with the answer's status
// (0 for none) and err.
func (w *callWatch) attemptDone(status int, err error) {
	if w == nil || w.endAttempt == nil {
		return
	}
	end := w.endAttempt
	w.endAttempt = nil
	end(AttemptEnd{StatusCode: status, Err: err})
}

// attemptHook is the senders' RequestLogHook, which go-retryablehttp runs
// before each attempt: it tells the call's watch of the attempt. Without an
// Observer, it is nil.
func (c *Client) attemptHook() retryablehttp.RequestLogHook {
	if c.observer == nil {
		return nil
	}
	return func(_ retryablehttp.Logger, req *http.Request, _ int) {
		if cl := callOf(req.Context()); cl != nil {
			cl.watch.attempt(req)
		}
	}
}

// handler returns h, which reads an attempt's answer, telling w of the
// attempt's end; h itself when w is nil.
func (w *callWatch) handler(h retryablehttp.ResponseHandlerFunc) retryablehttp.ResponseHandlerFunc {
	if w == nil {
		return h
	}
	return func(resp *http.Response) error {
		err := h(resp)
		w.attemptDone(resp.StatusCode, err)
		return err
	}
}

// retry tells of a retry of err after wait.
func (w *callWatch) retry(wait time.Duration, err error) {
	if w != nil && w.o.Retry != nil {
		w.o.Retry(w.ctx, RetryWait{Attempt: w.last, Wait: wait, Err: err})
	}
}
