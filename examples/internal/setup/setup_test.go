package setup

import (
	"strings"
	"testing"
)

func TestConnectWithoutEnvironmentUsesTheFake(t *testing.T) {
	t.Setenv(EnvBaseURL, "")
	t.Setenv(EnvAPIKey, "")
	t.Setenv(EnvWebsiteID, "")
	target, err := Connect()
	if err != nil {
		t.Fatal(err)
	}
	defer target.Close()
	if target.WebsiteID <= 0 || target.Client == nil {
		t.Fatalf("%+v", target)
	}
}

func TestConnectNamesWhatIsMissing(t *testing.T) {
	t.Setenv(EnvBaseURL, "https://api.example.com")
	t.Setenv(EnvAPIKey, "")
	t.Setenv(EnvWebsiteID, "")
	_, err := Connect()
	if err == nil || !strings.Contains(err.Error(), EnvAPIKey) || !strings.Contains(err.Error(), EnvWebsiteID) {
		t.Fatalf("err = %v", err)
	}
	t.Setenv(EnvAPIKey, "k")
	t.Setenv(EnvWebsiteID, "abc")
	if _, err := Connect(); err == nil || !strings.Contains(err.Error(), "positive integer") {
		t.Fatalf("err = %v", err)
	}
}
