// Package safefile writes files the way a shell redirect (`> FILE`) does,
// except that a regular file is replaced only when the new one is complete.
// It is the one place where the SDK (Client.DownloadFile) and the ordermsg
// command write files:
//
//   - a device, a FIFO, or anything else that is not a regular file is
//     written through, in place, and never replaced; the wait for a FIFO's
//     reader ends with the context;
//   - a new path, or a regular file (through any symlinks to it), is written
//     under a short hidden temporary name beside the final file and renamed
//     onto it by Commit, so the path never holds part of a file; a new file
//     gets mode 0666 less the umask, a replaced one keeps its mode;
//   - a symlink is followed, never replaced, and resolved as the kernel
//     resolves it: through symlinked folders and ".." in the path or in a
//     link's text.
package safefile

import (
	"context"
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"unicode/utf8"
)

// MaxSymlinks bounds the symlinks Open follows to find the file it replaces,
// as filepath.EvalSymlinks does: a longer chain (a loop) is an error matching
// syscall.ELOOP, not a crash.
const MaxSymlinks = 255

// tempKeep is how many bytes of the final name a temporary name keeps, so
// that the temporary name stays short (at most 60 bytes) however long the
// final name is: any name the file system accepts can be written.
const tempKeep = 40

// dir is where a File's temporary file is made and renamed: the file system
// (osDir) or an os.Root.
type dir interface {
	OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error)
	Rename(oldname, newname string) error
	Remove(name string) error
}

// osDir is the file system, through the os package.
type osDir struct{}

func (osDir) OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	return os.OpenFile(name, flag, perm)
}
func (osDir) Rename(oldname, newname string) error { return os.Rename(oldname, newname) }
func (osDir) Remove(name string) error             { return os.Remove(name) }

// File is a file opened for writing by Open or CreateIn. Every error it
// returns, but the context's, is an *fs.PathError naming the path as the
// caller gave it, never the temporary file.
type File struct {
	f      *os.File
	name   string // as the caller gave it, for errors
	dir    dir
	temp   string // the temporary file's name in dir; "" when written in place or done
	target string // the name in dir that Commit renames temp onto
	closed bool
}

// Open opens path for writing the way a shell redirect does (see the package
// comment). Write to the File, then call Commit to complete it or Discard to
// leave what was at path as it was.
//
// A folder is an error (syscall.EISDIR). A regular file reached through a
// link of /proc that names no path (/dev/stdout redirected to a deleted
// file) is written in place and truncated, as a shell does.
func Open(ctx context.Context, path string) (*File, error) {
	info, err := os.Stat(path) // the kernel follows every symlink, /proc's too
	switch {
	case errors.Is(err, fs.ErrNotExist):
		target, err := resolve(path)
		if err != nil {
			return nil, err
		}
		return create(osDir{}, path, target, nil)
	case err != nil:
		return nil, err
	case info.IsDir():
		return nil, &fs.PathError{Op: "open", Path: path, Err: syscall.EISDIR}
	case info.Mode().IsRegular():
		if target, err := resolve(path); err == nil {
			if t, err := os.Stat(target); err == nil && os.SameFile(t, info) {
				return create(osDir{}, path, target, info)
			}
		}
	}
	f, err := openInPlace(ctx, path)
	if err != nil {
		return nil, err
	}
	return &File{f: f, name: path}, nil
}

// CreateIn makes a new file that Commit renames onto name inside root,
// replacing whatever is there. It neither opens nor follows what is at name
// (the caller has looked at it); the new file gets mode 0666 less the umask.
func CreateIn(root *os.Root, name string) (*File, error) {
	return create(root, name, name, nil)
}

// openInPlace opens a device, FIFO or the like for writing, giving up when
// ctx ends (see OpenWaiting).
func openInPlace(ctx context.Context, path string) (*os.File, error) {
	return OpenWaiting(ctx, path, os.O_WRONLY|os.O_TRUNC)
}

