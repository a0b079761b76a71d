package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
)

// TestSyncFleetCLIMasksEveryKeyOfTheFile: a hostile server has had every
// key of --websites FILE; quoting one website's key in another website's
// failure must not show it, in the line nor in mirror_runs.error.
func TestSyncFleetCLIMasksEveryKeyOfTheFile(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		srv, sites := fleetService(t, 2)
		failing, quoted := sites[1], sites[0]
		echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasPrefix(r.URL.Path, fmt.Sprintf("/websites/%d/", failing.ID)) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusForbidden)
				fmt.Fprintf(w, `{"message":"use the key %s instead"}`, quoted.APIKey)
				return
			}
			srv.Handler.ServeHTTP(w, r)
		}))
		t.Cleanup(echo.Close)
		env := map[string]string{envBaseURL: echo.URL}
		stdout, stderr, code := cli{env: env}.run(context.Background(), "sync", "--db", target, "--websites", websitesFile(t, fileOf(sites)))
		if code != exitFailure || !strings.Contains(stdout, "instead") {
			t.Fatalf("exit %d, want 1, with the server's message:\n%s%s", code, stdout, stderr)
		}
		if strings.Contains(stdout+stderr, quoted.APIKey) {
			t.Errorf("website %d's key shows:\n%s%s", quoted.ID, stdout, stderr)
		}
		for site, r := range runsOf(t, be.Open(t, target)) {
			if strings.Contains(strings.Join(r, " "), quoted.APIKey) {
				t.Errorf("mirror_runs of website %d shows website %d's key: %q", site, quoted.ID, r)
			}
		}
	})
}
