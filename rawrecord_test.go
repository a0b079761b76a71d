package ordermsg

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/ordermsg/ordermsg-go/internal/jsontok"
)

// checkedAsDecoded holds the validators to the typed decoders for one input:
// as a record and as a list page, of orders and of messages, with and
// without WithSkipUndecodable, reading RawRecords refuses exactly what
// decoding refuses, with the same error, and what it accepts has the id,
// creation time and kind that decoding gives, the bytes as sent, and each
// top-level member's value as sent.
func checkedAsDecoded(t *testing.T, data []byte) {
	t.Helper()
	for _, kind := range []string{ObjectOrder, ObjectMessage} {
		sameRecord(t, data, kind)
		samePage(t, data, kind)
	}
}

// sameRecord and samePage check the property as a record, and as a page
// with and without WithSkipUndecodable, of one kind.
// sameRecord reports whether the record was accepted.
func sameRecord(t *testing.T, data []byte, kind string) bool {
	t.Helper()
	if kind == ObjectOrder {
		return sameRecordOf[Order](t, data, kind)
	}
	return sameRecordOf[Message](t, data, kind)
}

func samePage(t *testing.T, data []byte, kind string) {
	t.Helper()
	for _, skip := range []bool{false, true} {
		if kind == ObjectOrder {
			samePageOf[Order](t, data, kind, skip)
		} else {
			samePageOf[Message](t, data, kind, skip)
		}
	}
}

