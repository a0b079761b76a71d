package contract

import (
	"context"
	"errors"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// dataset is small enough to validate every record in seconds (the
// validator compiles a schema per check), and holds every kind of record
// the generator makes: TestTheDatasetHasEveryShape says so.
var dataset = ordermsgtest.Config{Seed: 14, Websites: 2, OrdersPerWebsite: 30, MessagesPerWebsite: 40}

// mockDataset is for the httpmock transport, which serves the same bodies
// as the server: a few records check its statuses and headers.
var mockDataset = ordermsgtest.Config{Seed: 14, Websites: 2, OrdersPerWebsite: 10, MessagesPerWebsite: 10}

// fastRetries lets the injected 429s and 5xx be retried without waiting.
var fastRetries = ordermsg.WithRetry(ordermsg.RetryPolicy{MaxRetries: 8, MinWait: time.Millisecond, MaxWait: 2 * time.Millisecond})

// contractRun is one run of the SDK against the fake, every exchange
// checked against one document.
type contractRun struct {
	report   *Report
	baseURLs []string
	// sdkErrors are the SDK's errors on calls that should have succeeded,
	// and the wrong errors on calls that should have failed.
	sdkErrors []error
}

// recordedRun is the run against the repository's openapi.yaml; the
// broken copies are checked on its exchanges.
var recordedRun = sync.OnceValues(func() (*contractRun, error) {
	return runAgainstFake(ordermsgtest.OpenAPIDocument())
})

// runAgainstFake drives the SDK against a fake on loopback (with injected
// 429, 500 and 503) and through an httpmock transport, checking every
// exchange against doc.
func runAgainstFake(doc []byte) (*contractRun, error) {
	ctx := context.Background()
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(dataset), ordermsgtest.WithFaults(ordermsgtest.Faults{
		Seed: 14, Rate: 0.2,
		Kinds: []ordermsgtest.Fault{ordermsgtest.FaultRateLimit, ordermsgtest.FaultServerError, ordermsgtest.FaultUnavailable},
	}))
	defer srv.Close()
	const mockBase = "https://api.example.test/v1"
	run := &contractRun{report: &Report{}, baseURLs: []string{srv.URL, mockBase}}
	checker, err := Load(ctx, doc, run.baseURLs...)
	if err != nil {
		return nil, err
	}
	connect := func(baseURL string, next http.RoundTripper) func(key string) *ordermsg.Client {
		return func(key string) *ordermsg.Client {
			c, err := ordermsg.NewClient(baseURL, key, fastRetries,
				ordermsg.WithHTTPClient(&http.Client{Transport: checker.Transport(next, run.report)}))
			if err != nil {
				panic(err) // the options are the test's own
			}
			return c
		}
	}
	exercise(run, srv.Handler.Dataset(), connect(srv.URL, http.DefaultTransport))

	mt := httpmock.NewMockTransport()
	mock := ordermsgtest.NewHandler(ordermsgtest.Generate(mockDataset))
	mock.Register(mt, mockBase)
	exercise(run, mock.Dataset(), connect(mockBase, mt))
	return run, nil
}

