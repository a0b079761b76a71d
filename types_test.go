package ordermsg

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
)

// TestFixturesRoundTrip decodes every fixture into its type, encodes it again
// and compares the two as JSON values: nothing lost, nothing added.
func TestFixturesRoundTrip(t *testing.T) {
	cases := []struct {
		file string
		into func() any
	}{
		{"order_full.json", func() any { return new(Order) }},
		{"order_plain.json", func() any { return new(Order) }},
		{"orders_list.json", func() any { return new(Page[Order]) }},
		{"message_full.json", func() any { return new(Message) }},
		{"message_plain.json", func() any { return new(Message) }},
		{"message_nofile.json", func() any { return new(Message) }},
		{"messages_list.json", func() any { return new(Page[Message]) }},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			in := fixture(t, tc.file)
			v := tc.into()
			if err := json.Unmarshal(in, v); err != nil {
				t.Fatal(err)
			}
			out, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			assertSameJSON(t, in, out)
		})
	}
}

func decodeFixture[T any](t *testing.T, name string) *T {
	t.Helper()
	v := new(T)
	if err := json.Unmarshal(fixture(t, name), v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestOrderFullFields(t *testing.T) {
	o := decodeFixture[Order](t, "order_full.json")
	if o.ID != 5001 || o.Status != OrderStatusNew || o.OrderType != OrderTypeEcommerce || o.Currency != "usd" {
		t.Errorf("scalars: %+v", o)
	}
	want := time.Date(2024, 3, 5, 14, 7, 9, 0, time.UTC)
	if !o.DateCreated.Equal(want) {
		t.Errorf("DateCreated = %v, want %v", o.DateCreated, want)
	}
	p := o.Pricing
	if p.Total != p.Subtotal-p.SubtotalDiscount+p.Shipping+p.Tax {
		t.Errorf("pricing does not add up: %+v", p)
	}
	if !o.Message.IsExpanded() || o.Message.ID != 3001 || o.Message.Expanded.Order.ID != 5001 {
		t.Errorf("message ref: %+v", o.Message)
	}
	if !o.Portal.IsExpanded() || o.Portal.Expanded.Title != "Trade portal" || o.Portal.ID != 4 {
		t.Errorf("portal ref: %+v", o.Portal)
	}
	if !o.PromoCode.IsExpanded() || o.PromoCode.Expanded.PromoCode.PromoCode != "SPRING10" {
		t.Errorf("promo code: %+v", o.PromoCode)
	}
	if !o.User.IsExpanded() || o.User.Expanded.Username != "ada" || o.User.ID != 812 {
		t.Errorf("user: %+v", o.User)
	}
	if len(o.Items) != 2 {
		t.Fatalf("items: %d", len(o.Items))
	}
	item, versadoc := o.Items[0], o.Items[1]
	if item.IsVersadoc() || !versadoc.IsVersadoc() {
		t.Errorf("IsVersadoc: %v %v", item.IsVersadoc(), versadoc.IsVersadoc())
	}
	attr := item.Attributes.Value.Fields.Get("f21")
	if attr == nil || attr.PriceModifier == nil || *attr.PriceModifier != 10 ||
		attr.PriceModifierType != PriceModifierTypePercent || attr.PriceScope != PriceScopeAllUnits {
		t.Errorf("item attribute: %+v", attr)
	}
	if item.Pricing.Subtotal != item.Pricing.Unit*item.Quantity {
		t.Errorf("item subtotal: %+v × %d", item.Pricing, item.Quantity)
	}
	if !versadoc.Attributes.IsNull() || versadoc.Attributes.Value != nil {
		t.Errorf("versadoc attributes should be null: %+v", versadoc.Attributes)
	}
	if versadoc.Portal.IsZero() || versadoc.Portal.ID != 0 || versadoc.Portal.IsNull() || versadoc.Portal.IsExpanded() {
		t.Errorf("versadoc portal should be the id 0: %+v", versadoc.Portal)
	}
	prf := versadoc.PrintReadyFiles
	if len(prf) != 2 || prf[0].File == nil || prf[0].File.Filename != "front.pdf" ||
		prf[1].Status != PrintReadyFileStatusFailure || prf[1].File != nil {
		t.Errorf("print-ready files: %+v", prf)
	}
	if versadoc.VersadocOrderForm.Fields.Get("f31").Values.SubmittedValue != "Ada Lovelace" {
		t.Errorf("versadoc form: %+v", versadoc.VersadocOrderForm)
	}
	if item.VersadocOrderForm != nil || item.PrintReadyFiles != nil {
		t.Errorf("order_item has versadoc fields")
	}
	s := o.Shipments[0]
	if s.ShippingCarrier.CarrierType != CarrierTypeCustom || s.ShippingMethod.Title != "Next day" ||
		s.ShippingAddress.Fields.Get("f6").Values.City != "Leeds" || s.Status != ShipmentStatusShipped {
		t.Errorf("shipment: %+v", s)
	}
	if n := o.Notes[0]; n.User.Username != "staff@example.com" || n.User.Object != "account_user" {
		t.Errorf("note: %+v", n)
	}
	if tx := o.PaymentTransactions[0]; tx.TransactionStatus != TransactionStatusCaptured ||
		tx.PaymentType != PaymentTypeCreditCard || tx.TransactionType != TransactionTypePayment || tx.Amount != o.AmountPaid {
		t.Errorf("transaction: %+v", tx)
	}
	name := o.BillingAddress.Fields.Get("f1").Values
	if name.Prefix != "Dr." || name.First != "Ada" || name.Last != "Lovelace" {
		t.Errorf("name values: %+v", name)
	}
	if phone := o.BillingAddress.Fields.Get("f5").Values; phone.CountryCode != "44" || phone.Number != "2071234567" {
		t.Errorf("phone values: %+v", phone)
	}
}

func TestOrderPlainConventions(t *testing.T) {
	o := decodeFixture[Order](t, "order_plain.json")
	if o.Message.IsExpanded() || o.Message.ID != 3002 {
		t.Errorf("message should be the id 3002: %+v", o.Message)
	}
	if o.Portal.ID != 0 || o.Portal.IsNull() || o.Portal.IsZero() {
		t.Errorf("portal should be the id 0: %+v", o.Portal)
	}
	if !o.PromoCode.IsNull() {
		t.Errorf("promo_code should be null: %+v", o.PromoCode)
	}
	if o.User.ID != 813 || o.User.IsExpanded() {
		t.Errorf("user should be the id 813: %+v", o.User)
	}
	if o.Items != nil || o.Notes != nil || o.Shipments != nil || o.PaymentTransactions != nil ||
		o.BillingAddress != nil || o.AdditionalInformation != nil {
		t.Error("include-only fields should be nil without their include")
	}
}

func TestListConventions(t *testing.T) {
	orders := decodeFixture[Page[Order]](t, "orders_list.json")
	if !orders.Data[0].User.IsNull() {
		t.Errorf("order in a list with no user should have user null: %+v", orders.Data[0].User)
	}
	if !orders.Data[1].User.IsExpanded() || orders.Data[1].User.Expanded.ThirdPartyIdentifier != "crm-814" {
		t.Errorf("expanded user: %+v", orders.Data[1].User)
	}
	if pg := orders.Meta.Pagination; pg.Total != 12 || pg.PerPage != 2 || pg.TotalPages != 6 || !orders.HasNextPage() || orders.NextPage() != 2 {
		t.Errorf("pagination: %+v", pg)
	}
	messages := decodeFixture[Page[Message]](t, "messages_list.json")
	if !messages.Data[0].User.IsNull() || messages.Data[1].User.Expanded.Username != "alan" {
		t.Errorf("message users: %+v / %+v", messages.Data[0].User, messages.Data[1].User)
	}
	if messages.Data[0].Form.IsExpanded() || messages.Data[0].Form.ID != 56 {
		t.Errorf("form should be the id: %+v", messages.Data[0].Form)
	}
	if messages.HasNextPage() || messages.NextPage() != 0 {
		t.Error("single page should have no next page")
	}
}

func TestMessageConventions(t *testing.T) {
	plain := decodeFixture[Message](t, "message_plain.json")
	for name, r := range map[string]Ref[File]{"file": plain.File} {
		if r.ID != 0 || r.IsNull() || r.IsZero() {
			t.Errorf("%s should be the id 0: %+v", name, r)
		}
	}
	if plain.User.ID != 0 || plain.User.IsNull() || plain.Order.IsNull() || plain.Order.ID != 0 {
		t.Errorf("retrieved message absent refs should be 0, not null: user %+v order %+v", plain.User, plain.Order)
	}
	nofile := decodeFixture[Message](t, "message_nofile.json")
	if !nofile.File.IsNull() {
		t.Errorf("file should be null: %+v", nofile.File)
	}
	full := decodeFixture[Message](t, "message_full.json")
	if !full.File.IsExpanded() || full.File.ID != 602 || full.Form.Expanded.Title != "Checkout" {
		t.Errorf("file/form: %+v %+v", full.File, full.Form)
	}
	inner := full.Order.Expanded
	if inner == nil || inner.User.IsExpanded() || inner.User.ID != 812 || len(inner.Items) != 1 {
		t.Errorf("expanded order should carry user as an id and its items: %+v", inner)
	}
	if inner.Items[0].Attributes.Value != nil || inner.Items[0].Attributes.IsNull() {
		t.Error("attributes should be absent without items.attributes")
	}
}

func TestFormFieldsKeepOrderAndOddValues(t *testing.T) {
	m := decodeFixture[Message](t, "message_full.json")
	fields := m.FormSubmission.Fields
	var ids []string
	for _, f := range fields {
		ids = append(ids, f.ID)
	}
	want := []string{"f1", "f10", "f2", "f4", "f5", "f6", "f7", "f8", "f9"}
	if len(ids) != len(want) {
		t.Fatalf("ids = %v", ids)
	}
	for i := range want {
		if ids[i] != want[i] {
			t.Fatalf("order = %v, want %v", ids, want)
		}
	}
	if got := fields.Get("f2").Values.SubmittedValue; got != "Line one\nLine \"two\"" {
		t.Errorf("escaped value = %q", got)
	}
	unknown := fields.Get("f8")
	if unknown.FieldType != "date_picker" || string(unknown.Values.Raw) != `{"date": "2024-06-01", "timezone": {"name": "UTC"}}` {
		t.Errorf("unknown type should keep Raw: %+v", unknown)
	}
	number := fields.Get("f9")
	if number.Values.SubmittedValue != "" || string(number.Values.Raw) != `{"submitted_value": 12}` {
		t.Errorf("number value should stay in Raw only: %+v", number.Values)
	}
	if fields.Get("f404") != nil {
		t.Error("Get of a missing id should be nil")
	}
}

func TestFieldValuesWithoutRawEncodesTypedFields(t *testing.T) {
	v := FieldValues{First: "Ada", Last: "Lovelace"}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	assertSameJSON(t, b, []byte(`{"first":"Ada","last":"Lovelace"}`))
	ff := FormFields{{Object: "form_submission_field", ID: "f1", Values: v}}
	b, err = json.Marshal(ff)
	if err != nil {
		t.Fatal(err)
	}
	assertSameJSON(t, b, []byte(`{"f1":{"object":"form_submission_field","id":"f1","field_type":"","label":"","values":{"first":"Ada","last":"Lovelace"},"formatted_value":""}}`))
}

func TestRefForms(t *testing.T) {
	cases := []struct {
		in                   string
		id                   int64
		expanded, null, zero bool
	}{
		{`0`, 0, false, false, false},
		{`17`, 17, false, false, false},
		{`null`, 0, false, true, false},
		{`{"object":"portal","id":4,"title":"P"}`, 4, true, false, false},
	}
	for _, tc := range cases {
		var r Ref[Portal]
		if err := json.Unmarshal([]byte(tc.in), &r); err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		if r.ID != tc.id || r.IsExpanded() != tc.expanded || r.IsNull() != tc.null || r.IsZero() != tc.zero {
			t.Errorf("%s: %+v expanded=%v null=%v", tc.in, r, r.IsExpanded(), r.IsNull())
		}
		out, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		assertSameJSON(t, []byte(tc.in), out)
	}
	for _, bad := range []string{`"4"`, `true`, `[1]`, `1.5`, `nul`} {
		var r Ref[Portal]
		if err := json.Unmarshal([]byte(`{"portal":`+bad+`}`), &struct {
			Portal *Ref[Portal] `json:"portal"`
		}{&r}); err == nil {
			t.Errorf("%s should not decode as a reference", bad)
		}
	}
	if r := ExpandedRef(&Portal{ID: 9}); r.ID != 9 || !r.IsExpanded() {
		t.Errorf("ExpandedRef: %+v", r)
	}
	if b, _ := json.Marshal(NewRef[Portal](0)); string(b) != "0" {
		t.Errorf("NewRef(0) = %s", b)
	}
	if b, _ := json.Marshal(NullRef[Portal]()); string(b) != "null" {
		t.Errorf("NullRef = %s", b)
	}
}

func TestTimestampKeepsNumericOffset(t *testing.T) {
	for _, in := range []string{`"2024-03-05T14:07:09+00:00"`, `"2024-03-05T14:07:09+05:30"`, `"2024-03-05T14:07:09.25-04:00"`} {
		var ts Timestamp
		if err := json.Unmarshal([]byte(in), &ts); err != nil {
			t.Fatal(err)
		}
		out, _ := json.Marshal(ts)
		if string(out) != in {
			t.Errorf("%s re-encoded as %s", in, out)
		}
	}
	var ts Timestamp
	if err := json.Unmarshal([]byte(`"yesterday"`), &ts); err == nil {
		t.Error("a non-timestamp string should fail")
	}
}

func TestDate(t *testing.T) {
	d, err := ParseDate("2024-02-29")
	if err != nil || d != NewDate(2024, time.February, 29) || d.String() != "2024-02-29" {
		t.Errorf("ParseDate = %v, %v", d, err)
	}
	if _, err := ParseDate("2023-02-29"); err == nil {
		t.Error("2023-02-29 should not parse")
	}
	if NewDate(2023, time.February, 29).Validate() == nil || NewDate(0, 1, 1).Validate() == nil {
		t.Error("invalid dates should not validate")
	}
	if !(Date{}).IsZero() || (Date{}).Validate() != nil {
		t.Error("zero Date is valid and zero")
	}
	if DateOf(time.Date(2024, 7, 4, 23, 0, 0, 0, time.UTC)) != NewDate(2024, 7, 4) {
		t.Error("DateOf")
	}
}

func TestDecodingIntoAValueOverwritesWithZero(t *testing.T) {
	p := Page[Order]{Meta: ListMeta{Pagination: Pagination{Total: 7, CurrentPage: 3}}}
	if err := json.Unmarshal([]byte(`{"object":"list","data":[],"meta":{"pagination":{"total":0,"current_page":1}}}`), &p); err != nil {
		t.Fatal(err)
	}
	if p.Meta.Pagination.Total != 0 || p.Meta.Pagination.CurrentPage != 1 || p.Data == nil || len(p.Data) != 0 {
		t.Errorf("%+v", p)
	}
	o := Order{ID: 9, AmountPaid: 5}
	if err := json.Unmarshal([]byte(`{"id":0,"amount_paid":null}`), &o); err != nil {
		t.Fatal(err)
	}
	if o.ID != 0 || o.AmountPaid != 5 {
		t.Errorf("0 should overwrite and null should leave the field as it is: %+v", o)
	}
}

// TestUnknownMembersRoundTrip decodes pages whose every object (list, meta,
// pagination, order, item, pricing, form submission, form field, values,
// message, ...) carries a member the SDK does not model, and re-encodes them:
// through encoding/json (v1), through v2 and through the client's decoder,
// the result is the same JSON value as the input.
func TestUnknownMembersRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		file   string
		decode func([]byte) (any, error)
	}{
		{"orders_list_unknown.json", func(b []byte) (any, error) { return decodePage[Order]("u", b, ObjectOrder, false, false) }},
		{"messages_list_unknown.json", func(b []byte) (any, error) { return decodePage[Message]("u", b, ObjectMessage, false, false) }},
	} {
		t.Run(tc.file, func(t *testing.T) {
			in := fixture(t, tc.file)
			viaClient, err := tc.decode(in)
			if err != nil {
				t.Fatal(err)
			}
			for name, encode := range map[string]func(any) ([]byte, error){
				"v1": json.Marshal,
				"v2": func(v any) ([]byte, error) { return jsonv2.Marshal(v) },
			} {
				out, err := encode(viaClient)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				assertSameJSON(t, in, out)
			}
			viaV1 := reflect.New(reflect.TypeOf(viaClient).Elem()).Interface()
			if err := json.Unmarshal(in, viaV1); err != nil {
				t.Fatal(err)
			}
			viaV2 := reflect.New(reflect.TypeOf(viaClient).Elem()).Interface()
			if err := jsonv2.Unmarshal(in, viaV2); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(viaClient, viaV1) || !reflect.DeepEqual(viaClient, viaV2) {
				t.Error("encoding/json (v1), v2 and the client decode the same bytes differently")
			}
		})
	}
}

