package ordermsgtest

import (
	"net/http"

	"github.com/jarcoal/httpmock"
	"github.com/ordermsg/ordermsg-go"
)

// MockBaseURL is the base URL of the client Handler.Client returns. Nothing
// listens there: its requests go to an httpmock transport.
const MockBaseURL = "https://ordermsgtest.invalid"

// Client returns an SDK client whose requests the handler answers through
// a new httpmock transport, registered (Register) at MockBaseURL: no port,
// no network. It is authenticated as the first website's account and sends
// the version header the handler requires; opts are added after these, so
// an option of the caller's wins (WithHTTPClient replaces the transport).
// Handler.Stats counts the requests it served. It returns the error of an
// Option the handler could not use (see WithVersionHeader).
func (h *Handler) Client(opts ...ordermsg.Option) (*ordermsg.Client, error) {
	if h.configErr != nil {
		return nil, h.configErr
	}
	mt := httpmock.NewMockTransport()
	h.Register(mt, MockBaseURL)
	all := append([]ordermsg.Option{ordermsg.WithHTTPClient(&http.Client{Transport: mt})}, h.clientOptions(opts)...)
	return ordermsg.NewClient(MockBaseURL, h.ds.Websites[0].APIKey, all...)
}
