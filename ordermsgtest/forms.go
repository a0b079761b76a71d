package ordermsgtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ordermsg/ordermsg-go"
)

// values builds a FieldValues from key/value pairs, keeping every key (also
// the empty ones, as the spec's samples show them) in Raw, in order.
func values(pairs ...string) ordermsg.FieldValues {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i := 0; i+1 < len(pairs); i += 2 {
		if i > 0 {
			buf.WriteByte(',')
		}
		k, _ := json.Marshal(pairs[i])
		v, _ := json.Marshal(pairs[i+1])
		buf.Write(k)
		buf.WriteByte(':')
		buf.Write(v)
	}
	buf.WriteByte('}')
	var fv ordermsg.FieldValues
	if err := json.Unmarshal(buf.Bytes(), &fv); err != nil {
		panic(err) // the pairs are ours; this cannot fail
	}
	return fv
}

func field(id string, typ ordermsg.FieldType, label string, v ordermsg.FieldValues, formatted string) ordermsg.FormField {
	return ordermsg.FormField{Object: "form_submission_field", ID: id, FieldType: typ, Label: label, Values: v, FormattedValue: formatted}
}

func textField(id string, typ ordermsg.FieldType, label, text string) ordermsg.FormField {
	return field(id, typ, label, values("submitted_value", text), text)
}

func (g *generator) nameField(id string) ordermsg.FormField {
	first, last := firstNames[g.pick(len(firstNames))], lastNames[g.pick(len(lastNames))]
	prefix := ""
	if g.chance(0.2) {
		prefix = "Dr."
	}
	formatted := strings.TrimSpace(prefix + " " + first + " " + last)
	return field(id, ordermsg.FieldTypeName, "Name",
		values("prefix", prefix, "first", first, "middle", "", "last", last, "suffix", ""), formatted)
}

func (g *generator) emailField(id string) ordermsg.FormField {
	addr := fmt.Sprintf("%s%d@example.com", lower(firstNames[g.pick(len(firstNames))]), g.pick(1000))
	return field(id, ordermsg.FieldTypeEmail, "Email", values("submitted_value", addr, "display_value", addr), addr)
}

func (g *generator) phoneField(id string) ordermsg.FormField {
	number := fmt.Sprintf("555%07d", g.pick(10_000_000))
	ext := ""
	if g.chance(0.2) {
		ext = fmt.Sprint(10 + g.pick(90))
	}
	formatted := "+1 " + number
	if ext != "" {
		formatted += " x" + ext
	}
	return field(id, ordermsg.FieldTypePhone, "Phone", values("country_code", "1", "number", number, "extension", ext), formatted)
}

func (g *generator) addressField(id, label string) ordermsg.FormField {
	c := cities[g.pick(len(cities))]
	line := fmt.Sprintf("%d %s Street", 1+g.pick(200), lastNames[g.pick(len(lastNames))])
	line2 := ""
	if g.chance(0.3) {
		line2 = fmt.Sprintf("Suite %d", 1+g.pick(50))
	}
	formatted := strings.Join(nonEmpty(line, line2, c.city, strings.TrimSpace(c.state+" "+c.postal), c.country), ", ")
	return field(id, ordermsg.FieldTypeAddress, label,
		values("line", line, "line2", line2, "line3", "", "city", c.city, "state", c.state, "postal_code", c.postal, "country", c.country),
		formatted)
}

func (g *generator) radioField(id, label string, options ...[2]string) ordermsg.FormField {
	o := options[g.pick(len(options))]
	return field(id, ordermsg.FieldTypeRadioButtons, label, values("submitted_value", o[0], "display_value", o[1]), o[1])
}

// addressForm is a billing address (name, address, email, phone) or a
// shipping address (name and address).
func (g *generator) addressForm(billing bool) *ordermsg.FormSubmission {
	fields := ordermsg.FormFields{g.nameField("f1"), g.addressField("f2", "Address")}
	if billing {
		fields = append(fields, g.emailField("f4"), g.phoneField("f5"))
	}
	return &ordermsg.FormSubmission{Object: "form_submission", Fields: fields}
}

func (g *generator) additionalInformation() *ordermsg.FormSubmission {
	notes := []string{"", "Leave at reception.", "Please call before delivery.", "Gift, no prices on the slip."}
	return &ordermsg.FormSubmission{Object: "form_submission", Fields: ordermsg.FormFields{
		textField("f12", ordermsg.FieldTypeTextarea, "Delivery notes", notes[g.pick(len(notes))]),
		g.radioField("f13", "Gift wrap", [2]string{"yes", "Yes please"}, [2]string{"no", "No thanks"}),
	}}
}

// attributes are an order_item's attribute fields, with price modifiers.
func (g *generator) attributes() *ordermsg.FormSubmission {
	f := g.radioField("f21", "Paper", [2]string{"matte", "Matte"}, [2]string{"gloss", "Gloss"}, [2]string{"recycled", "Recycled"})
	modifier := int64(5 * g.pick(4))
	f.PriceModifier = &modifier
	f.PriceModifierType = ordermsg.PriceModifierTypePercent
	f.PriceScope = ordermsg.PriceScopeAllUnits
	return &ordermsg.FormSubmission{Object: "form_submission", Fields: ordermsg.FormFields{f}}
}

// contactForm is the form submission of a message of the given type; between
// them the three types use every observed field type.
func (g *generator) contactForm(kind ordermsg.MessageType) *ordermsg.FormSubmission {
	fields := ordermsg.FormFields{g.nameField("f1"), g.emailField("f4")}
	switch kind {
	case ordermsg.MessageTypeOnlineOrder:
		fields = append(fields, g.phoneField("f5"), g.addressField("f6", "Address"))
	case ordermsg.MessageTypeEventManagement:
		fields = append(fields, textField("f7", ordermsg.FieldTypeText, "Event", "Print fair "+fmt.Sprint(2024+g.pick(2))), g.phoneField("f5"))
	default:
		fields = append(fields,
			textField("f8", ordermsg.FieldTypeTextarea, "Message", "Do you print on recycled paper?\nThanks!"),
			g.radioField("f9", "Reply by", [2]string{"email", "By email"}, [2]string{"phone", "By phone"}))
	}
	return &ordermsg.FormSubmission{Object: "form_submission", Fields: fields}
}

func nonEmpty(parts ...string) []string {
	out := parts[:0]
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}
