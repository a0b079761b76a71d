package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/ordermsg/ordermsg-go"
	"github.com/spf13/cobra"
)

// stateOwner is what a --state file belongs to: a website and what of it
// the file follows, "orders" or "messages" (export --state) or "files"
// (files download --state). A file read as the state of one is never taken
// for the state of another.
type stateOwner struct {
	Website  int64  `json:"website"`
	Resource string `json:"resource"`
}

// claim checks that the state read from path is that of resource on site,
// or new (zero), and makes it theirs.
func (o *stateOwner) claim(path string, site int64, resource string) error {
	if (o.Website != 0 && o.Website != site) || (o.Resource != "" && o.Resource != resource) {
		return usagef("--state %s is the state of the %s of website %d, not of the %s of website %d",
			path, o.Resource, o.Website, resource, site)
	}
	o.Website, o.Resource = site, resource
	return nil
}

// exportState is the file of export --state: its owner and the checkpoint
// of the last export.
type exportState struct {
	stateOwner
	Checkpoint ordermsg.Checkpoint `json:"checkpoint"`
}

// refuseWithState is the usage error of the first of the flags names that
// the command line sets: they do not go with --state.
func refuseWithState(cmd *cobra.Command, names ...string) error {
	for _, name := range names {
		if cmd.Flags().Changed(name) {
			return usagef("--%s does not go with --state", name)
		}
	}
	return nil
}

// exportSince runs export --state FILE (statePath): the command's other
// flags are f, format, output and concurrency.
func (k *kind[T]) exportSince(cmd *cobra.Command, a *app, f *filters, format, output string, concurrency int, statePath string) error {
	if err := refuseWithState(cmd, "since", "until", "sort", "direction", "items"); err != nil {
		return err
	}
	if err := k.checkFormat(format, f); err != nil {
		return err
	}
	if err := f.check(); err != nil {
		return err
	}
	if concurrency < 1 {
		return usagef("--concurrency %d: want 1 or more", concurrency)
	}
	state, err := readState[exportState](statePath)
	if err != nil {
		return &localFailure{err}
	}
	c, site, closeFn, err := a.connect()
	if err != nil {
		return err
	}
	defer closeFn()
	if err := state.claim(statePath, site, k.plural); err != nil {
		return err
	}
	var file *outputFile // opened before any request, as a shell would
	if output != "" {
		if file, err = openOutput(cmd.Context(), output); err != nil {
			return err
		}
		defer file.Discard() // a no-op once committed
	}
	n, err := writeSince(cmd.Context(), a, c, site, k, f, format, file, &state.Checkpoint)
	if err != nil {
		progress := fmt.Sprintf("after %d %s; %s not updated", n, k.plural, statePath)
		var local *localFailure
		switch {
		case cmd.Context().Err() != nil:
			return &stopped{progress}
		case errors.As(err, &local):
			return &localFailure{fmt.Errorf("%s: %w", progress, err)}
		}
		return &apiFailure{fmt.Errorf("%s: %w", progress, err)}
	}
	if err := writeState(cmd.Context(), statePath, state); err != nil {
		return &localFailure{fmt.Errorf("the output is complete, but %s was not updated (the next run repeats these %s): %w", statePath, k.plural, err)}
	}
	fmt.Fprintf(a.stderr, "exported %d new %s; state in %s\n", n, k.plural, statePath)
	return nil
}

// readState reads a --state file; a missing one is the zero state.
func readState[S any](path string) (S, error) {
	var s S
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return s, nil
	case err != nil:
		return s, err
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return s, fmt.Errorf("--state %s is not a state file of ordermsg: %v", path, err)
	}
	return s, nil
}

// writeState replaces a --state file with state, whole, the way -o writes
// a file: under a temporary name, renamed when complete.
func writeState(ctx context.Context, path string, state any) error {
	b, err := json.Marshal(state)
	if err != nil {
		return err
	}
	out, err := openOutput(ctx, path)
	if err != nil {
		return err
	}
	defer out.Discard() // a no-op once committed
	if _, err := out.Write(append(b, '\n')); err != nil {
		return err
	}
	return out.Commit()
}

// writeSince writes the records created after cp to file (standard output
// when nil) and advances cp. The output is complete when it returns nil.
func writeSince[T any](ctx context.Context, a *app, c *ordermsg.Client, site int64, k *kind[T], f *filters, format string, file *outputFile, cp *ordermsg.Checkpoint) (int, error) {
	dst := io.Writer(stdoutWriter{a.stdout})
	if file != nil {
		dst = file
	}
	w := newRecordWriter(k, format, dst, k.table)
	n := 0
	for v, err := range k.res.Sync(ctx, c, site, cp, f.options()) {
		if err != nil {
			return n, err
		}
		if err := w.write(v); err != nil {
			return n, err
		}
		n++
	}
	if err := w.flush(); err != nil {
		return n, err
	}
	if file != nil {
		return n, file.Commit()
	}
	return n, nil
}
