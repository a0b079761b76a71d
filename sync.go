package ordermsg

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/ordermsg/ordermsg-go/internal/checkpoint"
)

// FutureTolerance is how far after the client's clock a record's
// date_created may be before Sync refuses it with ErrFutureRecord: a day,
// which covers clocks set to any time zone's date by mistake.
const FutureTolerance = 24 * time.Hour

// maxListings is how many times one Sync lists from its checkpoint before
// it gives up on a list that keeps shifting (ListShiftedError).
const maxListings = 4

// sync is OrdersService.Sync and MessagesService.Sync: it lists again from cp
// when the list shifts under it, up to maxListings times. Of walk, only
// WithSkipUndecodable counts: pages are fetched one at a time.
func (r resource[T, P]) sync(ctx context.Context, websiteID int64, cp *Checkpoint, opts syncOptions[T], walk []WalkOption) iter.Seq2[*T, error] {
	walk = append(slices.Clip(walk), WithConcurrency(1))
	var cfg walkConfig
	for _, o := range walk {
		if o != nil {
			o(&cfg)
		}
	}
	return func(yield func(*T, error) bool) {
		if err := r.startSync(websiteID, cp, opts); err != nil {
			yield(nil, err)
			return
		}
		run := &syncRun{into: opts.responseInto(), unplaced: map[string]bool{}, skip: cfg.skip}
		missed := false // the listing before missed the overlap
		for listing := 1; ; listing++ {
			shift, miss := r.syncListing(ctx, websiteID, cp, opts, walk, run, missed || listing == maxListings, yield)
			if shift == nil {
				return
			}
			missed = miss
			if listing == maxListings {
				shift.Listings = listing
				yield(nil, shift)
				return
			}
		}
	}
}

// syncRun is what one Sync keeps across its listings: where the caller
// wants each record's page response, and the records that could not be
// decoded nor placed that it has yielded (by their bytes), which a listing
// after a shift lists again.
type syncRun struct {
	into     *Response
	unplaced map[string]bool
	skip     bool // WithSkipUndecodable: a record that cannot be placed is yielded as an error
}

