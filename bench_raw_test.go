package ordermsg_test

import (
	"slices"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// mirrorPages returns the bytes of a page of 100 orders and one of 100
// messages, as the fake serves them with every include that package mirror
// asks for (every include but an order's message, and a message's order and
// its items: those records are mirrored on their own).
func mirrorPages(tb testing.TB) (orders, messages []byte) {
	tb.Helper()
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 9, Websites: 1, OrdersPerWebsite: 100, MessagesPerWebsite: 100}))
	defer srv.Close()
	orderIncludes := slices.DeleteFunc(ordermsg.AllOrderIncludes(), func(inc ordermsg.OrderInclude) bool {
		return inc == ordermsg.OrderIncludeMessage
	})
	messageIncludes := slices.DeleteFunc(ordermsg.AllMessageIncludes(), func(inc ordermsg.MessageInclude) bool {
		return inc == ordermsg.MessageIncludeOrder || inc == ordermsg.MessageIncludeOrderItems
	})
	return servedPage(tb, srv, "orders", orderIncludes), servedPage(tb, srv, "messages", messageIncludes)
}

// decodeWays are the ways a walk reads a page: typed (All), typed keeping
// each record's bytes (All with KeepRawJSON, what an export pays), and
// checked into RawRecords (AllRaw, what the mirror pays).
var decodeWays = []string{"typed", "typed-keepraw", "raw"}

// decodeAs decodes a page of 100 records of kind one way.
func decodeAs(b *testing.B, body []byte, kind, how string) {
	ids, _, err := ordermsg.DecodePage(body, kind, how == "raw", how == "typed-keepraw", false)
	if err != nil || len(ids) != 100 || slices.Contains(ids, 0) {
		b.Fatal(len(ids), err)
	}
}

// BenchmarkCheckVsDecode decodes a page of 100 orders and one of 100
// messages, each with every include the mirror asks for, each of the
// decodeWays: alone, for the time and allocations per record; and
// interleaved, the three in every iteration in an order that turns, for
// the time of the check as a share of each decode's (raw/typed,
// raw/typed-keepraw), which a shared machine's load moves less.
func BenchmarkCheckVsDecode(b *testing.B) {
	orders, messages := mirrorPages(b)
	for _, page := range []struct {
		kind string
		body []byte
	}{{ordermsg.ObjectOrder, orders}, {ordermsg.ObjectMessage, messages}} {
		for _, how := range decodeWays {
			b.Run(page.kind+"/"+how, func(b *testing.B) {
				b.SetBytes(int64(len(page.body)))
				b.ReportAllocs()
				for b.Loop() {
					decodeAs(b, page.body, page.kind, how)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(100*b.N), "ns/record")
			})
		}
		b.Run(page.kind+"/interleaved", func(b *testing.B) {
			var spent [3]time.Duration
			for i := 0; b.Loop(); i++ {
				for j := range decodeWays {
					k := (i + j) % len(decodeWays)
					start := time.Now()
					decodeAs(b, page.body, page.kind, decodeWays[k])
					spent[k] += time.Since(start)
				}
			}
			b.ReportMetric(float64(spent[2])/float64(spent[0]), "raw/typed")
			b.ReportMetric(float64(spent[2])/float64(spent[1]), "raw/typed-keepraw")
		})
	}
}
