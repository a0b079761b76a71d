package ordermsgtest

import (
	"net/http/httptest"
	"testing"
)

// An exchange logged for the contract check names the required header as
// the API's description does, whatever WithVersionHeader called it.
func TestLoggedExchangeNamesTheDocumentedHeader(t *testing.T) {
	h := NewHandler(Generate(Config{Seed: 1, Websites: 1, OrdersPerWebsite: 1, MessagesPerWebsite: 1}), WithVersionHeader("Acme-Api-Version", "1"))
	r := httptest.NewRequest("GET", "/websites/1/orders", nil)
	r.Header.Set("Acme-Api-Version", "1")
	d := h.documented(r)
	if got := d.Header.Get(VersionHeader); got != "1" || d.Header.Get("Acme-Api-Version") != "" {
		t.Errorf("logged header %v", d.Header)
	}
	if r.Header.Get("Acme-Api-Version") != "1" {
		t.Error("the request itself was changed")
	}
}