func TestUnknownMembersAreKeptAtEveryLevel(t *testing.T) {
	p := decodeFixture[Page[Order]](t, "orders_list_unknown.json")
	o := p.Data[0]
	item := o.Items[0]
	field := o.BillingAddress.Fields.Get("f1")
	for name, unknown := range map[string][]byte{
		"list": p.Unknown, "meta": p.Meta.Unknown, "pagination": p.Meta.Pagination.Unknown,
		"order": o.Unknown, "order pricing": o.Pricing.Unknown, "item": item.Unknown,
		"item pricing": item.Pricing.Unknown, "form submission": o.BillingAddress.Unknown,
		"form field": field.Unknown, "expanded message": o.Message.Expanded.Unknown,
		"values": field.Values.Raw,
	} {
		if !bytes.Contains(unknown, []byte(`"x_added_by_server"`)) {
			t.Errorf("%s: unknown member lost: %s", name, unknown)
		}
	}
	if field.Values.First != "Ada" {
		t.Errorf("known values next to an unknown one: %+v", field.Values)
	}
}

// TestDecodeIsStrict: duplicate names and invalid UTF-8 are decode errors,
// with the path and the offset of the failing value, and so is a record of
// the wrong kind in a page.
func TestDecodeIsStrict(t *testing.T) {
	for name, tc := range map[string]struct{ body, path, at string }{
		"duplicate name": {`{"object":"list","data":[{"object":"order","id":1,"id":2}],"meta":{}}`, "data[0]", `"id":2`},
		// The SDK's decoders tell duplicates apart themselves (decodeOptions):
		// every way a name can come twice.
		"duplicate escaped name":         {`{"object":"list","data":[{"object":"order","id":1,"\u0069d":2}],"meta":{}}`, "data[0]", `"\u0069d"`},
		"duplicate unknown name":         {`{"object":"list","data":[{"object":"order","x":1,"x":2}],"meta":{}}`, "data[0]", `"x":2`},
		"duplicate in an unknown value":  {`{"object":"list","data":[{"object":"order","x":[{"a":1,"a":2}]}],"meta":{}}`, "data[0].x", `"a":2`},
		"duplicate form field":           {`{"object":"list","data":[{"object":"order","billing_address":{"fields":{"f1":{"id":"f1"},"f1":{"id":"f1"}}}}],"meta":{}}`, "data[0].billing_address.fields", `"f1":{"id":"f1"}}`},
		"duplicate in a skipped value":   {`{"object":"list","data":[{"object":"order","billing_address":{"fields":{"f1":{"values":{"first":{"a":1,"a":2}}}}}}],"meta":{}}`, "data[0].billing_address.fields.f1.values.first", `"a":2`},
		"duplicate in values not object": {`{"object":"list","data":[{"object":"order","billing_address":{"fields":{"f1":{"values":[{"a":1,"a":2}]}}}}],"meta":{}}`, "data[0].billing_address.fields.f1.values", `"a":2`},
		"invalid UTF-8":                  {"{\"object\":\"list\",\"data\":[{\"object\":\"order\",\"currency\":\"\xff\"}],\"meta\":{}}", "data[0].currency", "\xff"},
		"wrong kind":                     {`{"object":"list","data":[{"object":"order"},{"object":"message"}],"meta":{}}`, "data[1]", `{"object":"message"}`},
		"null record":                    {`{"object":"list","data":[{"object":"order"},null],"meta":{}}`, "data[1]", `null`},
	} {
		t.Run(name, func(t *testing.T) {
			p, err := decodePage[Order]("u", []byte(tc.body), ObjectOrder, false, false)
			var de *DecodeError
			if p != nil || !errors.As(err, &de) {
				t.Fatalf("%v, %v", p, err)
			}
			if !strings.Contains(err.Error(), tc.path) {
				t.Errorf("path %q not named: %v", tc.path, err)
			}
			if want := strings.Index(tc.body, tc.at); de.Offset != int64(want) {
				t.Errorf("offset %d, want %d: %v", de.Offset, want, err)
			}
		})
	}
}

