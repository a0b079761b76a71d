package exampleenv

import (
	"errors"
	"testing"

	"github.com/ordermsg/ordermsg-go"
)

// setEnv sets the variables Connect reads; an empty value unsets one.
func setEnv(t *testing.T, baseURL, apiKey, websiteID, versionHeader string) {
	t.Helper()
	t.Setenv(ordermsg.EnvBaseURL, baseURL)
	t.Setenv(ordermsg.EnvAPIKey, apiKey)
	t.Setenv(EnvWebsiteID, websiteID)
	t.Setenv(ordermsg.EnvVersionHeader, versionHeader)
}

// Some of the three variables, but not all, is an error that names those
// missing, always in the same order.
func TestConnectNamesWhatIsMissingInAStableOrder(t *testing.T) {
	setEnv(t, "", "k", "", "")
	for range 20 { // a map's order would show within a few runs
		_, _, _, err := Connect()
		want := "set ORDERMSG_BASE_URL and ORDERMSG_WEBSITE_ID too, or none of ORDERMSG_BASE_URL, ORDERMSG_API_KEY, ORDERMSG_WEBSITE_ID to use the fake service"
		if err == nil || err.Error() != want {
			t.Fatalf("err = %v", err)
		}
	}
	setEnv(t, "https://api.example.com", "k", "abc", "")
	if _, _, _, err := Connect(); err == nil || err.Error() != `ORDERMSG_WEBSITE_ID="abc": want a positive integer` {
		t.Fatalf("err = %v", err)
	}
}

// The client is NewClientFromEnv's, so its refusal of a version header is
// Connect's error.
func TestConnectRefusesABadVersionHeader(t *testing.T) {
	setEnv(t, "https://api.example.com", "k", "1", "Authorization: Basic SECRET")
	_, _, _, err := Connect()
	var vh *ordermsg.VersionHeaderError
	if !errors.As(err, &vh) || vh.Source != ordermsg.EnvVersionHeader {
		t.Fatalf("err = %v", err)
	}
}
