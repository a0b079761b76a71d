package mirror_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/internal/secretmask/secretmasktest"
	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
)

// TestSyncFleetMasksSecretsInEverySpelling: a server whose 401 quotes a
// website's key in every spelling, the last one cut by the SDK, and
// another secret (a database password, however short), gets none of them
// into mirror_runs.error, which keeps the rest of the message;
// WebsiteResult.Err keeps the text as it was.
func TestSyncFleetMasksSecretsInEverySpelling(t *testing.T) {
	const key, password = "k3y+/é😀=%~Q", "pw"
	var quoted []string
	for _, sp := range secretmasktest.Spellings(key) {
		quoted = append(quoted, sp.Text)
	}
	// Cut by the SDK at 500 bytes, inside a spelling.
	message := "the password " + password + " ; the key: " + strings.Join(quoted, " ; ")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := json.Marshal(map[string]string{"message": message})
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	c, err := ordermsg.NewClient(srv.URL, key)
	if err != nil {
		t.Fatal(err)
	}
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		db := be.Open(t, target)
		m := openMirror(t, be, db)
		fleet := func(yield func(mirror.Website) bool) {
			yield(mirror.Website{ID: 7, Client: c, Secrets: []string{key, password}})
		}
		_, got, _ := syncFleet(m, context.Background(), fleet, nil)
		if !strings.Contains(got[7].Err.Error(), quoted[0]) {
			t.Errorf("WebsiteResult.Err: %v; want the text as the server sent it", got[7].Err)
		}
		rows := runRows(t, db)
		if len(rows) != 1 || !strings.Contains(rows[0].err.String, "the password xxxxx ; the key: xxxxx ; xxxxx ;") || !strings.Contains(rows[0].err.String, " ; xxxxx…") {
			t.Fatalf("mirror_runs: %+v; want the message with each secret masked", rows)
		}
		for _, q := range append(quoted, password) {
			if strings.Contains(rows[0].err.String, q) {
				t.Errorf("mirror_runs.error %q holds %q", rows[0].err.String, q)
			}
		}
	})
}
