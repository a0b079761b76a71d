package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// readCSV runs an export to CSV against the demo and returns its rows by
// column name.
func readCSV(t *testing.T, args ...string) (columns []string, rows []map[string]string) {
	t.Helper()
	stdout, stderr, code := cli{}.run(context.Background(), append(args, "--demo", "--format", "csv")...)
	if code != exitOK {
		t.Fatalf("%v: exit %d, %s", args, code, stderr)
	}
	records, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range records[1:] {
		row := map[string]string{}
		for i, c := range records[0] {
			row[c] = r[i]
		}
		rows = append(rows, row)
	}
	return records[0], rows
}

// An absent reference is empty in every column, whether the API sent 0 or
// null: the rule of sync --db, whose columns are NULL then. The demo data
// has both forms (a message's user is 0 when none, an order's is null).
// tax_class, "0 when none" in the spec, follows the same rule. A row's own
// ids (an item row's order_id and item_id) are not references.
func TestCSVAbsentReferencesAreEmpty(t *testing.T) {
	for _, args := range [][]string{{"orders", "export"}, {"orders", "export", "--items"}, {"messages", "export"}} {
		items := slices.Contains(args, "--items")
		columns, rows := readCSV(t, args...)
		var refs []string
		for _, c := range columns {
			own := items && (c == "order_id" || c == "item_id")
			if (strings.HasSuffix(c, "_id") && !own) || c == "event_submission" || c == "online_proof" || c == "tax_class" {
				refs = append(refs, c)
			}
		}
		if len(refs) < 2 {
			t.Fatalf("%v: reference columns %v", args, refs)
		}
		empty := map[string]int{}
		for _, row := range rows {
			for _, c := range refs {
				switch row[c] {
				case "0":
					t.Fatalf("%v: %s is 0 in %v", args, c, row)
				case "":
					empty[c]++
				}
			}
		}
		for _, c := range []string{"portal_id", "user_id", "order_id", "tax_class"} {
			if slices.Contains(refs, c) && empty[c] == 0 {
				t.Errorf("%v: no row without a %s, so the rule is not tested", args, c)
			}
		}
	}
}

// The messages CSV has each submission's name, email and phone, and every
// field as a JSON object from its label to its text.
func TestMessagesCSVHasFormData(t *testing.T) {
	_, rows := readCSV(t, "messages", "export", "--direction", "asc")
	w := ordermsgtest.Generate(ordermsgtest.DefaultConfig()).Websites[0]
	if len(rows) != len(w.Messages) {
		t.Fatalf("%d rows for %d messages", len(rows), len(w.Messages))
	}
	byID := map[string]*ordermsg.Message{}
	for _, m := range w.Messages {
		byID[itoa(m.ID)] = m
	}
	withEmail := 0
	for _, row := range rows {
		fields := byID[row["id"]].FormSubmission.Fields
		var all map[string]string
		if err := json.Unmarshal([]byte(row["form_fields"]), &all); err != nil || len(all) != len(fields) {
			t.Fatalf("message %s: form_fields %q (%v); want %d fields", row["id"], row["form_fields"], err, len(fields))
		}
		for _, f := range fields {
			switch f.FieldType {
			case ordermsg.FieldTypeEmail:
				if row["email"] != f.Values.SubmittedValue || !strings.Contains(row["email"], "@") {
					t.Errorf("message %s: email %q, field %+v", row["id"], row["email"], f.Values)
				}
				withEmail++
			case ordermsg.FieldTypeName:
				if row["name"] == "" || !strings.Contains(row["name"], f.Values.Last) {
					t.Errorf("message %s: name %q, field %+v", row["id"], row["name"], f.Values)
				}
			}
		}
	}
	if withEmail == 0 {
		t.Error("no message with an email field")
	}
}

// A label that repeats, or an empty one, is told apart by the field's id;
// a field without formatted_value is its values.
func TestFieldsJSON(t *testing.T) {
	fields := ordermsg.FormFields{
		{ID: "f1", Label: "Address", FormattedValue: "1 Main St"},
		{ID: "f2", Label: "Address", Values: ordermsg.FieldValues{Line: "2 Side St", City: "Leeds"}},
		{ID: "f3", FieldType: ordermsg.FieldTypeName, Values: ordermsg.FieldValues{First: "Ada", Last: "Lovelace"}},
	}
	want := `{"Address":"1 Main St","Address [f2]":"2 Side St Leeds","[f3]":"Ada Lovelace"}`
	if got := fieldsJSON(fields); got != want {
		t.Errorf("fieldsJSON = %s; want %s", got, want)
	}
	if got := firstOfType(fields, ordermsg.FieldTypeName); got != "Ada Lovelace" {
		t.Errorf("name %q", got)
	}
	if fieldsJSON(nil) != "" {
		t.Error("no submission is not empty")
	}
}

// The includes the CSV columns are made of may be named; the export asks
// for them anyway.
func TestCSVTakesTheIncludesOfItsColumns(t *testing.T) {
	for _, args := range [][]string{
		{"orders", "export", "--include", "items.portal"},
		{"orders", "export", "--items", "--include", "items.portal"},
		{"messages", "export", "--include", "form_submission"},
	} {
		if _, rows := readCSV(t, args...); len(rows) == 0 {
			t.Errorf("%v: no rows", args)
		}
	}
}
