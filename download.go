package ordermsg

import (
	"compress/flate"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ErrLinkExpired is returned (wrapped) by Download and DownloadFile when a
// file's Expires has passed: before the first request, before a retry, or
// when the file host refuses the link with 403 after it expired. No request
// is sent with an expired link.
//
// A link is refreshed by reading its record again: the order with
// OrderIncludeItemsPrintReadyFiles (Orders.Get), or the message with
// MessageIncludeFile (Messages.Get); the file keeps its ID and gets a new URL
// and Expires.
var ErrLinkExpired = errors.New("ordermsg: file link expired")

// ErrNoFile is returned (wrapped) by PrintReadyFile.Downloadable for an
// entry that has no file, as one whose Status is failure.
var ErrNoFile = errors.New("ordermsg: no file to download")

// errFileChanged stops a download whose file changed between attempts, since
// the bytes already written would not belong with the rest.
var errFileChanged = final(errors.New("the file changed on the server during the download"))

// final marks err as one that a retry cannot mend (errNotRetryable) without
// adding to its text. Errors of an attempt say what went wrong only: run
// prefixes them with "ordermsg: GET" and the URL.
func final(err error) error { return &finalError{err: err} }

// finalError is an error marked by final.
type finalError struct{ err error }

func (e *finalError) Error() string   { return e.err.Error() }
func (e *finalError) Unwrap() []error { return []error{e.err, errNotRetryable} }

// errStalled cuts an attempt that received nothing for the attempt timeout.
var errStalled = errors.New("ordermsg: download stalled")

// DefaultMaxDownloadSize is the largest file Download accepts unless
// DownloadOptions.MaxBytes says otherwise: 4 GiB, room for large print PDFs.
const DefaultMaxDownloadSize int64 = 4 << 30

// downloadBufferSize is the one buffer a download copies through, whatever
// the file's size.
const downloadBufferSize = 64 << 10

// downloadBuffers recycles the copy buffers of finished downloads.
var downloadBuffers = sync.Pool{New: func() any {
	b := make([]byte, downloadBufferSize)
	return &b
}}

// DownloadOptions tune Download and DownloadFile. The zero value (or nil)
// gives the defaults.
type DownloadOptions struct {
	// MaxBytes caps the file's size: a larger file (by its announced length
	// or by the bytes that arrive) fails with ErrBodyTooLarge. 0 means
	// DefaultMaxDownloadSize.
	MaxBytes int64
	// Progress, when set, is called with the number of bytes of each write
	// to the destination, from the goroutine of the call.
	Progress func(n int)

	// now is the clock that a link's Expires is compared with; nil means
	// time.Now. Tests set it.
	now func() time.Time
}

// Downloadable returns the entry's file, or an error matching ErrNoFile that
// names the entry and its status when it has none (status failure and file
// null, in the spec's sample). Such an entry is to be reported, not fetched.
func (p *PrintReadyFile) Downloadable() (*File, error) {
	if p.File == nil {
		return nil, fmt.Errorf("%w: print-ready file %d (tag %q) has status %q", ErrNoFile, p.ID, p.Tag, p.Status)
	}
	return p.File, nil
}

// Download streams the file f to w and returns the number of bytes written.
//
// It retries as every call does (see RetryPolicy): a download cut midway is
// resumed with a Range request from the bytes already written, or, when the
// server ignores Range, restarted with those bytes skipped, so that w
// receives every byte once. The length received is checked against the one
// announced (Content-Length or Content-Range); the size is capped by
// DownloadOptions.MaxBytes; memory stays the same whatever the size. An
// attempt that receives nothing for the attempt timeout (WithAttemptTimeout)
// is cut and resumed. When no length is announced (a chunked body), a resume
// asks from the last byte already written, and checks it: a body cut right
// after its last byte then ends as complete, not with a 416.
//
// Download asks for the file as it is (Accept-Encoding: identity). A body
// sent with Content-Encoding gzip all the same (an object stored compressed
// on its host) is decoded, and w gets the file; a cut one is fetched again
// from its start, the bytes already written skipped. Any other encoding is
// an error, never written as the file.
//
// The API key is sent only when f.URL is on the client's own origin (scheme,
// host and port), and never on a redirect to another origin. A link whose
// Expires has passed is not requested: the error matches ErrLinkExpired,
// which says how to get a fresh one.
func (c *Client) Download(ctx context.Context, f *File, w io.Writer, opts *DownloadOptions) (int64, error) {
	if w == nil {
		return 0, invalidArgument("Download: nil writer")
	}
	d, err := c.newDownload(ctx, f, w, opts)
	if err != nil {
		return 0, err
	}
	err = d.run(ctx)
	return d.written, err
}

// download is the state of one Download across its attempts.
type download struct {
	c        *Client
	hc       *http.Client
	f        *File
	u        *url.URL
	w        io.Writer
	maxBytes int64
	now      func() time.Time
	progress func(int)
	k        call // the retry state, shared with the API calls' policy

	written   int64  // bytes given to w
	last      byte   // the last byte given to w, checked when a resume starts before it
	total     int64  // the file's announced length; -1 when not known
	validator string // the first response's strong ETag or Last-Modified
	encoding  string // the Content-Encoding of the bytes written: "" or "gzip"
	rangeFrom int64  // the first byte the attempt's Range asks for; -1 without Range
}

// newDownload checks the caller's input before any request.
func (c *Client) newDownload(ctx context.Context, f *File, w io.Writer, opts *DownloadOptions) (*download, error) {
	if ctx == nil {
		return nil, invalidArgument("nil context")
	}
	if f == nil {
		return nil, invalidArgument("Download: nil file")
	}
	u, err := url.Parse(f.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, invalidArgument("Download: file %d: url %q is not an absolute http(s) URL", f.ID, redactRawURL(f.URL))
	}
	d := &download{c: c, f: f, u: u, w: w, maxBytes: DefaultMaxDownloadSize, now: time.Now, total: -1}
	if opts != nil {
		if opts.MaxBytes < 0 {
			return nil, invalidArgument("DownloadOptions.MaxBytes must not be negative")
		}
		if opts.MaxBytes > 0 {
			d.maxBytes = opts.MaxBytes
		}
		if opts.now != nil {
			d.now = opts.now
		}
		d.progress = opts.Progress
	}
	d.k = call{c: c, url: redactURL(u)}
	d.hc = c.downloadHTTPClient()
	return d, nil
}

// downloadHTTPClient is the client's HTTP client for files: no overall
// timeout (a large file takes the time it takes; stalls are caught instead),
// and a redirect to another origin than the API's loses the Authorization
// header before the client's own redirect policy runs.
func (c *Client) downloadHTTPClient() *http.Client {
	hc := *c.httpClient
	hc.Timeout = 0
	policy := c.httpClient.CheckRedirect
	hc.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if !sameOrigin(req.URL, c.baseURL) {
			req.Header.Del("Authorization")
		}
		return policy(req, via)
	}
	return &hc
}