// exercise sends every operation with every option and include, alone and
// together, over every record of the first website, and the errors the
// SDK can meet (400, 401, 403, 404). connect makes a client for an API key.
func exercise(run *contractRun, ds *ordermsgtest.Dataset, connect func(key string) *ordermsg.Client) {
	ctx := context.Background()
	w, other := ds.Websites[0], ds.Websites[1]
	c := connect(w.APIKey)
	must := func(what string, err error) {
		if err != nil {
			run.sdkErrors = append(run.sdkErrors, errors.New(what+": "+err.Error()))
		}
	}
	want := func(what string, err, sentinel error) {
		if !errors.Is(err, sentinel) {
			run.sdkErrors = append(run.sdkErrors, errors.New(what+": got "+errString(err)+", want "+sentinel.Error()))
		}
	}

	// Every list option, all set at once and each alone.
	from := ordermsg.DateOf(w.Orders[0].DateCreated.Time)
	to := ordermsg.DateOf(w.Orders[len(w.Orders)-1].DateCreated.Time)
	for _, opts := range []ordermsg.ListOrdersOptions{
		{Page: 2, Count: 5, DateStart: from, DateEnd: to, Direction: ordermsg.DirectionAsc, Sort: "id", Search: "a", Status: ordermsg.OrderStatusNew, Includes: []ordermsg.OrderInclude{ordermsg.OrderIncludeUser, ordermsg.OrderIncludeMessage}},
		{Page: 3}, {Count: 1}, {DateStart: from}, {DateEnd: to}, {Direction: ordermsg.DirectionDesc},
		{Sort: "date_created"}, {Search: "1"}, {Status: ordermsg.OrderStatusNew}, {Page: 1000},
	} {
		_, err := c.Orders.List(ctx, w.ID, &opts)
		must("orders list", err)
	}
	for _, opts := range []ordermsg.ListMessagesOptions{
		{Page: 2, Count: 5, DateStart: from, DateEnd: to, Direction: ordermsg.DirectionAsc, Sort: "id", Search: "a", MessageType: ordermsg.MessageTypeOnlineOrder, Includes: []ordermsg.MessageInclude{ordermsg.MessageIncludeUser, ordermsg.MessageIncludeOrderItems}},
		{Page: 3}, {Count: 1}, {DateStart: from}, {DateEnd: to}, {Direction: ordermsg.DirectionDesc},
		{Sort: "date_created"}, {Search: "1"}, {MessageType: ordermsg.MessageTypeGeneralContact}, {MessageType: ordermsg.MessageTypeEventManagement},
	} {
		_, err := c.Messages.List(ctx, w.ID, &opts)
		must("messages list", err)
	}
	// A record of every shape, retrieved bare and with every include (the
	// lists below show every record).
	for _, o := range representatives(w.Orders, orderShapes) {
		_, err := c.Orders.Get(ctx, w.ID, o.ID, nil)
		must("order", err)
		_, err = c.Orders.Get(ctx, w.ID, o.ID, &ordermsg.GetOrderOptions{Includes: ordermsg.AllOrderIncludes()})
		must("order with every include", err)
	}
	for _, m := range representatives(w.Messages, messageShapes) {
		_, err := c.Messages.Get(ctx, w.ID, m.ID, nil)
		must("message", err)
		_, err = c.Messages.Get(ctx, w.ID, m.ID, &ordermsg.GetMessageOptions{Includes: ordermsg.AllMessageIncludes()})
		must("message with every include", err)
	}
	// Each include alone, on the richest record and on a list of every
	// record.
	richOrder, richMessage := richest(w.Orders, orderShapes), richest(w.Messages, messageShapes)
	for _, inc := range ordermsg.AllOrderIncludes() {
		_, err := c.Orders.Get(ctx, w.ID, richOrder.ID, &ordermsg.GetOrderOptions{Includes: []ordermsg.OrderInclude{inc}})
		must("order with "+string(inc), err)
		_, err = c.Orders.List(ctx, w.ID, &ordermsg.ListOrdersOptions{Count: 100, Includes: []ordermsg.OrderInclude{inc}})
		must("orders with "+string(inc), err)
	}
	for _, inc := range ordermsg.AllMessageIncludes() {
		_, err := c.Messages.Get(ctx, w.ID, richMessage.ID, &ordermsg.GetMessageOptions{Includes: []ordermsg.MessageInclude{inc}})
		must("message with "+string(inc), err)
		_, err = c.Messages.List(ctx, w.ID, &ordermsg.ListMessagesOptions{Count: 100, Includes: []ordermsg.MessageInclude{inc}})
		must("messages with "+string(inc), err)
	}
	// Every page, bare and with every include, walked concurrently.
	for _, includes := range [][]ordermsg.OrderInclude{nil, ordermsg.AllOrderIncludes()} {
		for _, err := range c.Orders.All(ctx, w.ID, &ordermsg.ListOrdersOptions{Count: 10, Includes: includes}, ordermsg.WithConcurrency(3)) {
			must("walking orders", err)
		}
	}
	for _, includes := range [][]ordermsg.MessageInclude{nil, ordermsg.AllMessageIncludes()} {
		for _, err := range c.Messages.All(ctx, w.ID, &ordermsg.ListMessagesOptions{Count: 10, Includes: includes}, ordermsg.WithConcurrency(3)) {
			must("walking messages", err)
		}
	}
	// Errors: the document allows any, but the exchanges are still checked.
	_, err := c.Orders.Get(ctx, w.ID, 1, nil)
	want("unknown order", err, ordermsg.ErrNotFound)
	_, err = c.Messages.Get(ctx, w.ID, 1, nil)
	want("unknown message", err, ordermsg.ErrNotFound)
	_, err = c.Orders.List(ctx, other.ID, nil)
	want("another account's website", err, ordermsg.ErrForbidden)
	_, err = connect("not-a-key").Messages.List(ctx, w.ID, nil)
	want("unknown key", err, ordermsg.ErrUnauthorized)
	_, err = c.Orders.List(ctx, w.ID, &ordermsg.ListOrdersOptions{Count: 1000, Direction: "sideways", Includes: []ordermsg.OrderInclude{"nonsense"}})
	want("values the strict fake refuses", err, ordermsg.ErrBadRequest)
	_, err = c.Messages.Get(ctx, w.ID, w.Messages[0].ID, &ordermsg.GetMessageOptions{Includes: []ordermsg.MessageInclude{"nonsense"}})
	want("unknown message include", err, ordermsg.ErrBadRequest)
}

