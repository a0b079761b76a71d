package ordermsgtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/internal/exchangelog"
)

// Stats reports the requests served and the faults injected so far.
func (h *Handler) Stats() Stats { return h.faults.stats() }

// decide computes the reply to r: the OpenAPI document, or the reply of
// answerWithFaults. It returns false when the request's context ended while waiting.
func (h *Handler) decide(r *http.Request) (reply, bool) {
	return serve(h.front, r, r.URL.Path)
}

// answerWithFaults draws the request's fault and computes its reply, after
// the handler's latency (and a slow fault's delay), and logs the exchange
// (see internal/exchangelog). It is the front router's route for every
// request but the OpenAPI document's.
func (h *Handler) answerWithFaults(w http.ResponseWriter, _ *http.Request) {
	rw := w.(*replyWriter)
	r := rw.req
	fault := h.faults.next()
	delay := h.latency
	if fault == FaultSlow {
		delay += h.faults.cfg.SlowDelay
	}
	if !sleep(r.Context(), delay) {
		return
	}
	var rep reply
	switch fault {
	case FaultRateLimit:
		rep = errorReply(http.StatusTooManyRequests, "rate limited (injected fault)")
		rep.header.Set("Retry-After", strconv.Itoa(int(h.faults.cfg.RetryAfter/time.Second)))
	case FaultServerError:
		rep = errorReply(http.StatusInternalServerError, "internal error (injected fault)")
	case FaultUnavailable:
		rep = errorReply(http.StatusServiceUnavailable, "unavailable (injected fault)")
	default:
		rep = h.answer(r)
	}
	rep.fault = fault
	if log := exchangelog.Current(); log != nil {
		log.Record(logged(h.documented(r), rep))
	}
	rw.reply(rep)
}

func sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// ServeHTTP answers r as the API would, or with an injected fault.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h.serveFileLink(w, r) {
		return
	}
	rep, ok := h.decide(r)
	if !ok {
		return
	}
	switch rep.fault {
	case FaultDrop:
		hangUp(w)
		return
	case FaultCutBody:
		if conn, buf, err := w.(http.Hijacker).Hijack(); err == nil {
			fmt.Fprintf(buf, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", len(rep.body))
			buf.Write(rep.body[:len(rep.body)/2])
			buf.Flush()
			conn.Close()
		}
		return
	}
	writeReply(w, rep)
}

// writeReply writes rep as the response.
func writeReply(w http.ResponseWriter, rep reply) {
	for k, v := range rep.header {
		w.Header()[k] = v
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(rep.body)))
	w.WriteHeader(rep.status)
	w.Write(rep.body)
}

// errInjectedDrop is what a transport in the process (Register's httpmock
// transport, Handler.Client's) returns for FaultDrop.
var errInjectedDrop = errors.New("ordermsgtest: connection reset (injected fault)")

// MockTransport is the *httpmock.MockTransport that Handler.Register
// installs a handler on. It is an interface, of methods of
// *httpmock.MockTransport that name no httpmock type, so that this package
// does not import httpmock, which links the testing package into every
// program that imports the fake (such as the ordermsg command, whose serve
// runs it). Register calls the transport's RegisterRegexpResponder.
type MockTransport interface {
	http.RoundTripper
	NumResponders() int
	Responders() []string
	GetCallCountInfo() map[string]int
	GetTotalCallCount() int
	ZeroCallCounters()
	Reset()
}

// Register makes mt, an *httpmock.MockTransport, answer every GET under
// baseURL (such as "https://api.example.com") from h, faults included: a
// dropped connection is a transport error and a cut body ends in
// io.ErrUnexpectedEOF. It panics when mt has no method
// RegisterRegexpResponder(string, *regexp.Regexp, httpmock.Responder).
func (h *Handler) Register(mt MockTransport, baseURL string) {
	base := strings.TrimRight(baseURL, "/")
	pattern, respond := under(base), h.responder(base)
	register := reflect.ValueOf(mt).MethodByName("RegisterRegexpResponder")
	if !register.IsValid() || register.Type().NumIn() != 3 || register.Type().NumOut() != 0 ||
		register.Type().In(0) != reflect.TypeFor[string]() || register.Type().In(1) != reflect.TypeFor[*regexp.Regexp]() ||
		!reflect.TypeOf(respond).ConvertibleTo(register.Type().In(2)) {
		panic(fmt.Sprintf("ordermsgtest: Register: %T is not an *httpmock.MockTransport: it has no method RegisterRegexpResponder(string, *regexp.Regexp, httpmock.Responder)", mt))
	}
	register.Call([]reflect.Value{reflect.ValueOf(http.MethodGet), reflect.ValueOf(pattern), reflect.ValueOf(respond).Convert(register.Type().In(2))})
}

