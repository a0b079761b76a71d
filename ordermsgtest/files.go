package ordermsgtest

import (
	"crypto/hmac"
	crand "crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ordermsg/ordermsg-go"
)

// FileLinks says how the fake serves the files of its records. Every file
// (a message's file, a print-ready file) has deterministic content, made
// from its id, served at its url. The url is minted each time a record is
// served, with an expiry of TTL from then: an expired link answers 403, as
// does a link whose signature does not match. Requests for files draw from
// the same fault injection as the API's (WithFaults); FaultCutBody cuts a
// file halfway.
//
// Files are served by the Handler's ServeHTTP (so by Server, or any server
// that mounts the Handler), under /files/; Register's httpmock responder
// serves the API only. A bare Handler mints links on the origin of the
// request that reads the record.
type FileLinks struct {
	// TTL is the lifetime of a link from the moment its record is served;
	// 0 means one hour.
	TTL time.Duration
	// Now is the fake's clock for minting and checking links; nil means
	// time.Now.
	Now func() time.Time
	// Size is the size in bytes of every file; 0 gives each file its own
	// size between 16 KiB and 64 KiB.
	Size int64
	// NoRange makes the file host ignore Range headers and answer every
	// request with the whole file (200), as some hosts do.
	NoRange bool
	// SeparateOrigin serves the files from a second loopback server: another
	// origin (port) than the API's. It takes effect with NewServer.
	SeparateOrigin bool
	// CutAfter cuts the first len(CutAfter) file responses, in the order
	// they are served: response i stops after CutAfter[i] bytes of its body
	// and its connection is closed.
	CutAfter []int64
}

// WithFileLinks sets how files are served (see FileLinks). Without it the
// fake serves files on its own origin with the FileLinks defaults.
func WithFileLinks(fl FileLinks) Option { return func(h *Handler) { h.files = newFileHost(fl) } }

// FileStats counts the requests the file host received.
type FileStats struct {
	Requests int64
	// Authorized counts requests that carried an Authorization header.
	Authorized int64
	// Ranged counts requests that carried a Range header.
	Ranged int64
	// Expired counts requests refused because their link had expired.
	Expired int64
}

// FileStats reports what the file host served so far.
func (h *Handler) FileStats() FileStats {
	f := h.files
	return FileStats{Requests: f.requests.Load(), Authorized: f.authorized.Load(), Ranged: f.ranged.Load(), Expired: f.expired.Load()}
}

// FileContent returns the content the fake serves for the file with the
// given id.
func (h *Handler) FileContent(id int64) []byte {
	b, _ := io.ReadAll(h.files.content(id))
	return b
}

// filesPrefix is the path under which the fake serves files.
const filesPrefix = "/files/"

// fileHost is the fake's file server: it mints links and serves them.
type fileHost struct {
	cfg  FileLinks
	key  []byte
	base string // origin of the links, such as http://127.0.0.1:4567; "" takes the request's

	mu   sync.Mutex
	cuts []int64

	requests, authorized, ranged, expired atomic.Int64
}

func newFileHost(fl FileLinks) *fileHost {
	if fl.TTL <= 0 {
		fl.TTL = time.Hour
	}
	if fl.Now == nil {
		fl.Now = time.Now
	}
	key := make([]byte, 32)
	crand.Read(key)
	return &fileHost{cfg: fl, key: key, cuts: slices.Clone(fl.CutAfter)}
}

// startFileHost gives the links their origin: the API server's URL, or a second
// server's that it starts when FileLinks.SeparateOrigin is set (returned, to
// be closed with the API server).
func (h *Handler) startFileHost(apiURL string) *loopback {
	if !h.files.cfg.SeparateOrigin {
		h.files.base = apiURL
		return nil
	}
	srv := listenLoopback(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Any other path on the file host's own origin is a link with a
		// forged path, which serveFile refuses.
		if !h.serveFileLink(w, r) {
			h.serveFile(w, r)
		}
	}))
	srv.start()
	h.files.base = srv.url
	return srv
}

