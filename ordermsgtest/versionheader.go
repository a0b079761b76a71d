package ordermsgtest

import (
	"net/http"

	"github.com/ordermsg/ordermsg-go"
)

// WithVersionHeader makes the fake require the version header name with
// value instead of VersionHeader: APIVersion. The spec writes the header as
// Service-Api-Version, where the neutral word Service stands for the maker's
// name: a test of code that sends the real name sets it here. A request
// without the header, or with another value, gets the fake's 400; the
// default header is then not accepted either. Server.Client and
// Handler.Client send it. An empty name or value keeps the default.
func WithVersionHeader(name, value string) Option {
	return func(h *Handler) {
		if name != "" && value != "" {
			h.versionName, h.versionValue = http.CanonicalHeaderKey(name), value
		}
	}
}

// VersionHeader returns the name and value of the version header the
// handler requires: VersionHeader and APIVersion unless WithVersionHeader
// set others.
func (h *Handler) VersionHeader() (name, value string) { return h.versionName, h.versionValue }

// clientOptions are the SDK options a client of h needs before the
// caller's own: the version header h requires.
func (h *Handler) clientOptions(opts []ordermsg.Option) []ordermsg.Option {
	return append([]ordermsg.Option{ordermsg.WithVersionHeader(h.versionName, h.versionValue)}, opts...)
}

// documented returns r's header as the API's description names it: the
// header the handler requires under the spec's name, VersionHeader, so
// that an exchange logged for the contract check (internal/exchangelog) reads
// the same whatever name WithVersionHeader gave.
func (h *Handler) documented(r *http.Request) *http.Request {
	if h.versionName == VersionHeader {
		return r
	}
	d := r.Clone(r.Context())
	d.Header.Del(VersionHeader)
	if v, ok := d.Header[h.versionName]; ok {
		d.Header[VersionHeader] = v
		delete(d.Header, h.versionName)
	}
	return d
}
