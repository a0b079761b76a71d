package ordermsgtest_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/jarcoal/httpmock"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// The responders are httpmock.Responders, with httpmock's methods, though
// the package does not import httpmock (see MockTransport).
func TestRespondersAreHTTPMockResponders(t *testing.T) {
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder(http.MethodGet, mockBase+"/websites/1/orders/7",
		httpmock.Responder(ordermsgtest.ErrorResponder(http.StatusNotFound, "gone")).Times(1))
	c := mockClient(t, mt)
	ctx := context.Background()
	if _, err := c.Orders.Get(ctx, 1, 7, nil); err == nil || !strings.Contains(err.Error(), "gone") {
		t.Fatalf("first call: %v; want the responder's 404", err)
	}
	if _, err := c.Orders.Get(ctx, 1, 7, nil); err == nil || strings.Contains(err.Error(), "gone") {
		t.Fatalf("second call: %v; want httpmock's error for a responder used up", err)
	}
}

// transportLike has every method of MockTransport but is no httpmock
// transport.
type transportLike struct{ http.RoundTripper }

func (transportLike) NumResponders() int               { return 0 }
func (transportLike) Responders() []string             { return nil }
func (transportLike) GetCallCountInfo() map[string]int { return nil }
func (transportLike) GetTotalCallCount() int           { return 0 }
func (transportLike) ZeroCallCounters()                {}
func (transportLike) Reset()                           {}

// Register on a transport that is not httpmock's panics, naming the type,
// instead of leaving a test with a transport that answers nothing.
func TestRegisterRefusesAnotherTransport(t *testing.T) {
	defer func() {
		msg, _ := recover().(string)
		if !strings.Contains(msg, "ordermsgtest: Register: ordermsgtest_test.transportLike is not an *httpmock.MockTransport") {
			t.Fatalf("panic %q; want Register's about the transport", msg)
		}
	}()
	ordermsgtest.NewHandler(ordermsgtest.Generate(small)).Register(transportLike{}, mockBase)
}
