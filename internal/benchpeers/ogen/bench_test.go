package ogenpeer

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/internal/benchpeers/ogen/ogenclient"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// staticTransport answers every request with the same body, in memory.
type staticTransport struct{ body []byte }

func (s staticTransport) RoundTrip(*http.Request) (*http.Response, error) {
	return &http.Response{
		StatusCode:    200,
		Header:        http.Header{"Content-Type": {"application/json"}},
		Body:          io.NopCloser(bytes.NewReader(s.body)),
		ContentLength: int64(len(s.body)),
	}, nil
}

// key is ogen's security source: the API key as the basic-auth user name.
type key struct{}

func (key) BasicAuth(context.Context, ogenclient.OperationName) (ogenclient.BasicAuth, error) {
	return ogenclient.BasicAuth{Username: "k"}, nil
}

// page is one of the two pages both clients decode: 100 records with every
// include, as the fake serves them.
type page struct {
	name string
	body []byte
	sdk  func(context.Context, *ordermsg.Client) (int, error)
	ogen func(context.Context, *ogenclient.Client) (int, error)
}

func pages(tb testing.TB) []page {
	tb.Helper()
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 9, Websites: 1, OrdersPerWebsite: 100}))
	defer srv.Close()
	fetch := func(resource string, includes []string) []byte {
		q := url.Values{"count": {"100"}, "includes": {strings.Join(includes, ",")}}
		req, err := http.NewRequest(http.MethodGet, fmt.Sprintf("%s/websites/%d/%s?%s", srv.URL, srv.WebsiteID, resource, q.Encode()), nil)
		if err != nil {
			tb.Fatal(err)
		}
		req.SetBasicAuth(srv.APIKey, "")
		req.Header.Set("Service-Api-Version", "1")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			tb.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != http.StatusOK {
			tb.Fatalf("GET %s: %d %v", resource, resp.StatusCode, err)
		}
		return body
	}
	var orderIncludes, messageIncludes []string
	for _, inc := range ordermsg.AllOrderIncludes() {
		orderIncludes = append(orderIncludes, string(inc))
	}
	for _, inc := range ordermsg.AllMessageIncludes() {
		messageIncludes = append(messageIncludes, string(inc))
	}
	return []page{{
		name: "orders",
		body: fetch("orders", orderIncludes),
		sdk: func(ctx context.Context, c *ordermsg.Client) (int, error) {
			p, err := c.Orders.List(ctx, 1, &ordermsg.ListOrdersOptions{Count: 100, Includes: ordermsg.AllOrderIncludes()})
			if err != nil {
				return 0, err
			}
			return len(p.Data), nil
		},
		ogen: func(ctx context.Context, c *ogenclient.Client) (int, error) {
			res, err := c.ListOrders(ctx, ogenclient.ListOrdersParams{
				ServiceAPIVersion: "1", WebsiteID: 1, Count: ogenclient.NewOptInt(100),
				Includes: ogenclient.NewOptString(strings.Join(orderIncludes, ",")),
			})
			if err != nil {
				return 0, err
			}
			list, ok := res.(*ogenclient.OrderList)
			if !ok {
				return 0, fmt.Errorf("ogen: a %T", res)
			}
			return len(list.Data), nil
		},
	}, {
		name: "messages",
		body: fetch("messages", messageIncludes),
		sdk: func(ctx context.Context, c *ordermsg.Client) (int, error) {
			p, err := c.Messages.List(ctx, 1, &ordermsg.ListMessagesOptions{Count: 100, Includes: ordermsg.AllMessageIncludes()})
			if err != nil {
				return 0, err
			}
			return len(p.Data), nil
		},
		ogen: func(ctx context.Context, c *ogenclient.Client) (int, error) {
			res, err := c.ListMessages(ctx, ogenclient.ListMessagesParams{
				ServiceAPIVersion: "1", WebsiteID: 1, Count: ogenclient.NewOptInt(100),
				Includes: ogenclient.NewOptString(strings.Join(messageIncludes, ",")),
			})
			if err != nil {
				return 0, err
			}
			list, ok := res.(*ogenclient.MessageList)
			if !ok {
				return 0, fmt.Errorf("ogen: a %T", res)
			}
			return len(list.Data), nil
		},
	}}
}

