package ordermsgtest_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

var small = ordermsgtest.Config{Seed: 7, Websites: 1, OrdersPerWebsite: 60, MessagesPerWebsite: 80}

// outcomes sends n raw requests one after another and describes each result.
func outcomes(t *testing.T, hc *http.Client, url, key string, n int) []string {
	t.Helper()
	var out []string
	for range n {
		req, _ := http.NewRequest(http.MethodGet, url, nil)
		req.SetBasicAuth(key, "")
		req.Header.Set("Service-Api-Version", "1")
		resp, err := hc.Do(req)
		if err != nil {
			out = append(out, "transport error")
			continue
		}
		_, err = io.ReadAll(resp.Body)
		resp.Body.Close()
		desc := fmt.Sprint(resp.StatusCode)
		if err != nil {
			desc += " cut"
		}
		if ra := resp.Header.Get("Retry-After"); ra != "" {
			desc += " retry-after=" + ra
		}
		out = append(out, desc)
	}
	return out
}

func TestFaultsAreDeterministicBySeed(t *testing.T) {
	run := func(seed uint64) ([]string, ordermsgtest.Stats) {
		ds := ordermsgtest.Generate(small)
		h := ordermsgtest.NewHandler(ds, ordermsgtest.WithFaults(ordermsgtest.Faults{Seed: seed, Rate: 0.3, SlowDelay: time.Millisecond}))
		mt := httpmock.NewMockTransport()
		h.Register(mt, "https://fake.example/v1")
		w := ds.Websites[0]
		return outcomes(t, &http.Client{Transport: mt}, fmt.Sprintf("https://fake.example/v1/websites/%d/orders", w.ID), w.APIKey, 300), h.Stats()
	}
	a, statsA := run(42)
	b, _ := run(42)
	c, _ := run(43)
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Error("the same seed gave different faults")
	}
	if fmt.Sprint(a) == fmt.Sprint(c) {
		t.Error("another seed gave the same faults")
	}
	seen := map[string]bool{}
	for _, o := range a {
		seen[o] = true
	}
	for _, want := range []string{"200", "429 retry-after=0", "500", "503", "transport error", "200 cut"} {
		if !seen[want] {
			t.Errorf("no %q among %v", want, seen)
		}
	}
	if statsA.Requests != 300 || statsA.FaultTotal() < 50 || statsA.FaultTotal() > 130 {
		t.Errorf("stats: %+v (total %d)", statsA, statsA.FaultTotal())
	}
}

func TestFaultsOnARealConnection(t *testing.T) {
	for _, tc := range []struct {
		fault ordermsgtest.Fault
		want  string
	}{
		{ordermsgtest.FaultRateLimit, "429 retry-after=2"},
		{ordermsgtest.FaultServerError, "500"},
		{ordermsgtest.FaultUnavailable, "503"},
		{ordermsgtest.FaultDrop, "transport error"},
		{ordermsgtest.FaultCutBody, "200 cut"},
		{ordermsgtest.FaultSlow, "200"},
	} {
		srv := ordermsgtest.NewServer(ordermsgtest.Generate(small), ordermsgtest.WithFaults(ordermsgtest.Faults{
			Rate: 1, Kinds: []ordermsgtest.Fault{tc.fault}, RetryAfter: 2 * time.Second, SlowDelay: time.Millisecond,
		}))
		got := outcomes(t, &http.Client{}, fmt.Sprintf("%s/websites/%d/orders", srv.URL, srv.WebsiteID), srv.APIKey, 1)
		srv.Close()
		if got[0] != tc.want {
			t.Errorf("%s: %s, want %s", tc.fault, got[0], tc.want)
		}
	}
}

// The SDK walks a faulty fake to the end, through httpmock, with every
// record once.
func TestSDKWalksThroughFaults(t *testing.T) {
	ds := ordermsgtest.Generate(small)
	h := ordermsgtest.NewHandler(ds, ordermsgtest.WithFaults(ordermsgtest.Faults{Seed: 3, Rate: 0.25, SlowDelay: time.Millisecond}))
	mt := httpmock.NewMockTransport()
	h.Register(mt, "https://fake.example")
	w := ds.Websites[0]
	c, err := ordermsg.NewClient("https://fake.example", w.APIKey, ordermsg.WithHTTPClient(&http.Client{Transport: mt}),
		ordermsg.WithRetry(ordermsg.RetryPolicy{MaxRetries: 8, MinWait: time.Microsecond, MaxWait: time.Millisecond}))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int64]bool{}
	for o, err := range c.Orders.All(context.Background(), w.ID, &ordermsg.ListOrdersOptions{Count: 5}, ordermsg.WithConcurrency(3)) {
		if err != nil {
			t.Fatal(err)
		}
		if seen[o.ID] {
			t.Fatalf("order %d twice", o.ID)
		}
		seen[o.ID] = true
	}
	if len(seen) != len(w.Orders) || h.Stats().FaultTotal() == 0 {
		t.Fatalf("got %d of %d orders; %+v", len(seen), len(w.Orders), h.Stats())
	}
}

func TestRegisterUnderAPathPrefix(t *testing.T) {
	ds := ordermsgtest.Generate(small)
	mt := httpmock.NewMockTransport()
	ordermsgtest.NewHandler(ds).Register(mt, "https://fake.example/api/v1/")
	w := ds.Websites[0]
	c, _ := ordermsg.NewClient("https://fake.example/api/v1", w.APIKey, ordermsg.WithHTTPClient(&http.Client{Transport: mt}))
	o, err := c.Orders.Get(context.Background(), w.ID, w.Orders[0].ID, nil)
	if err != nil || o.ID != w.Orders[0].ID {
		t.Fatalf("%v %v", o, err)
	}
	if _, err := c.Orders.Get(context.Background(), w.ID, 1, nil); !errors.Is(err, ordermsg.ErrNotFound) {
		t.Fatalf("unknown order: %v", err)
	}
}
