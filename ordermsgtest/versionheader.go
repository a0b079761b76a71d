package ordermsgtest

import (
	"errors"
	"net/http"

	"github.com/ordermsg/ordermsg-go"
)

// WithVersionHeader makes the fake require the version header name with
// value instead of VersionHeader: APIVersion. The spec writes the header as
// Service-Api-Version, where the neutral word Service stands for the maker's
// name: a test of code that sends the real name sets it here. A request
// without the header, or with another value, gets the fake's 400; the
// default header is then not accepted either. Server.Client and
// Handler.Client send it.
//
// The name and value are checked as the SDK checks them
// (ordermsg.CheckVersionHeader). An Option cannot return an error, so one
// that fails the check is kept by the handler: Handler.Client and
// Server.Client return it, and the handler answers every request with a
// 501 Not Implemented whose message is its text, so that a test of any
// client sees it: a server error, as a 500 would be, but one that the SDK
// does not retry, so that the test fails at once.
func WithVersionHeader(name, value string) Option {
	return func(h *Handler) {
		if err := ordermsg.CheckVersionHeader(name, value); err != nil {
			h.configErr = &configError{option: "WithVersionHeader", err: err}
			return
		}
		h.versionName, h.versionValue = http.CanonicalHeaderKey(name), value
	}
}

// configError is the error of an Option given a value it cannot use: the
// option's name, then what is wrong (the SDK's reason, for a version header).
type configError struct {
	option string
	err    error
}

func (e *configError) Error() string {
	reason := e.err.Error()
	var vh *ordermsg.VersionHeaderError
	if errors.As(e.err, &vh) {
		reason = vh.Reason
	}
	return "ordermsgtest: " + e.option + ": " + reason
}

func (e *configError) Unwrap() error { return e.err }

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
