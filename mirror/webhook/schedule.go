package webhook

import (
	"fmt"
	"time"
)

// Schedule is when a failed delivery is tried again: the first retry First
// after the first attempt, each wait twice the one before, at most Max,
// until GiveUpAfter has passed since the first attempt; then the change is
// given up. DefaultSchedule is used when none is given.
type Schedule struct {
	First       time.Duration
	Max         time.Duration
	GiveUpAfter time.Duration
}

// DefaultSchedule waits 2 s, 4 s, 8 s, … up to an hour between attempts,
// and gives a change up 3 days after its first attempt: 83 attempts.
var DefaultSchedule = Schedule{First: 2 * time.Second, Max: time.Hour, GiveUpAfter: 72 * time.Hour}

// check refuses a schedule that cannot be followed.
func (s Schedule) check() error {
	if s.First <= 0 || s.Max < s.First || s.GiveUpAfter < 0 {
		return fmt.Errorf("webhook: schedule (first %s, max %s, give up after %s): want 0 < First <= Max and GiveUpAfter >= 0",
			s.First, s.Max, s.GiveUpAfter)
	}
	return nil
}

// Wait is how long to wait after the given attempt (1 for the first)
// failed.
func (s Schedule) Wait(attempt int) time.Duration {
	w := s.First
	for i := 1; i < attempt && w < s.Max; i++ {
		w *= 2
	}
	return min(w, s.Max)
}

// Attempts is how many attempts a change gets: the first, and a retry
// after each wait until the waits add up to GiveUpAfter.
func (s Schedule) Attempts() int {
	n := 1
	for waited := time.Duration(0); waited < s.GiveUpAfter; n++ {
		waited += s.Wait(n)
	}
	return n
}
