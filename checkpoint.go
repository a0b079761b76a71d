package ordermsg

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/ordermsg/ordermsg-go/internal/safefile"
)

// Checkpoint is how far a Sync has gone: the creation time of the newest
// record it yielded (the high-water mark) and the records it yielded within
// the window behind the mark that the next Sync lists again. Store it (it
// encodes to JSON and back; LoadCheckpoint and Save keep it in a file) and
// pass it to the next Sync to get only what it has not yielded yet, as the
// example of OrdersService.Sync does. Its zero value means "from the
// beginning"; NewCheckpointAt starts at a given time instead, skipping the
// history.
//
// A checkpoint belongs to one resource (orders or messages) of one website:
// the first Sync it is given records which, and a Sync of another resource
// or website refuses it with a *CheckpointMismatchError before sending any
// request. A checkpoint stored before it carried that identity takes it on
// its next use.
//
// Its size is the number of records created in the window (from midnight
// UTC two days before the mark's UTC date, less 14 hours, up to the mark):
// about three days of records, whatever the length of the history. Records
// that fall out of the window as the mark moves are forgotten.
//
// # JSON format
//
// Version 2, the one written:
//
//	{"v":2,"resource":"orders","website":7,"created":"2024-03-10T12:05:00Z","seen":{"2024-03-10T12:04:00Z":[4],"2024-03-10T12:05:00Z":[5,6]}}
//
// resource ("orders" or "messages") and website are the checkpoint's
// identity, absent until its first Sync; created is the mark; seen maps the
// creation times (RFC 3339, UTC) of the records yielded within the window to
// their ids, ascending. The zero Checkpoint is {}. An optional
// "covered_before" time, not later than the mark, counts every record
// created before it as yielded, until the window has moved past it: it is
// written for a checkpoint made by NewCheckpointAt.
//
// Decoding is all or nothing: input that is not version 2 nor {}, that has
// a member version 2 does not have, or whose fields contradict each other (a
// seen record or a covered_before later than the mark, records without a
// mark, an unknown resource), or that is null, leaves the Checkpoint as it
// was and returns an error that says what is wrong and matches
// ErrInvalidCheckpoint.
type Checkpoint struct {
	resource      string // "orders" or "messages"; "" until its first Sync
	website       int64
	mark          time.Time
	coveredBefore time.Time    // see "covered_before" above; zero once the window is past it
	seen          []seenRecord // ascending by creation time then id
}

// NewCheckpointAt returns a checkpoint that starts at t: a Sync given it
// yields the records created at or after t, and none created before, as if
// every record before t had been yielded already. A record that the server
// shows late, created before t, is not yielded. The zero t starts from the
// beginning, as the zero Checkpoint does.
func NewCheckpointAt(t time.Time) *Checkpoint {
	t = t.Round(0).UTC() // no monotonic reading: the checkpoint is a wall-clock time
	return &Checkpoint{mark: t, coveredBefore: t}
}

// seenRecord is a record that a Sync yielded.
type seenRecord struct {
	created time.Time
	id      int64
}

func compareSeen(a, b seenRecord) int {
	return cmp.Or(a.created.Compare(b.created), cmp.Compare(a.id, b.id))
}

// IsZero reports whether c has nothing yielded yet and no start time: a
// Sync given it lists from the beginning. A zero checkpoint may already
// belong to a resource and website.
func (c *Checkpoint) IsZero() bool { return c.mark.IsZero() }

// Mark is the high-water mark: the creation time of the newest record
// yielded (or the start time of NewCheckpointAt), zero before the first.
func (c *Checkpoint) Mark() time.Time { return c.mark }

// claim checks that c belongs to the resource and website given, or to none
// yet, and makes it theirs.
func (c *Checkpoint) claim(resource string, website int64) error {
	if c.resource != "" && (c.resource != resource || c.website != website) {
		return &CheckpointMismatchError{CheckpointResource: c.resource, CheckpointWebsite: c.website, Resource: resource, Website: website}
	}
	c.resource, c.website = resource, website
	return nil
}

