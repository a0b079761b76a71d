//go:build unix

package ordermsg_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go/ordermsgtest"
	"go.uber.org/goleak"
)

func TestDownloadFileIsAtomicWithTheUmaskMode(t *testing.T) {
	srv, c := fileServer(t, ordermsgtest.FileLinks{})
	f := firstFile(t, srv, c)
	old := syscall.Umask(0o027)
	defer syscall.Umask(old)
	path := filepath.Join(t.TempDir(), "front.pdf")
	if _, err := c.DownloadFile(context.Background(), f, path, nil); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	fi, _ := os.Stat(path)
	if !bytes.Equal(got, srv.Handler.FileContent(f.ID)) || fi.Mode().Perm() != 0o640 {
		t.Fatalf("mode %v, %d bytes: want the file's bytes with mode 0640 (0666 &^ 027)", fi.Mode().Perm(), len(got))
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Fatalf("temporary files left: %v", entries)
	}

	// An existing file is replaced whole and keeps its mode, as under a
	// shell redirect.
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DownloadFile(context.Background(), f, path, nil); err != nil {
		t.Fatal(err)
	}
	got, _ = os.ReadFile(path)
	fi, _ = os.Stat(path)
	if !bytes.Equal(got, srv.Handler.FileContent(f.ID)) || fi.Mode().Perm() != 0o600 {
		t.Fatalf("replaced: mode %v, %d bytes: want the file's bytes with its mode 0600", fi.Mode().Perm(), len(got))
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Fatalf("temporary files left: %v", entries)
	}
}

func TestDownloadFileFollowsASymlink(t *testing.T) {
	srv, c := fileServer(t, ordermsgtest.FileLinks{})
	f := firstFile(t, srv, c)
	dir := t.TempDir()
	target, link := filepath.Join(dir, "target.pdf"), filepath.Join(dir, "link.pdf")
	if err := os.Symlink("target.pdf", link); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DownloadFile(context.Background(), f, link, nil); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the symlink was replaced")
	}
	if got, _ := os.ReadFile(target); !bytes.Equal(got, srv.Handler.FileContent(f.ID)) {
		t.Fatal("the symlink's target does not hold the file")
	}
}

func TestDownloadFileWritesThroughAFIFO(t *testing.T) {
	srv, c := fileServer(t, ordermsgtest.FileLinks{})
	f := firstFile(t, srv, c)
	fifo := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	got := make(chan []byte)
	go func() {
		r, err := os.Open(fifo)
		if err != nil {
			got <- nil
			return
		}
		defer r.Close()
		b, _ := io.ReadAll(r)
		got <- b
	}()
	if _, err := c.DownloadFile(context.Background(), f, fifo, nil); err != nil {
		t.Fatal(err)
	}
	if b := <-got; !bytes.Equal(b, srv.Handler.FileContent(f.ID)) {
		t.Fatalf("the FIFO's reader got %d bytes, not the file", len(b))
	}
	if fi, _ := os.Lstat(fifo); fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatal("the FIFO was replaced")
	}
}

func TestDownloadFileSymlinkLoopIsAnErrorNotACrash(t *testing.T) {
	srv, c := fileServer(t, ordermsgtest.FileLinks{})
	f := firstFile(t, srv, c)
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.pdf"), filepath.Join(dir, "b.pdf")
	if err := os.Symlink("b.pdf", a); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.pdf", b); err != nil {
		t.Fatal(err)
	}
	_, err := c.DownloadFile(context.Background(), f, a, nil)
	if !errors.Is(err, syscall.ELOOP) || !strings.Contains(err.Error(), a) {
		t.Fatalf("err = %v, want ELOOP naming %s", err, a)
	}
	if st := srv.Handler.FileStats(); st.Requests != 0 {
		t.Fatalf("the file host got %d requests for a path that cannot be written", st.Requests)
	}
}

func TestDownloadFileWaitForAFIFOsReaderEndsWithTheContext(t *testing.T) {
	t.Cleanup(func() { goleak.VerifyNone(t) })
	srv, c := fileServer(t, ordermsgtest.FileLinks{})
	f := firstFile(t, srv, c)
	fifo := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	// releaseWriter lets a writer's open of the FIFO end: a reader comes
	// and goes.
	releaseWriter := func() {
		if r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			r.Close()
		}
	}
	defer releaseWriter() // for the open left waiting
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := c.DownloadFile(ctx, f, fifo, nil)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want the context's deadline", err)
		}
	case <-time.After(5 * time.Second):
		releaseWriter()
		t.Fatalf("DownloadFile outlived its context by seconds, waiting for a reader: %v", <-done)
	}
	if st := srv.Handler.FileStats(); st.Requests != 0 {
		t.Fatalf("%d requests to the file host with nowhere to write", st.Requests)
	}
}

