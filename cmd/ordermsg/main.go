// Command ordermsg reads a website's orders and messages from the Order and
// Message Read API: get one, list a page, or export them all as JSON Lines or
// CSV. `ordermsg serve` runs the SDK's fake of the service on loopback.
//
// Exit codes: 0 success; 1 an API or network error; 2 a usage error (a bad
// flag or argument, or missing configuration); 130 interrupted (Ctrl-C).
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/term"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	a := &app{
		stdout: os.Stdout,
		stderr: os.Stderr,
		getenv: os.Getenv,
		isTerminal: func(f any) bool {
			file, ok := f.(*os.File)
			return ok && term.IsTerminal(int(file.Fd()))
		},
	}
	code := a.run(ctx, os.Args[1:])
	stop()
	os.Exit(code)
}