func errString(err error) string {
	if err == nil {
		return "no error"
	}
	return err.Error()
}

func TestTheDocumentIsValidOpenAPI31(t *testing.T) {
	if _, err := Load(context.Background(), ordermsgtest.OpenAPIDocument(), "http://127.0.0.1:1"); err != nil {
		t.Fatal(err)
	}
}

// Every request the SDK sends and every response the fake serves, over all
// operations, options, includes and errors, agree with openapi.yaml.
func TestSDKAndFakeHoldToTheDocument(t *testing.T) {
	run, err := recordedRun()
	if err != nil {
		t.Fatal(err)
	}
	for _, err := range run.sdkErrors {
		t.Error(err)
	}
	violations := run.report.Violations()
	for _, v := range violations[:min(len(violations), 10)] {
		t.Errorf("violation: %v", v)
	}
	if len(violations) > 10 {
		t.Errorf("... and %d more violations", len(violations)-10)
	}
	// The run must have reached every operation, and the errors.
	ops := run.report.Operations()
	for _, want := range []string{
		"retrieveOrder 200", "listOrders 200", "retrieveMessage 200", "listMessages 200",
		"retrieveOrder 404", "retrieveMessage 404", "listOrders 403", "listMessages 401",
		"listOrders 400", "retrieveMessage 400",
	} {
		if ops[want] == 0 {
			t.Errorf("no exchange %q was checked; checked: %v", want, ops)
		}
	}
	// The injected faults fall on whichever request comes, and the walks'
	// requests race: each status must have been seen, on any operation.
	for _, status := range []string{" 429", " 500", " 503"} {
		if !slices.ContainsFunc(slices.Collect(maps.Keys(ops)), func(op string) bool { return strings.HasSuffix(op, status) }) {
			t.Errorf("no exchange with status%s was checked; checked: %v", status, ops)
		}
	}
	t.Logf("%d exchanges checked: %v", len(run.report.Exchanges()), ops)
}

