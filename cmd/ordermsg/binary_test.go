//go:build unix

package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/ordermsg/ordermsg-go/internal/exchangelog"
)

// The tests of what the process does (exit codes, signals, files, modes) run
// a binary built once into a temporary folder.
var built struct {
	once sync.Once
	dir  string
	path string
	err  error
}

func TestMain(m *testing.M) {
	code := exchangelog.Main(m)
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// binary returns the path of the built tool.
func binary(t testing.TB) string {
	t.Helper()
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "ordermsg-bin-"); built.err != nil {
			return
		}
		built.path = filepath.Join(built.dir, "ordermsg")
		out, err := exec.Command("go", "build", "-o", built.path, ".").CombinedOutput()
		if err != nil {
			built.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.path
}

// command is the tool to run in dir (a new temporary folder when ""), with
// only PATH and env in its environment.
func command(t testing.TB, dir string, env map[string]string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(binary(t), args...)
	if dir == "" {
		dir = t.TempDir()
	}
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	return cmd
}

// result is what a run of the binary did.
type result struct {
	stdout, stderr string
	code           int
}

func (r result) String() string {
	return fmt.Sprintf("exit %d, stdout %.300q, stderr %q", r.code, r.stdout, r.stderr)
}

// runCommand runs cmd to its end.
func runCommand(t *testing.T, cmd *exec.Cmd) result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if cmd.Stdout == nil {
		cmd.Stdout = &stdout
	}
	cmd.Stderr = &stderr
	err := cmd.Run()
	return result{stdout.String(), stderr.String(), exitCodeOf(t, err)}
}

// runTool runs the tool with args in a new temporary folder.
func runTool(t *testing.T, env map[string]string, args ...string) result {
	t.Helper()
	return runCommand(t, command(t, "", env, args...))
}

func exitCodeOf(t *testing.T, err error) int {
	t.Helper()
	var exitErr *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exitErr) && exitErr.ExitCode() >= 0:
		return exitErr.ExitCode()
	default:
		t.Fatalf("the tool did not exit by itself: %v", err)
		return -1
	}
}

// readAll reads r in the background; the channel gives what was read.
func readAll(r io.Reader) <-chan string {
	done := make(chan string, 1)
	go func() {
		b, _ := io.ReadAll(r)
		done <- string(b)
	}()
	return done
}