// OpenWaiting opens path with flag, as os.OpenFile does, giving up when ctx
// ends: the open of a FIFO blocks until its other end is opened (a reader
// for a writer, a writer for a reader). A goroutine stays to close the
// file should the open end later.
func OpenWaiting(ctx context.Context, path string, flag int) (*os.File, error) {
	type result struct {
		f   *os.File
		err error
	}
	opened := make(chan result, 1)
	go func() {
		f, err := os.OpenFile(path, flag, 0)
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

// resolve finds the file that a write to path reaches, the way the kernel
// walks it: the folder part through every symlink and ".." in it (a ".."
// after a symlinked folder goes up from where the link leads, not from the
// link), then the last component's symlinks, each relative one read from the
// real folder that holds it. The file may not exist yet (it is then the file
// to create). A chain longer than MaxSymlinks is an error matching
// syscall.ELOOP.
func resolve(path string) (string, error) {
	given := path
	for range MaxSymlinks {
		folder, base := filepath.Split(path)
		if folder == "" {
			folder = "."
		}
		real, err := filepath.EvalSymlinks(folder)
		if err != nil {
			return "", &fs.PathError{Op: "open", Path: given, Err: unwrap(err)}
		}
		path = filepath.Join(real, base) // real has no symlink: a lexical ".." is the kernel's
		info, err := os.Lstat(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return path, nil
		case err != nil:
			return "", &fs.PathError{Op: "open", Path: given, Err: unwrap(err)}
		case info.Mode()&fs.ModeSymlink == 0:
			return path, nil
		}
		link, err := os.Readlink(path)
		if err != nil {
			return "", &fs.PathError{Op: "open", Path: given, Err: unwrap(err)}
		}
		if !filepath.IsAbs(link) {
			// Not filepath.Join, which would clean "dir/.." as text
			// where dir may be a symlink: the next round resolves it.
			link = real + string(filepath.Separator) + link
		}
		path = link
	}
	return "", &fs.PathError{Op: "open", Path: given, Err: syscall.ELOOP}
}

// create makes the temporary file that Commit renames onto target in d;
// existing is target's FileInfo when it exists, whose mode the new file
// takes.
func create(d dir, name, target string, existing fs.FileInfo) (*File, error) {
	if existing != nil {
		// A shell redirect would not write a file the user may not write.
		probe, err := d.OpenFile(target, os.O_WRONLY, 0)
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: unwrap(err)}
		}
		probe.Close()
	}
	folder, base := filepath.Split(target)
	for range 100 {
		temp := filepath.Join(folder, TempName(base))
		f, err := d.OpenFile(temp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666) // the umask applies
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "create", Path: name, Err: unwrap(err)}
		}
		out := &File{f: f, name: name, dir: d, temp: temp, target: target}
		if existing != nil {
			if err := f.Chmod(existing.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)); err != nil {
				out.Discard()
				return nil, out.named(err)
			}
		}
		return out, nil
	}
	return nil, &fs.PathError{Op: "create", Path: name, Err: errors.New("no free temporary name")}
}

// TempName is a new random name for a temporary file beside a file named
// base: hidden (it starts with a dot), unlikely to be taken, and at most 60
// bytes however long base is, keeping base's start (cut at a rune boundary)
// so that a person can tell whose it is.
func TempName(base string) string {
	return "." + CutName(base, tempKeep) + "." + strconv.FormatUint(rand.Uint64(), 36) + ".part"
}

// CutName keeps at most n bytes of name, cut at a rune boundary.
func CutName(name string, n int) string {
	if len(name) <= n {
		return name
	}
	for n > 0 && !utf8.RuneStart(name[n]) {
		n--
	}
	return name[:n]
}

// Restrict makes the file that Commit puts in place readable and writable
// by its owner alone (mode 0600), whatever the umask and the mode of the
// file it replaces: a file of secrets. Call it before the first Write. A
// file written in place (a device, a FIFO) is left as it is.
func (f *File) Restrict() error {
	if f.temp == "" {
		return nil
	}
	if err := f.f.Chmod(0o600); err != nil {
		return f.named(err)
	}
	return nil
}

// Write writes to the file.
func (f *File) Write(p []byte) (int, error) {
	n, err := f.f.Write(p)
	if err != nil {
		err = f.named(err)
	}
	return n, err
}

// InPlace reports whether f is written in place (a device, a FIFO): what
// was written is there already, and Discard cannot take it back.
func (f *File) InPlace() bool { return f.dir == nil }

// Commit completes the file: a temporary file is synced and renamed onto its
// target, a file written in place is closed. On failure the temporary file is
// removed and what was at the path is left as it was.
func (f *File) Commit() error {
	if f.closed {
		return f.named(os.ErrClosed)
	}
	if f.temp == "" {
		f.closed = true
		if err := f.f.Close(); err != nil {
			return f.named(err)
		}
		return nil
	}
	err := f.f.Sync()
	if cerr := f.f.Close(); err == nil {
		err = cerr
	}
	f.closed = true
	if err == nil {
		err = f.dir.Rename(f.temp, f.target)
	}
	if err != nil {
		f.Discard()
		return f.named(err)
	}
	f.temp = ""
	return nil
}

// Discard closes the file and removes the temporary one, leaving what was at
// the path untouched; after Commit it does nothing.
func (f *File) Discard() {
	if !f.closed {
		f.f.Close()
		f.closed = true
	}
	if f.temp != "" {
		f.dir.Remove(f.temp)
		f.temp = ""
	}
}

// named makes err, from an operation on the file written, name the path as
// the caller gave it.
func (f *File) named(err error) error {
	op := "write"
	var pathErr *fs.PathError
	var linkErr *os.LinkError
	switch {
	case errors.As(err, &pathErr):
		op = pathErr.Op
	case errors.As(err, &linkErr):
		op = linkErr.Op
	}
	return &fs.PathError{Op: op, Path: f.name, Err: unwrap(err)}
}

// unwrap is the cause inside an *fs.PathError or *os.LinkError, which name a
// path other than the caller's; any other error is returned as it is.
func unwrap(err error) error {
	var pathErr *fs.PathError
	if errors.As(err, &pathErr) {
		return pathErr.Err
	}
	var linkErr *os.LinkError
	if errors.As(err, &linkErr) {
		return linkErr.Err
	}
	return err
}