// withLinks gives the files of a rendered response fresh links. The rendered
// records share their files with the dataset's, so files are copied, never
// changed in place.
func (h *Handler) withLinks(r *http.Request, v any) any {
	base := h.files.base
	if base == "" {
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		base = scheme + "://" + r.Host
	}
	switch x := v.(type) {
	case *ordermsg.Order:
		h.files.linkOrder(base, x)
	case *ordermsg.Message:
		h.files.linkMessage(base, x)
	case *ordermsg.Page[ordermsg.Order]:
		for _, o := range x.Data {
			h.files.linkOrder(base, o)
		}
	case *ordermsg.Page[ordermsg.Message]:
		for _, m := range x.Data {
			h.files.linkMessage(base, m)
		}
	}
	return v
}

func (fh *fileHost) linkOrder(base string, o *ordermsg.Order) {
	for i := range o.Items {
		prfs := slices.Clone(o.Items[i].PrintReadyFiles)
		for j := range prfs {
			if prfs[j].File != nil {
				prfs[j].File = fh.link(base, prfs[j].File)
			}
		}
		o.Items[i].PrintReadyFiles = prfs
	}
}

func (fh *fileHost) linkMessage(base string, m *ordermsg.Message) {
	if m.File.Expanded != nil {
		m.File = ordermsg.ExpandedRef(fh.link(base, m.File.Expanded))
	}
	if m.Order.Expanded != nil {
		fh.linkOrder(base, m.Order.Expanded)
	}
}

// link returns a copy of f with a signed url that expires TTL from now.
func (fh *fileHost) link(base string, f *ordermsg.File) *ordermsg.File {
	out := *f
	exp := fh.cfg.Now().Add(fh.cfg.TTL).Truncate(time.Second).UTC()
	out.Expires = ordermsg.Timestamp{Time: exp}
	out.URL = fmt.Sprintf("%s%s%d/%s?expires=%d&sig=%s", base, filesPrefix, f.ID, url.PathEscape(f.Filename), exp.Unix(), fh.sign(f.ID, exp.Unix()))
	return &out
}

func (fh *fileHost) sign(id, expires int64) string {
	m := hmac.New(sha256.New, fh.key)
	fmt.Fprintf(m, "%d:%d", id, expires)
	return hex.EncodeToString(m.Sum(nil))
}

// size is the size of the file with the given id.
func (fh *fileHost) size(id int64) int64 {
	if fh.cfg.Size > 0 {
		return fh.cfg.Size
	}
	return 16<<10 + (id*7919)%(48<<10)
}

// content is the file's deterministic content.
func (fh *fileHost) content(id int64) io.ReadSeeker {
	c := &fileContent{size: fh.size(id)}
	rng := rand.New(rand.NewPCG(uint64(id), 0x66696c65))
	for i := 0; i < len(c.block); i += 8 {
		v := rng.Uint64()
		for k := range 8 {
			c.block[i+k] = byte(v >> (8 * k))
		}
	}
	return io.NewSectionReader(c, 0, c.size)
}

// fileContent is a file's bytes, made on demand: a 4 KiB block of the id's
// random bytes, each repetition mixed with its index, so that no two blocks
// are alike and a wrong offset shows.
type fileContent struct {
	block [4096]byte
	size  int64
}

func (c *fileContent) ReadAt(p []byte, off int64) (int, error) {
	if off >= c.size {
		return 0, io.EOF
	}
	p = p[:min(int64(len(p)), c.size-off)]
	for n := 0; n < len(p); {
		pos := off + int64(n)
		i := int(pos % int64(len(c.block)))
		k := copy(p[n:], c.block[i:])
		mix := byte(pos / int64(len(c.block)))
		for j := n; j < n+k; j++ {
			p[j] ^= mix
		}
		n += k
	}
	if off+int64(len(p)) == c.size {
		return len(p), io.EOF
	}
	return len(p), nil
}

// nextCut is the body length after which the next response is cut, or -1.
func (fh *fileHost) nextCut() int64 {
	fh.mu.Lock()
	defer fh.mu.Unlock()
	if len(fh.cuts) == 0 {
		return -1
	}
	n := fh.cuts[0]
	fh.cuts = fh.cuts[1:]
	return n
}

// errLinkRefused marks a link the file host does not accept.
var errLinkRefused = errors.New("invalid link")