// covers reports whether the record (created, id) counts as yielded: it is
// one of the records remembered, or older than the window or than
// coveredBefore, where the checkpoint cannot tell.
func (c *Checkpoint) covers(created time.Time, id int64) bool {
	if c.IsZero() {
		return false
	}
	if created.Before(c.windowStart()) || created.Before(c.coveredBefore) {
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

// overlapStart is the date_start of a sync from c: see syncOverlapDays.
func (c *Checkpoint) overlapStart() Date {
	if c.IsZero() {
		return Date{}
	}
	return DateOf(c.mark.UTC().AddDate(0, 0, -syncOverlapDays))
}

// windowStart is the earliest creation time that the checkpoint remembers.
func (c *Checkpoint) windowStart() time.Time {
	d := c.mark.UTC().AddDate(0, 0, -windowDays)
	return time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, time.UTC).Add(-earliestDayStart)
}

// The window starts at midnight UTC windowDays before the mark's UTC date,
// less earliestDayStart (a day's start in UTC+14, the earliest time zone): at
// least 62 hours before the mark, at most 86.
//
// A sync lists from date_start syncOverlapDays before the mark's UTC date.
// The spec does not say how the server reads date_start=S: inclusive, the
// list starts at the start of day S in the server's time zone; as "after S",
// a day later. The latest of these starts, exclusive in UTC-12, is 12:00 UTC
// the day after S; it must not be later than the window's start (10:00 UTC
// three days before the mark's date), so S is five days before that date.
const (
	windowDays       = 2
	earliestDayStart = 14 * time.Hour
	syncOverlapDays  = 5
)

// checkpointJSON is the JSON shape of a Checkpoint, version 2.
type checkpointJSON struct {
	V             int                `json:"v,omitempty"`
	Resource      string             `json:"resource,omitempty"`
	Website       int64              `json:"website,omitempty"`
	Created       time.Time          `json:"created,omitzero"`
	CoveredBefore time.Time          `json:"covered_before,omitzero"`
	Seen          map[string][]int64 `json:"seen,omitempty"`
}

// MarshalJSON encodes c in version 2 of the format (see Checkpoint); the
// zero Checkpoint is {}.
func (c Checkpoint) MarshalJSON() ([]byte, error) {
	if c.IsZero() && c.resource == "" {
		return []byte("{}"), nil
	}
	out := checkpointJSON{V: 2, Resource: c.resource, Website: c.website, Created: c.mark.UTC(),
		CoveredBefore: c.coveredBefore.UTC(), Seen: map[string][]int64{}} // omitted when empty
	for _, r := range c.seen {
		k := r.created.UTC().Format(time.RFC3339Nano)
		out.Seen[k] = append(out.Seen[k], r.id)
	}
	return json.Marshal(out)
}

// UnmarshalJSON decodes version 2 of the format (see Checkpoint). On
// an error, c is left as it was.
func (c *Checkpoint) UnmarshalJSON(b []byte) error {
	out, err := decodeCheckpoint(b)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidCheckpoint, err)
	}
	*c = out
	return nil
}

// decodeCheckpoint decodes and checks a checkpoint's JSON; its error says
// what is wrong, without a prefix.
func decodeCheckpoint(b []byte) (Checkpoint, error) {
	if string(bytes.TrimSpace(b)) == "null" {
		// Decoded as {}, it would start a sync from the beginning again.
		return Checkpoint{}, errors.New("null is not a checkpoint (a zero checkpoint is {})")
	}
	// encoding/json/v2, as every decode of the SDK: names match exactly; a
	// member twice (v1 keeps the last) or anything after the object is an error.
	var in checkpointJSON
	dec := jsontext.NewDecoder(bytes.NewReader(b))
	var semantic *jsonv2.SemanticError
	switch err := jsonv2.UnmarshalDecode(dec, &in, jsonv2.RejectUnknownMembers(true)); {
	case errors.Is(err, jsonv2.ErrUnknownName) && errors.As(err, &semantic):
		return Checkpoint{}, fmt.Errorf("unknown field %q", semantic.JSONPointer.LastToken())
	case err != nil:
		return Checkpoint{}, err
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return Checkpoint{}, errors.New("data after the checkpoint's JSON object")
	}
	return in.checkpoint()
}

