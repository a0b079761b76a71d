package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// outputFile is a file a command writes, opened by openOutput the way a shell
// redirect (`> FILE`) opens it, except that a regular file is replaced only
// when the new content is complete.
//
// Every error it returns is a *localFailure (exit code 3) naming the path as
// the user gave it.
type outputFile struct {
	f      *os.File
	path   string // as the user gave it, for messages
	target string // the file Commit renames f onto; "" when f is written in place
	closed bool
}

// openOutput opens path for writing:
//
//   - a new path, or a regular file (through any symlinks to it), is written
//     under a temporary name in the same folder and renamed onto it by
//     Commit; a new file gets mode 0666 minus the umask, an existing one
//     keeps its mode;
//   - anything else that can be opened for writing (a character device such
//     as /dev/null or a terminal, a FIFO, /dev/stdout) is written in place,
//     as a shell redirect writes it, and is never replaced;
//   - a folder is an error.
//
// Opening a FIFO waits for a reader, as a shell does; ctx ends the wait.
func openOutput(ctx context.Context, path string) (*outputFile, error) {
	o := &outputFile{path: path}
	info, err := os.Stat(path) // the kernel follows every symlink, /proc's too
	switch {
	case errors.Is(err, fs.ErrNotExist):
		target, err := resolveSymlinks(path)
		if err != nil {
			return nil, o.fail(err)
		}
		return o.openTemp(target, nil)
	case err != nil:
		return nil, o.fail(err)
	case info.IsDir():
		return nil, o.fail(errors.New("is a directory"))
	case info.Mode().IsRegular():
		// /dev/stdout redirected to a file is a regular file reached through a
		// link of /proc that names no path: write it in place, like a shell.
		if target, err := resolveSymlinks(path); err == nil {
			if t, err := os.Stat(target); err == nil && os.SameFile(t, info) {
				return o.openTemp(target, info)
			}
		}
	}
	if o.f, err = openInPlace(ctx, path); err != nil {
		return nil, o.fail(err)
	}
	return o, nil
}

// openTemp creates the temporary file that Commit renames onto target;
// existing is target's FileInfo when it exists.
func (o *outputFile) openTemp(target string, existing fs.FileInfo) (*outputFile, error) {
	if existing != nil {
		// A shell redirect would not write a file the user may not write.
		probe, err := os.OpenFile(target, os.O_WRONLY, 0)
		if err != nil {
			return nil, o.fail(err)
		}
		probe.Close()
	}
	dir, base := filepath.Split(target)
	for range 100 {
		name := filepath.Join(dir, "."+base+".partial-"+strconv.FormatUint(rand.Uint64(), 36))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666) // the umask applies
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, o.fail(err)
		}
		o.f, o.target = f, target
		if existing != nil {
			if err := f.Chmod(existing.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)); err != nil {
				o.Discard()
				return nil, o.fail(err)
			}
		}
		return o, nil
	}
	return nil, o.fail(errors.New("no free temporary name"))
}

// openInPlace opens a device, FIFO or the like for writing, giving up when
// ctx ends (the open of a FIFO blocks until there is a reader).
func openInPlace(ctx context.Context, path string) (*os.File, error) {
	type result struct {
		f   *os.File
		err error
	}
	opened := make(chan result, 1)
	go func() {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
		opened <- result{f, err}
	}()
	select {
	case r := <-opened:
		return r.f, r.err
	case <-ctx.Done():
		go func() { // close it if the open ever ends
			if r := <-opened; r.f != nil {
				r.f.Close()
			}
		}()
		return nil, ctx.Err()
	}
}

// resolveSymlinks follows the symlinks at the end of path, including one
// whose target does not exist yet (which is then the path to create).
func resolveSymlinks(path string) (string, error) {
	for range 40 {
		info, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) {
			return path, nil
		}
		if err != nil {
			return "", err
		}
		if info.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		link, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(path), link)
		}
		path = link
	}
	return "", syscall.ELOOP
}

// Write writes to the file.
func (o *outputFile) Write(p []byte) (int, error) {
	n, err := o.f.Write(p)
	if err != nil {
		err = o.fail(err)
	}
	return n, err
}

// Commit completes the output: a temporary file is synced and renamed onto
// its target, a file written in place is closed.
func (o *outputFile) Commit() error {
	if o.target == "" {
		o.closed = true
		if err := o.f.Close(); err != nil {
			return o.fail(err)
		}
		return nil
	}
	err := o.f.Sync()
	if err == nil {
		err = o.f.Close()
		o.closed = true
	}
	if err == nil {
		err = os.Rename(o.f.Name(), o.target)
	}
	if err != nil {
		o.Discard()
		return o.fail(err)
	}
	o.target = ""
	return nil
}

// Discard closes the file and removes the temporary one, leaving what was
// at the path untouched; after Commit it does nothing.
func (o *outputFile) Discard() {
	if !o.closed {
		o.f.Close()
		o.closed = true
	}
	if o.target != "" {
		os.Remove(o.f.Name())
		o.target = ""
	}
}

// fail makes err a local failure that names the path as the user gave it,
// not the temporary file.
func (o *outputFile) fail(err error) error {
	if errors.Is(err, context.Canceled) {
		return err // interrupted while waiting for a FIFO's reader
	}
	var pathErr *fs.PathError
	if errors.As(err, &pathErr) {
		err = pathErr.Err
	}
	var linkErr *os.LinkError
	if errors.As(err, &linkErr) {
		err = linkErr.Err
	}
	return &localFailure{fmt.Errorf("cannot write %s: %w", o.path, err)}
}