func TestRefPrintsIDOrObject(t *testing.T) {
	expanded := ExpandedRef(&Portal{Object: "portal", ID: 4, Title: "Trade"})
	for _, tc := range []struct {
		format string
		ref    Ref[Portal]
		want   string
	}{
		{"%v", NewRef[Portal](17), "17"},
		{"%v", NewRef[Portal](0), "0"},
		{"%v", NullRef[Portal](), "null"},
		{"%v", Ref[Portal]{}, ""},
		{"%v", expanded, "4"},
		{"%s", expanded, "4"},
		{"%+v", NewRef[Portal](17), "17"},
		{"%+v", expanded, `&{Object:portal ID:4 Title:Trade Unknown:null}`},
	} {
		if got := fmt.Sprintf(tc.format, tc.ref); got != tc.want {
			t.Errorf("Sprintf(%q, %#v) = %q, want %q", tc.format, tc.ref.ID, got, tc.want)
		}
	}
	if got := fmt.Sprintf("%+v", struct{ P Ref[Portal] }{NullRef[Portal]()}); strings.Contains(got, "form") {
		t.Errorf("internal fields shown: %s", got)
	}
}

func TestParseDateSaysWhatIsWrong(t *testing.T) {
	for in, want := range map[string]string{
		"2024-02-30": "does not exist",
		"2023-02-29": "does not exist",
		"2024-13-01": "does not exist",
		"2024-2-3":   "is not YYYY-MM-DD",
		"24-02-03":   "is not YYYY-MM-DD",
		"2024/02/03": "is not YYYY-MM-DD",
		"0000-01-01": "is before the year 1",
		"0000-02-29": "is before the year 1",
	} {
		if _, err := ParseDate(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseDate(%q) = %v, want an error that %s", in, err, want)
		}
	}
}

