package ordermsgtest

import "time"

// DayBounds is how the fake reads the list filters date_start and date_end,
// which the spec leaves open: whether a bound is inclusive, and in which
// time zone a day starts. The zero DayBounds is the default: inclusive
// bounds on UTC days.
type DayBounds struct {
	// Exclusive reads date_start=D as "created after day D" (from the start
	// of the next day) and date_end=D as "created before day D". When
	// false, both days are included.
	Exclusive bool
	// Offset is the UTC offset of the zone whose midnight starts a day:
	// with +02:00, day D starts at 22:00 UTC the day before.
	Offset time.Duration
}

// WithDayBounds makes the fake read the date filters as b says.
func WithDayBounds(b DayBounds) Option { return func(h *Handler) { h.days = b } }

// apply moves lq's window, parsed as inclusive UTC days, to b's reading.
func (b DayBounds) apply(lq listQuery) listQuery {
	const day = 24 * time.Hour
	if !lq.start.IsZero() {
		if b.Exclusive {
			lq.start = lq.start.Add(day)
		}
		lq.start = lq.start.Add(-b.Offset)
	}
	if !lq.end.IsZero() {
		if b.Exclusive {
			lq.end = lq.end.Add(-day)
		}
		lq.end = lq.end.Add(-b.Offset)
	}
	return lq
}
