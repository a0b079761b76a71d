//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The tool runs the fake (--demo, serve) but is not a test: the testing
// package is not linked in, nor what imports it: httpmock, and
// net/http/httptest from Go 1.27.
func TestToolDoesNotLinkTesting(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, "github.com/ordermsg/ordermsg-go/ordermsgtest") {
		t.Fatalf("the tool no longer imports ordermsgtest: this test checks nothing; deps: %v", deps)
	}
	for _, pkg := range []string{"testing", "github.com/jarcoal/httpmock", "net/http/httptest"} {
		if slices.Contains(deps, pkg) {
			t.Errorf("the tool links %s; find who imports it with: go list -deps -f '{{.ImportPath}}: {{.Imports}}' .", pkg)
		}
	}
}

// The exchange log of the repository's tests (internal/exchangelog) is not
// the tool's business: with its variable set, the fake of --demo writes no
// file there, and does not fail when the directory cannot be written.
func TestDemoIgnoresTheExchangeLogVariable(t *testing.T) {
	dir := t.TempDir()
	for _, logDir := range []string{dir, filepath.Join(dir, "missing")} {
		env := map[string]string{"ORDERMSG_EXCHANGE_LOG": logDir}
		for _, args := range [][]string{
			{"orders", "list", "--demo", "--count", "2"},
			{"sync", "--demo", "--db", filepath.Join(t.TempDir(), "shop.db")},
		} {
			if r := runTool(t, env, args...); r.code != 0 {
				t.Fatalf("%v with ORDERMSG_EXCHANGE_LOG=%s: %v", args, logDir, r)
			}
		}
	}
	if entries, err := os.ReadDir(dir); err != nil || len(entries) != 0 {
		t.Fatalf("the tool wrote %v in ORDERMSG_EXCHANGE_LOG's directory (%v); want nothing", entries, err)
	}
}