// The check can fail: a document broken in any of these ways must be
// refused, or fail the check of the exchanges recorded against the real one.
func TestABrokenDocumentFailsTheCheck(t *testing.T) {
	run, err := recordedRun()
	if err != nil {
		t.Fatal(err)
	}
	doc := string(ordermsgtest.OpenAPIDocument())
	breaks := []struct {
		name, old, new string
		// refused: Load itself must reject the broken document.
		refused bool
	}{
		{name: "not OpenAPI 3.1", old: "openapi: 3.1.0", new: "openapi: 3.0.3", refused: true},
		{name: "not valid OpenAPI", old: "      type: http\n", new: "      type: magic\n", refused: true},
		{name: "another version header value", old: "const: \"1\"", new: "const: \"2\""},
		{name: "count not declared", old: "      name: count\n", new: "      name: limit\n"},
		{name: "bearer, not Basic", old: "      scheme: basic\n", new: "      scheme: bearer\n"},
		{name: "dates in another form", old: "pattern: \"^[0-9]{4}-[0-9]{2}-[0-9]{2}$\"", new: "pattern: \"^[0-9]{8}$\""},
		{name: "money as strings", old: "    money:\n      type: integer\n", new: "    money:\n      type: string\n"},
		{name: "ids from 1, no 0 for none", old: "    id:\n      type: integer\n      format: int64\n", new: "    id:\n      type: integer\n      format: int64\n      minimum: 1\n"},
		{name: "versadoc kind renamed", old: "const: versadoc_order_item", new: "const: versadoc_item"},
		{name: "no null user on an order", old: "message it is the integer id (see message_order).\n          oneOf:\n            - $ref: \"#/components/schemas/id\"\n            - $ref: \"#/components/schemas/website_user\"\n            - type: \"null\"\n", new: "message it is the integer id (see message_order).\n          oneOf:\n            - $ref: \"#/components/schemas/id\"\n            - $ref: \"#/components/schemas/website_user\"\n"},
		{name: "a message's order without a user id", old: "      properties:\n        user:\n          type: integer\n", new: "      properties:\n        user:\n          type: object\n"},
		{name: "a retrieved message's user may not be 0", old: "        user:\n          type: [integer, object]\n", new: "        user:\n          type: [object]\n"},
		{name: "timestamps in UTC with Z", old: "[+-][0-9]{2}:[0-9]{2}$\"", new: "Z$\""},
		{name: "name fields as numbers", old: "prefix: {type: string}", new: "prefix: {type: integer}"},
		{name: "pagination without per_page", old: "required: [total, count, per_page, current_page, total_pages]", new: "required: [total, count, page_size, current_page, total_pages]"},
	}
	for _, b := range breaks {
		t.Run(b.name, func(t *testing.T) {
			if n := strings.Count(doc, b.old); n != 1 {
				t.Fatalf("the break must change one place of openapi.yaml; %q occurs %d times", b.old, n)
			}
			checker, err := Load(context.Background(), []byte(strings.Replace(doc, b.old, b.new, 1)), run.baseURLs...)
			switch {
			case b.refused && err == nil:
				t.Fatal("the broken document was accepted")
			case b.refused:
				return
			case err != nil:
				t.Fatalf("the broken document should load, and fail the exchanges: %v", err)
			}
			for _, ex := range run.report.Exchanges() {
				if checker.Check(context.Background(), ex) != nil {
					return
				}
			}
			t.Fatal("the check found nothing wrong with the broken document")
		})
	}
}

func TestUndeclaredAndRepeatedQueryParametersAreViolations(t *testing.T) {
	checker, err := Load(context.Background(), ordermsgtest.OpenAPIDocument(), "https://api.example.test")
	if err != nil {
		t.Fatal(err)
	}
	for query, want := range map[string]string{
		"count=5&limit=5": `"limit" is not declared`,
		"status=new":      "", // declared for orders
		"page=1&page=2":   `"page" is given 2 times`,
		"message_type=x":  `"message_type" is not declared`,
	} {
		r, _ := http.NewRequest(http.MethodGet, "https://api.example.test/websites/1/orders?"+query, nil)
		r.SetBasicAuth("key", "")
		r.Header.Set("Service-Api-Version", "1")
		_, err := checker.CheckRequest(context.Background(), r)
		if (want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), want)) {
			t.Errorf("%s: %v, want %q", query, err, want)
		}
	}
}

