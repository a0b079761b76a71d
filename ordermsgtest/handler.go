package ordermsgtest

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ordermsg/ordermsg-go"
)

// Handler serves a Dataset as the Order and Message Read API. It is safe for
// concurrent use. Make one with NewHandler.
type Handler struct {
	ds      *Dataset
	mu      sync.RWMutex // guards ds: AddOrders and AddMessages write it (live.go)
	days    DayBounds
	latency time.Duration
	faults  *faultInjector
	files   *fileHost
	// fileRoutes, front and endpoints route the requests (routes.go).
	fileRoutes, front, endpoints *http.ServeMux
	// versionName and versionValue are the version header required (see
	// WithVersionHeader); versionName is canonical.
	versionName, versionValue string
	// configErr is the error of an Option given a value it cannot use (see
	// WithVersionHeader): Client returns it and every request gets a 501.
	configErr error

	beforeList func(ListRequest) // see WithBeforeList (mutate.go)
	clock      func() time.Time  // see WithClock (live.go)
}

// Option configures a Handler (and so a Server).
type Option func(*Handler)

// WithLatency delays every response by d, as a distant server would.
func WithLatency(d time.Duration) Option { return func(h *Handler) { h.latency = d } }

// WithFaults makes a share of the responses fail, as Faults describes.
func WithFaults(f Faults) Option { return func(h *Handler) { h.faults = newFaultInjector(f) } }

// NewHandler returns a handler that serves ds; a nil ds serves
// Generate(DefaultConfig()).
func NewHandler(ds *Dataset, opts ...Option) *Handler {
	if ds == nil {
		ds = Generate(DefaultConfig())
	}
	h := &Handler{ds: ds, faults: newFaultInjector(Faults{}), files: newFileHost(FileLinks{}),
		versionName: VersionHeader, versionValue: APIVersion}
	for _, opt := range opts {
		opt(h)
	}
	h.newRouters()
	return h
}

// Dataset returns the dataset the handler serves.
func (h *Handler) Dataset() *Dataset { return h.ds }

// reply is a response before it is written, so that the same answer can go
// to a real connection (ServeHTTP) or to an httpmock transport.
type reply struct {
	status int
	header http.Header
	body   []byte
	fault  Fault
}

// apiError is the fake's error body. The spec shows no error shape; the fake
// answers {"object": "error", "status": <code>, "message": "<text>"}.
type apiError struct {
	Object  string `json:"object"`
	Status  int    `json:"status"`
	Message string `json:"message"`
}

func errorReply(status int, format string, args ...any) reply {
	body, _ := json.Marshal(apiError{Object: "error", Status: status, Message: fmt.Sprintf(format, args...)})
	return reply{status: status, header: jsonHeader(), body: body}
}

// notFound is the one 404 of the fake: "<what> <id as in the path> not
// found", whichever id is unknown and whatever its form.
func notFound(what, id string) reply {
	return errorReply(http.StatusNotFound, "%s %s not found", what, id)
}

func jsonReply(v any) reply {
	body, err := json.Marshal(v)
	if err != nil {
		return errorReply(http.StatusInternalServerError, "encoding: %v", err)
	}
	return reply{status: http.StatusOK, header: jsonHeader(), body: body}
}

func jsonHeader() http.Header { return http.Header{"Content-Type": {"application/json"}} }

// answer computes the response to r, faults aside, through the endpoints
// router.
func (h *Handler) answer(r *http.Request) reply {
	rep, _ := serve(h.endpoints, r, strings.Trim(r.URL.Path, "/"))
	return rep
}

// operation answers a request for one of the API's operations on the
// website w, once the request has passed every check before it.
type operation func(r *http.Request, w *Website) reply

// endpoint is the route of an operation: the checks of every request (see
// refusal), then the website's, then op. For a list of resource ("orders"
// or "messages"; "" for a retrieve) the WithBeforeList hook runs first,
// outside the lock.
func (h *Handler) endpoint(resource string, op operation) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if resource != "" {
			h.runBeforeList(r, resource)
		}
		h.mu.RLock()
		defer h.mu.RUnlock()
		rep, refused := h.refusal(r)
		if !refused {
			var site *Website
			if site, rep = h.website(r); site != nil {
				rep = op(r, site)
			}
		}
		w.(*replyWriter).reply(rep)
	}
}

// unknownEndpoint is the route of every other path: the checks of every
// request, then 404.
func (h *Handler) unknownEndpoint(w http.ResponseWriter, r *http.Request) {
	rw := w.(*replyWriter)
	h.mu.RLock()
	defer h.mu.RUnlock()
	rep, refused := h.refusal(r)
	if !refused {
		rep = notFound("endpoint", rw.req.URL.Path)
	}
	rw.reply(rep)
}