// startSync checks a Sync's arguments before any request, and claims cp.
func (r resource[T, P]) startSync(websiteID int64, cp *Checkpoint, opts syncOptions[T]) error {
	if cp == nil {
		return invalidArgument("Sync needs a checkpoint (a pointer to a zero Checkpoint to start from the beginning)")
	}
	list, err := opts.forSync(cp.overlapStart(), nil)
	if err != nil {
		return err
	}
	if _, err := r.checkList(websiteID, list); err != nil {
		return err
	}
	if err := cp.check(r.collection, websiteID); err != nil {
		return err
	}
	if now := time.Now(); cp.Mark().After(now.Add(FutureTolerance)) {
		return fmt.Errorf("%w: it is %s, more than %s after this machine's clock (%s); a clock was wrong when it was made, or it was edited: "+
			"start again from a checkpoint of NewCheckpointAt, or set the clock right",
			ErrFutureCheckpoint, cp.Mark().UTC().Format(time.RFC3339), FutureTolerance, now.UTC().Format(time.RFC3339))
	}
	cp.claim(r.collection, websiteID)
	return nil
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
//
// A listing that misses the newest record cp remembers, which still exists
// (the overlap check), is taken for a shift too, and missed reported, unless
// strict: a record that left a page already read while another joined
// hides the shift from the total, and moves the next page's first record
// onto the page read. When strict (the listing before missed it too), the
// miss is the *OverlapError of a date filter that starts late.
//
// Each record is yielded with its page's response in run.into, when set:
// the walk sets pageResp before it yields a page's first record, and a
// record held back carries its own.
func (r resource[T, P]) syncListing(ctx context.Context, websiteID int64, cp *Checkpoint, opts syncOptions[T], walk []WalkOption,
	run *syncRun, strict bool, yield func(*T, error) bool) (shift *ListShiftedError, missed bool) {
	start := cp.overlapStart()
	var pageResp Response
	list, _ := opts.forSync(start, &pageResp) // checked by startSync
	// emit yields an entry with its page's response.
	emit := func(e *entry[T, P]) bool {
		if run.into != nil {
			*run.into = e.resp
		}
		if e.bad != nil && !e.placed() {
			if run.unplaced[string(e.bad.Raw)] {
				return true // yielded by an earlier listing of this run
			}
			run.unplaced[string(e.bad.Raw)] = true
		}
		return yield(e.rec, e.err())
	}
	shift = &ListShiftedError{Object: r.kind}
	prevTotal, changed := -1, false
	page := 0 // the page being read
	check := func(pg Pagination) error {
		page = pg.CurrentPage
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
	overlap.want, overlap.pending = cp.s.NewestReadable()
	// held is listed, in order so far, not yet yielded; after are the
	// records listed after it that could not be decoded nor placed in
	// creation order, yielded after it.
	var held *entry[T, P]
	var after []*entry[T, P]
	// release yields held unless cp covers it, then after; with held nil,
	// it is the end of the list, for the overlap check. false ends the
	// listing.
	release := func() bool {
		var at time.Time // the end of the list
		if held != nil {
			at = held.created()
		}
		if err := overlap.verify(ctx, websiteID, opts, at); err != nil {
			if !strict && errors.Is(err, ErrOverlapMissing) {
				missed = true
			} else {
				yield(nil, err)
			}
			return false
		}
		if held != nil && !cp.s.Covers(held.created(), held.id()) {
			cp.s.Advance(held.created(), held.id())
			if !emit(held) {
				return false
			}
		}
		held = nil
		for len(after) > 0 {
			e := after[0]
			after = after[1:]
			if !emit(e) {
				return false
			}
		}
		return true
	}
	ended := func() (*ListShiftedError, bool) {
		if missed {
			return shift, true
		}
		return nil, false
	}
	// One page at a time: of pages fetched at once and answered at different
	// times, a record that appears meanwhile can push another off both.
	for rec, err := range r.walkList(ctx, &r.ops.sync, websiteID, list, walk, check) {
		cur := entry[T, P]{rec: rec, resp: pageResp}
		if bad, ok := err.(*RecordDecodeError); ok {
			cur.rec, cur.bad, err = nil, bad, nil
			if !cur.placed() {
				if held != nil {
					after = append(after, &cur)
				} else if !emit(&cur) {
					return nil, false
				}
				continue
			}
		}
		if err == nil {
			err = r.checkOrder(held, cur)
		}
		if run.skip && cur.rec != nil && (errors.Is(err, ErrNoCreationTime) || errors.Is(err, ErrFutureRecord)) {
			cur = r.refused(cur, page, err)
			if held != nil {
				after = append(after, &cur)
			} else if !emit(&cur) {
				return nil, false
			}
			continue
		}
		switch {
		case err == errShifted, err != nil && changed && (errors.Is(err, ErrNotAscending) || errors.Is(err, ErrPaginationStuck)):
			return shift, false
		case err != nil:
			yield(nil, err)
			return nil, false
		}
		overlap.see(cur)
		if held != nil && !release() {
			return ended()
		}
		held = &cur
	}
	if held == nil || release() {
		release() // the end of the list, for the check
	}
	return ended()
}

// overlapCheck checks that a listing from a checkpoint lists the newest
// record the checkpoint remembers that can be read by id (its id is
// positive) before a record created after the mark is yielded; when it does
// not, it reads that record by id (the OverlapError case of
// OrdersService.Sync).
type overlapCheck[T any, P record[T]] struct {
	r         resource[T, P]
	want      checkpoint.Record // the newest record remembered that can be read by id
	mark      time.Time
	dateStart Date
	pending   bool // want not listed yet, and not checked
}

// see is called with each record listed and placed, in order.
func (c *overlapCheck[T, P]) see(e entry[T, P]) {
	if c.pending && e.id() == c.want.ID && e.created().Equal(c.want.Created) {
		c.pending = false
	}
}

// verify is called before a record created at t is yielded, and with the
// zero time at the end of the list: it checks the remembered record when
// the record is the first created after the mark, or at the end, and it has
// not been listed.
func (c *overlapCheck[T, P]) verify(ctx context.Context, websiteID int64, opts syncOptions[T], t time.Time) error {
	if !c.pending || (!t.IsZero() && !t.After(c.mark)) {
		return nil
	}
	c.pending = false
	got, err := c.r.get(ctx, websiteID, c.want.ID, noOptions{})
	switch {
	case errors.Is(err, ErrNotFound):
		return nil // deleted
	case errors.As(err, new(*DecodeError)):
		return nil // it can no longer be read: whether it belongs in the list cannot be told
	case err != nil:
		return err
	case !P(got).createdAt().Equal(c.want.Created) || !opts.certainlyLists(got):
		return nil // not the record remembered, or it may have left the filter
	}
	return &OverlapError{Object: c.r.kind, ID: c.want.ID, Created: c.want.Created, DateStart: c.dateStart}
}

// refused is the entry of a record that decoded but that Sync cannot place
// in creation order (err: it has no creation time, or is dated in the
// future): its *RecordDecodeError, yielded unplaced, so that the mark does
// not move to it and a later run meets it again. Its bytes are its own as
// sent with KeepRawJSON, else its encoding (the same JSON value).
func (r resource[T, P]) refused(e entry[T, P], page int, err error) entry[T, P] {
	raw := P(e.rec).RawJSON()
	if raw == nil {
		raw, _ = json.Marshal(e.rec, codecOptions)
	}
	bad := &RecordDecodeError{Object: r.kind, ID: e.id(), Created: e.created(), Page: page, Index: -1, Offset: -1, Raw: raw, Err: err}
	return entry[T, P]{bad: bad, resp: e.resp, unplaceable: true}
}

// checkOrder checks that cur, listed after prev (nil for the first record),
// has a creation time, is not dated in the future, and was not created
// before prev.
func (r resource[T, P]) checkOrder(prev *entry[T, P], cur entry[T, P]) error {
	t := cur.created()
	if t.IsZero() {
		return fmt.Errorf("%w: %s %d", ErrNoCreationTime, r.kind, cur.id())
	}
	if now := time.Now(); t.After(now.Add(FutureTolerance)) {
		return fmt.Errorf("%w: %s %d was created at %s, more than %s after this machine's clock (%s)",
			ErrFutureRecord, r.kind, cur.id(), t.Format(time.RFC3339), FutureTolerance, now.UTC().Format(time.RFC3339))
	}
	if prev == nil || !t.Before(prev.created()) {
		return nil
	}
	return &OrderingError{Object: r.kind, PrevID: prev.id(), PrevCreated: prev.created(), ID: cur.id(), Created: t}
}
