package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/internal/safefile"
)

// outDir is the directory files download writes into. Unlike a file named
// on the command line (see openOutput), inside DIR the command owns the
// layout, so it follows no link there: it writes only into directories that
// it made or found as real directories, and it never opens what is at a
// file's path; a new file is written under a temporary name and renamed into
// place. Every operation goes through an os.Root, which keeps it inside DIR
// even when something under DIR changes meanwhile.
type outDir struct{ root *os.Root }

// openOutDir makes dir if missing and opens it. dir itself may be a symlink:
// the user named it.
func openOutDir(dir string) (*outDir, error) {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &outDir{root: root}, nil
}

// Close closes the directory.
func (d *outDir) Close() error { return d.root.Close() }

// prepare makes the directories of rel (a local path) one by one, refusing
// any that is not a real directory, and reports whether a complete file is
// at rel already. Anything at rel but a regular file (a symlink, a FIFO, a
// device, a folder) is an error: it is neither followed nor replaced.
func (d *outDir) prepare(rel string) (complete bool, err error) {
	dir := ""
	for _, part := range strings.Split(filepath.Dir(rel), string(filepath.Separator)) {
		dir = filepath.Join(dir, part)
		if err := d.root.Mkdir(dir, 0o777); err != nil && !errors.Is(err, fs.ErrExist) {
			return false, err
		}
		fi, err := d.root.Lstat(dir)
		if err != nil {
			return false, err
		}
		if !fi.IsDir() {
			return false, fmt.Errorf("refused: %s is %s, not a directory; nothing is written through it", dir, fileKind(fi.Mode()))
		}
	}
	fi, err := d.root.Lstat(rel)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	case err != nil:
		return false, err
	case fi.Mode().IsRegular():
		return true, nil
	}
	return false, fmt.Errorf("refused: %s is in the file's place; it is neither followed nor replaced", fileKind(fi.Mode()))
}

// fileKind names a file's type for messages.
func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symlink"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m.IsDir():
		return "a directory"
	case m.IsRegular():
		return "a regular file"
	}
	return "a special file"
}

// write downloads f to rel: into a new temporary file beside it (mode 0666
// less the umask), renamed to rel when complete; on failure nothing is left.
// What is at rel is neither opened nor followed (prepare has looked at it).
func (d *outDir) write(ctx context.Context, c *ordermsg.Client, f *ordermsg.File, rel string, opts *ordermsg.DownloadOptions) (int64, error) {
	out, err := safefile.CreateIn(d.root, rel)
	if err != nil {
		return 0, err
	}
	n, err := c.Download(ctx, f, out, opts)
	if err != nil {
		out.Discard()
		return n, err
	}
	return n, out.Commit()
}
