package ordermsg

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"time"

	"github.com/ordermsg/ordermsg-go/internal/checkpoint"
)

// Errors of a Sync whose server's list cannot be synced from.
var (
	// ErrNotAscending is matched (errors.Is) by the *OrderingError of a
	// Sync whose server did not list the records in ascending creation
	// order when asked to.
	ErrNotAscending = errors.New("ordermsg: the server did not list records in ascending creation order")
	// ErrNoCreationTime is returned by a Sync that meets a record without a
	// date_created: it cannot be placed before or after the checkpoint.
	ErrNoCreationTime = errors.New("ordermsg: a record has no date_created")
	// ErrFutureRecord is returned by a Sync that meets a record created
	// more than a day after the client's clock (FutureTolerance). Such a
	// record is not yielded and the checkpoint does not move to it: its mark
	// would pass every record created from now until that date, and they
	// would all count as yielded. Either the server's data or this machine's
	// clock is wrong; the error names the record.
	ErrFutureRecord = errors.New("ordermsg: a record is dated in the future")
)

// FutureTolerance is how far after the client's clock a record's
// date_created may be before Sync refuses it with ErrFutureRecord: a day,
// which covers clocks set to any time zone's date by mistake.
const FutureTolerance = 24 * time.Hour

// OrderingError is the error of a Sync that met a record created before the
// record listed just before it. Neither of the two is yielded, nor anything
// listed after them.
type OrderingError struct {
	// Object is the records' kind: "order" or "message".
	Object string
	// PrevID and PrevCreated name the record listed first.
	PrevID      int64
	PrevCreated time.Time
	// ID and Created name the record listed after it, created earlier.
	ID      int64
	Created time.Time
}

// Error says which two records came in the wrong order.
func (e *OrderingError) Error() string {
	return fmt.Sprintf("%v: %s %d (created %s) was listed after %s %d (created %s)",
		ErrNotAscending, e.Object, e.ID, e.Created.Format(time.RFC3339), e.Object, e.PrevID, e.PrevCreated.Format(time.RFC3339))
}

// Is makes errors.Is(err, ErrNotAscending) true.
func (e *OrderingError) Is(target error) bool { return target == ErrNotAscending }

// maxListings is how many times one Sync lists from its checkpoint before
// it gives up on a list that keeps shifting (ListShiftedError).
const maxListings = 4

// sync is OrdersService.Sync and MessagesService.Sync: it lists again from cp
// when the list shifts under it, up to maxListings times.
func (r resource[T, P]) sync(ctx context.Context, websiteID int64, cp *Checkpoint, opts syncOptions[T]) iter.Seq2[*T, error] {
	return func(yield func(*T, error) bool) {
		if err := r.startSync(websiteID, cp, opts); err != nil {
			yield(nil, err)
			return
		}
		for listing := 1; ; listing++ {
			shift := r.syncListing(ctx, websiteID, cp, opts, yield)
			if shift == nil {
				return
			}
			if listing == maxListings {
				shift.Listings = listing
				yield(nil, shift)
				return
			}
		}
	}
}

// startSync checks a Sync's arguments before any request, and claims cp.
func (r resource[T, P]) startSync(websiteID int64, cp *Checkpoint, opts syncOptions[T]) error {
	if cp == nil {
		return invalidArgument("Sync needs a checkpoint (a pointer to a zero Checkpoint to start from the beginning)")
	}
	list, err := opts.forSync(cp.overlapStart())
	if err != nil {
		return err
	}
	if _, err := r.checkList(websiteID, list); err != nil {
		return err
	}
	return cp.claim(r.collection, websiteID)
}

// errShifted ends a walk whose list lost records between two pages.
var errShifted = errors.New("ordermsg: the list shifted")