// ParseDate and Validate agree: a date parses exactly when it validates, so
// that a parsed date is never refused when the request is sent.
func TestParseDateRefusesWhatValidateRefuses(t *testing.T) {
	for _, s := range []string{"0000-01-01", "0000-02-29", "0000-12-31", "0001-01-01", "0004-02-29", "0100-02-29",
		"2024-02-29", "2023-02-29", "2024-04-31", "2024-00-10", "2024-12-00", "9999-12-31"} {
		var y, m, d int
		if _, err := fmt.Sscanf(s, "%d-%d-%d", &y, &m, &d); err != nil {
			t.Fatal(err)
		}
		parsed, err := ParseDate(s)
		valid := NewDate(y, time.Month(m), d).Validate() == nil
		if (err == nil) != valid || err == nil && parsed != NewDate(y, time.Month(m), d) {
			t.Errorf("%s: ParseDate = %v, %v; Validate: %v", s, parsed, err, valid)
		}
	}
}

// TestEncodingJSONV1IsAsStrictAsTheClient: on Go 1.27, encoding/json (v1)
// calls the v2 methods with lenient options of its own; the types decode as
// the client does on every release all the same.
func TestEncodingJSONV1IsAsStrictAsTheClient(t *testing.T) {
	var o Order
	if err := json.Unmarshal([]byte(`{"object":"order","ID":3,"items":[{"ID":4}]}`), &o); err != nil {
		t.Fatal(err)
	}
	if o.ID != 0 || string(o.Unknown) != `{"ID":3}` || string(o.Items[0].Unknown) != `{"ID":4}` {
		t.Errorf("names must match exactly: id %d, unknown %s and %s", o.ID, o.Unknown, o.Items[0].Unknown)
	}
	for _, bad := range []string{`{"object":"order","id":1,"id":2}`, "{\"object\":\"order\",\"currency\":\"\xff\"}"} {
		if err := json.Unmarshal([]byte(bad), new(Order)); err == nil {
			t.Errorf("encoding/json accepted %q", bad)
		}
		if _, err := decodeRecord[Order]("u", []byte(bad), ObjectOrder, false); err == nil {
			t.Errorf("the client accepted %q", bad)
		}
	}
}

