// Command ordermsg reads a website's orders and messages from the Order and
// Message Read API: get one, list a page, or export them all as JSON Lines or
// CSV. `ordermsg serve` runs the SDK's fake of the service on loopback.
//
// Exit codes: 0 success; 1 an API or network error; 2 a usage error (a bad
// flag, argument or configuration); 3 a local I/O error (an output file or
// standard output could not be written); 130 interrupted (SIGINT); 143
// terminated (SIGTERM). See exitcode.go.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/term"
)

func main() {
	ctx, cancel := context.WithCancelCause(context.Background())
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	go func() {
		sig := <-signals
		// The first signal stops the command, which says how far it got; a
		// second one kills the process, as the signal's default does.
		signal.Stop(signals)
		cancel(signalCause{sig.(syscall.Signal)})
	}()
	a := &app{
		stdout: os.Stdout,
		stderr: os.Stderr,
		getenv: os.Getenv,
		isTerminal: func(f any) bool {
			file, ok := f.(*os.File)
			return ok && term.IsTerminal(int(file.Fd()))
		},
	}
	os.Exit(a.run(ctx, os.Args[1:]))
}
