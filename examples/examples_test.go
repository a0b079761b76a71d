// Package examples_test checks that every example is a program of its own
// that a user can copy, and that each runs without credentials.
package examples_test

import (
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// examples lists the folders under examples/ that hold a program.
func examples(t *testing.T) []string {
	t.Helper()
	mains, err := filepath.Glob(filepath.Join("*", "main.go"))
	if err != nil || len(mains) < 3 {
		t.Fatalf("examples: %v, %v", mains, err)
	}
	var dirs []string
	for _, m := range mains {
		dirs = append(dirs, filepath.Dir(m))
	}
	return dirs
}

// An example imports only the standard library and the SDK's public
// packages, so that its main.go can be copied out alone.
func TestExamplesAreSelfContained(t *testing.T) {
	for _, dir := range examples(t) {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, file := range files {
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			if f.Name.Name != "main" || filepath.Base(file) != "main.go" {
				t.Errorf("%s: package %s; want one main.go of package main", file, f.Name.Name)
			}
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				public := path == "github.com/ordermsg/ordermsg-go" || path == "github.com/ordermsg/ordermsg-go/ordermsgtest"
				if strings.Contains(path, ".") && !public {
					t.Errorf("%s imports %s", file, path)
				}
			}
		}
	}
}

// With no ORDERMSG_* variable set, each example runs against the fake, as
// the README's first set-up command (go run ./examples/walk-orders) does.
func TestExamplesRunWithoutCredentials(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every example")
	}
	bin := t.TempDir()
	for _, dir := range examples(t) {
		exe := filepath.Join(bin, dir)
		if out, err := exec.Command("go", "build", "-o", exe, "./"+dir).CombinedOutput(); err != nil {
			t.Fatalf("go build ./%s: %v\n%s", dir, err, out)
		}
		cmd := exec.Command(exe)
		cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil || len(out) == 0 || !strings.HasPrefix(stderr.String(), "no ORDERMSG_BASE_URL, ORDERMSG_API_KEY or ORDERMSG_WEBSITE_ID set: using the built-in fake service at http://127.0.0.1:") {
			t.Errorf("%s: %v, stdout %q, stderr %q", dir, err, out, stderr.String())
		}
	}
}