// under matches the URLs under base (a base URL without a trailing slash).
func under(base string) *regexp.Regexp {
	return regexp.MustCompile("^" + regexp.QuoteMeta(base) + "(/.*)?$")
}

// responder answers a request for a URL under base from h, faults
// included: a dropped connection is a transport error and a cut body ends
// in io.ErrUnexpectedEOF.
func (h *Handler) responder(base string) func(*http.Request) (*http.Response, error) {
	return func(r *http.Request) (*http.Response, error) {
		inner := r.Clone(r.Context())
		inner.URL.Path = strings.TrimPrefix(r.URL.Path, basePath(base))
		rep, ok := h.decide(inner)
		if !ok {
			return nil, r.Context().Err()
		}
		switch rep.fault {
		case FaultDrop:
			return nil, errInjectedDrop
		case FaultCutBody:
			resp := reply{status: http.StatusOK, header: http.Header{}}.response()
			resp.Body = io.NopCloser(io.MultiReader(bytes.NewReader(rep.body[:len(rep.body)/2]), errReader{io.ErrUnexpectedEOF}))
			resp.ContentLength = int64(len(rep.body))
			return resp, nil
		}
		return rep.response(), nil
	}
}

// response returns rep as the response of a transport in the process.
func (rep reply) response() *http.Response {
	header := make(http.Header, len(rep.header))
	for k, v := range rep.header {
		header[k] = v
	}
	return &http.Response{
		Status:     fmt.Sprintf("%03d %s", rep.status, http.StatusText(rep.status)),
		StatusCode: rep.status, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: header, Body: io.NopCloser(bytes.NewReader(rep.body)), ContentLength: int64(len(rep.body)),
	}
}

// basePath returns the path part of a base URL ("/api/v1" of
// "https://host/api/v1"), or "".
func basePath(base string) string {
	i := strings.Index(base, "://")
	if i < 0 {
		return ""
	}
	rest := base[i+3:]
	if j := strings.IndexByte(rest, '/'); j >= 0 {
		return rest[j:]
	}
	return ""
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// Server is the fake service on a loopback port, in the manner of
// httptest.Server. Close it when done.
type Server struct {
	// URL is the base URL, such as http://127.0.0.1:41234.
	URL string
	// APIKey is the key of the first website's account.
	APIKey string
	// WebsiteID is the first website's id.
	WebsiteID int64
	// Handler serves the requests; its Dataset holds the records.
	Handler *Handler
	// FilesURL is the origin of the file links: URL, or a second server's
	// with FileLinks.SeparateOrigin.
	FilesURL string

	srv, files *loopback
}

// NewServer starts a fake service for ds (nil: Generate(DefaultConfig()))
// on a loopback port.
func NewServer(ds *Dataset, opts ...Option) *Server {
	h := NewHandler(ds, opts...)
	// The file links' origin is fixed before the first request can read it.
	srv := listenLoopback(h)
	files := h.startFileHost(srv.url)
	srv.start()
	first := h.ds.Websites[0]
	return &Server{URL: srv.url, APIKey: first.APIKey, WebsiteID: first.ID, Handler: h, FilesURL: h.files.base, srv: srv, files: files}
}

// Close shuts the server down and waits for its requests to finish.
func (s *Server) Close() {
	s.srv.close()
	if s.files != nil {
		s.files.close()
	}
}

// Client returns an SDK client for the server, authenticated as the first
// website's account and sending the version header the server requires
// (see WithVersionHeader); opts are added after the server's own. It
// returns the error of an Option the server's handler could not use.
func (s *Server) Client(opts ...ordermsg.Option) (*ordermsg.Client, error) {
	if s.Handler.configErr != nil {
		return nil, s.Handler.configErr
	}
	return ordermsg.NewClient(s.URL, s.APIKey, s.Handler.clientOptions(opts)...)
}
