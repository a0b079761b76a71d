package ordermsg

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/jarcoal/httpmock"
)

// What a server may send: members the spec does not list, known members
// left out, escapes, odd spacing and number spellings. RawJSON must give it
// back byte for byte.
const (
	rawOrder1 = `{ "object" : "order", "id": 11, "currency":"\u0075sd", "amount_paid": 1500, "shipping_tax_percentage": 8.0E-2,` +
		` "pricing": {"object":"order_pricing","total":1500,"surcharge":{"why":"new field"}}, "added_later": [1, "two", null] }`
	rawOrder2 = `{"object":"order","id":12,"status":"new","label":"caf\u00e9 \"quoted\""}`
	rawOrder3 = `{"object":"order","id":13}`
)

func rawPage(current, total int, records ...string) string {
	return fmt.Sprintf(`{"object":"list", "data":[ %s ],"meta":{"pagination":{"total":3,"count":2,"per_page":2,`+
		`"current_page":%d,"total_pages":%d}}, "cursor":"c1"}`, strings.Join(records, " ,\n"), current, total)
}

func TestRawJSONGet(t *testing.T) {
	c, mt := newMockClient(t)
	got := capture(mt, http.MethodGet, testBaseURL+"/websites/1/orders/11", 200, []byte(" \n"+rawOrder1+"\n"))

	o, err := c.Orders.Get(context.Background(), 1, 11, &GetOrderOptions{KeepRawJSON: true})
	if err != nil {
		t.Fatal(err)
	}
	if string(o.RawJSON()) != rawOrder1 {
		t.Errorf("RawJSON:\n%s\nwant\n%s", o.RawJSON(), rawOrder1)
	}
	if q := (*got)[0].URL.RawQuery; q != "" {
		t.Errorf("KeepRawJSON reached the query: %q", q)
	}

	o, err = c.Orders.Get(context.Background(), 1, 11, nil)
	if err != nil || o.RawJSON() != nil {
		t.Errorf("without KeepRawJSON: %q, %v", o.RawJSON(), err)
	}
}

func TestRawJSONListAndAll(t *testing.T) {
	c, mt := newMockClient(t)
	page1, page2 := rawPage(1, 2, rawOrder1, rawOrder2), rawPage(2, 2, rawOrder3)
	mt.RegisterResponder(http.MethodGet, testBaseURL+"/websites/1/orders", func(r *http.Request) (*http.Response, error) {
		body := page1
		if r.URL.Query().Get("page") == "2" {
			body = page2
		}
		return httpmock.NewStringResponse(200, body), nil
	})

	p, err := c.Orders.List(context.Background(), 1, &ListOrdersOptions{KeepRawJSON: true})
	if err != nil {
		t.Fatal(err)
	}
	if string(p.Data[0].RawJSON()) != rawOrder1 || string(p.Data[1].RawJSON()) != rawOrder2 {
		t.Errorf("records' bytes:\n%s\n%s", p.Data[0].RawJSON(), p.Data[1].RawJSON())
	}
	if string(p.RawJSON()) != page1 {
		t.Errorf("page's bytes: %s", p.RawJSON())
	}

	want := []string{rawOrder1, rawOrder2, rawOrder3}
	for _, n := range []int{1, 4} {
		var raws []string
		for o, err := range c.Orders.All(context.Background(), 1, &ListOrdersOptions{KeepRawJSON: true}, WithConcurrency(n)) {
			if err != nil {
				t.Fatal(err)
			}
			raws = append(raws, string(o.RawJSON()))
		}
		if strings.Join(raws, "\n") != strings.Join(want, "\n") {
			t.Errorf("concurrency %d: %q", n, raws)
		}
	}

	p, err = c.Orders.List(context.Background(), 1, nil)
	if err != nil || p.Data[0].RawJSON() != nil || p.RawJSON() != nil {
		t.Errorf("without KeepRawJSON: %q, %v", p.Data[0].RawJSON(), err)
	}
}

func TestRawJSONMessages(t *testing.T) {
	c, mt := newMockClient(t)
	msg := `{"object":"message", "id":7, "brand_new":{"a":[]} }`
	capture(mt, http.MethodGet, testBaseURL+"/websites/1/messages/7", 200, []byte(msg))
	capture(mt, http.MethodGet, testBaseURL+"/websites/1/messages", 200,
		[]byte(`{"object":"list","data":[`+msg+`],"meta":{"pagination":{"current_page":1,"total_pages":1}}}`))
	m, err := c.Messages.Get(context.Background(), 1, 7, &GetMessageOptions{KeepRawJSON: true})
	if err != nil || string(m.RawJSON()) != msg {
		t.Errorf("Get: %s, %v", m.RawJSON(), err)
	}
	p, err := c.Messages.List(context.Background(), 1, &ListMessagesOptions{KeepRawJSON: true})
	if err != nil || string(p.Data[0].RawJSON()) != msg {
		t.Errorf("List: %v", err)
	}
}