// refusal returns the answer to a request that fails a check of every
// request, whatever its path: the method (the API is read-only), the key,
// the version header. It returns false when r passes them.
func (h *Handler) refusal(r *http.Request) (reply, bool) {
	if h.configErr != nil {
		// 501, not 500: a server error still, but one that the SDK (and
		// most clients) does not retry, so that the test fails at once and
		// not after three retries and their backoff.
		return errorReply(http.StatusNotImplemented, "%v", h.configErr), true
	}
	if r.Method != http.MethodGet {
		rep := errorReply(http.StatusMethodNotAllowed, "the API is read-only; use GET")
		rep.header.Set("Allow", http.MethodGet)
		return rep, true
	}
	key, password, ok := r.BasicAuth()
	if !ok || password != "" || !h.knownKey(key) {
		rep := errorReply(http.StatusUnauthorized, "missing or invalid API key")
		rep.header.Set("WWW-Authenticate", `Basic realm="ordermsg"`)
		return rep, true
	}
	switch v := r.Header.Get(h.versionName); v {
	case "":
		return errorReply(http.StatusBadRequest, "missing %s header", h.versionName), true
	case h.versionValue:
		return reply{}, false
	default:
		// The value sent is never shown: it may be the key, given in the
		// wrong place.
		return errorReply(http.StatusBadRequest, "unsupported %s value; supported: %s", h.versionName, h.versionValue), true
	}
}

// website returns the website that r's path names, or nil and the answer
// when there is none or r's key cannot read it.
func (h *Handler) website(r *http.Request) (*Website, reply) {
	idText := pathValue(r, "website_id")
	id, err := strconv.ParseInt(idText, 10, 64)
	if err != nil || id <= 0 {
		return nil, notFound("website", idText)
	}
	w := h.ds.Website(id)
	if w == nil {
		return nil, notFound("website", idText)
	}
	if key, _, _ := r.BasicAuth(); w.APIKey != key {
		return nil, errorReply(http.StatusForbidden, "this API key cannot read website %d", id)
	}
	return w, reply{}
}

// recordID returns the id in r's path, and false when it is not one.
func recordID(r *http.Request) (int64, bool) {
	id, err := strconv.ParseInt(pathValue(r, "id"), 10, 64)
	return id, err == nil && id > 0
}

func (h *Handler) retrieveOrder(r *http.Request, w *Website) reply {
	inc, err := parseIncludes(r.URL.Query().Get("includes"), true)
	if err != nil {
		return errorReply(http.StatusBadRequest, "%v", err)
	}
	if id, ok := recordID(r); ok {
		if o := w.Order(id); o != nil {
			return jsonReply(h.withLinks(r, w.renderOrder(o, inc, retrieved, false)))
		}
	}
	return notFound("order", pathValue(r, "id"))
}

func (h *Handler) retrieveMessage(r *http.Request, w *Website) reply {
	inc, err := parseIncludes(r.URL.Query().Get("includes"), false)
	if err != nil {
		return errorReply(http.StatusBadRequest, "%v", err)
	}
	if id, ok := recordID(r); ok {
		if m := w.Message(id); m != nil {
			return jsonReply(h.withLinks(r, w.renderMessage(m, inc, retrieved)))
		}
	}
	return notFound("message", pathValue(r, "id"))
}

func (h *Handler) listOrders(r *http.Request, w *Website) reply {
	q := r.URL.Query()
	inc, lq, err := h.parseList(q, true)
	if err != nil {
		return errorReply(http.StatusBadRequest, "%v", err)
	}
	return jsonReply(h.withLinks(r, listPage(w.Orders, lq, q.Get("status"), orderOps, func(o *ordermsg.Order) *ordermsg.Order {
		return w.renderOrder(o, inc, listed, false)
	})))
}

func (h *Handler) listMessages(r *http.Request, w *Website) reply {
	q := r.URL.Query()
	inc, lq, err := h.parseList(q, false)
	if err != nil {
		return errorReply(http.StatusBadRequest, "%v", err)
	}
	return jsonReply(h.withLinks(r, listPage(w.Messages, lq, q.Get("message_type"), messageOps, func(m *ordermsg.Message) *ordermsg.Message {
		return w.renderMessage(m, inc, listed)
	})))
}

// parseList reads a list request's includes and parameters, with the
// handler's day bounds applied.
func (h *Handler) parseList(q url.Values, orders bool) (includeSet, listQuery, error) {
	inc, err := parseIncludes(q.Get("includes"), orders)
	if err != nil {
		return nil, listQuery{}, err
	}
	lq, err := parseListQuery(q)
	return inc, h.days.apply(lq), err
}

func (h *Handler) knownKey(key string) bool {
	for _, w := range h.ds.Websites {
		if w.APIKey == key {
			return true
		}
	}
	return false
}

// VersionHeader and APIVersion are the version header the fake requires
// by default: the SDK's default, as the spec writes it. WithVersionHeader
// sets another.
const (
	VersionHeader = ordermsg.DefaultVersionHeader
	APIVersion    = ordermsg.DefaultAPIVersion
)

// Paging bounds of the fake (the spec gives none).
const (
	DefaultCount = 25
	MaxCount     = 100
)

var (
	orderIncludes   = includeNames(ordermsg.AllOrderIncludes())
	messageIncludes = includeNames(ordermsg.AllMessageIncludes())
)

