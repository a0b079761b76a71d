package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// git runs git in the repository's root, or skips the test outside a
// checkout.
func git(t *testing.T, args ...string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	cmd := exec.Command("git", args...)
	cmd.Dir = repoTop(t)
	out, err := cmd.Output()
	if err != nil && len(out) == 0 {
		if _, statErr := os.Stat(filepath.Join(cmd.Dir, ".git")); statErr != nil {
			t.Skip("not a git checkout")
		}
	}
	return string(out)
}

// No compiled program is in the repository, and go build's outputs are
// ignored wherever they are made.
func TestNoBuildOutputsInTheRepository(t *testing.T) {
	files := strings.Fields(git(t, "ls-files"))
	if len(files) == 0 {
		t.Skip("no tracked files")
	}
	root := repoTop(t)
	for _, f := range files {
		head := make([]byte, 4)
		if fh, err := os.Open(filepath.Join(root, f)); err == nil {
			fh.Read(head)
			fh.Close()
		}
		if bytes.Equal(head, []byte("\x7fELF")) || bytes.Equal(head, []byte("MZ\x90\x00")) || bytes.Equal(head[:3], []byte("\xcf\xfa\xed")) {
			t.Errorf("%s is a compiled program", f)
		}
	}
	outputs := []string{
		"cmd/ordermsg/ordermsg", "examples/walk-orders/walk-orders", "examples/get-order/get-order",
		"ordermsg.test", "cmd/ordermsg/ordermsg.test", "cpu.prof", "cmd/ordermsg/mem.out", "ordermsg.exe",
		"ordermsg", "walk-orders", "coverage.txt", // go build ./cmd/ordermsg at the top; go test -coverprofile
	}
	ignored := strings.Fields(git(t, append([]string{"check-ignore", "--no-index"}, outputs...)...))
	if len(ignored) != len(outputs) {
		t.Errorf("ignored %v of %v", ignored, outputs)
	}
	sources := []string{"cmd/ordermsg/main.go", "cmd/ordermsg/go.mod", "cmd/ordermsg/testdata/orders-export.csv", "examples/walk-orders/main.go", ".ci/run",
		"cmd/ordermsg/Makefile", "cmd/ordermsg/testdata/golden"} // files without an extension are not outputs
	if got := git(t, append([]string{"check-ignore", "--no-index"}, sources...)...); got != "" {
		t.Errorf("sources ignored: %s", got)
	}
}
