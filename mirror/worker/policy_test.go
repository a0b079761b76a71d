package worker_test

import (
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go/mirror/worker"
)

// RetryWait grows 5 s, 10 s, 20 s, 40 s, never beyond Every, and is Every
// from FailuresBeforeEvery failures on.
func TestRetryWait(t *testing.T) {
	for _, c := range []struct {
		failures int
		every    time.Duration
		want     time.Duration
	}{
		{1, time.Hour, 5 * time.Second},
		{2, time.Hour, 10 * time.Second},
		{3, time.Hour, 20 * time.Second},
		{4, time.Hour, 40 * time.Second},
		{worker.FailuresBeforeEvery, time.Hour, time.Hour},
		{worker.FailuresBeforeEvery + 7, time.Hour, time.Hour},
		{1, 2 * time.Second, 2 * time.Second},
		{3, 15 * time.Second, 15 * time.Second},
	} {
		if got := worker.RetryWait(c.failures, c.every); got != c.want {
			t.Errorf("RetryWait(%d, %v) = %v, want %v", c.failures, c.every, got, c.want)
		}
	}
}