func errText(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

func sameRecordOf[T any, P recordValidator[T]](t *testing.T, data []byte, kind string) bool {
	t.Helper()
	typed, terr := decodeRecord[T, P]("u", data, kind, false)
	raw, rerr := decodeRecord[rawRecord[T, P]]("u", data, kind, false)
	if errText(terr) != errText(rerr) {
		t.Fatalf("as a record of kind %s:\ndecode: %v\ncheck:  %v\ninput: %q", kind, terr, rerr, data)
	}
	if terr != nil {
		return false
	}
	if !bytes.Equal(raw.raw, bytes.Trim(data, jsonSpace)) {
		t.Fatalf("RawJSON %q of input %q", raw.raw, data)
	}
	sameRecordFields[T, P](t, typed, raw, data)
	return true
}

// sameRecordFields checks that a RawRecord names the record as its typed
// decode does, and gives each member as sent.
func sameRecordFields[T any, P recordValidator[T]](t *testing.T, typed *T, raw *rawRecord[T, P], data []byte) {
	t.Helper()
	if raw.Object != P(typed).kind() || raw.ID != P(typed).refID() || !sameTime(raw.DateCreated.Time, P(typed).createdAt()) {
		t.Fatalf("RawRecord %q %d %v, decoded %q %d %v; input %q", raw.Object, raw.ID, raw.DateCreated,
			P(typed).kind(), P(typed).refID(), P(typed).createdAt(), data)
	}
	members := topMembers(t, raw.raw)
	for name, value := range members {
		if got := (*RawRecord)(raw).Member(name); !bytes.Equal(got, value) {
			t.Fatalf("Member(%q) = %q, want %q; input %q", name, got, value, data)
		}
	}
	if got := (*RawRecord)(raw).Member("not a member"); got != nil || len(raw.members) != len(members) {
		t.Fatalf("Member of no member: %q; %d members, want %d", got, len(raw.members), len(members))
	}
}

// topMembers returns the members of the object data, by name, each value as
// it is in data.
func topMembers(t *testing.T, data []byte) map[string][]byte {
	t.Helper()
	dec := jsontext.NewDecoder(bytes.NewBuffer(data))
	if _, err := dec.ReadToken(); err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for dec.PeekKind() == '"' {
		tok, err := dec.ReadToken()
		if err != nil {
			t.Fatal(err)
		}
		name := tok.String() // before the next read, which voids tok
		value, err := dec.ReadValue()
		if err != nil {
			t.Fatal(err)
		}
		out[name] = value
	}
	return out
}

// sameTime reports whether a and b are the same instant written with the
// same offset: two parses of one timestamp with an offset each make a
// *time.Location of their own, so == tells them apart.
func sameTime(a, b time.Time) bool {
	return a.Equal(b) && a.Format(time.RFC3339Nano) == b.Format(time.RFC3339Nano)
}

func samePageOf[T any, P recordValidator[T]](t *testing.T, data []byte, kind string, skip bool) {
	t.Helper()
	typed, terr := decodePage[T, P]("u", data, kind, true, skip)
	raw, rerr := decodePage[rawRecord[T, P]]("u", data, kind, false, skip)
	if errText(terr) != errText(rerr) {
		t.Fatalf("as a page of %s (skip %v):\ndecode: %v\ncheck:  %v\ninput: %q", kind, skip, terr, rerr, data)
	}
	if terr != nil {
		return
	}
	if typed.Object != raw.Object || !reflect.DeepEqual(typed.Meta, raw.Meta) || !bytes.Equal(typed.Unknown, raw.Unknown) {
		t.Fatalf("page envelope: decoded %+v, checked %+v", typed, raw)
	}
	te, re := entries[T, P](typed), entries[rawRecord[T, P]](raw)
	if len(te) != len(re) {
		t.Fatalf("%d entries decoded, %d checked; input %q", len(te), len(re), data)
	}
	for i := range te {
		switch d, c := te[i], re[i]; {
		case (d.bad == nil) != (c.bad == nil):
			t.Fatalf("entry %d: decoded %v, checked %v; input %q", i, d.err(), c.err(), data)
		case d.bad != nil:
			if d.bad.ID != c.bad.ID || !sameTime(d.bad.Created, c.bad.Created) || d.bad.Index != c.bad.Index || d.bad.Offset != c.bad.Offset ||
				!bytes.Equal(d.bad.Raw, c.bad.Raw) || errText(d.bad) != errText(c.bad) {
				t.Fatalf("entry %d refused:\ndecode: %+v\ncheck:  %+v", i, d.bad, c.bad)
			}
		default:
			if kept := any(d.rec).(interface{ RawJSON() []byte }).RawJSON(); !bytes.Equal(c.rec.raw, kept) {
				t.Fatalf("entry %d: RawJSON %q, decoded with KeepRawJSON %q", i, c.rec.raw, kept)
			}
			sameRecordFields[T, P](t, d.rec, c.rec, data)
		}
	}
}

// mutations returns data with each of its values, at any depth, replaced by
// each of a set of values of every kind (among them values that some
// decoders refuse), each of its members given twice, and each member's
// name spelled with an escape.
func mutations(t *testing.T, data []byte) [][]byte {
	t.Helper()
	replacements := []string{
		`null`, `0`, `1.5`, `1e400`, `9223372036854775808`, `true`, `"x"`, `"\ud800"`,
		`"2024-05-02T11:00:00+00:00"`, `"2024-05-02"`,
		`{}`, `[]`, `[null]`, `{"a":1,"a":2}`, `[{"a":[1,{"b":2,"b":3}]}]`,
	}
	values, members := spans(t, data)
	var out [][]byte
	splice := func(s jsontok.Span, with string) {
		out = append(out, fmt.Appendf(nil, "%s%s%s", data[:s.Start], with, data[s.End:]))
	}
	for _, v := range values {
		for _, r := range replacements {
			splice(v, r)
		}
	}
	for _, m := range members {
		member := data[m.Name.Start:m.Value.End]
		splice(jsontok.Span{Start: m.Value.End, End: m.Value.End}, ","+string(member))
		name := data[m.Name.Start+1 : m.Name.End-1]
		if len(name) > 0 {
			splice(m.Name, fmt.Sprintf(`"\u%04x%s"`, name[0], name[1:]))
		}
	}
	return out
}

// spans returns where each value of data is, at any depth, and each member.
func spans(t *testing.T, data []byte) (values []jsontok.Span, members []jsontok.MemberSpans) {
	t.Helper()
	dec := jsontext.NewDecoder(bytes.NewBuffer(data))
	var value func() jsontok.Span
	value = func() jsontok.Span {
		start := jsontok.ValueStart(dec)
		var err error
		switch dec.PeekKind() {
		case '{', '[':
			_, err = dec.ReadToken()
			for k := dec.PeekKind(); err == nil && k != '}' && k != ']'; k = dec.PeekKind() {
				if kind, _ := dec.StackIndex(dec.StackDepth()); k == '"' && kind == '{' {
					name, err := dec.ReadValue()
					if err != nil {
						t.Fatal(err)
					}
					end := dec.InputOffset()
					at := jsontok.Span{Start: end - int64(len(name)), End: end}
					members = append(members, jsontok.MemberSpans{Name: at, Value: value()})
					continue
				}
				value()
			}
			if err == nil {
				_, err = dec.ReadToken()
			}
		default:
			_, err = dec.ReadValue()
		}
		if err != nil {
			t.Fatal(err)
		}
		s := jsontok.Span{Start: start, End: dec.InputOffset()}
		values = append(values, s)
		return s
	}
	value()
	return values, members
}

// TestRawRecordsAreCheckedAsTheyDecode holds the validators to the typed
// decoders (checkedAsDecoded) over the fixtures, and over their mutations
// as records and pages of their own kind: in a record, each value replaced
// by values of every kind, each member given twice, each name escaped, the
// record alone (and, for a fifth of them, first on a page); in a list, as
// much of the same as a test's time allows. FuzzCheckAsDecode goes on from there with arbitrary
// bytes.
func TestRawRecordsAreCheckedAsTheyDecode(t *testing.T) {
	files, err := filepath.Glob("testdata/*.json")
	if err != nil || len(files) == 0 {
		t.Fatal(files, err)
	}
	refused, accepted := 0, 0
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(filepath.Base(name), func(t *testing.T) {
			checkedAsDecoded(t, data)
			kind := ObjectOrder
			if strings.HasPrefix(filepath.Base(name), "message") {
				kind = ObjectMessage
			}
			list := strings.Contains(name, "list")
			for i, m := range mutations(t, data) {
				if list {
					if i%(1+len(data)/256) == 0 { // a list's records are the records' fixtures again
						samePage(t, m, kind)
					}
					continue
				}
				if sameRecord(t, m, kind) {
					accepted++
				} else {
					refused++
				}
				if i%5 == 0 { // the page's code is the same for both: its records' is not
					samePage(t, fmt.Appendf(nil, `{"object":"list","data":[%s,%s],"meta":{"pagination":{"current_page":1}}}`, m, data), kind)
				}
			}
		})
	}
	// Both answers are well represented: the mutations are not all refused
	// (nor all accepted) for one reason.
	if refused < 1000 || accepted < 1000 {
		t.Fatalf("%d mutated records refused, %d accepted", refused, accepted)
	}
}

