package ordermsg

import "time"

// DownloadOptionsWithClock returns options whose clock, the one a link's
// Expires is compared with, is now: the tests' seam for expiry.
func DownloadOptionsWithClock(now func() time.Time) *DownloadOptions {
	return &DownloadOptions{now: now}
}
