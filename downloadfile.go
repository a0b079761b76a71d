package ordermsg

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"unicode/utf8"
)

// DownloadFile downloads the file f (see Download) to path, the way a shell
// redirect writes a file, and returns the number of bytes written.
//
// A regular file (new, or replacing an old one) is written atomically: the
// bytes go to a temporary file beside it, which is renamed to path only when
// the download is complete, so path never holds part of a file and a failed
// download leaves nothing behind. A new file gets mode 0666 less the umask. A
// symlink is followed and its target replaced; a device or a FIFO is written
// through, in place, and the wait for a FIFO's reader ends with ctx.
func (c *Client) DownloadFile(ctx context.Context, f *File, path string, opts *DownloadOptions) (int64, error) {
	if path == "" {
		return 0, invalidArgument("DownloadFile: empty path")
	}
	target, err := resolveTarget(path)
	if err != nil {
		return 0, err
	}
	if fi, err := os.Stat(target); err == nil && !fi.Mode().IsRegular() {
		return c.downloadInPlace(ctx, f, target, opts)
	}
	tmp, err := createTemp(target)
	if err != nil {
		return 0, fmt.Errorf("ordermsg: DownloadFile: %w", err)
	}
	n, err := c.Download(ctx, f, tmp, opts)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), target)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return n, err
	}
	return n, nil
}

// maxSymlinkHops bounds the symlinks resolveTarget follows, as
// filepath.EvalSymlinks does: a loop ends with an error, not a crash.
const maxSymlinkHops = 255

// resolveTarget follows symlinks to the file they name, which may not exist
// yet. A chain longer than maxSymlinkHops (a loop) is an error matching
// syscall.ELOOP.
func resolveTarget(path string) (string, error) {
	given := path
	for range maxSymlinkHops {
		fi, err := os.Lstat(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return path, nil
		case err != nil:
			return "", fmt.Errorf("ordermsg: DownloadFile: %w", err)
		case fi.Mode()&fs.ModeSymlink == 0:
			return path, nil
		}
		dest, err := os.Readlink(path)
		if err != nil {
			return "", fmt.Errorf("ordermsg: DownloadFile: %w", err)
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(path), dest)
		}
		path = dest
	}
	return "", fmt.Errorf("ordermsg: DownloadFile: %w", &fs.PathError{Op: "resolve", Path: given, Err: syscall.ELOOP})
}

// downloadInPlace writes through a device or FIFO, which cannot be replaced.
func (c *Client) downloadInPlace(ctx context.Context, f *File, target string, opts *DownloadOptions) (int64, error) {
	out, err := openInPlace(ctx, target)
	if err != nil {
		return 0, fmt.Errorf("ordermsg: DownloadFile: %w", err)
	}
	n, err := c.Download(ctx, f, out, opts)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return n, err
}

// openInPlace opens a device or FIFO for writing, giving up when ctx ends:
// the open of a FIFO blocks until there is a reader. A goroutine stays to
// close the file should the open end later.
func openInPlace(ctx context.Context, path string) (*os.File, error) {
	type result struct {
		f   *os.File
		err error
	}
	opened := make(chan result, 1)
	go func() {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		opened <- result{f, err}
	}()
	select {
	case r := <-opened:
		return r.f, r.err
	case <-ctx.Done():
		go func() {
			if r := <-opened; r.f != nil {
				r.f.Close()
			}
		}()
		return nil, ctx.Err()
	}
}

// createTemp creates a new, empty file beside target with a random name.
// Unlike os.CreateTemp (mode 0600) it asks for 0666, so the umask decides the
// mode, as for any new file.
func createTemp(target string) (*os.File, error) {
	dir, base := filepath.Split(target)
	var random [8]byte
	for range 10 {
		rand.Read(random[:])
		name := filepath.Join(dir, "."+truncateName(base, 200)+"."+hex.EncodeToString(random[:])+".part")
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
	return nil, fmt.Errorf("cannot create a temporary file beside %s", target)
}

// truncateName keeps at most n bytes of name, cut at a rune boundary, so the
// temporary name stays within the file system's limit of 255 bytes.
func truncateName(name string, n int) string {
	if len(name) <= n {
		return name
	}
	for n > 0 && !utf8.RuneStart(name[n]) {
		n--
	}
	return name[:n]
}
