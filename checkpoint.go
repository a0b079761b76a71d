package ordermsg

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"
)

// Checkpoint is how far a Sync has gone: the creation time of the newest
// record it yielded (the high-water mark) and the records it yielded within
// the overlap behind the mark, the window that the next Sync lists again.
// Store it (it encodes to JSON and back) and pass it to the next Sync to get
// only what it has not yielded yet. Its zero value means "from the
// beginning". Keep one checkpoint per website and resource.
//
// Its size is the number of records created in the overlap window: from
// midnight UTC two days before the mark's UTC date, less 14 hours (the
// earliest time zone's day start), up to the mark; about three days of
// records, whatever the length of the history. Records that fall out of the
// window as the mark moves are forgotten.
//
// # JSON format
//
// Version 2, the one written:
//
//	{"v":2,"created":"2024-03-10T12:05:00Z","seen":{"2024-03-10T12:04:00Z":[4],"2024-03-10T12:05:00Z":[5,6]}}
//
// created is the mark; seen maps the creation times (RFC 3339, UTC) of the
// records yielded within the window to their ids, ascending. The zero
// Checkpoint is {}. An optional "covered_before" time, written only for a
// checkpoint read from version 1, counts every record created before it as
// yielded, until the window has moved past it.
//
// Version 1 ({"created":…,"ids":[…]}, no "v"), written before the window was
// remembered, is still read: the records created before its mark count as
// yielded, and those of its ids at the mark. A version other than 1 or 2 is
// refused with an error.
type Checkpoint struct {
	mark time.Time
	// coveredBefore, from a version 1 checkpoint, is the time before which
	// every record counts as yielded; zero once the window is past it.
	coveredBefore time.Time
	// seen are the records yielded within the window, ascending by
	// creation time then id.
	seen []seenRecord
}

// seenRecord is a record that a Sync yielded.
type seenRecord struct {
	created time.Time
	id      int64
}

func compareSeen(a, b seenRecord) int {
	return cmp.Or(a.created.Compare(b.created), cmp.Compare(a.id, b.id))
}

// IsZero reports whether c is the zero Checkpoint: nothing yielded yet.
func (c *Checkpoint) IsZero() bool { return c.mark.IsZero() }

// Mark is the high-water mark: the creation time of the newest record
// yielded, zero before the first.
func (c *Checkpoint) Mark() time.Time { return c.mark }

// covers reports whether the record (created, id) counts as yielded: it is
// one of the records remembered, or older than the window (or than a version
// 1 checkpoint's mark), where the checkpoint cannot tell.
func (c *Checkpoint) covers(created time.Time, id int64) bool {
	if c.IsZero() {
		return false
	}
	if created.Before(c.forgetBefore()) {
		return true
	}
	_, found := slices.BinarySearchFunc(c.seen, seenRecord{created, id}, compareSeen)
	return found
}

// advance records that (created, id), which covers does not hold, has been
// yielded, moves the mark, and forgets what falls out of the window.
func (c *Checkpoint) advance(created time.Time, id int64) {
	r := seenRecord{created, id}
	i, _ := slices.BinarySearchFunc(c.seen, r, compareSeen)
	c.seen = slices.Insert(c.seen, i, r)
	if created.After(c.mark) {
		c.mark = created
		c.prune()
	}
}

// prune forgets the records created before the window.
func (c *Checkpoint) prune() {
	start := c.windowStart()
	if !c.coveredBefore.After(start) {
		c.coveredBefore = time.Time{}
	}
	n, _ := slices.BinarySearchFunc(c.seen, seenRecord{created: start}, compareSeen)
	c.seen = slices.Delete(c.seen, 0, n)
}

// forgetBefore is the time before which every record counts as yielded.
func (c *Checkpoint) forgetBefore() time.Time {
	if start := c.windowStart(); start.After(c.coveredBefore) {
		return start
	}
	return c.coveredBefore
}

