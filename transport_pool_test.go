package ordermsg

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"github.com/ordermsg/ordermsg-go/internal/bodybuf"
)

// bodyTransport answers every request with body, read through its own
// reader each time.
type bodyTransport struct{ body []byte }

func (s bodyTransport) RoundTrip(*http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(bytes.NewReader(s.body)), ContentLength: int64(len(s.body))}, nil
}

// scribbleBodies overwrites whatever buffers bodybuf holds.
func scribbleBodies() {
	var held []*[]byte
	for range 16 {
		b := bodybuf.Get()
		full := (*b)[:cap(*b)]
		for i := range full {
			full[i] = 'x'
		}
		held = append(held, b)
	}
	for _, b := range held {
		bodybuf.Put(b)
	}
}

// TestLentBodiesAreNotRetained checks that a page or record decoded from a
// pooled body (no raw JSON asked for) holds nothing of the body's bytes, and
// that the records' raw JSON, when asked for, is not in a pooled buffer: its
// encoding is the same after the pool's buffers are overwritten, and the
// same as a decode from a copy of the body that nothing reuses.
func TestLentBodiesAreNotRetained(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		body  []byte
		fetch func(c *Client) (any, error)
	}{
		{"orders list", fixture(t, "orders_list_unknown.json"), func(c *Client) (any, error) { return c.Orders.List(ctx, 1, nil) }},
		{"messages list", fixture(t, "messages_list_unknown.json"), func(c *Client) (any, error) { return c.Messages.List(ctx, 1, nil) }},
		{"order", fixture(t, "order_full.json"), func(c *Client) (any, error) { return c.Orders.Get(ctx, 1, 5001, nil) }},
		{"message", fixture(t, "message_full.json"), func(c *Client) (any, error) { return c.Messages.Get(ctx, 1, 3001, nil) }},
		// With KeepRawJSON a record read by id, and a page, keep copies of
		// their bytes, not the pooled body.
		{"orders list, raw JSON kept", fixture(t, "orders_list_unknown.json"), func(c *Client) (any, error) {
			p, err := c.Orders.List(ctx, 1, &ListOrdersOptions{KeepRawJSON: true})
			if err != nil {
				return nil, err
			}
			return json.RawMessage(p.RawJSON()), nil
		}},
		{"order, raw JSON kept", fixture(t, "order_full.json"), func(c *Client) (any, error) {
			o, err := c.Orders.Get(ctx, 1, 5001, &GetOrderOptions{KeepRawJSON: true})
			if err != nil {
				return nil, err
			}
			return json.RawMessage(o.RawJSON()), nil
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := NewClient(testBaseURL, testAPIKey, WithHTTPClient(&http.Client{Transport: bodyTransport{tc.body}}))
			if err != nil {
				t.Fatal(err)
			}
			var before [][]byte
			var values []any
			for range 3 { // the second and third reuse the first's buffer
				v, err := tc.fetch(c)
				if err != nil {
					t.Fatal(err)
				}
				b, err := marshalJSON(v)
				if err != nil {
					t.Fatal(err)
				}
				values, before = append(values, v), append(before, b)
			}
			scribbleBodies()
			for i, v := range values {
				after, err := marshalJSON(v)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(before[i], after) {
					t.Fatalf("decode %d changed when the pooled buffers were overwritten:\n%s\n%s", i, before[i], after)
				}
				assertSameJSON(t, before[0], after)
			}
		})
	}
}
