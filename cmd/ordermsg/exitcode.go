package main

import (
	"context"
	"errors"
	"fmt"
	"syscall"
)

// Exit codes, the table of the README and of `ordermsg --help`. A command
// says which one its error means by its type: *usageError (or
// *configError), *apiFailure or *localFailure; an error of cobra's own (an unknown flag or command, a bad
// argument) is a usage error; any other error exits exitFailure.
const (
	exitOK      = 0
	exitFailure = 1 // the API or the network failed (or anything not below)
	exitUsage   = 2 // a bad flag, argument or configuration: nothing was requested (for the website it concerns)
	exitLocal   = 3 // a local file, or standard output, could not be written
	// exitCursorExpired: changes --after a cursor older than the changes
	// kept (sync --keep-changes removed changes after it).
	exitCursorExpired = 4
	// A signal exits 128 + its number, as a shell reports it: 130 for SIGINT
	// (Ctrl-C), 143 for SIGTERM.
	exitSignalBase = 128
)

// exitCodesHelp is the table in `ordermsg --help`; the README has the same.
const exitCodesHelp = `Exit codes:
  0    success
  1    API or network error
  2    usage error (bad flag, argument or configuration; nothing was requested,
       or with sync --websites nothing for the website it concerns)
  3    local I/O error (an output file or folder, standard output, a --state
       file or the --db database could not be read or written)
  4    changes --after a cursor older than the changes kept
  130  interrupted (SIGINT, Ctrl-C)
  143  terminated (SIGTERM)`

// usageError is a mistake of the caller, found before any request.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// usagef returns a *usageError; name flags in it, not Go fields.
func usagef(format string, args ...any) error {
	return &usageError{fmt.Errorf(format, args...)}
}

// configError is a configuration that cannot be used, found before any
// request for what it concerns, such as a database whose website is
// mirrored from another base URL: it exits as a usage error does, without
// the pointer to --help, since no flag or argument was wrong.
type configError struct{ err error }

func (e *configError) Error() string { return e.err.Error() }
func (e *configError) Unwrap() error { return e.err }

// apiFailure is an error of the service or of the network.
type apiFailure struct{ err error }

func (e *apiFailure) Error() string { return e.err.Error() }
func (e *apiFailure) Unwrap() error { return e.err }

// localFailure is an error of this machine: an output file or standard
// output that could not be opened or written.
type localFailure struct{ err error }

func (e *localFailure) Error() string { return e.err.Error() }
func (e *localFailure) Unwrap() error { return e.err }

// expiredCursor is the error of changes --after a cursor older than the
// changes the mirror keeps.
type expiredCursor struct{ err error }

func (e *expiredCursor) Error() string { return e.err.Error() }
func (e *expiredCursor) Unwrap() error { return e.err }

// signalCause is the cause of the run's context when a signal stopped it.
type signalCause struct{ sig syscall.Signal }

func (s signalCause) Error() string {
	if s.sig == syscall.SIGTERM {
		return "terminated"
	}
	return "interrupted"
}

// stopped is the error of a command a signal stopped, saying how far it got
// ("after 40 orders"): the exit line puts it after "interrupted".
type stopped struct{ progress string }

func (e *stopped) Error() string { return "stopped " + e.progress }

// exitCode maps the outcome of a run to its exit code and the line for
// stderr ("" for none). started tells whether a command's RunE was entered:
// an error before that is cobra's, about the command line.
func exitCode(ctx context.Context, err error, started bool) (code int, message string) {
	var localErr *localFailure
	switch {
	case err == nil:
		return exitOK, ""
	case ctx.Err() != nil:
		sig := signalCause{syscall.SIGINT} // a context cancelled otherwise is a Ctrl-C too
		errors.As(context.Cause(ctx), &sig)
		message = sig.Error()
		if s := new(stopped); errors.As(err, &s) {
			message += " " + s.progress
		}
		return exitSignalBase + int(sig.sig), message
	case errors.As(err, new(*usageError)) || errors.As(err, new(*configError)) || !started:
		return exitUsage, "error: " + err.Error()
	case errors.As(err, &localErr):
		return exitLocal, "error: " + localErr.Error()
	case errors.As(err, new(*expiredCursor)):
		return exitCursorExpired, "error: " + err.Error()
	default:
		return exitFailure, "error: " + err.Error()
	}
}
