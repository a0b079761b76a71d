package ordermsgtest

import (
	"fmt"
	"net/http"
	"regexp"

	"github.com/ordermsg/ordermsg-go"
)

// MockBaseURL is the base URL of the client Handler.Client returns. Nothing
// listens there: its requests go to a transport in the process.
const MockBaseURL = "https://ordermsgtest.invalid"

// Client returns an SDK client whose requests the handler answers through
// a transport in the process, as Register makes an httpmock transport
// answer them at MockBaseURL: no port, no network. It is authenticated as
// the first website's account and sends the version header the handler
// requires; opts are added after these, so an option of the caller's wins
// (WithHTTPClient replaces the transport). Handler.Stats counts the
// requests it served. It returns the error of an Option the handler could
// not use (see WithVersionHeader).
func (h *Handler) Client(opts ...ordermsg.Option) (*ordermsg.Client, error) {
	if h.configErr != nil {
		return nil, h.configErr
	}
	t := inProcess{under: under(MockBaseURL), respond: h.responder(MockBaseURL)}
	all := append([]ordermsg.Option{ordermsg.WithHTTPClient(&http.Client{Transport: t})}, h.clientOptions(opts)...)
	return ordermsg.NewClient(MockBaseURL, h.ds.Websites[0].APIKey, all...)
}

// inProcess is the transport of Handler.Client: it answers a GET of a URL
// that under matches with respond, and any other request with an error, as
// an httpmock transport without a responder for it does.
type inProcess struct {
	under   *regexp.Regexp
	respond func(*http.Request) (*http.Response, error)
}

func (t inProcess) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		r.Body.Close()
	}
	if err := r.Context().Err(); err != nil {
		return nil, err
	}
	if r.Method != http.MethodGet || !t.under.MatchString(r.URL.Scheme+"://"+r.URL.Host+r.URL.Path) {
		return nil, fmt.Errorf("ordermsgtest: the fake does not answer %s %s", r.Method, r.URL.Redacted())
	}
	resp, err := t.respond(r)
	if resp != nil {
		resp.Request = r
	}
	return resp, err
}
