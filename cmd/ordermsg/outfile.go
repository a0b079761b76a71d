package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"github.com/ordermsg/ordermsg-go/internal/safefile"
)

// outputFile is a file a command writes, opened by openOutput the way a shell
// redirect (`> FILE`) opens it, except that a regular file is replaced only
// when the new content is complete.
//
// Every error it returns is a *localFailure (exit code 3) naming the path as
// the user gave it.
type outputFile struct {
	f    *safefile.File
	path string // as the user gave it, for messages
}

// openOutput opens path for writing (see safefile.Open):
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
	f, err := safefile.Open(ctx, path)
	if err != nil {
		return nil, o.fail(err)
	}
	o.f = f
	return o, nil
}

// restrict makes a file that Commit puts in place readable by its owner
// alone, mode 0600 (see safefile.File.Restrict): a file of keys.
func (o *outputFile) restrict() error {
	if err := o.f.Restrict(); err != nil {
		return o.fail(err)
	}
	return nil
}

// Write writes to the file.
func (o *outputFile) Write(p []byte) (int, error) {
	n, err := o.f.Write(p)
	if err != nil {
		err = o.fail(err)
	}
	return n, err
}

// inPlace reports whether the file is written in place (a device, a FIFO),
// so that what was written before a failure is there already.
func (o *outputFile) inPlace() bool { return o.f.InPlace() }

// Commit completes the output: a temporary file is synced and renamed onto
// its target, a file written in place is closed.
func (o *outputFile) Commit() error {
	if err := o.f.Commit(); err != nil {
		return o.fail(err)
	}
	return nil
}

// Discard closes the file and removes the temporary one, leaving what was
// at the path untouched; after Commit it does nothing.
func (o *outputFile) Discard() { o.f.Discard() }

// fail makes err a local failure that names the path as the user gave it
// (safefile's errors are *fs.PathErrors naming it already: the cause is
// kept, in the CLI's words).
func (o *outputFile) fail(err error) error {
	if errors.Is(err, context.Canceled) {
		return err // interrupted while waiting for a FIFO's reader
	}
	var pathErr *fs.PathError
	if errors.As(err, &pathErr) {
		err = pathErr.Err
	}
	return &localFailure{fmt.Errorf("cannot write %s: %w", o.path, err)}
}
