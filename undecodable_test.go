package ordermsg

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
)

// rawOrder is an order as the server sends it in a list, with title as the
// title of its one item (raw JSON text of a string).
func rawOrder(id int64, created, title string) string {
	return fmt.Sprintf(`{"object":"order","id":%d,"date_created":"%s","status":"new","currency":"usd",`+
		`"items":[{"object":"order_item","id":%d,"title":%s}]}`, id, created, id*10, title)
}

// rawPages serves pages of orders from records written by hand (each page
// one element of pages), with their pagination metadata.
func rawPages(t *testing.T, pages ...[]string) (*Client, *httpmock.MockTransport) {
	t.Helper()
	c, mt := newMockClient(t)
	total := 0
	for _, p := range pages {
		total += len(p)
	}
	mt.RegisterResponder(http.MethodGet, testBaseURL+"/websites/1/orders", func(r *http.Request) (*http.Response, error) {
		page := 1
		fmt.Sscan(r.URL.Query().Get("page"), &page)
		body := fmt.Sprintf(`{"object":"list","data":[%s],"meta":{"pagination":{"total":%d,"count":%d,"per_page":3,"current_page":%d,"total_pages":%d}}}`,
			strings.Join(pages[page-1], ", "), total, len(pages[page-1]), page, len(pages))
		resp := httpmock.NewStringResponse(200, body)
		resp.Header.Set("X-Page", fmt.Sprint(page))
		return resp, nil
	})
	return c, mt
}

// badRecordPages are two pages of orders, among them three that cannot be
// decoded (bad): a lone surrogate, a null, an item of the wrong type.
func badRecordPages() (bad []string, pages [][]string) {
	bad = []string{
		rawOrder(2, "2024-03-10T12:02:00+00:00", `"lone \ud800 surrogate"`),
		`null`,
		`{"object":"order","id":5,"date_created":"2024-03-10T12:05:00+00:00","items":[{"object":"order_item","id":50,"quantity":"many"}]}`,
	}
	return bad, [][]string{
		{rawOrder(1, "2024-03-10T12:01:00+00:00", `"a"`), bad[0], bad[1]},
		{rawOrder(4, "2024-03-10T12:04:00+00:00", `"nul \u0000 inside"`), bad[2], rawOrder(6, "2024-03-10T12:06:00+00:00", `"b"`)},
	}
}