// check verifies a file link's path and signature, and returns its id and
// expiry.
func (fh *fileHost) check(r *http.Request) (id int64, expires time.Time, err error) {
	id, err = strconv.ParseInt(pathValue(r, "id"), 10, 64)
	q := r.URL.Query()
	exp, err2 := strconv.ParseInt(q.Get("expires"), 10, 64)
	if err != nil || err2 != nil || !hmac.Equal([]byte(q.Get("sig")), []byte(fh.sign(id, exp))) {
		return 0, time.Time{}, errLinkRefused
	}
	return id, time.Unix(exp, 0), nil
}

// serveFileLink serves r with serveFile when its path is a file link's
// (/files/{id}, with the file's name after it), and reports whether it
// was.
func (h *Handler) serveFileLink(w http.ResponseWriter, r *http.Request) bool {
	rr := routable(r, r.URL.Path)
	if _, pattern := h.fileRoutes.Handler(rr); pattern == "" {
		return false
	}
	h.fileRoutes.ServeHTTP(w, rr)
	return true
}

// serveFile serves a file link: faults first, as the API routes draw them;
// then the link's checks; then the content, with Range unless switched off.
func (h *Handler) serveFile(w http.ResponseWriter, r *http.Request) {
	fh := h.files
	fh.requests.Add(1)
	if r.Header.Get("Authorization") != "" {
		fh.authorized.Add(1)
	}
	if r.Header.Get("Range") != "" {
		fh.ranged.Add(1)
	}
	fault := h.faults.next()
	delay := h.latency
	if fault == FaultSlow {
		delay += h.faults.cfg.SlowDelay
	}
	if !sleep(r.Context(), delay) {
		return
	}
	switch fault {
	case FaultRateLimit:
		rep := errorReply(http.StatusTooManyRequests, "rate limited (injected fault)")
		rep.header.Set("Retry-After", strconv.Itoa(int(h.faults.cfg.RetryAfter/time.Second)))
		writeReply(w, rep)
		return
	case FaultServerError:
		writeReply(w, errorReply(http.StatusInternalServerError, "internal error (injected fault)"))
		return
	case FaultUnavailable:
		writeReply(w, errorReply(http.StatusServiceUnavailable, "unavailable (injected fault)"))
		return
	case FaultDrop:
		hangUp(w)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		writeReply(w, errorReply(http.StatusMethodNotAllowed, "files are read with GET"))
		return
	}
	id, expires, err := fh.check(r)
	if err != nil {
		writeReply(w, errorReply(http.StatusForbidden, "%v", err))
		return
	}
	if !fh.cfg.Now().Before(expires) {
		fh.expired.Add(1)
		writeReply(w, errorReply(http.StatusForbidden, "link expired at %s", expires.UTC().Format(time.RFC3339)))
		return
	}
	if fh.cfg.NoRange {
		r.Header.Del("Range")
		r.Header.Del("If-Range")
	}
	cut := fh.size(id) / 2
	if fault != FaultCutBody {
		cut = fh.nextCut()
	}
	out := w
	if cut >= 0 {
		out = &cutWriter{ResponseWriter: w, left: cut}
	}
	w.Header().Set("Content-Type", "application/pdf")
	w.Header().Set("ETag", fmt.Sprintf(`"%d-%d"`, id, fh.size(id)))
	http.ServeContent(out, r, "", epoch, fh.content(id))
	if cut >= 0 {
		// The connection of a cut response closes after what was sent.
		w.(http.Flusher).Flush()
		hangUp(w)
	}
}

// cutWriter passes the first left bytes of a body, then fails.
type cutWriter struct {
	http.ResponseWriter
	left int64
}

var errCut = errors.New("ordermsgtest: response cut (injected)")

func (c *cutWriter) Write(p []byte) (int, error) {
	if int64(len(p)) > c.left {
		n, _ := c.ResponseWriter.Write(p[:c.left])
		c.left = 0
		return n, errCut
	}
	c.left -= int64(len(p))
	return c.ResponseWriter.Write(p)
}

// hangUp closes the connection under w, after what was written so far.
func hangUp(w http.ResponseWriter) {
	if conn, buf, err := w.(http.Hijacker).Hijack(); err == nil {
		buf.Flush()
		conn.Close()
	}
}