// syncListing lists once from cp's overlap on and yields what cp does not
// cover. It returns the shift that ended it when the list changed under it
// in a way that can hide a record (cp then covers exactly what was yielded),
// or nil when it ended otherwise: at the end of the list, by the caller's
// break, or with an error yielded. Records that left the list moved the ones
// after them back; those are all created after the record held, so listing
// again from cp finds them. Records that joined only repeat others, but an
// ordering error or a page of repeats after a change of total is a shift too.
func (r resource[T, P]) syncListing(ctx context.Context, websiteID int64, cp *Checkpoint, opts syncOptions[T], yield func(*T, error) bool) *ListShiftedError {
	start := cp.overlapStart()
	list, _ := opts.forSync(start) // checked by startSync
	shift := &ListShiftedError{Object: r.kind}
	prevTotal, changed := -1, false
	check := func(pg Pagination) error {
		if prevTotal >= 0 && pg.Total != prevTotal {
			changed, shift.Before, shift.After = true, prevTotal, pg.Total
			if pg.Total < prevTotal {
				return errShifted
			}
		}
		prevTotal = pg.Total
		return nil
	}
	overlap := &overlapCheck[T, P]{r: r, mark: cp.s.Mark, dateStart: start}
	overlap.want, overlap.pending = cp.s.Newest()
	var held *T // listed, in order so far, not yet yielded
	// release yields held unless cp covers it; false ends the listing.
	release := func() bool {
		if err := overlap.verify(ctx, websiteID, opts, held); err != nil {
			yield(nil, err)
			return false
		}
		if held == nil {
			return true
		}
		t, id := P(held).createdAt(), P(held).refID()
		if cp.s.Covers(t, id) {
			return true
		}
		cp.s.Advance(t, id)
		return yield(held, nil)
	}
	// One page at a time: of pages fetched at once and answered at different
	// times, a record that appears meanwhile can push another off both.
	for rec, err := range r.walkList(ctx, websiteID, list, nil, check) {
		if err == nil {
			err = r.checkOrder(held, rec)
		}
		switch {
		case err == errShifted, err != nil && changed && (errors.Is(err, ErrNotAscending) || errors.Is(err, ErrPaginationStuck)):
			return shift
		case err != nil:
			yield(nil, err)
			return nil
		}
		overlap.see(rec)
		if held != nil && !release() {
			return nil
		}
		held = rec
	}
	if release() && held != nil {
		held = nil
		release() // the end of the list, for the check
	}
	return nil
}

// overlapCheck checks that a listing from a checkpoint lists the newest
// record the checkpoint remembers before a record created after the mark is
// yielded; when it does not, it reads that record by id (the OverlapError
// case of OrdersService.Sync).
type overlapCheck[T any, P record[T]] struct {
	r         resource[T, P]
	want      checkpoint.Record // the newest record remembered
	mark      time.Time
	dateStart Date
	pending   bool // want not listed yet, and not checked
}

// see is called with each record listed, in order.
func (c *overlapCheck[T, P]) see(rec *T) {
	if c.pending && P(rec).refID() == c.want.ID && P(rec).createdAt().Equal(c.want.Created) {
		c.pending = false
	}
}

// verify is called before rec is yielded, and with nil at the end of the
// list: it checks the remembered record when rec is the first record
// created after the mark, or at the end, and it has not been listed.
func (c *overlapCheck[T, P]) verify(ctx context.Context, websiteID int64, opts syncOptions[T], rec *T) error {
	if !c.pending || (rec != nil && !P(rec).createdAt().After(c.mark)) {
		return nil
	}
	c.pending = false
	got, err := c.r.get(ctx, websiteID, c.want.ID, noOptions{})
	switch {
	case errors.Is(err, ErrNotFound):
		return nil // deleted
	case err != nil:
		return err
	case !P(got).createdAt().Equal(c.want.Created) || !opts.certainlyLists(got):
		return nil // not the record remembered, or it may have left the filter
	}
	return &OverlapError{Object: c.r.kind, ID: c.want.ID, Created: c.want.Created, DateStart: c.dateStart}
}

// checkOrder checks that rec, listed after prev (nil for the first record),
// has a creation time and was not created before prev.
func (r resource[T, P]) checkOrder(prev, rec *T) error {
	t := P(rec).createdAt()
	if t.IsZero() {
		return fmt.Errorf("%w: %s %d", ErrNoCreationTime, r.kind, P(rec).refID())
	}
	if now := time.Now(); t.After(now.Add(FutureTolerance)) {
		return fmt.Errorf("%w: %s %d was created at %s, more than %s after this machine's clock (%s)",
			ErrFutureRecord, r.kind, P(rec).refID(), t.Format(time.RFC3339), FutureTolerance, now.UTC().Format(time.RFC3339))
	}
	if prev == nil || !t.Before(P(prev).createdAt()) {
		return nil
	}
	return &OrderingError{Object: r.kind, PrevID: P(prev).refID(), PrevCreated: P(prev).createdAt(), ID: P(rec).refID(), Created: t}
}
