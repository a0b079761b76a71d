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

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
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

// An example imports only the standard library, the SDK's public packages
// and the examples' shared set-up (package exampleenv), so that its main.go
// and that package can be copied out together.
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
				switch path {
				case "github.com/ordermsg/ordermsg-go", "github.com/ordermsg/ordermsg-go/ordermsgtest",
					"github.com/ordermsg/ordermsg-go/examples/internal/exampleenv":
				default:
					if strings.Contains(path, ".") {
						t.Errorf("%s imports %s", file, path)
					}
				}
			}
		}
	}
}

// buildExamples builds every example into a folder of t's and returns the
// path of each program by its folder's name.
func buildExamples(t *testing.T) map[string]string {
	t.Helper()
	bin := t.TempDir()
	args := []string{"build", "-o", bin + string(filepath.Separator)}
	exes := map[string]string{}
	for _, dir := range examples(t) {
		args = append(args, "./"+dir)
		exes[dir] = filepath.Join(bin, dir)
	}
	// The examples are the root module's, which requires no other: GOWORK=off
	// keeps go from reading go.work, whose sibling folders a module zip
	// does not hold.
	build := exec.Command("go", args...)
	build.Env = append(os.Environ(), "GOWORK=off")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return exes
}

// runExample runs exe with env as its whole environment (and PATH).
func runExample(exe string, env ...string) (stdout, stderr string, err error) {
	cmd := exec.Command(exe)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH")}, env...)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	return out.String(), errOut.String(), err
}

// With no ORDERMSG_* variable set, each example runs against the fake, as
// the README's first set-up command (go run ./examples/walk-orders) does.
func TestExamplesRunWithoutCredentials(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every example")
	}
	for dir, exe := range buildExamples(t) {
		out, stderr, err := runExample(exe)
		if err != nil || len(out) == 0 || !strings.HasPrefix(stderr, "no ORDERMSG_BASE_URL, ORDERMSG_API_KEY or ORDERMSG_WEBSITE_ID set: using the built-in fake service at http://127.0.0.1:") {
			t.Errorf("%s: %v, stdout %q, stderr %q", dir, err, out, stderr)
		}
	}
}

// Each example reaches the service its environment names with the version
// header of ORDERMSG_VERSION_HEADER: a fake that requires another header
// than the default answers it. Without the variable, the example fails
// with the SDK's 400 and its hint about the version header.
func TestExamplesSendTheVersionHeader(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every example")
	}
	srv := ordermsgtest.NewServer(nil, ordermsgtest.WithVersionHeader("Acme-Api-Version", "7"))
	defer srv.Close()
	env := []string{
		ordermsg.EnvBaseURL + "=" + srv.URL,
		ordermsg.EnvAPIKey + "=" + srv.APIKey,
		"ORDERMSG_WEBSITE_ID=" + strconv.FormatInt(srv.WebsiteID, 10),
	}
	for dir, exe := range buildExamples(t) {
		out, stderr, err := runExample(exe, append(env, ordermsg.EnvVersionHeader+"=Acme-Api-Version: 7")...)
		if err != nil || len(out) == 0 || stderr != "" {
			t.Errorf("%s, with %s: %v, stdout %q, stderr %q", dir, ordermsg.EnvVersionHeader, err, out, stderr)
		}
		out, stderr, err = runExample(exe, env...)
		if err == nil || out != "" || !strings.HasPrefix(stderr, "error: ") ||
			!strings.Contains(stderr, "400 Bad Request: missing Acme-Api-Version header") || !strings.Contains(stderr, "under the documentation's neutral name, Service-Api-Version") {
			t.Errorf("%s, without %s: %v, stdout %q, stderr %q", dir, ordermsg.EnvVersionHeader, err, out, stderr)
		}
	}
}
