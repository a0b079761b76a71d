package ordermsg

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"time"
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
)

// OrderingError is the error of a Sync that met a record created before the
// record listed just before it. Neither of the two is yielded, nor anything
// listed after them: a Sync yields a record only once the record listed
// after it (or the end of the list) shows the order to be ascending, so a
// list in the wrong order from its start yields nothing and leaves the
// checkpoint where it was.
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

// syncOptions are list options that a Sync can take: it chooses the page,
// the date window and the order itself.
type syncOptions interface {
	listOptions
	// forSync returns a copy of the options that lists, in ascending
	// creation order, the records created from start on (all of them when
	// start is zero). It fails when the caller set what Sync chooses.
	forSync(start Date) (listOptions, error)
}

// setSyncFields checks that the caller left zero the fields that Sync
// chooses, and sets them: from start on, ascending by creation.
func setSyncFields(page *int, dateStart, dateEnd *Date, dir *Direction, sort *string, start Date) error {
	if *page != 0 || !dateStart.IsZero() || !dateEnd.IsZero() || *dir != "" || *sort != "" {
		return errors.New("ordermsg: Sync chooses Page, DateStart, DateEnd, Direction and Sort itself; leave them zero")
	}
	*dateStart, *dir, *sort = start, DirectionAsc, syncSort
	return nil
}

func (o *ListOrdersOptions) forSync(start Date) (listOptions, error) {
	out := ListOrdersOptions{}
	if o != nil {
		out = *o
	}
	return &out, setSyncFields(&out.Page, &out.DateStart, &out.DateEnd, &out.Direction, &out.Sort, start)
}

func (o *ListMessagesOptions) forSync(start Date) (listOptions, error) {
	out := ListMessagesOptions{}
	if o != nil {
		out = *o
	}
	return &out, setSyncFields(&out.Page, &out.DateStart, &out.DateEnd, &out.Direction, &out.Sort, start)
}

// syncSort is the sort a Sync asks for. The spec does not list the sort
// names; date_created is the field the records are created by.
const syncSort = "date_created"

// created is a record that tells when it was created.
type created interface{ createdAt() time.Time }

func (o *Order) createdAt() time.Time   { return o.DateCreated.Time }
func (m *Message) createdAt() time.Time { return m.DateCreated.Time }

func createdOf[T any](v *T) time.Time {
	if r, ok := any(v).(created); ok {
		return r.createdAt()
	}
	return time.Time{}
}

// sync walks the records of cp's overlap and after it, in ascending creation
// order, yields those that cp does not cover, and advances cp as each one is
// yielded. Pages are fetched one at a time, whatever walkOpts ask for, and
// each record is held back until the record listed after it (or the end of
// the list) shows that the list is in ascending order.
func (r resource[T]) sync(ctx context.Context, websiteID int64, cp *Checkpoint, opts syncOptions, walkOpts []WalkOption) iter.Seq2[*T, error] {
	var list listOptions
	err := errors.New("ordermsg: Sync needs a checkpoint (a pointer to a zero Checkpoint to start from the beginning)")
	if cp != nil {
		list, err = opts.forSync(cp.overlapStart())
	}
	// Pages fetched at once are answered at different times: a record that
	// appears meanwhile shifts the later pages but not the earlier ones, and
	// the record pushed across the boundary is on neither.
	walkOpts = append(slices.Clip(walkOpts), WithConcurrency(1))
	return func(yield func(*T, error) bool) {
		if err != nil {
			yield(nil, err)
			return
		}
		var held *T // listed, in order so far, not yet yielded
		release := func() bool {
			t, id := createdOf(held), idOf(held)
			if cp.covers(t, id) {
				return true
			}
			cp.advance(t, id)
			return yield(held, nil)
		}
		for rec, err := range r.all(ctx, websiteID, list, walkOpts) {
			if err == nil {
				err = r.checkOrder(held, rec)
			}
			if err != nil {
				yield(nil, err)
				return
			}
			if held != nil && !release() {
				return
			}
			held = rec
		}
		if held != nil {
			release()
		}
	}
}

// checkOrder checks that rec, listed after prev (nil for the first record),
// has a creation time and was not created before prev.
func (r resource[T]) checkOrder(prev, rec *T) error {
	t := createdOf(rec)
	if t.IsZero() {
		return fmt.Errorf("%w: %s %d", ErrNoCreationTime, r.kind, idOf(rec))
	}
	if prev == nil || !t.Before(createdOf(prev)) {
		return nil
	}
	return &OrderingError{Object: r.kind, PrevID: idOf(prev), PrevCreated: createdOf(prev), ID: idOf(rec), Created: t}
}