func TestCredentialsFollowTheSpec(t *testing.T) {
	checker, err := Load(context.Background(), ordermsgtest.OpenAPIDocument(), "https://api.example.test")
	if err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		user, password string
		basic, ok      bool
	}{
		"key, empty password": {user: "key", basic: true, ok: true},
		"no credentials":      {},
		"empty key":           {basic: true},
		"a password":          {user: "key", password: "secret", basic: true},
	} {
		r, _ := http.NewRequest(http.MethodGet, "https://api.example.test/websites/1/messages/2", nil)
		if tc.basic {
			r.SetBasicAuth(tc.user, tc.password)
		}
		r.Header.Set("Service-Api-Version", "1")
		if _, err := checker.CheckRequest(context.Background(), r); (err == nil) != tc.ok {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// anyItem reports whether an item of o satisfies pred.
func anyItem(o *ordermsg.Order, pred func(*ordermsg.OrderItem) bool) bool {
	for i := range o.Items {
		if pred(&o.Items[i]) {
			return true
		}
	}
	return false
}

// orderShapes and messageShapes are the kinds of record the document
// describes differently (references absent, 0, null or objects; optional
// parts), by the canonical records of a Dataset.
var (
	orderShapes = map[string]func(*ordermsg.Order) bool{
		"no user":         func(o *ordermsg.Order) bool { return o.User.IsNull() },
		"a user":          func(o *ordermsg.Order) bool { return o.User.IsExpanded() },
		"no promo code":   func(o *ordermsg.Order) bool { return o.PromoCode.IsNull() },
		"a promo code":    func(o *ordermsg.Order) bool { return o.PromoCode.IsExpanded() },
		"no portal":       func(o *ordermsg.Order) bool { return o.Portal.ID == 0 },
		"a portal":        func(o *ordermsg.Order) bool { return o.Portal.IsExpanded() },
		"a shipment":      func(o *ordermsg.Order) bool { return len(o.Shipments) > 0 },
		"a note":          func(o *ordermsg.Order) bool { return len(o.Notes) > 0 },
		"pay later":       func(o *ordermsg.Order) bool { return o.IsPayLater },
		"a versadoc item": func(o *ordermsg.Order) bool { return anyItem(o, (*ordermsg.OrderItem).IsVersadoc) },
		"an attribute": func(o *ordermsg.Order) bool {
			return anyItem(o, func(it *ordermsg.OrderItem) bool {
				return it.Attributes.Value != nil && len(it.Attributes.Value.Fields) > 0
			})
		},
		"a failed print-ready file": func(o *ordermsg.Order) bool {
			return anyItem(o, func(it *ordermsg.OrderItem) bool {
				return slices.ContainsFunc(it.PrintReadyFiles, func(f ordermsg.PrintReadyFile) bool { return f.File == nil })
			})
		},
	}
	messageShapes = map[string]func(*ordermsg.Message) bool{
		"no user":  func(m *ordermsg.Message) bool { return !m.User.IsExpanded() },
		"a user":   func(m *ordermsg.Message) bool { return m.User.IsExpanded() },
		"no file":  func(m *ordermsg.Message) bool { return !m.File.IsExpanded() },
		"a file":   func(m *ordermsg.Message) bool { return m.File.IsExpanded() },
		"no order": func(m *ordermsg.Message) bool { return m.Order.ID == 0 },
		"an order": func(m *ordermsg.Message) bool { return m.Order.IsExpanded() },
	}
)

// representatives returns the first record of each shape, once each.
func representatives[T any](records []*T, shapes map[string]func(*T) bool) []*T {
	var out []*T
	for _, has := range shapes {
		if i := slices.IndexFunc(records, has); i >= 0 && !slices.Contains(out, records[i]) {
			out = append(out, records[i])
		}
	}
	return out
}

// richest returns the record of the most shapes.
func richest[T any](records []*T, shapes map[string]func(*T) bool) *T {
	score := func(r *T) int {
		n := 0
		for _, has := range shapes {
			if has(r) {
				n++
			}
		}
		return n
	}
	return slices.MaxFunc(records, func(a, b *T) int { return score(a) - score(b) })
}

// The run's dataset must hold every shape, or the run proves less than it
// claims.
func TestTheDatasetHasEveryShape(t *testing.T) {
	w := ordermsgtest.Generate(dataset).Websites[0]
	for name, has := range orderShapes {
		if !slices.ContainsFunc(w.Orders, has) {
			t.Errorf("no order has %s", name)
		}
	}
	for name, has := range messageShapes {
		if !slices.ContainsFunc(w.Messages, has) {
			t.Errorf("no message has %s", name)
		}
	}
}