// includeNames is the set of the names of includes.
func includeNames[I ~string](all []I) map[string]bool {
	m := map[string]bool{}
	for _, inc := range all {
		m[string(inc)] = true
	}
	return m
}

func parseIncludes(raw string, orders bool) (includeSet, error) {
	inc := includeSet{}
	if raw == "" {
		return inc, nil
	}
	allowed := messageIncludes
	if orders {
		allowed = orderIncludes
	}
	for _, name := range strings.Split(raw, ",") {
		if !allowed[name] {
			return nil, fmt.Errorf("unknown include %q", name)
		}
		inc[name] = true
	}
	return inc, nil
}

// listQuery is a list request's checked parameters.
type listQuery struct {
	page, count int
	start, end  time.Time // zero when not given; end is exclusive
	ascending   bool
	sortByID    bool
	search      string
}

func parseListQuery(q url.Values) (listQuery, error) {
	get := func(k string) string {
		if v := q[k]; len(v) > 0 {
			return v[0]
		}
		return ""
	}
	lq := listQuery{search: strings.ToLower(get("search"))}
	var err error
	if lq.page, lq.count, err = parsePaging(q, MaxCount); err != nil {
		return lq, err
	}
	for _, d := range []struct {
		key string
		dst *time.Time
		add int
	}{{"date_start", &lq.start, 0}, {"date_end", &lq.end, 1}} {
		if v := get(d.key); v != "" {
			t, err := time.Parse(time.DateOnly, v)
			if err != nil {
				return lq, fmt.Errorf("%s must be a date YYYY-MM-DD, got %q", d.key, v)
			}
			*d.dst = t.AddDate(0, 0, d.add)
		}
	}
	switch v := get("direction"); v {
	case "", "desc":
	case "asc":
		lq.ascending = true
	default:
		return lq, fmt.Errorf("direction must be asc or desc, got %q", v)
	}
	switch v := get("sort"); v {
	case "", "date_created":
	case "id":
		lq.sortByID = true
	default:
		return lq, fmt.Errorf("sort must be id or date_created, got %q", v)
	}
	return lq, nil
}

// kindOps is what listing needs to know of a record type.
type kindOps[T any] struct {
	created func(*T) time.Time
	id      func(*T) int64
	// matches reports whether a record passes the type's own filter (status
	// or message_type, "" for none) and the search text (lowercase).
	matches func(r *T, filter, search string) bool
}

// listPage filters, sorts and pages records, and renders the page.
func listPage[T any](all []*T, lq listQuery, filter string, ops kindOps[T], render func(*T) *T) *ordermsg.Page[T] {
	var hits []*T
	for _, r := range all {
		t := ops.created(r)
		if (!lq.start.IsZero() && t.Before(lq.start)) || (!lq.end.IsZero() && !t.Before(lq.end)) {
			continue
		}
		if ops.matches(r, filter, lq.search) {
			hits = append(hits, r)
		}
	}
	cmp := func(a, b *T) int {
		if !lq.sortByID {
			if c := ops.created(a).Compare(ops.created(b)); c != 0 {
				return c
			}
		}
		return cmpInt(ops.id(a), ops.id(b))
	}
	if !slices.IsSortedFunc(hits, cmp) {
		slices.SortStableFunc(hits, cmp)
	}
	if !lq.ascending {
		slices.Reverse(hits)
	}
	from, to, pagination := paginate(len(hits), lq.page, lq.count)
	page := &ordermsg.Page[T]{Object: ordermsg.ObjectList, Data: make([]*T, 0, to-from)}
	for _, r := range hits[from:to] {
		page.Data = append(page.Data, render(r))
	}
	page.Meta.Pagination = pagination
	return page
}

// parsePaging reads a list request's page (from 1, default 1) and count
// (from 1 to maxCount, default DefaultCount).
func parsePaging(q url.Values, maxCount int) (page, count int, err error) {
	page, count = 1, DefaultCount
	if v := q.Get("page"); v != "" {
		if page, err = strconv.Atoi(v); err != nil || page < 1 {
			return page, count, fmt.Errorf("page must be an integer from 1, got %q", v)
		}
	}
	if v := q.Get("count"); v != "" {
		if count, err = strconv.Atoi(v); err != nil || count < 1 || count > maxCount {
			if maxCount == math.MaxInt {
				return page, count, fmt.Errorf("count must be an integer from 1, got %q", v)
			}
			return page, count, fmt.Errorf("count must be an integer from 1 to %d, got %q", maxCount, v)
		}
	}
	return page, count, nil
}

// paginate returns where page (from 1) of count records lies among total
// (records from up to to), and its pagination metadata. A page past the end
// is empty, however large its number.
func paginate(total, page, count int) (from, to int, p ordermsg.Pagination) {
	from = total
	if page-1 <= total/count { // else (page-1)*count is past the end, or past the largest int
		from = (page - 1) * count
	}
	to = from + min(count, total-from) // never from+count, which a large count overflows
	return from, to, ordermsg.Pagination{
		Total: total, Count: to - from, PerPage: count, CurrentPage: page,
		TotalPages: total/count + min(total%count, 1),
	}
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
