package ordermsg

import (
	"strings"
	"testing"
	"unicode"
)

// TestErrorMessageHasNoControlCharacters: a server's message is shown on a
// terminal, where a control character acts: backspaces that draw the API
// key over a spelling the CLI does not mask, an escape sequence that sets
// the window's title or colours the rest. The message keeps none of them.
func TestErrorMessageHasNoControlCharacters(t *testing.T) {
	body := []byte(`{"message":"bad key omk_0123X\bX\b456789 \u001b]0;title\u0007 \u001b[31mred \u009b2J del\u007f"}`)
	msg := errorMessage(401, body)
	if i := strings.IndexFunc(msg, unicode.IsControl); i >= 0 {
		t.Fatalf("message %q holds the control character %q", msg, msg[i])
	}
	if !strings.Contains(msg, "bad key omk_0123X") || !strings.Contains(msg, "red") {
		t.Fatalf("message %q lost its text", msg)
	}
}
