package ordermsg

import (
	"slices"
	"time"
)

// Checkpoint is how far a Sync has gone: the creation time of the last
// record it yielded (the high-water mark) and the ids of the records
// yielded with exactly that time. Store it (it encodes to JSON and back) and
// pass it to the next Sync to get only what is newer. Its zero value means
// "from the beginning". Keep one checkpoint per website and resource.
//
// Its size is the number of records that share the high-water mark's
// creation time, usually one.
type Checkpoint struct {
	// Created is the date_created of the last record yielded; zero before
	// the first.
	Created time.Time `json:"created,omitzero"`
	// IDs are the ids of the records yielded whose date_created equals
	// Created, ascending: records created in the same second are told apart
	// by id.
	IDs []int64 `json:"ids,omitempty"`
}

// IsZero reports whether c is the zero Checkpoint: nothing yielded yet.
func (c *Checkpoint) IsZero() bool { return c.Created.IsZero() }

// covers reports whether the record (created, id) is at or before the
// checkpoint, that is, was yielded already or is older than the high-water
// mark.
func (c *Checkpoint) covers(created time.Time, id int64) bool {
	if c.IsZero() {
		return false
	}
	if !created.Equal(c.Created) {
		return created.Before(c.Created)
	}
	_, found := slices.BinarySearch(c.IDs, id)
	return found
}

// advance records that (created, id), which covers does not hold, has been
// yielded.
func (c *Checkpoint) advance(created time.Time, id int64) {
	if c.IsZero() || created.After(c.Created) {
		c.Created = created
		c.IDs = append(c.IDs[:0], id)
		return
	}
	i, _ := slices.BinarySearch(c.IDs, id)
	c.IDs = slices.Insert(c.IDs, i, id)
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
	return DateOf(c.Created.UTC().AddDate(0, 0, -syncOverlapDays))
}

// syncOverlapDays is how many days before the high-water mark's date a sync
// starts its list. Exclusive bounds move the start one day later, and the
// latest time zone (UTC-12) half a day more; two days cover both.
const syncOverlapDays = 2
