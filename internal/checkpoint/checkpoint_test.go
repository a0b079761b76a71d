package checkpoint

import (
	"strings"
	"testing"
	"time"
)

func TestDecodeSaysWhatIsWrong(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`null`, "null is not a checkpoint"},
		{` `, "empty input is not a checkpoint"},
		{`[]`, "a checkpoint is a JSON object, not a JSON array"},
		{`"x"`, "not a JSON string"},
		{`{"v":1,"created":"2024-03-10T12:05:00Z"}`, "version 1: this version of ordermsg reads version 2"},
		{`{"created":"2024-03-10T12:05:00Z"}`, `without "v":2`},
		{`{"v":2,"extra":1}`, `unknown field "extra"`},
		{`{"v":2}{}`, "data after the checkpoint's JSON object"},
		{`{"v":2,"resource":"users","website":1}`, `resource "users"`},
		{`{"v":2,"resource":"orders"}`, "without a positive website id"},
		{`{"v":2,"website":3}`, "website 3 without a resource"},
		{`{"v":2,"seen":{"2024-03-10T12:04:00Z":[4]}}`, "records or covered_before without a mark"},
		{`{"v":2,"created":"2024-03-10T12:05:00Z","seen":{"yesterday":[4]}}`, `"yesterday" is not an RFC 3339 time`},
		{`{"v":2,"created":"2024-03-10T12:05:00Z","seen":{"2024-03-10T12:06:00Z":[4]}}`, "after the mark"},
		{`{"v":2,"created":"2024-03-10T12:05:00Z","covered_before":"2024-03-11T00:00:00Z"}`, "covered_before 2024-03-11T00:00:00Z is after the mark"},
	} {
		if _, err := Decode([]byte(tc.in)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Decode(%s): %v, want an error with %q", tc.in, err, tc.want)
		}
	}
}

func TestDecodeReadsWhatMarshalWrites(t *testing.T) {
	in := `{"v":2,"resource":"orders","website":7,"created":"2024-03-10T12:05:00Z","seen":{"2024-03-10T12:04:00Z":[4],"2024-03-10T12:05:00Z":[6,5,5]}}`
	s, err := Decode([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	out, err := s.MarshalJSON()
	// Ids sorted, the repeat dropped.
	want := `{"v":2,"resource":"orders","website":7,"created":"2024-03-10T12:05:00Z","seen":{"2024-03-10T12:04:00Z":[4],"2024-03-10T12:05:00Z":[5,6]}}`
	if err != nil || string(out) != want {
		t.Errorf("MarshalJSON: %s, %v; want %s", out, err, want)
	}
	for _, zero := range []State{{}, At(time.Time{})} {
		if out, err := zero.MarshalJSON(); string(out) != "{}" || err != nil {
			t.Errorf("MarshalJSON of %+v: %s, %v; want {}", zero, out, err)
		}
	}
}

func TestTheWindowKeepsWhatItCannotTellApart(t *testing.T) {
	mark := time.Date(2024, 3, 10, 12, 5, 0, 0, time.UTC)
	// Midnight UTC two days before the mark's date, less 14 hours.
	start := time.Date(2024, 3, 7, 10, 0, 0, 0, time.UTC)
	var s State
	if s.Covers(start.Add(-time.Hour), 1) {
		t.Error("a zero state covers a record")
	}
	s.Advance(start, 1)
	s.Advance(mark, 2)
	switch {
	case !s.Covers(start, 1) || !s.Covers(mark, 2):
		t.Error("a record yielded within the window is not covered")
	case s.Covers(start, 3) || s.Covers(mark, 3):
		t.Error("a record not yielded, within the window, is covered")
	case !s.Covers(start.Add(-time.Nanosecond), 3):
		t.Error("a record older than the window is not covered")
	}
	if r, ok := s.NewestReadable(); !ok || r != (Record{mark, 2}) {
		t.Errorf("NewestReadable = %v, %v", r, ok)
	}
	s.Advance(mark.Add(time.Nanosecond), 4) // the window's start does not move within the day
	if len(s.seen) != 3 {
		t.Errorf("the window forgot a record too early: %v", s.seen)
	}
	s.Advance(mark.AddDate(0, 0, 1), 5) // it moves a day: the record at its old start leaves
	if len(s.seen) != 3 || s.seen[0] != (Record{mark, 2}) {
		t.Errorf("after the mark moved a day: %v", s.seen)
	}
}

func TestAtCoversEverythingBeforeIt(t *testing.T) {
	at := time.Date(2024, 3, 10, 12, 5, 0, 0, time.FixedZone("UTC+5", 5*3600))
	s := At(at)
	if !s.Covers(at.Add(-time.Nanosecond), 1) || s.Covers(at, 1) {
		t.Error("At(t) must cover exactly the records created before t")
	}
	// Long before t the window remembers nothing: covered_before covers it.
	if !s.Covers(at.AddDate(0, 0, -10), 9) {
		t.Error("a record from long before t is not covered")
	}
	s.Advance(at.AddDate(0, 0, 4), 2)
	if !s.coveredBefore.IsZero() {
		t.Errorf("covered_before %v kept once the window is past it", s.coveredBefore)
	}
	if got := s.OverlapStart().Format(time.DateOnly); got != "2024-03-09" {
		t.Errorf("OverlapStart = %s, want five days before the mark's UTC date 2024-03-14", got)
	}
}

// NewestReadable passes over the records whose ids are not positive, which
// cannot be read back by id, to the newest that can.
func TestNewestReadableSkipsIDsThatAreNotPositive(t *testing.T) {
	start := time.Date(2024, 3, 7, 10, 0, 0, 0, time.UTC)
	var s State
	s.Advance(start, -4)
	if r, ok := s.NewestReadable(); ok {
		t.Errorf("NewestReadable = %v with only id -4 remembered", r)
	}
	s.Advance(start.Add(time.Minute), 3)
	s.Advance(start.Add(2*time.Minute), 0)
	if r, ok := s.NewestReadable(); !ok || r != (Record{start.Add(time.Minute), 3}) {
		t.Errorf("NewestReadable = %v, %v; want order 3", r, ok)
	}
}

// The API dates records in whole seconds: a start with a fraction covers
// nothing of its own second, whether it comes from At or from a stored
// covered_before that kept a fraction.
func TestAStartCountsToTheSecond(t *testing.T) {
	start := time.Date(2024, 3, 10, 12, 5, 0, 700_000_000, time.UTC)
	second := start.Truncate(time.Second)
	decoded, err := Decode([]byte(`{"v":2,"created":"2024-03-10T12:05:00.7Z","covered_before":"2024-03-10T12:05:00.7Z"}`))
	if err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]State{"At": At(start), "decoded": decoded} {
		if s.Covers(second, 1) {
			t.Errorf("%s: a record created in the start's second, at %v, counts as yielded", name, second)
		}
		if !s.Covers(second.Add(-time.Second), 1) {
			t.Errorf("%s: a record of the second before is not covered", name)
		}
	}
}
