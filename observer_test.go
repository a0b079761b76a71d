package ordermsg_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// observed records what an Observer is told, one line a hook, and checks
// that every hook of a call gets the call's context.
type observed struct {
	t     *testing.T
	mu    sync.Mutex
	lines []string
	waits []time.Duration
}

type callKey struct{}

func (o *observed) add(format string, args ...any) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.lines = append(o.lines, fmt.Sprintf(format, args...))
}

func (o *observed) observer() ordermsg.Observer {
	return ordermsg.Observer{
		StartCall: func(ctx context.Context, op *ordermsg.Operation) (context.Context, func(ordermsg.CallEnd)) {
			o.add("call %s resource=%q template=%q", op.Name, op.Resource, op.URLTemplate)
			return context.WithValue(ctx, callKey{}, op.Name), func(end ordermsg.CallEnd) {
				o.add("end %s records=%d err=%v", op.Name, end.Records, errorKind(end.Err))
			}
		},
		StartAttempt: func(ctx context.Context, a *ordermsg.Attempt) func(ordermsg.AttemptEnd) {
			if ctx.Value(callKey{}) != a.Operation.Name {
				o.t.Errorf("attempt of %s not in its call's context", a.Operation.Name)
			}
			o.add("attempt %s %s port=%t resend=%d", a.Method, a.ServerAddress, a.ServerPort > 0, a.ResendCount)
			return func(end ordermsg.AttemptEnd) {
				o.add("attempt end status=%d err=%v", end.StatusCode, errorKind(end.Err))
			}
		},
		Retry: func(ctx context.Context, r ordermsg.RetryWait) {
			if ctx.Value(callKey{}) == nil {
				o.t.Error("retry not in its call's context")
			}
			o.mu.Lock()
			o.waits = append(o.waits, r.Wait)
			o.mu.Unlock()
			o.add("retry resend=%d err=%v", r.Attempt.ResendCount, errorKind(r.Err))
		},
	}
}

// errorKind is err's status, for an *APIError, or whether it is nil.
func errorKind(err error) string {
	var apiErr *ordermsg.APIError
	switch {
	case err == nil:
		return "nil"
	case errors.As(err, &apiErr):
		return fmt.Sprint(apiErr.StatusCode)
	}
	return "error"
}

const observedOrder = `{"object":"order","id":2,"date_created":"2024-03-01T10:00:00+00:00"}`

func observedPage(page, pages int) string {
	return fmt.Sprintf(`{"object":"list","data":[{"object":"order","id":%d,"date_created":"2024-03-01T10:00:00+00:00"},`+
		`{"object":"order","id":%d,"date_created":"2024-03-01T10:00:00+00:00"}],`+
		`"meta":{"pagination":{"total":%d,"count":2,"per_page":2,"current_page":%d,"total_pages":%d}}}`,
		2*page-1, 2*page, 2*pages, page, pages)
}

