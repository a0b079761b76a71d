package ordermsg

import (
	"bytes"
	"context"
	"iter"
	"strconv"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/ordermsg/ordermsg-go/internal/jsontok"
)

// RawRecord is an order or a message exactly as the server sent it, checked
// as decoding it would check it but not decoded: what AllRaw, SyncRaw and
// GetRaw yield, for a program that stores or forwards records rather than
// reads them (a mirror, an export), at a fraction of the cost of a decode.
// A record that the typed methods refuse is refused alike, with the same
// error: a *DecodeError, or a *RecordDecodeError with WithSkipUndecodable.
// Beside the three members that name a record, Member gives any top-level
// member's value as sent, for the program to read what it needs. The
// records of a page share the memory of their bytes: a program that keeps
// a few records of many pages keeps a copy of their RawJSON.
type RawRecord struct {
	// Object is the record's "object": ObjectOrder or ObjectMessage.
	Object string
	// ID is the record's "id", 0 when it is null or absent.
	ID int64
	// DateCreated is the record's "date_created", zero when it is null or
	// absent.
	DateCreated Timestamp

	raw     []byte
	members []jsontok.MemberSpans // where raw's members are, in raw
}

// RawJSON returns the record exactly as the server sent it. Do not modify
// it.
func (r *RawRecord) RawJSON() []byte { return r.raw }

// Member returns the value of the record's member name (at the top level of
// the record), exactly as sent, or nil when the record has no such member.
// The value is part of RawJSON: do not modify it.
func (r *RawRecord) Member(name string) jsontext.Value {
	for _, m := range r.members {
		quoted := r.raw[m.Name.Start:m.Name.End]
		got := quoted[1 : len(quoted)-1]
		if bytes.IndexByte(got, '\\') >= 0 {
			got, _ = jsontext.AppendUnquote(nil, quoted) // checked: a valid string
		}
		if string(got) == name {
			return jsontext.Value(r.raw[m.Value.Start:m.Value.End:m.Value.End])
		}
	}
	return nil
}

// MarshalJSON returns the record exactly as the server sent it: null for a
// RawRecord that holds none (one not read by the SDK).
func (r RawRecord) MarshalJSON() ([]byte, error) {
	if r.raw == nil {
		return []byte("null"), nil
	}
	return r.raw, nil
}

// recordValidator is a record type's pointer type that checks a record's
// members as its decoder decodes them (the generated validateMember).
type recordValidator[T any] interface {
	record[T]
	validateMember(dec *jsontext.Decoder, st *decodeState, name []byte) (int, error)
}

// rawRecord is a RawRecord of a record of type T, for the generic code that
// reads records (resource, the walk, Sync): it is decoded by checking the
// record with T's validator.
type rawRecord[T any, P recordValidator[T]] RawRecord

// The methods of the record constraint.
func (r *rawRecord[T, P]) kind() string         { return r.Object }
func (r *rawRecord[T, P]) refID() int64         { return r.ID }
func (r *rawRecord[T, P]) createdAt() time.Time { return r.DateCreated.Time }
func (r *rawRecord[T, P]) setRaw(raw []byte)    { r.raw = raw }
func (r *rawRecord[T, P]) RawJSON() []byte      { return r.raw }

// UnmarshalJSONFrom checks the record from dec and keeps it.
func (r *rawRecord[T, P]) UnmarshalJSONFrom(dec *jsontext.Decoder) error { return decodeTop(dec, r) }

// decodeFrom checks the record from dec as T's decoder decodes it, and
// keeps its bytes (a copy, in st's memory for records) and where its
// members are.
func (r *rawRecord[T, P]) decodeFrom(dec *jsontext.Decoder, st *decodeState) error {
	unread, at := dec.UnreadBuffer(), dec.InputOffset()
	start := jsontok.ValueStart(dec)
	first := len(st.raw.members)
	err := jsontok.ObjectSpans(dec, &st.raw.members, func(name []byte) (int, error) {
		n, err := P(nil).validateMember(dec, st, name)
		if n > 0 && string(name) == "date_created" {
			r.DateCreated.Time = st.when // a Timestamp's validator parses it there
		}
		return n, err
	})
	if err != nil {
		return err
	}
	rest := unread[start-at:]
	r.raw = st.raw.keep(rest[:dec.InputOffset()-start], len(rest))
	r.members = st.raw.members[first:len(st.raw.members):len(st.raw.members)]
	if first == 0 {
		st.raw.reserve(len(r.members), len(r.raw), len(rest)-len(r.raw))
	}
	for i := range r.members {
		m := &r.members[i]
		m.Name.Start, m.Name.End = m.Name.Start-start, m.Name.End-start
		m.Value.Start, m.Value.End = m.Value.Start-start, m.Value.End-start
	}
	// The values are checked: "object" a string or null, "id" an int64 or
	// null.
	if v := (*RawRecord)(r).Member("object"); v.Kind() == '"' {
		b := v[1 : len(v)-1]
		if bytes.IndexByte(b, '\\') >= 0 {
			b, _ = jsontext.AppendUnquote(nil, v)
		}
		r.Object = st.strs.Intern(b)
	}
	if v := (*RawRecord)(r).Member("id"); v.Kind() == '0' {
		r.ID, _ = strconv.ParseInt(string(v), 10, 64)
	}
	return nil
}

// rawResource is a resource whose records are read as RawRecords.
type rawResource[T any, P recordValidator[T]] = resource[rawRecord[T, P], *rawRecord[T, P]]

// rawSync are the options of a Sync of RawRecords: those of the typed
// Sync, which are what its requests encode.
type rawSync[T any, P recordValidator[T]] struct{ syncOptions[T] }

// certainlyLists decodes the record (checked, and read by id: once in a
// Sync at most) for the typed Sync's answer.
func (o rawSync[T, P]) certainlyLists(rec *rawRecord[T, P]) bool {
	v := new(T)
	return unmarshalJSON(rec.raw, v) == nil && o.syncOptions.certainlyLists(v)
}

// getRaw is GetRaw of a service whose records are read by r.
func getRaw[T any, P recordValidator[T]](ctx context.Context, r resource[T, P], websiteID, id int64, opts queryOptions) (*RawRecord, error) {
	v, err := rawResource[T, P](r).get(ctx, websiteID, id, opts)
	return (*RawRecord)(v), err
}

// allRaw is AllRaw of a service whose records are read by r.
func allRaw[T any, P recordValidator[T]](ctx context.Context, r resource[T, P], websiteID int64, opts listOptions, walk []WalkOption) iter.Seq2[*RawRecord, error] {
	return rawSeq(rawResource[T, P](r).walkList(ctx, &r.ops.all, websiteID, opts, walk, nil))
}

// syncRaw is SyncRaw of a service whose records are read by r.
func syncRaw[T any, P recordValidator[T]](ctx context.Context, r resource[T, P], websiteID int64, cp *Checkpoint, opts syncOptions[T], walk []WalkOption) iter.Seq2[*RawRecord, error] {
	return rawSeq(rawResource[T, P](r).sync(ctx, websiteID, cp, rawSync[T, P]{opts}, walk))
}

// rawSeq yields what seq yields, each record as the RawRecord it is.
func rawSeq[T any, P recordValidator[T]](seq iter.Seq2[*rawRecord[T, P], error]) iter.Seq2[*RawRecord, error] {
	return func(yield func(*RawRecord, error) bool) {
		for v, err := range seq {
			if !yield((*RawRecord)(v), err) {
				return
			}
		}
	}
}
