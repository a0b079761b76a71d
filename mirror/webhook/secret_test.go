package webhook_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/ordermsg/ordermsg-go/mirror/webhook"
)

// TestParseSecretRefusesBadForms: each malformed secret gets its own clear
// error, and no error quotes the secret.
func TestParseSecretRefusesBadForms(t *testing.T) {
	for text, want := range map[string]string{
		"":                                 "is empty",
		"dGhpcy1pcy1hLXRlc3Qtc2VjcmV0":     "does not begin with whsec_",
		"whsec_not*base64*at*all*here!!!!": "not standard base64",
		"whsec_c2hvcnQ=":                   "holds 5 bytes: want at least 24",
	} {
		_, err := webhook.ParseSecret(text)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseSecret(%q) = %v, want an error saying %q", text, err, want)
			continue
		}
		if body := strings.TrimPrefix(text, "whsec_"); body != "" && strings.Contains(err.Error(), body) {
			t.Errorf("ParseSecret's error quotes the secret: %v", err)
		}
	}
	if _, err := webhook.ParseSecret(" " + testSecret + "\n"); err != nil {
		t.Errorf("a secret with a line end: %v", err)
	}
}

// TestSecretNeverPrinted: every way a program may print a Secret, or an
// Endpoint that holds it, shows no part of its key, nor (but in JSON, its configuration) the
// URL's query.
func TestSecretNeverPrinted(t *testing.T) {
	s := mustSecret(t)
	e := webhook.Endpoint{URL: "https://hooks.test/x?token=urltoken", Secret: s}
	var logged bytes.Buffer
	slog.New(slog.NewJSONHandler(&logged, nil)).Info("secret", "s", s, "e", e)
	j, _ := json.Marshal(e)
	out := fmt.Sprint(s) + fmt.Sprintf("%v %+v %#v %s %q %x %X", s, e, e, s, s, s, s) + s.String() + logged.String()
	key := strings.TrimPrefix(testSecret, "whsec_")
	for _, leak := range []string{key, key[:12], "this-is-a-test", "746869732d6973", "urltoken"} {
		if strings.Contains(out, leak) {
			t.Fatalf("a printed Secret or Endpoint shows %q: %s", leak, out)
		}
		if leak != "urltoken" && strings.Contains(string(j), leak) {
			t.Fatalf("an Endpoint in JSON shows its secret: %s", j)
		}
	}
}

// TestReadSecretFileRules: a secret file that group or others may read is
// refused, naming chmod 600; one readable by its owner alone is read.
func TestReadSecretFileRules(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows keeps no permission bits")
	}
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(path, []byte(testSecret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []os.FileMode{0o640, 0o604, 0o660} {
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
		_, err := webhook.ReadSecretFile(ctx, path)
		if err == nil || !strings.Contains(err.Error(), "chmod 600") {
			t.Errorf("mode %04o: %v, want a refusal naming chmod 600", mode, err)
		}
	}
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := webhook.ReadSecretFile(ctx, path)
	if err != nil || s.IsZero() {
		t.Fatalf("mode 0600: %v", err)
	}
	if _, err := webhook.ReadSecretFile(ctx, filepath.Dir(path)); err == nil || !strings.Contains(err.Error(), "folder") {
		t.Errorf("a folder: %v", err)
	}
	bad := filepath.Join(t.TempDir(), "bad")
	os.WriteFile(bad, []byte("whsec_c2hvcnQ="), 0o600)
	if _, err := webhook.ReadSecretFile(ctx, bad); err == nil || !strings.Contains(err.Error(), bad) || strings.Contains(err.Error(), "c2hvcnQ") {
		t.Errorf("a short secret: %v, want an error naming the file and not the secret", err)
	}
}
