// Package checkpoint is the state and the JSON format behind
// ordermsg.Checkpoint, whose doc describes both: the identity of the list a
// Sync reads (resource and website), the high-water mark, and the records
// yielded within a window behind the mark.
package checkpoint

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/ordermsg/ordermsg-go/internal/jsontok"
)

// State is a checkpoint. Its zero value means "from the beginning".
type State struct {
	Resource      string // "orders" or "messages"; "" until its first Sync
	Website       int64
	Mark          time.Time // the creation time of the newest record yielded, or the t of At
	coveredBefore time.Time // see "covered_before" in ordermsg.Checkpoint's doc; zero once the window is past it
	seen          []Record  // ascending by creation time then id
}

// Record is a record that a Sync yielded.
type Record struct {
	Created time.Time
	ID      int64
}

func compare(a, b Record) int {
	return cmp.Or(a.Created.Compare(b.Created), cmp.Compare(a.ID, b.ID))
}

// At returns a state that counts every record created before t, to the
// second, as yielded: the API dates records in whole seconds, so a record
// created in t's second, after t's fraction, is dated before t itself.
func At(t time.Time) State {
	t = toSecond(t)
	return State{Mark: t, coveredBefore: t}
}

// toSecond is t as a wall-clock time (no monotonic reading) in UTC, cut to
// the whole second: the resolution of the API's times.
func toSecond(t time.Time) time.Time { return t.Round(0).UTC().Truncate(time.Second) }

// NewestReadable returns the newest record remembered whose id is
// positive, if any: the one that can be read back by id (the API reads no
// record by an id that is not positive, and the SDK never asks).
func (s *State) NewestReadable() (Record, bool) {
	for i := len(s.seen) - 1; i >= 0; i-- {
		if s.seen[i].ID > 0 {
			return s.seen[i], true
		}
	}
	return Record{}, false
}

// Covers reports whether the record (created, id) counts as yielded: it is
// one of the records remembered, or older than the window or than
// coveredBefore, where the state cannot tell.
func (s *State) Covers(created time.Time, id int64) bool {
	if s.Mark.IsZero() {
		return false
	}
	if created.Before(s.windowStart()) || created.Before(s.coveredBefore) {
		return true
	}
	_, found := slices.BinarySearchFunc(s.seen, Record{created, id}, compare)
	return found
}

// Advance records that (created, id), which Covers does not hold, has been
// yielded, moves the mark, and forgets what falls out of the window.
func (s *State) Advance(created time.Time, id int64) {
	r := Record{created, id}
	i, _ := slices.BinarySearchFunc(s.seen, r, compare)
	s.seen = slices.Insert(s.seen, i, r)
	if created.After(s.Mark) {
		s.Mark = created
		s.prune()
	}
}

// prune forgets the records created before the window.
func (s *State) prune() {
	start := s.windowStart()
	if !s.coveredBefore.After(start) {
		s.coveredBefore = time.Time{}
	}
	n, _ := slices.BinarySearchFunc(s.seen, Record{Created: start}, compare)
	s.seen = slices.Delete(s.seen, 0, n)
}

// OverlapStart is a time, in UTC, on the day that a sync from s lists from
// (see syncOverlapDays); zero for a state without a mark.
func (s *State) OverlapStart() time.Time {
	if s.Mark.IsZero() {
		return time.Time{}
	}
	return s.Mark.UTC().AddDate(0, 0, -syncOverlapDays)
}

// windowStart is the earliest creation time that the state remembers.
func (s *State) windowStart() time.Time {
	d := s.Mark.UTC().AddDate(0, 0, -windowDays)
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

// checkpointJSON is the JSON shape of a State, version 2.
type checkpointJSON struct {
	V             int                `json:"v,omitempty"`
	Resource      string             `json:"resource,omitempty"`
	Website       int64              `json:"website,omitempty"`
	Created       time.Time          `json:"created,omitzero"`
	CoveredBefore time.Time          `json:"covered_before,omitzero"`
	Seen          map[string][]int64 `json:"seen,omitempty"`
}

// MarshalJSON encodes s in version 2 of the format; the zero State is {}.
func (s State) MarshalJSON() ([]byte, error) {
	if s.Mark.IsZero() && s.Resource == "" {
		return []byte("{}"), nil
	}
	out := checkpointJSON{V: 2, Resource: s.Resource, Website: s.Website, Created: s.Mark.UTC(),
		CoveredBefore: s.coveredBefore.UTC(), Seen: map[string][]int64{}} // omitted when empty
	for _, r := range s.seen {
		k := r.Created.UTC().Format(time.RFC3339Nano)
		out.Seen[k] = append(out.Seen[k], r.ID)
	}
	return json.Marshal(out)
}

// Decode decodes and checks a state's JSON; its error says what is wrong,
// without a prefix.
func Decode(b []byte) (State, error) {
	switch v := jsontext.Value(bytes.TrimSpace(b)); {
	case string(v) == "null":
		// Decoded as {}, it would start a sync from the beginning again.
		return State{}, errors.New("null is not a checkpoint (a zero checkpoint is {})")
	case len(v) == 0:
		return State{}, errors.New("empty input is not a checkpoint (a zero checkpoint is {})")
	case v.Kind() != '{' && v.Kind() != 0: // 0: not JSON, which the decoder says
		return State{}, fmt.Errorf("a checkpoint is a JSON object, not a JSON %s", jsontok.KindName(v.Kind()))
	}
	// encoding/json/v2, as every decode of the SDK: names match exactly; a
	// member twice (v1 keeps the last) or anything after the object is an error.
	var in checkpointJSON
	dec := jsontext.NewDecoder(bytes.NewReader(b))
	var semantic *jsonv2.SemanticError
	switch err := jsonv2.UnmarshalDecode(dec, &in, jsonv2.RejectUnknownMembers(true)); {
	case errors.Is(err, jsonv2.ErrUnknownName) && errors.As(err, &semantic):
		return State{}, fmt.Errorf("unknown field %q", semantic.JSONPointer.LastToken())
	case err != nil:
		return State{}, err
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return State{}, errors.New("data after the checkpoint's JSON object")
	}
	return in.state()
}

// state checks in and returns the State it describes.
func (in *checkpointJSON) state() (State, error) {
	out := State{Resource: in.Resource, Website: in.Website, Mark: in.Created}
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
		// {}: the zero State.
	case in.V == 2:
		out.coveredBefore = toSecond(in.CoveredBefore) // as At makes it, even if an older At wrote a fraction
		for k, ids := range in.Seen {
			t, err := time.Parse(time.RFC3339Nano, k)
			if err != nil {
				return out, fmt.Errorf("seen: %q is not an RFC 3339 time", k)
			}
			if !in.Created.IsZero() && t.After(in.Created) {
				return out, fmt.Errorf("seen holds %s, after the mark (created) %s", k, in.Created.Format(time.RFC3339Nano))
			}
			for _, id := range ids {
				out.seen = append(out.seen, Record{t, id})
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
	slices.SortFunc(out.seen, compare)
	out.seen = slices.CompactFunc(out.seen, func(a, b Record) bool { return compare(a, b) == 0 })
	out.prune() // a no-op without a mark: there is nothing to forget then
	return out, nil
}
