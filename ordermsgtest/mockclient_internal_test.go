package ordermsgtest

import (
	"net/http"
	"strings"
	"testing"
)

// Handler.Client's transport answers a GET under MockBaseURL from the
// handler and refuses any other request, as an httpmock transport with
// Register's responder alone does.
func TestClientTransportAnswersOnlyTheFake(t *testing.T) {
	h := NewHandler(Generate(Config{Seed: 7, Websites: 1, OrdersPerWebsite: 3, MessagesPerWebsite: 3}))
	c := &http.Client{Transport: inProcess{under: under(MockBaseURL), respond: h.responder(MockBaseURL)}}
	resp, err := c.Get(MockBaseURL + "/websites/1/orders")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || resp.Request == nil || resp.ContentLength <= 0 {
		t.Fatalf("a request without a key: %d, request %v, length %d; want the fake's 401", resp.StatusCode, resp.Request, resp.ContentLength)
	}
	for _, r := range []struct{ method, url string }{
		{http.MethodGet, "https://elsewhere.invalid/websites/1/orders"},
		{http.MethodGet, MockBaseURL + ".evil.example/websites/1/orders"},
		{http.MethodPost, MockBaseURL + "/websites/1/orders"},
	} {
		req, _ := http.NewRequest(r.method, r.url, strings.NewReader("{}"))
		if _, err := c.Do(req); err == nil || !strings.Contains(err.Error(), "ordermsgtest: the fake does not answer "+r.method+" "+r.url) {
			t.Errorf("%s %s: %v; want the transport's refusal", r.method, r.url, err)
		}
	}
	if got := h.Stats().Requests; got != 1 {
		t.Fatalf("the handler served %d requests; want 1", got)
	}
}
