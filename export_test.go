package ordermsg

import (
	"net"
	"testing"
	"time"
)

// DownloadOptionsWithClock returns options whose clock, the one a link's
// Expires is compared with, is now: the tests' seam for expiry.
func DownloadOptionsWithClock(now func() time.Time) *DownloadOptions {
	return &DownloadOptions{now: now}
}

// ClosedLoopbackAddr returns a loopback address where nothing listens: a
// connection to it is refused.
func ClosedLoopbackAddr(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// DecodePage decodes body, a list page of records of kind (ObjectOrder or
// ObjectMessage), as a walk does: with raw, into RawRecords (AllRaw);
// else typed (All), keeping each record's bytes with keepRaw. It returns
// the records, and the ids and creation times of those decoded or skipped
// (with skip, WithSkipUndecodable), in order.
func DecodePage(body []byte, kind string, raw, keepRaw, skip bool) (ids []int64, created []time.Time, err error) {
	switch {
	case kind == ObjectOrder && raw:
		return pageEntries(decodePage[rawRecord[Order, *Order]]("u", body, kind, false, skip))
	case kind == ObjectOrder:
		return pageEntries(decodePage[Order]("u", body, kind, keepRaw, skip))
	case raw:
		return pageEntries(decodePage[rawRecord[Message, *Message]]("u", body, kind, false, skip))
	}
	return pageEntries(decodePage[Message]("u", body, kind, keepRaw, skip))
}

func pageEntries[T any, P record[T]](p *Page[T], err error) (ids []int64, created []time.Time, _ error) {
	if err != nil {
		return nil, nil, err
	}
	for _, e := range entries[T, P](p) {
		ids, created = append(ids, e.id()), append(created, e.created())
	}
	return ids, created, nil
}
