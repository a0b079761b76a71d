package ordermsgtest_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// recordsJSON is the JSON of every record of the website.
func recordsJSON(t *testing.T, w *ordermsgtest.Website) string {
	t.Helper()
	b, err := json.Marshal(struct {
		Orders   []*ordermsg.Order
		Messages []*ordermsg.Message
	}{w.Orders, w.Messages})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// newest is the creation time of the website's newest record.
func newest(w *ordermsgtest.Website) time.Time {
	var t time.Time
	for _, o := range w.Orders {
		if o.DateCreated.After(t) {
			t = o.DateCreated.Time
		}
	}
	for _, m := range w.Messages {
		if m.DateCreated.After(t) {
			t = m.DateCreated.Time
		}
	}
	return t
}

// TestGenerateDatesNothingAfterNow: whatever the size, no record is created
// after Config.Now (here in 2024, so that a few thousand records reach past
// it, as tens of thousands do today); a website that fits between 2024 and
// Now keeps its dates whatever Now is (small datasets do not change), and
// one that does not is the same records, spaced the same, moved back by a
// whole number of minutes so that the newest is in the minute before Now;
// the same Seed, sizes and Now give the same dataset.
func TestGenerateDatesNothingAfterNow(t *testing.T) {
	now := time.Date(2024, time.June, 1, 21, 30, 45, 0, time.UTC)
	later := now.AddDate(100, 0, 0)
	for _, n := range []int{0, 1, 540, 1500} {
		cfg := ordermsgtest.Config{Seed: 3, Websites: 2, OrdersPerWebsite: n / 2, MessagesPerWebsite: n, Now: now}
		ds := ordermsgtest.Generate(cfg)
		again := ordermsgtest.Generate(cfg)
		cfg.Now = later
		unmoved := ordermsgtest.Generate(cfg)
		for i, w := range ds.Websites {
			u := unmoved.Websites[i]
			if got := newest(w); got.After(now) {
				t.Errorf("%d records, website %d: the newest is created at %v, after now (%v)", n, w.ID, got, now)
			}
			if recordsJSON(t, w) != recordsJSON(t, again.Websites[i]) {
				t.Errorf("%d records, website %d: two datasets of the same seed, sizes and now differ", n, w.ID)
			}
			if !newest(u).After(now) {
				if recordsJSON(t, w) != recordsJSON(t, u) {
					t.Errorf("%d records, website %d, which fits before now, changed with now", n, w.ID)
				}
				continue
			}
			if got := newest(w); !got.After(now.Add(-time.Minute)) {
				t.Errorf("%d records, website %d: moved back to %v, more than a minute before now", n, w.ID, got)
			}
			shift := u.Messages[0].DateCreated.Sub(w.Messages[0].DateCreated.Time)
			if shift%time.Minute != 0 {
				t.Errorf("%d records, website %d: moved by %v, not whole minutes", n, w.ID, shift)
			}
			for j, m := range w.Messages {
				moved := *u.Messages[j]
				moved.DateCreated.Time = moved.DateCreated.Add(-shift)
				if m.ID != moved.ID || !m.DateCreated.Equal(moved.DateCreated.Time) || m.MessageType != moved.MessageType {
					t.Fatalf("%d records, website %d, message %d: %v %v, want %v %v moved by %v", n, w.ID, j, m.ID, m.DateCreated, u.Messages[j].ID, u.Messages[j].DateCreated, shift)
				}
			}
		}
	}
	// The default dataset, which tests and examples rely on, is dated
	// from 2024 on whatever the clock.
	ds := ordermsgtest.Generate(ordermsgtest.DefaultConfig())
	if first := ds.Websites[0].Messages[0].DateCreated; first.Year() != 2024 || first.Month() != time.January || first.Day() != 1 {
		t.Errorf("the default dataset's first message is created at %v", first)
	}
}