// TestObserverSeesCallsAttemptsAndRetries: a Get answered 503 and then 200
// is one call of two attempts and a retry between them, with the URL's
// template (the base URL's path included), the resend count, the wait, the
// decoded record, and every hook in the call's context.
func TestObserverSeesCallsAttemptsAndRetries(t *testing.T) {
	var n int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n++
		if n == 1 {
			http.Error(w, `{"message":"busy"}`, http.StatusServiceUnavailable)
			return
		}
		fmt.Fprint(w, observedOrder)
	}))
	defer srv.Close()
	o := &observed{t: t}
	c, err := ordermsg.NewClient(srv.URL+"/v1", "key", ordermsg.WithObserver(o.observer()),
		ordermsg.WithRetry(ordermsg.RetryPolicy{MaxRetries: 2, MinWait: time.Millisecond, MaxWait: 2 * time.Millisecond}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Orders.Get(context.Background(), 1, 2, nil); err != nil {
		t.Fatal(err)
	}
	want := []string{
		`call Orders.Get resource="orders" template="/v1/websites/{website_id}/orders/{order_id}"`,
		`attempt GET 127.0.0.1 port=true resend=0`,
		`attempt end status=503 err=503`,
		`retry resend=0 err=503`,
		`attempt GET 127.0.0.1 port=true resend=1`,
		`attempt end status=200 err=nil`,
		`end Orders.Get records=1 err=nil`,
	}
	if !slices.Equal(o.lines, want) {
		t.Fatalf("observed:\n%s\nwant:\n%s", strings.Join(o.lines, "\n"), strings.Join(want, "\n"))
	}
	if len(o.waits) != 1 || o.waits[0] < time.Millisecond || o.waits[0] > 2*time.Millisecond {
		t.Fatalf("retry waits %v, want one within the policy's 1ms to 2ms", o.waits)
	}
}

// TestObserverNamesEveryOperation: each call is named for its operation,
// without ids, and a walk's pages are calls of their own, each with the
// records it decoded; a Client.Get of a resource's path gets its template,
// of another path none; a failure that got no answer ends its attempt.
func TestObserverNamesEveryOperation(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasSuffix(r.URL.Path, "/orders/2"):
			fmt.Fprint(w, observedOrder)
		case strings.HasSuffix(r.URL.Path, "/orders"):
			var page int
			fmt.Sscan(r.URL.Query().Get("page"), &page)
			fmt.Fprint(w, observedPage(max(page, 1), 2))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	o := &observed{t: t}
	c, err := ordermsg.NewClient(srv.URL, "key", ordermsg.WithObserver(o.observer()), ordermsg.WithRetry(ordermsg.RetryPolicy{}))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := c.Orders.List(ctx, 1, nil); err != nil {
		t.Fatal(err)
	}
	for _, err := range c.Orders.All(ctx, 1, nil) {
		if err != nil {
			t.Fatal(err)
		}
	}
	var v any
	if err := c.Get(ctx, "/websites/1/orders/2", nil, &v); err != nil {
		t.Fatal(err)
	}
	if err := c.Get(ctx, "/websites/1/messages", url.Values{}, &v); !errors.Is(err, ordermsg.ErrNotFound) {
		t.Fatalf("got %v, want a 404", err)
	}
	if err := c.Get(ctx, "/status", nil, &v); !errors.Is(err, ordermsg.ErrNotFound) {
		t.Fatalf("got %v, want a 404", err)
	}
	var calls []string
	for _, line := range o.lines {
		if strings.HasPrefix(line, "call ") || strings.HasPrefix(line, "end ") {
			calls = append(calls, line)
		}
	}
	list := `template="/websites/{website_id}/orders"`
	want := []string{
		`call Orders.List resource="orders" ` + list, `end Orders.List records=2 err=nil`,
		`call Orders.All resource="orders" ` + list, `end Orders.All records=2 err=nil`,
		`call Orders.All resource="orders" ` + list, `end Orders.All records=2 err=nil`,
		`call Client.Get resource="orders" template="/websites/{website_id}/orders/{order_id}"`, `end Client.Get records=0 err=nil`,
		`call Client.Get resource="messages" template="/websites/{website_id}/messages"`, `end Client.Get records=0 err=404`,
		`call Client.Get resource="" template=""`, `end Client.Get records=0 err=404`,
	}
	if !slices.Equal(calls, want) {
		t.Fatalf("observed calls:\n%s\nwant:\n%s", strings.Join(calls, "\n"), strings.Join(want, "\n"))
	}

	// A connection refused: the attempt ends without an answer.
	o.lines = nil
	dead, err := ordermsg.NewClient("http://"+ordermsg.ClosedLoopbackAddr(t), "key", ordermsg.WithObserver(o.observer()), ordermsg.WithRetry(ordermsg.RetryPolicy{}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dead.Messages.Get(ctx, 1, 5, nil); err == nil {
		t.Fatal("no error from a closed port")
	}
	want = []string{
		`call Messages.Get resource="messages" template="/websites/{website_id}/messages/{message_id}"`,
		`attempt GET 127.0.0.1 port=true resend=0`,
		`attempt end status=0 err=error`,
		`end Messages.Get records=0 err=error`,
	}
	if !slices.Equal(o.lines, want) {
		t.Fatalf("observed:\n%s\nwant:\n%s", strings.Join(o.lines, "\n"), strings.Join(want, "\n"))
	}
}

// TestAttemptSetHeader: an observer may add a header to an attempt's
// request (trace context), never one the client sets itself.
func TestAttemptSetHeader(t *testing.T) {
	var got http.Header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Clone()
		fmt.Fprint(w, observedOrder)
	}))
	defer srv.Close()
	var refused []string
	obs := ordermsg.Observer{StartAttempt: func(_ context.Context, a *ordermsg.Attempt) func(ordermsg.AttemptEnd) {
		if err := a.SetHeader("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"); err != nil {
			t.Errorf("traceparent refused: %v", err)
		}
		for _, name := range []string{"Authorization", "acme-api-version", "User-Agent", "Proxy-Authorization", "Bad Name"} {
			if err := a.SetHeader(name, "forged"); errors.Is(err, ordermsg.ErrInvalidArgument) {
				refused = append(refused, name)
			}
		}
		if err := a.SetHeader("Tracestate", "a\nb"); !errors.Is(err, ordermsg.ErrInvalidArgument) {
			t.Errorf("a value with a newline: %v", err)
		}
		return nil
	}}
	c, err := ordermsg.NewClient(srv.URL, "key", ordermsg.WithObserver(obs), ordermsg.WithVersionHeader("Acme-Api-Version", "7"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Orders.Get(context.Background(), 1, 2, nil); err != nil {
		t.Fatal(err)
	}
	if len(refused) != 5 {
		t.Errorf("refused %v, want all five", refused)
	}
	if got.Get("Traceparent") == "" || got.Get("Acme-Api-Version") != "7" || got.Get("Authorization") != "Basic a2V5Og==" || got.Get("User-Agent") == "forged" {
		t.Fatalf("the server got %v", got)
	}
}

// TestObserverNamesWalksAndSyncs: the pages of Sync and of the Raw walks
// are calls named for the method a caller wrote, each with the records it
// read, which add up to the records yielded.
func TestObserverNamesWalksAndSyncs(t *testing.T) {
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 7, Websites: 1, OrdersPerWebsite: 5, MessagesPerWebsite: 7}))
	defer srv.Close()
	o := &observed{t: t}
	c, err := srv.Client(ordermsg.WithObserver(o.observer()))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	yielded := map[string]int{}
	var cp ordermsg.Checkpoint
	for _, err := range c.Orders.Sync(ctx, srv.WebsiteID, &cp, &ordermsg.ListOrdersOptions{Count: 2}) {
		if err != nil {
			t.Fatal(err)
		}
		yielded["Orders.Sync"]++
	}
	for _, err := range c.Messages.AllRaw(ctx, srv.WebsiteID, &ordermsg.ListMessagesOptions{Count: 3}) {
		if err != nil {
			t.Fatal(err)
		}
		yielded["Messages.All"]++
	}
	read := map[string]int{}
	for _, line := range o.lines {
		var name string
		var records int
		if _, err := fmt.Sscanf(line, "end %s records=%d", &name, &records); err == nil {
			read[name] += records
		}
	}
	if yielded["Orders.Sync"] != 5 || yielded["Messages.All"] != 7 || fmt.Sprint(read) != fmt.Sprint(yielded) {
		t.Fatalf("records read by the calls: %v; yielded: %v", read, yielded)
	}
}
