package mirror

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// The change feed: every new, updated or deleted record that a writer
// writes appends a row to mirror_changes in the same transaction
// (changeswrite.go); Changes and FollowChanges read them in the order of
// their cursors (changesread.go); PruneChanges removes the old ones
// (changesprune.go). docs/mirror.md#changes tells the design.

// ChangeKind is what became of a record: ChangeNew, ChangeUpdated or
// ChangeDeleted.
type ChangeKind string

// The kinds of change.
const (
	// ChangeNew is a record the mirror did not hold.
	ChangeNew ChangeKind = "new"
	// ChangeUpdated is a record whose data changed (a file link signed
	// anew is no change), or that a reconcile had found deleted and the
	// server lists again.
	ChangeUpdated ChangeKind = "updated"
	// ChangeDeleted is a record a reconcile found gone from the server.
	ChangeDeleted ChangeKind = "deleted"
)

// Change is one change of the feed.
type Change struct {
	// Cursor is the change's place in the feed, opaque: the changes after
	// it are read by passing it to Changes or FollowChanges.
	Cursor    string
	WebsiteID int64
	Resource  string // "orders" or "messages"
	ID        int64
	Kind      ChangeKind
	At        time.Time // when the mirror recorded it
	// Record is the record's JSON as the mirror stored it, for ChangeNew
	// and ChangeUpdated; nil for ChangeDeleted.
	Record []byte
}

// MarshalJSON is the change as one line of ordermsg changes: an object
// with cursor, website_id, resource, id, change, at (RFC 3339, UTC) and,
// for new and updated, record, the stored JSON as it is.
func (c Change) MarshalJSON() ([]byte, error) { return c.AppendJSON(nil), nil }

// AppendJSON appends the change's JSON object, as MarshalJSON makes it, to
// b and returns the extended buffer: a reader of many changes reuses one
// buffer.
func (c Change) AppendJSON(b []byte) []byte {
	// The strings are of the feed's own alphabet (hex digits, a hyphen,
	// the names of the resources and kinds), which need no escape.
	b = append(b, `{"cursor":"`...)
	b = append(b, c.Cursor...)
	b = append(b, `","website_id":`...)
	b = strconv.AppendInt(b, c.WebsiteID, 10)
	b = append(b, `,"resource":"`...)
	b = append(b, c.Resource...)
	b = append(b, `","id":`...)
	b = strconv.AppendInt(b, c.ID, 10)
	b = append(b, `,"change":"`...)
	b = append(b, c.Kind...)
	b = append(b, `","at":"`...)
	b = c.At.UTC().AppendFormat(b, time.RFC3339Nano)
	b = append(b, '"')
	if c.Record != nil {
		b = append(b, `,"record":`...)
		b = append(b, c.Record...)
	}
	return append(b, '}')
}

// ChangeFilter narrows the changes read to one website, one resource
// ("orders" or "messages"), or both; a zero field takes every one.
type ChangeFilter struct {
	WebsiteID int64
	Resource  string
}

// check returns the error of a filter that can match nothing.
func (f *ChangeFilter) check() error {
	switch {
	case f == nil:
		return nil
	case f.WebsiteID < 0:
		return fmt.Errorf("mirror: website id %d: want a positive integer", f.WebsiteID)
	case f.Resource != "" && f.Resource != ordersTable.name && f.Resource != messagesTable.name:
		return fmt.Errorf("mirror: resource %q: want %q or %q", f.Resource, ordersTable.name, messagesTable.name)
	}
	return nil
}

// ErrCursorExpired is matched (errors.Is) by the *CursorError of a cursor
// older than the changes kept: changes after it were removed by
// PruneChanges, so that reading on from it would skip them.
var ErrCursorExpired = errors.New("mirror: the changes after the cursor were removed")

// CursorError is the error of a cursor that Changes and FollowChanges
// cannot read after: malformed, not issued by this database, or (Expired)
// older than the changes the database keeps.
type CursorError struct {
	Cursor  string
	Expired bool
}

func (e *CursorError) Error() string {
	if e.Expired {
		return fmt.Sprintf("mirror: cursor %q is older than the changes kept: changes after it were removed (PruneChanges), and reading on would skip them", e.Cursor)
	}
	return fmt.Sprintf("mirror: cursor %q is not one this database issued", e.Cursor)
}

// Is makes errors.Is match ErrCursorExpired for an expired cursor.
func (e *CursorError) Is(target error) bool { return e.Expired && target == ErrCursorExpired }

// position is a change's place in the feed: in PostgreSQL the id of the
// transaction that wrote it and its seq, in SQLite its seq (xid 0). The
// zero position is before every change.
type position struct{ xid, seq int64 }

func (p position) less(q position) bool {
	return p.xid < q.xid || (p.xid == q.xid && p.seq < q.seq)
}

// cursorText is a cursor of the database of the given origin: the
// origin, a hyphen, then each of nums (a position's) in fixed-width hex,
// so that cursors sort as their positions do.
func cursorText(origin string, nums ...int64) string {
	out := make([]byte, 0, len(origin)+1+16*len(nums))
	out = append(append(out, origin...), '-')
	for _, n := range nums {
		out = appendHex16(out, n)
	}
	return string(out)
}

// appendHex16 appends n, not negative, as 16 lower-case hex digits.
func appendHex16(b []byte, n int64) []byte {
	const digits = "0123456789abcdef"
	for shift := 60; shift >= 0; shift -= 4 {
		b = append(b, digits[(n>>shift)&0xf])
	}
	return b
}

// cursorNums reads a cursor of the database of the given origin that
// holds n numbers (see cursorText), the last of them (seq) positive.
func cursorNums(origin, cursor string, n int) ([]int64, bool) {
	o, digits, ok := strings.Cut(cursor, "-")
	if !ok || o != origin || len(digits) != 16*n {
		return nil, false
	}
	nums := make([]int64, n)
	for i := range nums {
		var err error
		if nums[i], err = parseHex(digits[16*i : 16*(i+1)]); err != nil {
			return nil, false
		}
	}
	return nums, nums[n-1] > 0
}

// parseHex reads 16 lower-case hex digits of a non-negative int64.
func parseHex(s string) (int64, error) {
	if strings.ToLower(s) != s {
		return 0, strconv.ErrSyntax
	}
	return strconv.ParseInt(s, 16, 64)
}
