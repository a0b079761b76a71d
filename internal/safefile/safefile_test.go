//go:build unix

package safefile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"
)

// names lists dir, sorted.
func names(t *testing.T, dir string) []string {
	t.Helper()
	d, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	list, err := d.Readdirnames(-1)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(list)
	return list
}

// write opens path, writes data and commits.
func write(t *testing.T, path, data string) error {
	t.Helper()
	f, err := Open(context.Background(), path)
	if err != nil {
		return err
	}
	if _, err := io.WriteString(f, data); err != nil {
		f.Discard()
		return err
	}
	return f.Commit()
}

func TestOpenNewFileFollowsTheUmaskAndExistingKeepsItsMode(t *testing.T) {
	old := syscall.Umask(0o027)
	defer syscall.Umask(old)
	dir := t.TempDir()
	path := filepath.Join(dir, "new.txt")
	if err := write(t, path, "one"); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.Mode() != 0o640 {
		t.Errorf("new file: mode %v, want 0640 (0666 &^ 027)", fi.Mode())
	}
	if err := os.Chmod(path, 0o604); err != nil {
		t.Fatal(err)
	}
	if err := write(t, path, "two"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "two" {
		t.Errorf("replaced file holds %q", b)
	}
	if fi, _ := os.Stat(path); fi.Mode() != 0o604 {
		t.Errorf("replaced file: mode %v, want its own 0604", fi.Mode())
	}
	if got := names(t, dir); !slices.Equal(got, []string{"new.txt"}) {
		t.Errorf("left behind: %v", got)
	}
}

// A restricted file is 0600 whether new or replacing one of another mode;
// a FIFO is written through as it is.
func TestRestrictedFileIsTheOwnersAlone(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := t.TempDir()
	path := filepath.Join(dir, "keys.txt")
	restricted := func(data string) {
		t.Helper()
		f, err := Open(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Restrict(); err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(f, data); err != nil {
			t.Fatal(err)
		}
		if err := f.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	restricted("one")
	if fi, _ := os.Stat(path); fi.Mode() != 0o600 {
		t.Errorf("new file: mode %v, want 0600", fi.Mode())
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	restricted("two")
	if fi, _ := os.Stat(path); fi.Mode() != 0o600 {
		t.Errorf("replaced file: mode %v, want 0600", fi.Mode())
	}
	if b, _ := os.ReadFile(path); string(b) != "two" {
		t.Errorf("replaced file holds %q", b)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	read := make(chan []byte)
	go func() { b, _ := os.ReadFile(fifo); read <- b }()
	f, err := Open(context.Background(), fifo)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Restrict(); err != nil {
		t.Fatal(err)
	}
	io.WriteString(f, "three")
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if b := <-read; string(b) != "three" {
		t.Errorf("the FIFO gave %q", b)
	}
	if fi, _ := os.Stat(fifo); fi.Mode().Perm() != 0o644 {
		t.Errorf("the FIFO's mode became %v", fi.Mode())
	}
}

func TestOpenReplacesOnlyOnCommit(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.txt")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	if f.InPlace() {
		t.Error("a regular file is written in place")
	}
	io.WriteString(f, "new")
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("before Commit the file holds %q", b)
	}
	f.Discard()
	if b, _ := os.ReadFile(path); string(b) != "old" || !slices.Equal(names(t, dir), []string{"f.txt"}) {
		t.Errorf("after Discard: %q, %v", b, names(t, dir))
	}
}

func TestOpenFollowsSymlinksToTheFileItReplaces(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for link, to := range map[string]string{
		"rel":      "target.txt",
		"abs":      filepath.Join(dir, "rel"),
		"dangling": filepath.Join("sub", "new.txt"),
	} {
		if err := os.Symlink(to, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	for link, file := range map[string]string{"rel": "target.txt", "abs": "target.txt", "dangling": "sub/new.txt"} {
		if err := write(t, filepath.Join(dir, link), link); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, file)); string(b) != link {
			t.Errorf("through %s, %s holds %q", link, file, b)
		}
		if fi, _ := os.Lstat(filepath.Join(dir, link)); fi.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("the link %s was replaced", link)
		}
	}
	if got := names(t, dir); len(got) != 5 {
		t.Errorf("left behind: %v", got)
	}
}

func TestResolveLoopIsELOOPNamingThePath(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	os.Symlink("b", a)
	os.Symlink("a", b)
	_, err := Open(context.Background(), a)
	if !errors.Is(err, syscall.ELOOP) || !strings.Contains(err.Error(), a) {
		t.Errorf("Open: err = %v, want ELOOP naming %s", err, a)
	}
	// resolve's own bound, for a chain the kernel would not walk either.
	_, err = resolve(a)
	var pathErr *fs.PathError
	if !errors.Is(err, syscall.ELOOP) || !errors.As(err, &pathErr) || pathErr.Path != a {
		t.Errorf("resolve: err = %v, want ELOOP naming %s", err, a)
	}
}

func TestOpenErrorsNameThePathGiven(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	for path, want := range map[string]error{
		dir:                               syscall.EISDIR,
		filepath.Join(dir, "no", "x.txt"): syscall.ENOENT,
		filepath.Join(file, "x"):          syscall.ENOTDIR,
	} {
		_, err := Open(context.Background(), path)
		var pathErr *fs.PathError
		if !errors.Is(err, want) || !errors.As(err, &pathErr) || pathErr.Path != path {
			t.Errorf("Open(%s): %v, want %v naming the path", path, err, want)
		}
	}
}

func TestOpenFIFOIsWrittenInPlaceAndItsWaitEndsWithTheContext(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := Open(ctx, fifo); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("no reader: err = %v, want the context's deadline", err)
	}
	// A reader that does not wait for a writer: it also lets the open left
	// waiting above end. A few bytes fit in the FIFO's buffer.
	r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	f, err := Open(context.Background(), fifo)
	if err != nil {
		t.Fatal(err)
	}
	if !f.InPlace() {
		t.Error("a FIFO is not written in place")
	}
	io.WriteString(f, "through")
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if b, _ := io.ReadAll(r); string(b) != "through" {
		t.Errorf("the reader got %q", b)
	}
	if fi, _ := os.Lstat(fifo); fi.Mode()&fs.ModeNamedPipe == 0 || len(names(t, dir)) != 1 {
		t.Errorf("the FIFO was replaced: %v", names(t, dir))
	}
}

// /dev/stdout on a pipe is a link to /proc/self/fd/N, whose own link names
// no file ("pipe:[...]"): the path is not a regular file, so it is written
// through.
func TestOpenLinkToAPipeIsWrittenThrough(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("no /proc/self/fd")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	link := filepath.Join(t.TempDir(), "stdout")
	if err := os.Symlink(fmt.Sprintf("/proc/self/fd/%d", w.Fd()), link); err != nil {
		t.Fatal(err)
	}
	// A few bytes fit in the pipe's buffer: no reader needs to run meanwhile.
	err = write(t, link, "piped")
	w.Close()
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := io.ReadAll(r); string(b) != "piped" {
		t.Errorf("the pipe's reader got %q", b)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Error("the link was replaced")
	}
}

func TestLongestNamesGetAShortHiddenTemporaryName(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{strings.Repeat("n", 255), strings.Repeat("é", 127) + "x", "." + strings.Repeat("h", 254)} {
		if err := write(t, filepath.Join(dir, name), name); err != nil {
			t.Fatalf("<%d bytes>: %v", len(name), err)
		}
		seen := map[string]bool{}
		for range 100 {
			temp := TempName(name)
			if len(temp) > 60 || !strings.HasPrefix(temp, ".") || !utf8.ValidString(temp) || seen[temp] {
				t.Fatalf("TempName(<%d bytes>) = %q: want a new hidden name of at most 60 bytes", len(name), temp)
			}
			seen[temp] = true
		}
	}
	if got := names(t, dir); len(got) != 3 {
		t.Errorf("left behind: %v", got)
	}
}

func TestCutNameKeepsWholeRunes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"abcdef", 3, "abc"},
		{"éé", 3, "é"},
		{"日本", 5, "日"},
		{"日本", 2, ""},
	} {
		if got := CutName(tc.in, tc.n); got != tc.want {
			t.Errorf("CutName(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}

func TestCreateInRenamesInsideTheRootOnCommit(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := t.TempDir()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	f, err := CreateIn(root, "a.bin")
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(f, "abc")
	if _, err := os.Stat(filepath.Join(dir, "a.bin")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a.bin is there before Commit: %v", err)
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.bin")); !bytes.Equal(b, []byte("abc")) {
		t.Errorf("a.bin holds %q", b)
	}
	if fi, _ := os.Stat(filepath.Join(dir, "a.bin")); fi.Mode() != 0o644 {
		t.Errorf("mode %v, want 0644", fi.Mode())
	}

	g, err := CreateIn(root, "b.bin")
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(g, "partial")
	g.Discard()
	if got := names(t, dir); !slices.Equal(got, []string{"a.bin"}) {
		t.Errorf("after Discard: %v", got)
	}
	if _, err := CreateIn(root, "../escape"); err == nil {
		t.Error("CreateIn wrote outside its root")
	}
}

// kernelTree is the layout of issue 19: T/a is a symlink to the folder
// real/sub, whose link is "../out.pdf"; a shell's `> T/a/link` writes
// T/real/out.pdf (the kernel takes ".." from where a leads), while the link's
// text joined to T/a names T/out.pdf, an unrelated file. T/real/sub/jump/..
// is T/other through a symlinked folder, and the links new and hop name files
// that do not exist yet, through ".." (T/new.pdf, unrelated, is not it) and
// through jump.
func kernelTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, d := range []string{"real/sub", "other/deep"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for link, to := range map[string]string{
		"a":             filepath.Join("real", "sub"),
		"real/sub/link": filepath.Join("..", "out.pdf"),
		"real/sub/new":  filepath.Join("..", "new.pdf"),
		"real/sub/jump": filepath.Join(dir, "other", "deep"),
		"real/sub/hop":  "jump/../hop.pdf", // not filepath.Join, which cleans ".." as text
	} {
		if err := os.Symlink(to, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	for name, data := range map[string]string{"out.pdf": "unrelated", "new.pdf": "unrelated", "real/out.pdf": "old"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestOpenResolvesLinksAsTheKernelDoes(t *testing.T) {
	dir := kernelTree(t)
	for path, file := range map[string]string{
		"a/link": "real/out.pdf",
		"a/new":  "real/new.pdf",
		"a/hop":  "other/hop.pdf",
		// ".." after the symlinked folder a goes up from real/sub.
		"a/../out.pdf": "real/out.pdf",
	} {
		given := dir + "/" + path // not filepath.Join, which would clean ".." as text
		if err := write(t, given, path); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, file)); string(b) != path {
			t.Errorf("through %s, %s holds %q", path, file, b)
		}
		// The kernel agrees: the path names the file written.
		viaPath, err1 := os.Stat(given)
		written, err2 := os.Stat(filepath.Join(dir, file))
		if err1 != nil || err2 != nil || !os.SameFile(viaPath, written) {
			t.Errorf("%s and %s are not one file to the kernel: %v, %v", path, file, err1, err2)
		}
	}
	for _, name := range []string{"out.pdf", "new.pdf"} {
		if b, _ := os.ReadFile(filepath.Join(dir, name)); string(b) != "unrelated" {
			t.Errorf("the unrelated T/%s now holds %q", name, b)
		}
	}
	for _, d := range []string{".", "real", "real/sub", "other", "other/deep"} {
		for _, n := range names(t, filepath.Join(dir, d)) {
			if strings.HasSuffix(n, ".part") {
				t.Errorf("left behind in %s: %s", d, n)
			}
		}
	}
}

func TestOpenThroughASymlinkedFolderReplacesOnlyOnCommit(t *testing.T) {
	dir := kernelTree(t)
	real := filepath.Join(dir, "real", "out.pdf")
	f, err := Open(context.Background(), filepath.Join(dir, "a", "link"))
	if err != nil {
		t.Fatal(err)
	}
	if f.InPlace() {
		t.Fatal("a regular file behind links is written in place")
	}
	io.WriteString(f, "cut")
	if b, _ := os.ReadFile(real); string(b) != "old" {
		t.Errorf("before Commit, %s holds %q", real, b)
	}
	f.Discard() // the download was cut
	if b, _ := os.ReadFile(real); string(b) != "old" || !slices.Equal(names(t, filepath.Join(dir, "real")), []string{"out.pdf", "sub"}) {
		t.Errorf("after Discard: %q, %v", b, names(t, filepath.Join(dir, "real")))
	}
}