// checkExpiry refuses a link whose Expires has passed.
func (d *download) checkExpiry() error {
	if exp := d.f.Expires.Time; !exp.IsZero() && !d.now().Before(exp) {
		return fmt.Errorf("%w: file %d expired at %s; read its record again for a fresh link",
			ErrLinkExpired, d.f.ID, exp.Format(time.RFC3339))
	}
	return nil
}

// run makes attempts until the file is complete or an error is final.
func (d *download) run(ctx context.Context) error {
	for {
		if err := d.checkExpiry(); err != nil {
			return err
		}
		before := d.written
		resp, err := d.attempt(ctx)
		if err == nil && resp == nil {
			return nil
		}
		if d.written > before {
			d.k.retries = 0 // progress: a fresh series of retries from here
		}
		var hr *http.Response
		if resp != nil {
			hr = &http.Response{StatusCode: resp.status, Header: resp.header}
		}
		retry, ctxErr := d.k.decideRetry(ctx, hr, err)
		switch {
		case ctxErr != nil:
			return fmt.Errorf("ordermsg: GET %s: %w", d.k.url, ctxErr)
		case !retry && err != nil:
			return fmt.Errorf("ordermsg: GET %s: %w", d.k.url, err)
		case !retry:
			return d.statusError(resp)
		}
		if !waitOrDone(ctx, d.k.wait) {
			return fmt.Errorf("ordermsg: GET %s: %w", d.k.url, ctx.Err())
		}
	}
}