// checkpoint checks in and returns the Checkpoint it describes.
func (in *checkpointJSON) checkpoint() (Checkpoint, error) {
	out := Checkpoint{resource: in.Resource, website: in.Website, mark: in.Created}
	switch in.Resource {
	case "":
		if in.Website != 0 {
			return out, fmt.Errorf("website %d without a resource", in.Website)
		}
	case "orders", "messages":
		if in.Website <= 0 {
			return out, fmt.Errorf("resource %q without a positive website id", in.Resource)
		}
	default:
		return out, fmt.Errorf("resource %q: want \"orders\" or \"messages\"", in.Resource)
	}
	switch {
	case in.V == 0 && in.Resource == "" && in.Created.IsZero() && in.Seen == nil && in.CoveredBefore.IsZero():
		// {}: the zero Checkpoint.
	case in.V == 2:
		out.coveredBefore = in.CoveredBefore
		for k, ids := range in.Seen {
			t, err := time.Parse(time.RFC3339Nano, k)
			if err != nil {
				return out, fmt.Errorf("seen: %q is not an RFC 3339 time", k)
			}
			if !in.Created.IsZero() && t.After(in.Created) {
				return out, fmt.Errorf("seen holds %s, after the mark (created) %s", k, in.Created.Format(time.RFC3339Nano))
			}
			for _, id := range ids {
				out.seen = append(out.seen, seenRecord{t, id})
			}
		}
	case in.V == 0:
		return out, fmt.Errorf(`a checkpoint other than {} without "v":2`)
	default:
		return out, fmt.Errorf("version %d: this version of ordermsg reads version 2", in.V)
	}
	if in.Created.IsZero() && (len(out.seen) > 0 || !out.coveredBefore.IsZero()) {
		return out, fmt.Errorf("records or covered_before without a mark (created)")
	}
	if out.coveredBefore.After(in.Created) {
		return out, fmt.Errorf("covered_before %s is after the mark (created) %s",
			out.coveredBefore.Format(time.RFC3339Nano), in.Created.Format(time.RFC3339Nano))
	}
	slices.SortFunc(out.seen, compareSeen)
	out.seen = slices.CompactFunc(out.seen, func(a, b seenRecord) bool { return compareSeen(a, b) == 0 })
	out.prune() // a no-op without a mark: there is nothing to forget then
	return out, nil
}

// LoadCheckpoint reads a checkpoint that Save wrote to path. A missing file
// is an error that matches fs.ErrNotExist: start from the beginning (a new,
// zero Checkpoint) or from now (NewCheckpointAt) then, as the caller
// chooses. A file that is not a checkpoint is an error that matches
// ErrInvalidCheckpoint and names the file.
func LoadCheckpoint(path string) (*Checkpoint, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	cp, err := decodeCheckpoint(b)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrInvalidCheckpoint, path, err)
	}
	return &cp, nil
}

// Save writes c to path as JSON, the way DownloadFile writes a file: synced
// and renamed onto path only when complete, so a crash leaves the old
// checkpoint or the new one, never a mix.
func (c *Checkpoint) Save(path string) error {
	if c == nil {
		return invalidArgument("Save of a nil *Checkpoint")
	}
	b, err := json.Marshal(c)
	if err != nil {
		return err
	}
	out, err := safefile.Open(context.Background(), path)
	if err != nil {
		return fmt.Errorf("ordermsg: saving checkpoint: %w", err)
	}
	if _, err := out.Write(b); err != nil {
		out.Discard()
		return fmt.Errorf("ordermsg: saving checkpoint: %w", err)
	}
	if err := out.Commit(); err != nil {
		return fmt.Errorf("ordermsg: saving checkpoint: %w", err)
	}
	return nil
}