// The raw walks refuse what the typed walks refuse, the same way, with the
// same errors: the records of badRecordPages fail their page without
// WithSkipUndecodable, and with it are yielded as the
// same *RecordDecodeError in their place, by AllRaw and SyncRaw alike;
// GetRaw of such a record is Get's *DecodeError.
func TestRawWalksRefuseWhatTypedWalksRefuse(t *testing.T) {
	bad, pages := badRecordPages()
	c, mt := rawPages(t, pages...)
	capture(mt, http.MethodGet, testBaseURL+"/websites/1/orders/5", 200, []byte(bad[2]))
	describe := func(id int64, err error) string {
		if err != nil {
			return fmt.Sprintf("%T %v", err, err)
		}
		return fmt.Sprint(id)
	}
	walk := func(typed iter.Seq2[*Order, error], raw iter.Seq2[*RawRecord, error]) (want, got []string) {
		for o, err := range typed {
			var id int64
			if o != nil {
				id = o.ID
			}
			want = append(want, describe(id, err))
		}
		for r, err := range raw {
			var id int64
			if r != nil {
				id = r.ID
			}
			got = append(got, describe(id, err))
		}
		return want, got
	}
	for _, walkOpts := range [][]WalkOption{nil, {WithSkipUndecodable()}} {
		want, got := walk(c.Orders.All(context.Background(), 1, nil, walkOpts...), c.Orders.AllRaw(context.Background(), 1, nil, walkOpts...))
		if steps := map[bool]int{false: 1, true: 6}[walkOpts != nil]; len(want) != steps { // the page's error; or 3 records, 3 errors
			t.Fatalf("All %v: %q", walkOpts, want)
		}
		if !slices.Equal(got, want) {
			t.Errorf("AllRaw %v:\n%q\nwant\n%q", walkOpts, got, want)
		}
		var typedCP, rawCP Checkpoint
		want, got = walk(c.Orders.Sync(context.Background(), 1, &typedCP, nil, walkOpts...), c.Orders.SyncRaw(context.Background(), 1, &rawCP, nil, walkOpts...))
		if !slices.Equal(got, want) {
			t.Errorf("SyncRaw %v:\n%q\nwant\n%q", walkOpts, got, want)
		}
		if a, b := mustMarshal(t, typedCP), mustMarshal(t, rawCP); a != b {
			t.Errorf("checkpoints: SyncRaw's %s, Sync's %s", b, a)
		}
	}
	_, terr := c.Orders.Get(context.Background(), 1, 5, nil)
	r, rerr := c.Orders.GetRaw(context.Background(), 1, 5, nil)
	var de *DecodeError
	if r != nil || !errors.As(rerr, &de) || errText(rerr) != errText(terr) {
		t.Errorf("GetRaw: %v, %v; want Get's %v", r, rerr, terr)
	}
}

func mustMarshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Reading RawRecords takes memory in proportion to the page: a first record
// of a few bytes before megabytes of others does not make the reading
// reserve room for their members as if they were as small (before, this
// page of 8 MB took 42 MB; now 12, and 17 under the race detector).
func TestRawRecordsTakeMemoryInProportionToThePage(t *testing.T) {
	big := `{"object":"order","id":2,"note":"` + strings.Repeat("x", 8<<20) + `"}`
	body := []byte(`{"object":"list","data":[{"object":"order","id":1,"a":0,"b":0,"c":0,"d":0},` + big + `],"meta":{"pagination":{"current_page":1}}}`)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	p, err := decodePage[rawRecord[Order, *Order]]("u", body, ObjectOrder, false, false)
	runtime.ReadMemStats(&after)
	if err != nil || len(p.Data) != 2 || !bytes.Equal(p.Data[1].raw, []byte(big)) {
		t.Fatalf("%v", err)
	}
	if took := after.TotalAlloc - before.TotalAlloc; took > 3*uint64(len(body)) {
		t.Errorf("reading a page of %d bytes took %d", len(body), took)
	}
}
