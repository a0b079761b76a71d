package ordermsg

import (
	"fmt"
	"net/url"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/ordermsg/ordermsg-go/internal/jsontok"
)

// timestampLayout is the API's timestamp shape, with a fraction of a second only if any.
const timestampLayout = "2006-01-02T15:04:05.999999999-07:00"

// Timestamp is a date-time as the API sends it: ISO 8601 with a numeric
// offset, such as 2024-05-01T09:30:00+00:00, the shape it encodes to (where
// time.Time writes a zero offset as "Z"). It embeds time.Time, so every
// time.Time method works on it; use .Time where a time.Time is wanted.
type Timestamp struct{ time.Time }

// MarshalJSON writes the timestamp in the API's shape, with fractional seconds only if any.
func (t Timestamp) MarshalJSON() ([]byte, error) { return marshalJSON(&t) }

// UnmarshalJSON accepts an RFC 3339 string, as the API's shape is, or null (the zero Timestamp).
func (t *Timestamp) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, t) }

// UnmarshalJSONFrom accepts an RFC 3339 string or null (encoding/json/v2).
func (t *Timestamp) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	if !ownDecode(dec) {
		return decodeWhole(dec, t)
	}
	return readTime(dec, &t.Time)
}

// validateFrom checks a timestamp as UnmarshalJSONFrom decodes it, parsing
// it into st.when.
func (*Timestamp) validateFrom(dec *jsontext.Decoder, st *decodeState) error {
	return readTime(dec, &st.when)
}

// readTime reads a timestamp string into *t (RFC 3339, as encoding/json/v2
// reads a time.Time), or null (the zero time).
func readTime(dec *jsontext.Decoder, t *time.Time) error {
	if null, err := jsontok.ReadNull(dec); null {
		*t = time.Time{}
		return err
	}
	if k := dec.PeekKind(); k != '"' {
		return fmt.Errorf("expected a timestamp string, got %s", jsontok.KindName(k))
	}
	return json.UnmarshalDecode(dec, t)
}

// MarshalJSONTo writes the timestamp in the API's shape (encoding/json/v2).
func (t *Timestamp) MarshalJSONTo(enc *jsontext.Encoder) error {
	var buf [len(timestampLayout) + 2]byte
	b := t.AppendFormat(append(buf[:0], '"'), timestampLayout)
	return enc.WriteValue(append(b, '"'))
}

// Date is a calendar date without a time or zone, as the list filters
// date_start and date_end take it: YYYY-MM-DD. The zero Date means "no date"
// and is left out of the query.
type Date struct {
	Year  int
	Month time.Month
	Day   int
}

// NewDate returns the date year-month-day.
func NewDate(year int, month time.Month, day int) Date {
	return Date{Year: year, Month: month, Day: day}
}

// DateOf returns the calendar date of t in t's location.
func DateOf(t time.Time) Date {
	y, m, d := t.Date()
	return Date{Year: y, Month: m, Day: d}
}

// ParseDate parses a YYYY-MM-DD date. It refuses what Validate refuses: a
// day the calendar does not have, and the year 0.
func ParseDate(s string) (Date, error) {
	if !hasDateShape(s) {
		return Date{}, fmt.Errorf("ordermsg: date %q is not YYYY-MM-DD", s)
	}
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return Date{}, fmt.Errorf("ordermsg: date %q does not exist", s)
	}
	d := DateOf(t)
	if d.Validate() != nil {
		return Date{}, fmt.Errorf("ordermsg: date %q is before the year 1", s)
	}
	return d, nil
}

// hasDateShape reports whether s is 0000-00-00 with any digits.
func hasDateShape(s string) bool {
	for i := range len(s) {
		dash := i == 4 || i == 7
		if dash != (s[i] == '-') || !dash && (s[i] < '0' || s[i] > '9') {
			return false
		}
	}
	return len(s) == len(time.DateOnly)
}

// IsZero reports whether d is the zero Date.
func (d Date) IsZero() bool { return d == Date{} }

// String formats d as YYYY-MM-DD.
func (d Date) String() string { return fmt.Sprintf("%04d-%02d-%02d", d.Year, d.Month, d.Day) }

// Validate reports an error when d is not a real calendar date between the
// years 1 and 9999. The zero Date is valid: it means "no date".
func (d Date) Validate() error {
	t := time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, time.UTC)
	if d.IsZero() || d.Year >= 1 && d.Year <= 9999 && DateOf(t) == d {
		return nil
	}
	return fmt.Errorf("ordermsg: %d-%d-%d is not a calendar date", d.Year, d.Month, d.Day)
}

// EncodeValues lets go-querystring write d as YYYY-MM-DD.
func (d Date) EncodeValues(key string, v *url.Values) error {
	err := d.Validate()
	if err == nil && !d.IsZero() {
		v.Set(key, d.String())
	}
	return err
}
