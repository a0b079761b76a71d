package ordermsg

import (
	"cmp"
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
	"time"

	"github.com/ordermsg/ordermsg-go/internal/safefile"
	"github.com/ordermsg/ordermsg-go/internal/urls"
)

// errFileChanged stops a download whose file changed between attempts: the
// bytes already written would not belong with the rest.
var errFileChanged = final(errors.New("the file changed on the server during the download"))

// DefaultMaxDownloadSize is the largest file Download accepts unless
// DownloadOptions.MaxBytes says otherwise: 4 GiB, room for large print PDFs.
const DefaultMaxDownloadSize int64 = 4 << 30

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

	now func() time.Time // compared with a link's Expires; nil means time.Now (tests set it)
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
// is cut and resumed.
//
// Download asks for the file as it is (Accept-Encoding: identity); a body
// sent gzipped all the same is decoded, and a cut one fetched again from its
// start, the bytes already written skipped. Any other encoding is an error.
//
// The API key is sent only when f.URL is on the client's own origin (scheme,
// host and port), and never on a redirect to another origin. A link whose
// Expires has passed is not requested: the error matches ErrLinkExpired,
// which says how to get a fresh one.
func (c *Client) Download(ctx context.Context, f *File, w io.Writer, opts *DownloadOptions) (int64, error) {
	switch {
	case w == nil:
		return 0, invalidArgument("Download: nil writer")
	case ctx == nil:
		return 0, invalidArgument("nil context")
	case f == nil:
		return 0, invalidArgument("Download: nil file")
	}
	u, err := url.Parse(f.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return 0, invalidArgument("Download: file %d: url %q is not an absolute http(s) URL", f.ID, urls.RedactRaw(f.URL))
	}
	o := cmp.Or(opts, &DownloadOptions{})
	if o.MaxBytes < 0 {
		return 0, invalidArgument("DownloadOptions.MaxBytes must not be negative")
	}
	d := &download{c: c, f: f, u: u, w: w, maxBytes: cmp.Or(o.MaxBytes, DefaultMaxDownloadSize),
		now: o.now, progress: o.Progress, total: -1}
	if d.now == nil {
		d.now = time.Now
	}
	ctx, watch := c.watch(ctx, &downloadOperation)
	err = d.run(ctx, watch)
	watch.done(0, err)
	return d.written, err
}

// download is the state of one Download across its attempts.
type download struct {
	c        *Client
	f        *File
	u        *url.URL
	w        io.Writer
	maxBytes int64
	now      func() time.Time
	progress func(int)

	written   int64  // bytes given to w
	last      byte   // the last byte given to w, checked when a resume starts before it
	total     int64  // the file's announced length; -1 when not known
	validator string // the first response's strong ETag or Last-Modified
	encoding  string // the Content-Encoding of the bytes written: "" or "gzip"
	rangeFrom int64  // the first byte the attempt's Range asks for; -1 without Range
}

// checkExpiry refuses a link whose Expires has passed; refused is the host's
// *APIError that made the check, or nil before a request.
func (d *download) checkExpiry(refused error) error {
	if exp := d.f.Expires.Time; !exp.IsZero() && !d.now().Before(exp) {
		return &linkExpiredError{file: d.f.ID, expires: exp, refused: refused}
	}
	return nil
}

// run builds the request and sends it through the client's request path
// for downloads (getFile), which readies each attempt with prepare and
// hands each answer to receive; w watches the call.
func (d *download) run(ctx context.Context, w *callWatch) error {
	hreq := (&http.Request{Method: http.MethodGet, URL: d.u, Host: d.u.Host, Header: http.Header{}}).WithContext(ctx)
	hreq.Header.Set("User-Agent", d.c.userAgent)
	// identity: a compressed body has no length to check nor ranges to resume
	// from. Set here, it also keeps net/http from asking for gzip unseen.
	hreq.Header.Set("Accept-Encoding", "identity")
	if urls.SameOrigin(d.u, d.c.baseURL) {
		hreq.Header.Set("Authorization", d.c.credentials.authorization)
		hreq.Header.Set(d.c.versionHeader, d.c.versionValue)
	}
	return d.c.getFile(ctx, w, hreq, urls.Redact(d.u), d.prepare, d.receive)
}

// prepare readies each attempt's request, the first included: an expired
// link is not requested, and a Range asks for the bytes not yet written,
// unless those were decoded.
func (d *download) prepare(req *http.Request) error {
	if err := d.checkExpiry(nil); err != nil {
		return err
	}
	req.Header = req.Header.Clone() // the last attempt's request may still hold the map
	req.Header.Del("Range")
	req.Header.Del("If-Range")
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
	return nil
}

// receive reads an attempt's answer: it writes the bytes of a 2xx answer
// that the file still needs, and returns any other answer as an *APIError
// (a 403 for a link that expired since it was checked matches
// ErrLinkExpired too). An attempt cut after it wrote bytes returns a
// *resumeError: a new series of retries resumes it (see getFile).
func (d *download) receive(resp *http.Response) error {
	if resp.StatusCode == http.StatusRequestedRangeNotSatisfiable && d.total >= 0 && d.written == d.total {
		resp.Body.Close()
		return nil // the cut came after the last byte
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		status, body, err := readBody(resp, maxErrorBody, nil)
		if err != nil {
			return err
		}
		apiErr := newAPIError(http.MethodGet, urls.Redact(d.u), status, resp.Header, body)
		if status == http.StatusForbidden {
			if err := d.checkExpiry(apiErr); err != nil {
				return err
			}
		}
		return apiErr
	}
	defer resp.Body.Close()
	before := d.written
	skip, err := d.accept(resp)
	if err != nil {
		return err
	}
	var body io.Reader = resp.Body
	if d.encoding != "" {
		zr, err := gzip.NewReader(resp.Body)
		if err != nil {
			return gzipError(err)
		}
		body = zr
	}
	err = d.copy(body, skip)
	if cut := new(bodyReadError); d.written > before && errors.As(err, &cut) {
		return &resumeError{err: err}
	}
	return err
}

