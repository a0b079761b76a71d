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