// statusError is the error of a final non-2xx response: an *APIError, which
// also matches ErrLinkExpired when the host refused a link that has expired
// since it was checked.
func (d *download) statusError(resp *response) error {
	apiErr := newAPIError(http.MethodGet, d.k.url, resp)
	if resp.status == http.StatusForbidden {
		if err := d.checkExpiry(); err != nil {
			return fmt.Errorf("%w (%w)", err, apiErr)
		}
	}
	return apiErr
}

// waitOrDone waits d, or less when ctx ends first; it reports whether d passed.
func waitOrDone(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// attempt makes one request. It returns (nil, nil) when the file is complete,
// the response with its (capped) body for a non-2xx status, or an error.
func (d *download) attempt(ctx context.Context) (*response, error) {
	actx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var watchdog *time.Timer
	if t := d.c.attemptTimeout; t > 0 {
		watchdog = time.AfterFunc(t, func() { cancel(errStalled) })
		defer watchdog.Stop()
	}
	resp, err := d.hc.Do(d.request(actx))
	if err != nil {
		return nil, stalledOr(actx, redactURLError(err))
	}
	defer resp.Body.Close()
	// The attempt's context bounds every read of the body, whatever the
	// transport: when it ends, the body is closed under the reader.
	defer context.AfterFunc(actx, func() { resp.Body.Close() })()
	switch {
	case resp.StatusCode == http.StatusRequestedRangeNotSatisfiable && d.total >= 0 && d.written == d.total:
		return nil, nil // the cut came after the last byte
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		// As for the API calls: a 1xx final answer is closed unread, any
		// other body is read up to maxErrorBody.
		if err := d.k.readBody(resp); err != nil {
			return nil, err
		}
		return d.k.resp, nil
	}
	skip, err := d.accept(resp)
	if err != nil {
		return nil, err
	}
	body, err := d.decoded(resp.Body)
	if err == nil {
		err = d.copy(body, skip, watchdog)
	}
	if err != nil {
		return nil, stalledOr(actx, err)
	}
	return nil, nil
}

// stalledOr is errStalled when the watchdog cut the attempt, else err.
func stalledOr(ctx context.Context, err error) error {
	if cause := context.Cause(ctx); errors.Is(cause, errStalled) {
		return &bodyReadError{err: cause}
	}
	return err
}

// request builds the next attempt's request: the API's headers only on the
// API's origin, and a Range from the bytes already written (from the last of
// them when the length is not known) unless they were decoded.
func (d *download) request(ctx context.Context) *http.Request {
	u := *d.u
	req := (&http.Request{Method: http.MethodGet, URL: &u, Host: u.Host, Header: http.Header{}}).WithContext(ctx)
	req.Header.Set("User-Agent", d.c.userAgent)
	// identity: a compressed body has no length to check and no byte ranges
	// of the file to resume from. Set here, it also keeps net/http's
	// Transport from asking for gzip and decoding it unseen.
	req.Header.Set("Accept-Encoding", "identity")
	if sameOrigin(d.u, d.c.baseURL) {
		req.Header.Set("Authorization", d.c.credentials.authorization)
		req.Header.Set(d.c.versionHeader, d.c.versionValue)
	}
	d.rangeFrom = -1
	if d.written > 0 && d.encoding == "" {
		// With no length known, the last byte written is asked for again:
		// a file that was complete answers with that byte (206), not 416.
		d.rangeFrom = d.written
		if d.total < 0 {
			d.rangeFrom--
		}
		req.Header.Set("Range", "bytes="+strconv.FormatInt(d.rangeFrom, 10)+"-")
		if d.validator != "" {
			req.Header.Set("If-Range", d.validator)
		}
	}
	return req
}

// accept checks a 2xx response against what is already written, and returns
// how many bytes of its body to skip (a restart from byte 0 when the server
// ignored Range).
func (d *download) accept(resp *http.Response) (skip int64, err error) {
	v := validatorOf(resp.Header)
	if d.written > 0 && d.validator != "" && v != d.validator {
		return 0, errFileChanged
	}
	if d.written == 0 {
		d.validator = v
	}
	enc, err := d.encodingOf(resp.Header)
	if err != nil {
		return 0, err
	}
	var start, total int64
	switch {
	case resp.StatusCode == http.StatusPartialContent:
		start, total, err = parseContentRange(resp.Header.Get("Content-Range"))
		if err != nil || start != d.rangeFrom || d.rangeFrom < 0 {
			return 0, final(fmt.Errorf("a 206 response for bytes from %d has Content-Range %q",
				d.rangeFrom, resp.Header.Get("Content-Range")))
		}
		skip = d.written - start
	case enc != "":
		// The announced length is the encoded body's: the decoder checks
		// the file's own (gzip's trailer).
		start, total, skip = 0, -1, d.written
	default:
		start, total, skip = 0, resp.ContentLength, d.written
	}
	if total >= 0 {
		if d.total >= 0 && total != d.total {
			return 0, errFileChanged
		}
		if total > d.maxBytes {
			return 0, fmt.Errorf("%w: the file is %d bytes, over the limit of %d", ErrBodyTooLarge, total, d.maxBytes)
		}
		if total < start+skip {
			return 0, final(fmt.Errorf("the file is %d bytes, fewer than the %d already written", total, d.written))
		}
		d.total = total
	}
	d.encoding = enc
	return skip, nil
}

// encodingOf reads a 2xx response's Content-Encoding: "" (none, or
// identity) or "gzip", the one Download decodes. Another is an error, and so
// is a change from the encoding of the bytes already written: the file
// changed, or its host serves it in two forms whose bytes do not line up.
func (d *download) encodingOf(h http.Header) (string, error) {
	enc := strings.ToLower(strings.TrimSpace(strings.Join(h.Values("Content-Encoding"), ",")))
	switch enc {
	case "", "identity":
		enc = ""
	case "gzip", "x-gzip":
		enc = "gzip"
	default:
		return "", final(fmt.Errorf("the body has Content-Encoding %q, which Download does not decode; it is not written as the file", enc))
	}
	if d.written > 0 && enc != d.encoding {
		return "", errFileChanged
	}
	return enc, nil
}

// decoded is the file's bytes in body, as the response's encoding (see
// accept) says.
func (d *download) decoded(body io.Reader) (io.Reader, error) {
	if d.encoding == "" {
		return body, nil
	}
	zr, err := gzip.NewReader(body)
	if err != nil {
		return nil, d.gzipError(err)
	}
	return &gzipBody{zr: zr, d: d}, nil
}

// gzipBody decodes a gzip body, its errors made as gzipError makes them.
type gzipBody struct {
	zr *gzip.Reader
	d  *download
}

func (g *gzipBody) Read(p []byte) (int, error) {
	n, err := g.zr.Read(p)
	if err != nil && err != io.EOF {
		err = g.d.gzipError(err)
	}
	return n, err
}

// gzipError is a failure to decode a gzip body: bytes that are not gzip, or
// whose checksum fails, are an error that is not retried; a body cut short
// (or any other read error) is retried like any cut body.
func (d *download) gzipError(err error) error {
	var corrupt flate.CorruptInputError
	if errors.Is(err, gzip.ErrHeader) || errors.Is(err, gzip.ErrChecksum) || errors.As(err, &corrupt) {
		return final(fmt.Errorf("the body sent with Content-Encoding gzip does not decode: %w", err))
	}
	if err == io.EOF {
		err = io.ErrUnexpectedEOF // no gzip header at all: an empty body
	}
	return &bodyReadError{err: err}
}

// validatorOf is what tells one version of a file from another: a strong
// ETag, else Last-Modified, else "".
func validatorOf(h http.Header) string {
	if etag := h.Get("ETag"); etag != "" && !strings.HasPrefix(etag, "W/") {
		return etag
	}
	return h.Get("Last-Modified")
}

// parseContentRange reads "bytes first-last/total" (total may be "*").
func parseContentRange(v string) (first, total int64, err error) {
	spec, ok := strings.CutPrefix(v, "bytes ")
	rng, size, ok2 := strings.Cut(spec, "/")
	firstS, lastS, ok3 := strings.Cut(rng, "-")
	if !ok || !ok2 || !ok3 {
		return 0, 0, fmt.Errorf("malformed Content-Range %q", v)
	}
	first, err1 := strconv.ParseInt(firstS, 10, 64)
	last, err2 := strconv.ParseInt(lastS, 10, 64)
	total = -1
	var err3 error
	if size != "*" {
		total, err3 = strconv.ParseInt(size, 10, 64)
	}
	if err1 != nil || err2 != nil || err3 != nil || first < 0 || last < first || (total >= 0 && last >= total) {
		return 0, 0, fmt.Errorf("malformed Content-Range %q", v)
	}
	return first, total, nil
}

// copy streams body to the writer through one buffer: skip bytes are read and
// dropped, every read feeds the watchdog, and the count is held to the cap
// and to the announced length.
func (d *download) copy(body io.Reader, skip int64, watchdog *time.Timer) error {
	bp := downloadBuffers.Get().(*[]byte)
	defer downloadBuffers.Put(bp)
	buf := *bp
	for {
		n, rerr := body.Read(buf)
		if n > 0 && watchdog != nil {
			watchdog.Reset(d.c.attemptTimeout)
		}
		chunk := buf[:n]
		if skip > 0 {
			drop := min(skip, int64(len(chunk)))
			skip -= drop
			if skip == 0 && drop > 0 && chunk[drop-1] != d.last {
				return errFileChanged // the byte before the rest is not the one written
			}
			chunk = chunk[drop:]
		}
		if len(chunk) > 0 {
			if d.written+int64(len(chunk)) > d.maxBytes {
				return fmt.Errorf("%w: more than %d bytes", ErrBodyTooLarge, d.maxBytes)
			}
			if d.total >= 0 && d.written+int64(len(chunk)) > d.total {
				return final(fmt.Errorf("more bytes than the %d announced", d.total))
			}
			w, werr := d.w.Write(chunk)
			d.written += int64(w)
			if w > 0 {
				d.last = chunk[w-1]
				if d.progress != nil {
					d.progress(w)
				}
			}
			if werr != nil {
				return final(fmt.Errorf("writing file %d: %w", d.f.ID, werr))
			}
			if w < len(chunk) {
				return final(fmt.Errorf("writing file %d: %w", d.f.ID, io.ErrShortWrite))
			}
		}
		switch {
		case rerr == io.EOF && skip > 0:
			return &bodyReadError{err: io.ErrUnexpectedEOF}
		case rerr == io.EOF && d.total >= 0 && d.written < d.total:
			return &bodyReadError{err: fmt.Errorf("%d of %d bytes: %w", d.written, d.total, io.ErrUnexpectedEOF)}
		case rerr == io.EOF:
			return nil
		case rerr != nil:
			return &bodyReadError{err: rerr}
		}
	}
}

// redactURLError rebuilds the *url.Error that net/http returns, whose text
// shows a URL whole (user info, query: the link's, or a refused redirect's
// Location), with that URL as errors show it. The error under it is kept, for
// errors.Is and errors.As.
func redactURLError(err error) error {
	ue, ok := err.(*url.Error)
	if !ok {
		return err
	}
	return &url.Error{Op: ue.Op, URL: redactRawURL(ue.URL), Err: ue.Err}
}

// redactRawURL is redactURL of a URL in text form; one that does not parse
// is not shown at all.
func redactRawURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(a malformed URL)"
	}
	return redactURL(u)
}

// redactURL is u as errors and logs show it: without user info, query or
// fragment.
func redactURL(u *url.URL) string {
	shown := url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path, RawPath: u.RawPath}
	if u.RawQuery != "" || u.Fragment != "" {
		return shown.String() + "?…"
	}
	return shown.String()
}