// A lone surrogate, a null, an item of the wrong type: each fails its
// record. With WithSkipUndecodable the walk yields the other records, and
// each bad one as a *RecordDecodeError in its place that names it and keeps
// its bytes; without it, the page fails as a whole (the default stays
// strict).
func TestWalkSkipUndecodableGoesPastBadRecords(t *testing.T) {
	bad, pages := badRecordPages()
	c, _ := rawPages(t, pages...)

	ids, errs := collect(c, nil)
	var de *DecodeError
	if len(ids) != 0 || len(errs) != 1 || !errors.As(errs[0], &de) || errors.As(errs[0], new(*RecordDecodeError)) {
		t.Fatalf("strict walk: ids %v, errs %v; want one *DecodeError for page 1", ids, errs)
	}

	type step struct {
		id  int64
		bad *RecordDecodeError
	}
	var got []step
	for o, err := range c.Orders.All(context.Background(), 1, nil, WithSkipUndecodable()) {
		var rde *RecordDecodeError
		switch {
		case errors.As(err, &rde):
			if o != nil {
				t.Errorf("a record with its error: %v", o)
			}
			got = append(got, step{bad: rde})
		case err != nil:
			t.Fatalf("walk: %v", err)
		default:
			got = append(got, step{id: o.ID})
		}
	}
	want := []struct {
		id          int64
		bad         string // the raw record, for an error
		badID       int64
		created     string
		page, index int
	}{
		{id: 1},
		{bad: bad[0], badID: 2, created: "2024-03-10T12:02:00Z", page: 1, index: 1},
		{bad: bad[1], page: 1, index: 2},
		{id: 4},
		{bad: bad[2], badID: 5, created: "2024-03-10T12:05:00Z", page: 2, index: 1},
		{id: 6},
	}
	if len(got) != len(want) {
		t.Fatalf("yielded %d steps, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if w.bad == "" {
			if g.bad != nil || g.id != w.id {
				t.Errorf("step %d: %+v; want order %d", i, g, w.id)
			}
			continue
		}
		e := g.bad
		if e == nil {
			t.Errorf("step %d: order %d; want the error of %s", i, g.id, w.bad)
			continue
		}
		created := ""
		if !e.Created.IsZero() {
			created = e.Created.UTC().Format(time.RFC3339)
		}
		if string(e.Raw) != w.bad || e.ID != w.badID || created != w.created || e.Page != w.page || e.Index != w.index || e.Object != ObjectOrder {
			t.Errorf("step %d: %+v; want raw %s, id %d, created %q, page %d, index %d", i, e, w.bad, w.badID, w.created, w.page, w.index)
		}
		var inner *DecodeError
		if !errors.As(e, &inner) || inner.URL == "" || inner.Offset < e.Offset {
			t.Errorf("step %d: %v does not unwrap to a *DecodeError at or after the record's offset %d", i, e, e.Offset)
		}
		if !strings.HasPrefix(e.Error(), "ordermsg: decoding response of "+testBaseURL) || strings.Count(e.Error(), "ordermsg:") != 1 {
			t.Errorf("step %d: text %q", i, e.Error())
		}
	}
	if msg := got[2].bad.Error(); !strings.Contains(msg, "record 2 of page 1 (order whose id cannot be read, at byte") ||
		!strings.Contains(msg, "the record is not a JSON object") {
		t.Errorf("the null record's error: %s", msg)
	}
	// The offset is the record's in the page's body.
	body := fmt.Sprintf(`{"object":"list","data":[%s]`, strings.Join(pages[0], ", "))
	if off := got[1].bad.Offset; !bytes.HasPrefix([]byte(body)[off:], []byte(bad[0])) {
		t.Errorf("offset %d does not point at the record", off)
	}
}

// Only records are skipped: a page whose pagination, envelope or syntax is
// broken fails as a whole, with or without WithSkipUndecodable.
func TestWalkSkipUndecodableStillRefusesABrokenPage(t *testing.T) {
	for name, body := range map[string]string{
		"syntax":     `{"object":"list","data":[{"object":"order","id":1}`,
		"pagination": `{"object":"list","data":[{"object":"order","id":1}],"meta":{"pagination":{"total":"x"}}}`,
		"envelope":   `{"object":"lust","data":[{"object":"order","id":1}]}`,
		"duplicate":  `{"object":"list","data":[],"data":[{"object":"order","id":1}]}`,
		"data":       `{"object":"list","data":{"object":"order","id":1}}`,
	} {
		t.Run(name, func(t *testing.T) {
			c, mt := newMockClient(t)
			mt.RegisterResponder(http.MethodGet, testBaseURL+"/websites/1/orders", httpmock.NewStringResponder(200, body))
			ids, errs := collect(c, nil, WithSkipUndecodable())
			var de *DecodeError
			if len(ids) != 0 || len(errs) != 1 || !errors.As(errs[0], &de) || errors.As(errs[0], new(*RecordDecodeError)) {
				t.Errorf("ids %v, errs %v; want one *DecodeError of the page", ids, errs)
			}
		})
	}
}

