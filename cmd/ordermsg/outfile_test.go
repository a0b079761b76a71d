//go:build unix

package main

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// The export every test of -o writes: the demo's orders as CSV.
var exportArgs = []string{"orders", "export", "--demo", "--format", "csv"}

var demoCSV struct {
	once sync.Once
	text string
}

// wantCSV is what the export writes to standard output.
func wantCSV(t *testing.T) string {
	t.Helper()
	demoCSV.once.Do(func() {
		r := runTool(t, nil, exportArgs...)
		if r.code != 0 || !strings.HasPrefix(r.stdout, "id,date_created,") {
			t.Fatalf("export to stdout: %v", r)
		}
		demoCSV.text = r.stdout
	})
	return demoCSV.text
}

// exportTo runs the export with -o out, under the given umask.
func exportTo(t *testing.T, out string, umask int) result {
	t.Helper()
	script := fmt.Sprintf(`umask %03o && exec "$0" "$@"`, umask)
	cmd := exec.Command("/bin/sh", append([]string{"-c", script, binary(t)}, append(exportArgs, "-o", out)...)...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
	return runCommand(t, cmd)
}

func mode(t *testing.T, path string) fs.FileMode {
	t.Helper()
	info, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	return info.Mode()
}

func content(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// entries lists dir, to see that no temporary file is left behind.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

func TestOutputNewFileFollowsTheUmask(t *testing.T) {
	for umask, want := range map[int]fs.FileMode{0o022: 0o644, 0o027: 0o640, 0o077: 0o600, 0o002: 0o664} {
		dir := t.TempDir()
		out := filepath.Join(dir, "orders.csv")
		if r := exportTo(t, out, umask); r.code != 0 || r.stderr != "wrote 420 orders to "+out+"\n" {
			t.Fatalf("umask %03o: %v", umask, r)
		}
		if got := mode(t, out); got != want {
			t.Errorf("umask %03o: mode %v, want %v", umask, got, want)
		}
		if content(t, out) != wantCSV(t) {
			t.Errorf("umask %03o: the file is not the export", umask)
		}
		if got := entries(t, dir); !slices.Equal(got, []string{"orders.csv"}) {
			t.Errorf("left behind: %v", got)
		}
	}
}

func TestOutputExistingFileKeepsItsMode(t *testing.T) {
	for _, perm := range []fs.FileMode{0o444, 0o644, 0o640, 0o604} {
		dir := t.TempDir()
		out := filepath.Join(dir, "orders.csv")
		if err := os.WriteFile(out, []byte("old\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(out, perm); err != nil {
			t.Fatal(err)
		}
		r := exportTo(t, out, 0o077)
		if os.Geteuid() != 0 && perm&0o200 == 0 {
			// Not root: a read-only file refuses, as it does a shell redirect.
			if r.code != exitLocal || content(t, out) != "old\n" {
				t.Errorf("%v: %v", perm, r)
			}
			continue
		}
		if r.code != 0 {
			t.Fatalf("%v: %v", perm, r)
		}
		if got := mode(t, out); got != perm {
			t.Errorf("mode %v became %v", perm, got)
		}
		if content(t, out) != wantCSV(t) {
			t.Errorf("%v: the file is not the export", perm)
		}
	}
}

func TestOutputFollowsSymlinks(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.csv")
	if err := os.WriteFile(target, []byte("old\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	links := map[string]string{
		"to-existing": "target.csv",                         // relative, to a file
		"to-new":      "new.csv",                            // relative, dangling: creates new.csv
		"to-link":     filepath.Join(dir, "to-existing"),    // absolute, to a symlink
		"to-new-abs":  filepath.Join(dir, "sub", "new.csv"), // into a folder through a link
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, to := range links {
		if err := os.Symlink(to, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		link, file string
		perm       fs.FileMode
	}{
		{"to-existing", "target.csv", 0o640},
		{"to-new", "new.csv", 0o644},
		{"to-link", "target.csv", 0o640},
		{"to-new-abs", "sub/new.csv", 0o644},
	} {
		if err := os.WriteFile(target, []byte("old\n"), 0o640); err != nil {
			t.Fatal(err)
		}
		if r := exportTo(t, filepath.Join(dir, tc.link), 0o022); r.code != 0 {
			t.Fatalf("%s: %v", tc.link, r)
		}
		if mode(t, filepath.Join(dir, tc.link))&fs.ModeSymlink == 0 {
			t.Errorf("the symlink %s was replaced", tc.link)
		}
		file := filepath.Join(dir, tc.file)
		if content(t, file) != wantCSV(t) || mode(t, file) != tc.perm {
			t.Errorf("%s: %s has mode %v, or is not the export", tc.link, tc.file, mode(t, file))
		}
	}
	if got := entries(t, dir); len(got) != 7 {
		t.Errorf("left behind: %v", got)
	}
}

// -o through a relative ".." link inside a symlinked folder writes what a
// shell's `> T/a/link` writes: with T/a -> real/sub and T/real/sub/link ->
// ../out.csv, that is T/real/out.csv, never T/out.csv; and a failed export
// leaves T/real/out.csv as it was, not truncated.
func TestOutputResolvesLinksAsTheKernelDoes(t *testing.T) {
	_, env := smallService(t)
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "real", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("real", "sub"), filepath.Join(dir, "a")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("..", "out.csv"), filepath.Join(dir, "real", "sub", "link")); err != nil {
		t.Fatal(err)
	}
	unrelated, real := filepath.Join(dir, "out.csv"), filepath.Join(dir, "real", "out.csv")
	if err := os.WriteFile(unrelated, []byte("unrelated\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "a", "link")

	// New, then existing.
	for range 2 {
		if r := exportTo(t, out, 0o022); r.code != 0 {
			t.Fatalf("%v", r)
		}
		if content(t, real) != wantCSV(t) || content(t, unrelated) != "unrelated\n" {
			t.Fatalf("T/real/out.csv is not the export, or T/out.csv was replaced")
		}
	}

	// A failing export leaves the real target as it was.
	if err := os.WriteFile(real, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env[envAPIKey] = "wrong"
	if r := runTool(t, env, "orders", "export", "-o", out); r.code != exitFailure {
		t.Fatalf("failing export: %v", r)
	}
	if content(t, real) != "old\n" || !slices.Equal(entries(t, filepath.Join(dir, "real")), []string{"out.csv", "sub"}) {
		t.Errorf("a failed export changed T/real: %q, %v", content(t, real), entries(t, filepath.Join(dir, "real")))
	}
}

func TestOutputFIFOIsWrittenThrough(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	// Holding a writer of our own (Linux opens a FIFO read-write at once)
	// lets the reader open without waiting, and see the end of the data only
	// when we close it: a tool that replaced the FIFO fails the test instead
	// of hanging it.
	writer, err := os.OpenFile(fifo, os.O_RDWR, 0)
	if err != nil {
		t.Skipf("open the FIFO read-write: %v", err)
	}
	reader, err := os.Open(fifo)
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	read := readAll(reader)
	r := exportTo(t, fifo, 0o022)
	writer.Close()
	if r.code != 0 {
		t.Fatal(r)
	}
	if got := <-read; got != wantCSV(t) {
		t.Errorf("the reader of the FIFO got %d bytes, want the export", len(got))
	}
	if mode(t, fifo)&fs.ModeNamedPipe == 0 || !slices.Equal(entries(t, dir), []string{"pipe"}) {
		t.Errorf("the FIFO was replaced: %v, %v", mode(t, fifo), entries(t, dir))
	}
}

// A link to /proc/self/fd/1 is what /dev/stdout is: the tool's own standard
// output, whatever it is.
func TestOutputStdoutLinkIsWrittenThrough(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd/1"); err != nil {
		t.Skip("no /proc/self/fd")
	}
	dir := t.TempDir()
	link := filepath.Join(dir, "stdout")
	if err := os.Symlink("/proc/self/fd/1", link); err != nil {
		t.Fatal(err)
	}

	// Standard output is a pipe.
	r := runCommand(t, command(t, dir, nil, append(exportArgs, "-o", link)...))
	if r.code != 0 || r.stdout != wantCSV(t) {
		t.Errorf("stdout a pipe: exit %d, %d bytes on stdout", r.code, len(r.stdout))
	}

	// Standard output is a regular file, as after `> out.csv`.
	out := filepath.Join(dir, "out.csv")
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	cmd := command(t, dir, nil, append(exportArgs, "-o", link)...)
	cmd.Stdout = f
	r = runCommand(t, cmd)
	f.Close()
	if r.code != 0 || content(t, out) != wantCSV(t) {
		t.Errorf("stdout a file: %v, the file has %d bytes", r, len(content(t, out)))
	}
	if mode(t, link)&fs.ModeSymlink == 0 || !slices.Equal(entries(t, dir), []string{"out.csv", "stdout"}) {
		t.Errorf("the link was replaced: %v", entries(t, dir))
	}
}

func TestOutputErrorsExit3AndLeaveTheFile(t *testing.T) {
	_, env := smallService(t)
	dir := t.TempDir()
	existing := filepath.Join(dir, "orders.csv")
	if err := os.WriteFile(existing, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ out, want string }{
		{dir, "error: cannot write " + dir + ": is a directory\n"},
		{filepath.Join(dir, "no", "such", "x.csv"), "error: cannot write " + filepath.Join(dir, "no", "such", "x.csv") + ": no such file or directory\n"},
		{filepath.Join(existing, "x"), "error: cannot write " + filepath.Join(existing, "x") + ": not a directory\n"},
	} {
		r := exportTo(t, tc.out, 0o022)
		if r.code != exitLocal || r.stderr != tc.want {
			t.Errorf("-o %s: %v", tc.out, r)
		}
	}

	// An export that fails midway leaves the file as it was.
	env[envAPIKey] = "wrong"
	r := runTool(t, env, "orders", "export", "-o", existing)
	if r.code != exitFailure || !strings.Contains(r.stderr, "orders.csv was not written") {
		t.Errorf("failing export: %v", r)
	}
	if content(t, existing) != "old\n" || !slices.Equal(entries(t, dir), []string{"orders.csv"}) {
		t.Errorf("a failed export changed the folder: %v", entries(t, dir))
	}
}

// As a user who may not write there, -o fails as a shell redirect does: on a
// read-only file and in a folder of someone else.
func TestOutputPermissionDenied(t *testing.T) {
	var cred *syscall.Credential
	if os.Geteuid() == 0 {
		cred = &syscall.Credential{Uid: 65534, Gid: 65534}               // nobody
		if err := os.Chmod(filepath.Dir(binary(t)), 0o755); err != nil { // nobody may run it
			t.Fatal(err)
		}
	}
	dir, err := os.MkdirTemp("", "ordermsg-perm-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil { // others may read, not write
		t.Fatal(err)
	}
	readOnly := filepath.Join(dir, "read-only.csv")
	if err := os.WriteFile(readOnly, []byte("old\n"), 0o444); err != nil {
		t.Fatal(err)
	}
	if cred == nil {
		// Not root: make the folder ours but not writable.
		if err := os.Chmod(dir, 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(dir, 0o755) })
	}
	for _, out := range []string{readOnly, filepath.Join(dir, "new.csv")} {
		cmd := command(t, dir, nil, append(exportArgs, "-o", out)...)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		r := runCommand(t, cmd)
		if r.code != exitLocal || r.stderr != "error: cannot write "+out+": permission denied\n" {
			t.Errorf("-o %s: %v", out, r)
		}
	}
	if content(t, readOnly) != "old\n" || !slices.Equal(entries(t, dir), []string{"read-only.csv"}) {
		t.Errorf("the folder changed: %v", entries(t, dir))
	}
}

// Any name the file system accepts works, as with a shell redirect: up to 255
// bytes, however the temporary name beside it is made.
func TestOutputLongestNamesWork(t *testing.T) {
	for _, name := range []string{
		strings.Repeat("o", 245) + ".jsonl",     // 251 bytes
		strings.Repeat("é", 127) + "x",          // 255 bytes, two-byte runes
		"." + strings.Repeat("h", 250) + ".csv", // 255 bytes, hidden
	} {
		dir := t.TempDir()
		out := filepath.Join(dir, name)
		if r := exportTo(t, out, 0o022); r.code != 0 {
			t.Fatalf("-o <%d bytes>: %v", len(name), r)
		}
		if content(t, out) != wantCSV(t) || mode(t, out) != 0o644 {
			t.Errorf("<%d bytes>: mode %v, or not the export", len(name), mode(t, out))
		}
		if got := entries(t, dir); !slices.Equal(got, []string{name}) {
			t.Errorf("left behind: %v", got)
		}
	}
}