// accept checks a 2xx response against what is already written, and returns
// how many bytes of its body to skip (a restart from byte 0 when the server
// ignored Range).
func (d *download) accept(resp *http.Response) (skip int64, err error) {
	v := resp.Header.Get("ETag") // what tells one version of the file from another
	if v == "" || strings.HasPrefix(v, "W/") {
		v = resp.Header.Get("Last-Modified")
	}
	if d.written > 0 && d.validator != "" && v != d.validator {
		return 0, errFileChanged
	}
	if d.written == 0 {
		d.validator = v
	}
	// gzip is the one encoding decoded. A change of encoding between attempts
	// is the file changing, or its host serving two forms whose bytes differ.
	enc := strings.ToLower(strings.TrimSpace(strings.Join(resp.Header.Values("Content-Encoding"), ",")))
	switch enc {
	case "", "identity":
		enc = ""
	case "gzip", "x-gzip":
		enc = "gzip"
	default:
		return 0, final(fmt.Errorf("the body has Content-Encoding %q, which Download does not decode; it is not written as the file", enc))
	}
	if d.written > 0 && enc != d.encoding {
		return 0, errFileChanged
	}
	var start, total int64
	switch {
	case resp.StatusCode == http.StatusPartialContent:
		start, total, err = parseContentRange(resp.Header.Get("Content-Range"))
		if err != nil || start != d.rangeFrom {
			return 0, final(fmt.Errorf("a 206 response for bytes from %d has Content-Range %q",
				d.rangeFrom, resp.Header.Get("Content-Range")))
		}
		skip = d.written - start
	case enc != "":
		// The announced length is the encoded body's: gzip's trailer checks the file's.
		start, total, skip = 0, -1, d.written
	default:
		start, total, skip = 0, resp.ContentLength, d.written
	}
	if total >= 0 {
		if d.total >= 0 && total != d.total {
			return 0, errFileChanged
		}
		if total > d.maxBytes {
			return 0, bodyTooLarge("the file is %d bytes, over the limit of %d", total, d.maxBytes)
		}
		if total < start+skip {
			return 0, final(fmt.Errorf("the file is %d bytes, fewer than the %d already written", total, d.written))
		}
		d.total = total
	}
	d.encoding = enc
	return skip, nil
}

// gzipError is a failure to decode a gzip body: bytes that are not gzip, or
// whose checksum fails, are not retried; a body cut short (or any other read
// error) is retried like any cut body.
func gzipError(err error) error {
	var corrupt flate.CorruptInputError
	if errors.Is(err, gzip.ErrHeader) || errors.Is(err, gzip.ErrChecksum) || errors.As(err, &corrupt) {
		return final(fmt.Errorf("the body sent with Content-Encoding gzip does not decode: %w", err))
	}
	if err == io.EOF {
		err = io.ErrUnexpectedEOF // no gzip header at all: an empty body
	}
	return &bodyReadError{err: err}
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

// copyBufferSize is the size of the one buffer an attempt copies through,
// whatever the file's size.
const copyBufferSize = 64 << 10

// copy streams body to the writer through one buffer: skip bytes are read and
// dropped, and the count is held to the cap and to the announced length.
func (d *download) copy(body io.Reader, skip int64) error {
	buf := make([]byte, copyBufferSize)
	for {
		n, rerr := body.Read(buf)
		chunk := buf[:n]
		if skip > 0 {
			drop := min(skip, int64(len(chunk)))
			skip -= drop
			if skip == 0 && chunk[drop-1] != d.last {
				return errFileChanged // the byte before the rest is not the one written
			}
			chunk = chunk[drop:]
		}
		if len(chunk) > 0 {
			if d.written+int64(len(chunk)) > d.maxBytes {
				return bodyTooLarge("more than %d bytes", d.maxBytes)
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
		case rerr != nil && d.encoding != "":
			return gzipError(rerr)
		case rerr != nil:
			return &bodyReadError{err: rerr}
		}
	}
}

// DownloadFile downloads the file f (see Download) to path, the way a shell
// redirect writes a file, and returns the number of bytes written.
//
// A regular file (new, or replacing an old one) is written atomically: the
// bytes go to a temporary file beside it, which is renamed to path only when
// the download is complete, so path never holds part of a file and a failed
// download leaves nothing behind. A new file gets mode 0666 less the umask; a
// replaced one keeps its mode. A symlink is followed and its target replaced,
// found the way the kernel finds it (through symlinked folders and ".." in
// the path or the link); a device or a FIFO (also through a symlink, such as
// /dev/stdout) is written through, in place, and the wait for a FIFO's
// reader ends with ctx.
func (c *Client) DownloadFile(ctx context.Context, f *File, path string, opts *DownloadOptions) (int64, error) {
	if path == "" {
		return 0, invalidArgument("DownloadFile: empty path")
	}
	out, err := safefile.Open(ctx, path)
	if err != nil {
		return 0, fmt.Errorf("ordermsg: DownloadFile: %w", err)
	}
	n, err := c.Download(ctx, f, out, opts)
	if err != nil {
		out.Discard()
		return n, err
	}
	if err := out.Commit(); err != nil {
		return n, fmt.Errorf("ordermsg: DownloadFile: %w", err)
	}
	return n, nil
}