// A link to /proc/self/fd/N, N a pipe, is what /dev/stdout is when standard
// output is a pipe: the path itself is not a regular file, so it is written
// through, although the link's own target ("pipe:[...]") names no file.
func TestDownloadFileWritesThroughALinkToAPipe(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("no /proc/self/fd")
	}
	srv, c := fileServer(t, ordermsgtest.FileLinks{})
	f := firstFile(t, srv, c)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	dir := t.TempDir()
	link := filepath.Join(dir, "stdout")
	if err := os.Symlink(fmt.Sprintf("/proc/self/fd/%d", w.Fd()), link); err != nil {
		t.Fatal(err)
	}
	got := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(r)
		got <- b
	}()
	_, err = c.DownloadFile(context.Background(), f, link, nil)
	w.Close() // the reader sees the end once DownloadFile's writer is closed too
	if err != nil {
		t.Fatal(err)
	}
	if b := <-got; !bytes.Equal(b, srv.Handler.FileContent(f.ID)) {
		t.Fatalf("the pipe's reader got %d bytes, not the file", len(b))
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the link was replaced")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("files left beside the link: %v", entries)
	}
}

// linkThroughSymlinkedFolder builds issue 19's layout in a new folder T:
// T/a -> real/sub and T/real/sub/link -> ../out.pdf, so that T/a/link is
// T/real/out.pdf to the kernel (and to a shell's `> T/a/link`); T/out.pdf,
// which the link's text joined to T/a would name, is unrelated. It returns
// T; T/real/out.pdf holds "old" when exists.
func linkThroughSymlinkedFolder(t *testing.T, exists bool) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "real", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("real", "sub"), filepath.Join(dir, "a")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("..", "out.pdf"), filepath.Join(dir, "real", "sub", "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "out.pdf"), []byte("unrelated"), 0o644); err != nil {
		t.Fatal(err)
	}
	if exists {
		if err := os.WriteFile(filepath.Join(dir, "real", "out.pdf"), []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestDownloadFileResolvesLinksAsTheKernelDoes(t *testing.T) {
	for _, exists := range []bool{false, true} {
		t.Run(fmt.Sprintf("exists=%v", exists), func(t *testing.T) {
			srv, c := fileServer(t, ordermsgtest.FileLinks{Size: 10_000})
			f := firstFile(t, srv, c)
			dir := linkThroughSymlinkedFolder(t, exists)
			if _, err := c.DownloadFile(context.Background(), f, filepath.Join(dir, "a", "link"), nil); err != nil {
				t.Fatal(err)
			}
			if got, _ := os.ReadFile(filepath.Join(dir, "real", "out.pdf")); !bytes.Equal(got, srv.Handler.FileContent(f.ID)) {
				t.Errorf("T/real/out.pdf holds %d bytes, not the file", len(got))
			}
			if got, _ := os.ReadFile(filepath.Join(dir, "out.pdf")); string(got) != "unrelated" {
				t.Errorf("the unrelated T/out.pdf was replaced (%d bytes)", len(got))
			}
		})
	}
}

func TestDownloadFileCutThroughASymlinkedFolderLeavesTheTargetAsItWas(t *testing.T) {
	// The first response brings 100 bytes, the next four none: the retries
	// run out.
	srv, c := fileServer(t, ordermsgtest.FileLinks{Size: 10_000, CutAfter: []int64{100, 0, 0, 0, 0}})
	f := firstFile(t, srv, c)
	dir := linkThroughSymlinkedFolder(t, true)
	_, err := c.DownloadFile(context.Background(), f, filepath.Join(dir, "a", "link"), nil)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("err = %v, want the cut", err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "real", "out.pdf")); string(got) != "old" {
		t.Errorf("a cut download changed T/real/out.pdf in place: %d bytes", len(got))
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, "real")); len(entries) != 2 {
		t.Errorf("left behind in T/real: %v", entries)
	}
}