// The options' Response receives the response behind a Get and a List,
// and, in All, the response of the page of the record being yielded.
func TestResponseIsTheCallsOrThePagesOfTheRecord(t *testing.T) {
	c, mt := rawPages(t,
		[]string{rawOrder(1, "2024-03-10T12:01:00+00:00", `"a"`), rawOrder(2, "2024-03-10T12:02:00+00:00", `"b"`)},
		[]string{rawOrder(3, "2024-03-10T12:03:00+00:00", `"c"`)})
	mt.RegisterResponder(http.MethodGet, testBaseURL+"/websites/1/orders/3", func(*http.Request) (*http.Response, error) {
		resp := httpmock.NewStringResponse(200, rawOrder(3, "2024-03-10T12:03:00+00:00", `"c"`))
		resp.Header.Set("X-Request-Id", "req-3")
		return resp, nil
	})
	ctx := context.Background()
	before := time.Now()
	var resp Response
	if _, err := c.Orders.Get(ctx, 1, 3, &GetOrderOptions{Response: &resp}); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || resp.Header.Get("X-Request-Id") != "req-3" || resp.ReceivedAt.Before(before) {
		t.Errorf("Get: %+v", resp)
	}
	resp = Response{}
	if _, err := c.Orders.List(ctx, 1, &ListOrdersOptions{Page: 2, Response: &resp}); err != nil || resp.Header.Get("X-Page") != "2" {
		t.Errorf("List page 2: %+v, %v", resp, err)
	}
	pageOf := map[int64]string{}
	var last time.Time
	for o, err := range c.Orders.All(ctx, 1, &ListOrdersOptions{Response: &resp}, WithConcurrency(2)) {
		if err != nil {
			t.Fatal(err)
		}
		pageOf[o.ID] = resp.Header.Get("X-Page")
		if resp.ReceivedAt.Before(last) {
			t.Errorf("order %d: ReceivedAt went back", o.ID)
		}
		last = resp.ReceivedAt
	}
	if fmt.Sprint(pageOf) != "map[1:1 2:1 3:2]" {
		t.Errorf("pages of the records by Response: %v", pageOf)
	}
}

func TestBaseURLIsTheClientsWithoutSecrets(t *testing.T) {
	for in, want := range map[string]string{
		"https://api.example.com":          "https://api.example.com",
		"https://api.example.com:8443/v1/": "https://api.example.com:8443/v1",
		"http://127.0.0.1:8080/":           "http://127.0.0.1:8080",
		"HTTPS://API.Example.COM:443/V1":   "https://api.example.com/V1", // one spelling: the path keeps its case
		"http://[::1]:80/":                 "http://[::1]",
		"http://127.0.0.1:/":               "http://127.0.0.1",
		"http://127.0.0.1:080/v1/./":       "http://127.0.0.1/v1",
		"https://api.example.com/a/../v2":  "https://api.example.com/v2",
		"http://[::1]:08080":               "http://[::1]:8080",
	} {
		c, err := NewClient(in, testAPIKey)
		if err != nil {
			t.Fatal(err)
		}
		if got := c.BaseURL(); got != want {
			t.Errorf("NewClient(%q).BaseURL() = %q, want %q", in, got, want)
		}
	}
	// The key put in the URL by mistake would show wherever it is shown.
	_, err := NewClient("https://api.example.com/"+testAPIKey, testAPIKey)
	if !errors.Is(err, ErrInvalidArgument) || strings.Contains(err.Error(), testAPIKey) {
		t.Errorf("a base URL with the key in it: %v", err)
	}
}

// Records that cannot be decoded and whose id cannot be read are told apart
// by their bytes: two ids too large for an int64 are two records (neither
// takes the largest int64 for its id), and one that moves onto the next
// page, pushed by a record joining at the head, is yielded once.
func TestWalkTellsUnreadableIDsApartByTheirBytes(t *testing.T) {
	big1 := `{"object":"order","id":99999999999999999998,"date_created":"2024-03-10T12:00:00+00:00"}`
	big2 := `{"object":"order","id":99999999999999999999,"date_created":"2024-03-10T12:00:00+00:00"}`
	moved := `{"object":"order","id":"x"}`
	c, _ := rawPages(t,
		[]string{rawOrder(3, "2024-03-10T12:03:00+00:00", `"a"`), big1, big2},
		[]string{moved, rawOrder(4, "2024-03-10T12:04:00+00:00", `"b"`)},
		[]string{moved, rawOrder(5, "2024-03-10T12:05:00+00:00", `"c"`)})
	var got []string
	for o, err := range c.Orders.All(context.Background(), 1, nil, WithSkipUndecodable()) {
		var bad *RecordDecodeError
		switch {
		case errors.As(err, &bad):
			got = append(got, fmt.Sprintf("bad %d@%d.%d", bad.ID, bad.Page, bad.Index))
		case err != nil:
			t.Fatal(err)
		default:
			got = append(got, fmt.Sprint(o.ID))
		}
	}
	if want := "[3 bad 0@1.1 bad 0@1.2 bad 0@2.0 4 5]"; fmt.Sprint(got) != want {
		t.Errorf("yielded %v, want %s", got, want)
	}
}
