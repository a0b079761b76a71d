package webhook_test

import (
	"strings"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go/mirror/webhook"
)

// TestSignMatchesStandardWebhooks: the signature of the Standard Webhooks
// libraries' own test vector.
func TestSignMatchesStandardWebhooks(t *testing.T) {
	s, err := webhook.ParseSecret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
	if err != nil {
		t.Fatal(err)
	}
	got := webhook.Sign(s, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, []byte(`{"test": 2432232314}`))
	if want := "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="; got != want {
		t.Errorf("Sign = %s, want %s", got, want)
	}
}

// TestDeliveryIDStable: a change's webhook-id depends on its cursor alone.
func TestDeliveryIDStable(t *testing.T) {
	a, b := webhook.DeliveryID("c1"), webhook.DeliveryID("c2")
	if a != webhook.DeliveryID("c1") || a == b || !strings.HasPrefix(a, "msg_") {
		t.Errorf("DeliveryID: %s, %s", a, b)
	}
}

// TestCheckURLRefusesPlainHTTP: http:// is refused but to a loopback host,
// and a refusal shows no user info or query.
func TestCheckURLRefusesPlainHTTP(t *testing.T) {
	for raw, ok := range map[string]bool{
		"https://hooks.example.com/in":       true,
		"http://127.0.0.1:8080/in":           true,
		"http://localhost/in":                true,
		"http://[::1]:9/in":                  true,
		"http://hooks.example.com/in":        false,
		"http://10.0.0.1/in":                 false,
		"http://localhost.evil.test/in":      false,
		"ftp://hooks.example.com/in":         false,
		"hooks.example.com/in":               false,
		"":                                   false,
		"http://user:pw@hooks.test/in?k=tok": false,
	} {
		err := webhook.CheckURL(raw)
		if (err == nil) != ok {
			t.Errorf("CheckURL(%q) = %v, want ok %v", raw, err, ok)
		}
		if err != nil && (strings.Contains(err.Error(), "pw") || strings.Contains(err.Error(), "tok")) {
			t.Errorf("CheckURL's error shows a secret of the URL: %v", err)
		}
	}
	_, err := webhook.NewDeliverer(&fakeChanges{}, []webhook.Endpoint{{URL: "http://hooks.example.com/in", Secret: mustSecret(t)}})
	if err == nil || !strings.Contains(err.Error(), "plain http") {
		t.Errorf("NewDeliverer with a plain http URL: %v", err)
	}
}

// TestDefaultScheduleGrowsAndGivesUp: the first retry comes within a few
// seconds, each wait grows up to an hour, and the last attempt is made
// about three days after the first.
func TestDefaultScheduleGrowsAndGivesUp(t *testing.T) {
	s := webhook.DefaultSchedule
	if w := s.Wait(1); w > 5*time.Second {
		t.Errorf("first retry after %s, want within a few seconds", w)
	}
	var total time.Duration
	for a := 1; a < s.Attempts(); a++ {
		w := s.Wait(a)
		if a > 1 && (w < s.Wait(a-1) || w > time.Hour) {
			t.Errorf("wait %d is %s after %s", a, w, s.Wait(a-1))
		}
		total += w
	}
	if total < 72*time.Hour || total > 73*time.Hour {
		t.Errorf("the last attempt comes %s after the first, want 3 days", total)
	}
	t.Logf("%d attempts over %s", s.Attempts(), total)
}
