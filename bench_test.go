package ordermsg_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/ordermsg/ordermsg-go"
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

// fullPage returns the bytes of a page of 100 orders with every include, as
// the fake serves it.
func fullPage(tb testing.TB) []byte {
	tb.Helper()
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 9, Websites: 1, OrdersPerWebsite: 100}))
	defer srv.Close()
	return servedPage(tb, srv, "orders", ordermsg.AllOrderIncludes())
}

// servedPage returns the bytes of the first page of 100 records of srv's
// website's collection ("orders" or "messages") with the given includes.
func servedPage[I ~string](tb testing.TB, srv *ordermsgtest.Server, collection string, includes []I) []byte {
	tb.Helper()
	var names []string
	for _, inc := range includes {
		names = append(names, string(inc))
	}
	req, _ := http.NewRequest(http.MethodGet, fmt.Sprintf("%s/websites/%d/%s?count=100&includes=%s",
		srv.URL, srv.WebsiteID, collection, strings.Join(names, ",")), nil)
	req.SetBasicAuth(srv.APIKey, "")
	req.Header.Set("Service-Api-Version", "1")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != 200 {
		tb.Fatalf("%d %v", resp.StatusCode, err)
	}
	return body
}

// BenchmarkDecodePage compares one List of a 100-order page with every
// include (over an in-memory transport, so: request, retries' bookkeeping,
// body read and decode) with what a hand-written client does (encoding/json's
// json.Unmarshal into map[string]any) and with the floor (validation by
// encoding/json/v2's jsontext, one scan).
func BenchmarkDecodePage(b *testing.B) {
	body := fullPage(b)
	b.Run("sdk-list", func(b *testing.B) {
		c, err := ordermsg.NewClient("https://api.example.com", "k", ordermsg.WithHTTPClient(&http.Client{Transport: staticTransport{body}}))
		if err != nil {
			b.Fatal(err)
		}
		opts := &ordermsg.ListOrdersOptions{Count: 100, Includes: ordermsg.AllOrderIncludes()}
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			p, err := c.Orders.List(context.Background(), 1, opts)
			if err != nil || len(p.Data) != 100 {
				b.Fatal(err)
			}
		}
	})
	b.Run("map-unmarshal", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			var v map[string]any
			if err := json.Unmarshal(body, &v); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("jsontext-valid", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			if !jsontext.Value(body).IsValid() {
				b.Fatal("invalid")
			}
		}
	})
}

// BenchmarkDecodeRatio decodes the same page with the SDK and into
// map[string]any in every iteration, and reports the SDK's time as a share of
// the map decode's (sdk/map; the goal is at most 0.5 on Go 1.26 and 0.4 on
// Go 1.27). The two take turns at going first: each leaves garbage and, often,
// a collection in progress to whatever runs next, and the map decode leaves
// three times as much, so a fixed order (the SDK always right after the map
// decode) charged the SDK with the map's garbage collection (0.63-0.65 in fixed
// order against 0.52-0.53 alternating, in the same run).
func BenchmarkDecodeRatio(b *testing.B) {
	body := fullPage(b)
	c, err := ordermsg.NewClient("https://api.example.com", "k", ordermsg.WithHTTPClient(&http.Client{Transport: staticTransport{body}}))
	if err != nil {
		b.Fatal(err)
	}
	opts := &ordermsg.ListOrdersOptions{Count: 100, Includes: ordermsg.AllOrderIncludes()}
	var sdk, maps time.Duration
	sdkDecode := func() {
		t0 := time.Now()
		if _, err := c.Orders.List(context.Background(), 1, opts); err != nil {
			b.Fatal(err)
		}
		sdk += time.Since(t0)
	}
	mapDecode := func() {
		t0 := time.Now()
		var v map[string]any
		if err := json.Unmarshal(body, &v); err != nil {
			b.Fatal(err)
		}
		maps += time.Since(t0)
	}
	for i := 0; b.Loop(); i++ {
		if i%2 == 0 {
			sdkDecode()
			mapDecode()
		} else {
			mapDecode()
			sdkDecode()
		}
	}
	b.ReportMetric(float64(sdk)/float64(maps), "sdk/map")
}