// TestEncodingJSONV1MatchesTheClientForBareTypes: every type with JSON
// methods of its own, decoded bare with encoding/json (v1), gives what the
// SDK's own decode gives (unmarshalJSON, the options of the client): the same
// value, or an error for the same input. On Go 1.27, v1 calls the v2 methods
// with its own lenient options (duplicate names, invalid UTF-8, names in any
// case); on Go 1.26 it calls UnmarshalJSON.
func TestEncodingJSONV1MatchesTheClientForBareTypes(t *testing.T) {
	type tc struct {
		name string
		new  func() any
		in   string
	}
	cases := []tc{
		{"FormFields duplicate", func() any { return new(FormFields) }, `{"f1":{"id":"f1"},"f1":{"id":"f1"}}`},
		{"FormFields inner duplicate", func() any { return new(FormFields) }, `{"f1":{"id":"f1","id":"f1"}}`},
		{"FormFields invalid UTF-8 key", func() any { return new(FormFields) }, "{\"f\xff\":{\"id\":\"f1\"}}"},
		{"FormFields invalid UTF-8 value", func() any { return new(FormFields) }, "{\"f1\":{\"id\":\"f\xff\"}}"},
		{"FormFields name case", func() any { return new(FormFields) }, `{"f1":{"ID":"f1"}}`},
		{"FormFields ok", func() any { return new(FormFields) }, `{"f1":{"id":"f1","values":{"first":"A"}},"x":{"id":"f2"}}`},
		{"FieldValues duplicate", func() any { return new(FieldValues) }, `{"first":"A","first":"B"}`},
		{"FieldValues invalid UTF-8", func() any { return new(FieldValues) }, "{\"first\":\"\xff\"}"},
		{"FieldValues name case", func() any { return new(FieldValues) }, `{"First":"A"}`},
		{"FieldValues ok", func() any { return new(FieldValues) }, `{"first":"A","number":5}`},
		{"FormSubmission duplicate", func() any { return new(FormSubmission) }, `{"object":"form_submission","fields":{"f1":{"id":"f1"},"f1":{"id":"f1"}}}`},
		{"FormSubmission ok", func() any { return new(FormSubmission) }, `{"object":"form_submission","fields":{"f1":{"id":"f1"}}}`},
		{"Ref duplicate", func() any { return new(Ref[Portal]) }, `{"object":"portal","id":1,"id":2}`},
		{"Ref invalid UTF-8", func() any { return new(Ref[Portal]) }, "{\"object\":\"portal\",\"title\":\"\xff\"}"},
		{"Ref name case", func() any { return new(Ref[Portal]) }, `{"object":"portal","ID":1}`},
		{"Ref id", func() any { return new(Ref[Portal]) }, `7`},
		{"Ref null", func() any { return new(Ref[Portal]) }, `null`},
		{"Nullable duplicate", func() any { return new(Nullable[FormSubmission]) }, `{"object":"form_submission","object":"form_submission"}`},
		{"Nullable inner duplicate", func() any { return new(Nullable[FormSubmission]) }, `{"fields":{"f1":{"id":"f1"},"f1":{"id":"f1"}}}`},
		{"Nullable invalid UTF-8", func() any { return new(Nullable[FormSubmission]) }, "{\"object\":\"\xff\"}"},
		{"Nullable ok", func() any { return new(Nullable[FormSubmission]) }, `{"object":"form_submission"}`},
		{"Timestamp invalid UTF-8", func() any { return new(Timestamp) }, "\"2024-05-01T09:30:00+00:00\xff\""},
		{"Timestamp lowercase t", func() any { return new(Timestamp) }, `"2024-05-01t09:30:00+00:00"`},
		{"Timestamp comma fraction", func() any { return new(Timestamp) }, `"2024-05-01T09:30:00,5+00:00"`},
		{"Timestamp hour 24", func() any { return new(Timestamp) }, `"2024-05-01T24:00:00+00:00"`},
		{"Timestamp lowercase z", func() any { return new(Timestamp) }, `"2024-05-01T09:30:00z"`},
		{"Timestamp offset without colon", func() any { return new(Timestamp) }, `"2024-05-01T09:30:00+0000"`},
		{"Timestamp one-digit hour", func() any { return new(Timestamp) }, `"2024-05-01T9:30:00+00:00"`},
		{"Timestamp ok", func() any { return new(Timestamp) }, `"2024-05-01T09:30:00+00:00"`},
		{"Date", func() any { return new(Date) }, `{"Year":2024,"Month":5,"Day":1}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			viaV1, viaSDK := c.new(), c.new()
			errV1 := json.Unmarshal([]byte(c.in), viaV1)
			errSDK := unmarshalJSON([]byte(c.in), viaSDK)
			if (errV1 == nil) != (errSDK == nil) {
				t.Fatalf("encoding/json: %v; the SDK: %v", errV1, errSDK)
			}
			if errV1 == nil && !reflect.DeepEqual(viaV1, viaSDK) {
				t.Errorf("encoding/json gave %#v, the SDK %#v", viaV1, viaSDK)
			}
		})
	}
	// The case: a duplicate field id is an error, not two fields.
	var ff FormFields
	if err := json.Unmarshal([]byte(`{"f1":{"id":"f1"},"f1":{"id":"f1"}}`), &ff); err == nil {
		t.Errorf("encoding/json accepted a duplicate field id: %d fields", len(ff))
	}
}

// TestEveryRefTargetHasAnID: a Ref fills its ID from the object it was
// expanded to through the object's refID method. Ref[T] accepts any T (a
// constraint would break callers' generic code over Ref[T]), so that method
// is found at run time; a type that lacked it would leave the ID of its
// expanded references at 0. This test walks every type reachable from the
// resources and fails for a Ref whose target has no refID.
func TestEveryRefTargetHasAnID(t *testing.T) {
	identifiedType := reflect.TypeFor[identified]()
	seen := map[reflect.Type]bool{}
	refs := 0
	var visit func(reflect.Type)
	visit = func(typ reflect.Type) {
		for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice || typ.Kind() == reflect.Map {
			typ = typ.Elem()
		}
		if typ.Kind() != reflect.Struct || seen[typ] {
			return
		}
		seen[typ] = true
		if strings.HasPrefix(typ.Name(), "Ref[") {
			refs++
			target := typ.Field(1).Type // Expanded *T
			if !target.Implements(identifiedType) {
				t.Errorf("%s: %s has no refID method, so an expanded reference's ID stays 0", typ.Name(), target)
			}
		}
		for i := range typ.NumField() {
			visit(typ.Field(i).Type)
		}
	}
	visit(reflect.TypeFor[Page[Order]]())
	visit(reflect.TypeFor[Page[Message]]())
	if refs < 7 {
		t.Fatalf("found %d Ref types, want the 7 the resources hold", refs)
	}
}