// overlapStart is the date_start that a sync after the checkpoint asks for:
// two days before the high-water mark's UTC date. Whatever the server's
// reading of date_start (inclusive, or "after this date", which starts a day
// later) and whatever the time zone of its days (UTC-12 to UTC+14), the
// records created at or after the mark are in the list.
func (c *Checkpoint) overlapStart() Date {
	if c.IsZero() {
		return Date{}
	}
	return DateOf(c.mark.UTC().AddDate(0, 0, -syncOverlapDays))
}

// windowStart is the earliest creation time that a list from overlapStart
// can hold under any reading: the start of that day in the earliest time
// zone, UTC+14. What the checkpoint yielded from there on is what the next
// Sync lists again.
func (c *Checkpoint) windowStart() time.Time {
	d := c.overlapStart()
	return time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, time.UTC).Add(-earliestDayStart)
}

// syncOverlapDays is how many days before the high-water mark's date a sync
// starts its list. Exclusive bounds move the start one day later, and the
// latest time zone (UTC-12) half a day more; two days cover both.
const syncOverlapDays = 2

// earliestDayStart is how long before midnight UTC a day starts in the
// earliest time zone, UTC+14.
const earliestDayStart = 14 * time.Hour

// checkpointJSON is the JSON shape of a Checkpoint, versions 1 and 2.
type checkpointJSON struct {
	V             int                `json:"v,omitempty"`
	Created       time.Time          `json:"created,omitzero"`
	CoveredBefore time.Time          `json:"covered_before,omitzero"`
	Seen          map[string][]int64 `json:"seen,omitempty"`
	IDs           []int64            `json:"ids,omitempty"` // version 1
}

// MarshalJSON encodes c in version 2 of the format (see Checkpoint); the
// zero Checkpoint is {}.
func (c Checkpoint) MarshalJSON() ([]byte, error) {
	if c.IsZero() {
		return []byte("{}"), nil
	}
	out := checkpointJSON{V: 2, Created: c.mark.UTC(), CoveredBefore: c.coveredBefore.UTC(), Seen: map[string][]int64{}}
	for _, r := range c.seen {
		k := r.created.UTC().Format(time.RFC3339Nano)
		out.Seen[k] = append(out.Seen[k], r.id)
	}
	return json.Marshal(out)
}

// UnmarshalJSON decodes versions 1 and 2 of the format (see Checkpoint).
func (c *Checkpoint) UnmarshalJSON(b []byte) error {
	var in checkpointJSON
	if err := json.Unmarshal(b, &in); err != nil {
		return err
	}
	*c = Checkpoint{mark: in.Created}
	switch {
	case in.V == 0 && in.Seen == nil && in.CoveredBefore.IsZero():
		// Version 1: the ids of the mark's second, everything before it.
		c.coveredBefore = in.Created
		for _, id := range in.IDs {
			c.seen = append(c.seen, seenRecord{in.Created, id})
		}
	case in.V == 2 && in.IDs == nil:
		c.coveredBefore = in.CoveredBefore
		for k, ids := range in.Seen {
			t, err := time.Parse(time.RFC3339Nano, k)
			if err != nil {
				return fmt.Errorf("ordermsg: checkpoint: seen: %w", err)
			}
			for _, id := range ids {
				c.seen = append(c.seen, seenRecord{t, id})
			}
			if t.After(c.mark) {
				return fmt.Errorf("ordermsg: checkpoint: seen holds %s, after the mark %s", k, in.Created.Format(time.RFC3339))
			}
		}
	default:
		return fmt.Errorf("ordermsg: checkpoint of version %d with fields %s: %w", in.V, b, errCheckpointFormat)
	}
	if c.mark.IsZero() && (len(c.seen) > 0 || !c.coveredBefore.IsZero()) {
		return fmt.Errorf("ordermsg: checkpoint: records without a mark (created): %w", errCheckpointFormat)
	}
	slices.SortFunc(c.seen, compareSeen)
	c.seen = slices.CompactFunc(c.seen, func(a, b seenRecord) bool { return compareSeen(a, b) == 0 })
	if !c.IsZero() {
		c.prune()
	}
	return nil
}

// errCheckpointFormat is the cause of a checkpoint that cannot be read.
var errCheckpointFormat = errors.New("not a checkpoint this version of ordermsg can read (versions 1 and 2)")