// clients returns the SDK's client and ogen's, both answered by body over an
// in-memory transport.
func clients(tb testing.TB, body []byte) (*ordermsg.Client, *ogenclient.Client) {
	tb.Helper()
	hc := &http.Client{Transport: staticTransport{body}}
	sdk, err := ordermsg.NewClient("https://api.example.com", "k", ordermsg.WithHTTPClient(hc))
	if err != nil {
		tb.Fatal(err)
	}
	og, err := ogenclient.NewClient("https://api.example.com", key{}, ogenclient.WithClient(hc))
	if err != nil {
		tb.Fatal(err)
	}
	return sdk, og
}

// TestBothDecodeThePages: the benchmark compares two clients that read the
// whole page, each without an error.
func TestBothDecodeThePages(t *testing.T) {
	for _, p := range pages(t) {
		sdk, og := clients(t, p.body)
		if n, err := p.sdk(t.Context(), sdk); err != nil || n != 100 {
			t.Errorf("%s: the SDK decoded %d records, %v", p.name, n, err)
		}
		if n, err := p.ogen(t.Context(), og); err != nil || n != 100 {
			t.Errorf("%s: ogen decoded %d records, %v", p.name, n, err)
		}
	}
}

// BenchmarkDecodeVsOgen lists a page of 100 orders and one of 100 messages,
// each with every include, with the SDK and with the client ogen generates
// from openapi.yaml, both over an in-memory transport (so each figure holds
// building the request, reading the body and decoding it).
//
// sdk and ogen run each client alone: their B/op and allocs/op are each
// client's own. interleaved runs both in every iteration, taking turns at
// going first (each leaves garbage, and often a collection in progress, to
// whatever runs next), and reports the SDK's time as a share of ogen's
// (sdk/ogen; at most 1 is the goal) beside each one's ns per list.
func BenchmarkDecodeVsOgen(b *testing.B) {
	for _, p := range pages(b) {
		sdk, og := clients(b, p.body)
		ctx := context.Background()
		run := func(b *testing.B, list func() (int, error)) {
			b.SetBytes(int64(len(p.body)))
			b.ReportAllocs()
			for b.Loop() {
				if n, err := list(); err != nil || n != 100 {
					b.Fatal(n, err)
				}
			}
		}
		b.Run(p.name+"/sdk", func(b *testing.B) { run(b, func() (int, error) { return p.sdk(ctx, sdk) }) })
		b.Run(p.name+"/ogen", func(b *testing.B) { run(b, func() (int, error) { return p.ogen(ctx, og) }) })
		b.Run(p.name+"/interleaved", func(b *testing.B) {
			var sdkTime, ogenTime time.Duration
			timed := func(total *time.Duration, list func() (int, error)) {
				t0 := time.Now()
				if n, err := list(); err != nil || n != 100 {
					b.Fatal(n, err)
				}
				*total += time.Since(t0)
			}
			sdkList := func() { timed(&sdkTime, func() (int, error) { return p.sdk(ctx, sdk) }) }
			ogenList := func() { timed(&ogenTime, func() (int, error) { return p.ogen(ctx, og) }) }
			b.SetBytes(2 * int64(len(p.body)))
			b.ReportAllocs()
			i := 0
			for ; b.Loop(); i++ {
				if i%2 == 0 {
					sdkList()
					ogenList()
				} else {
					ogenList()
					sdkList()
				}
			}
			b.ReportMetric(float64(sdkTime.Nanoseconds())/float64(i), "sdk-ns/list")
			b.ReportMetric(float64(ogenTime.Nanoseconds())/float64(i), "ogen-ns/list")
			b.ReportMetric(float64(sdkTime)/float64(ogenTime), "sdk/ogen")
		})
	}
}
