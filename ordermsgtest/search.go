package ordermsgtest

import (
	"strconv"
	"strings"
	"time"

	"github.com/ordermsg/ordermsg-go"
)

// The fake's search: a case-insensitive substring match over the fields
// listed in the package documentation.

var orderOps = kindOps[ordermsg.Order]{
	created: func(o *ordermsg.Order) time.Time { return o.DateCreated.Time },
	id:      func(o *ordermsg.Order) int64 { return o.ID },
	matches: func(o *ordermsg.Order, status, search string) bool {
		if status != "" && string(o.Status) != status {
			return false
		}
		if search == "" {
			return true
		}
		texts := []string{strconv.FormatInt(o.ID, 10), o.Currency}
		for _, it := range o.Items {
			texts = append(texts, it.SKU, it.Title)
		}
		texts = append(texts, formTexts(o.BillingAddress)...)
		if o.User.Expanded != nil {
			texts = append(texts, o.User.Expanded.Username)
		}
		return containsFold(texts, search)
	},
}

var messageOps = kindOps[ordermsg.Message]{
	created: func(m *ordermsg.Message) time.Time { return m.DateCreated.Time },
	id:      func(m *ordermsg.Message) int64 { return m.ID },
	matches: func(m *ordermsg.Message, messageType, search string) bool {
		if messageType != "" && string(m.MessageType) != messageType {
			return false
		}
		if search == "" {
			return true
		}
		texts := append([]string{strconv.FormatInt(m.ID, 10), m.MessageTrackingNumber}, formTexts(m.FormSubmission)...)
		if m.User.Expanded != nil {
			texts = append(texts, m.User.Expanded.Username)
		}
		return containsFold(texts, search)
	},
}

func formTexts(fs *ordermsg.FormSubmission) []string {
	if fs == nil {
		return nil
	}
	out := make([]string, 0, len(fs.Fields))
	for _, f := range fs.Fields {
		out = append(out, f.FormattedValue)
	}
	return out
}

// containsFold reports whether any text contains search, which is lowercase.
func containsFold(texts []string, search string) bool {
	for _, t := range texts {
		if strings.Contains(strings.ToLower(t), search) {
			return true
		}
	}
	return false
}
