package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
)

func (k *kind[T]) exportCommand(a *app) *cobra.Command {
	var (
		f           filters
		format      string
		output      string
		items       bool
		concurrency int
		state       string // --state FILE, "" without
	)
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Write every " + k.singular + " as JSON Lines or CSV",
		Long: fmt.Sprintf(`Walk every page of the website's %[1]s and write each one, as JSON Lines
(one object per line, the default) or as CSV (--format csv).

-o FILE writes FILE as a shell redirect (> FILE) would, except that a
regular file is written under a temporary name beside it and renamed onto it
only when the export is complete: an export that fails or is interrupted
leaves the file as it was. A new file gets mode 0666 minus the umask; an
existing one keeps its mode; a symlink is followed. A device, a FIFO or
/dev/stdout is written in place, never replaced. On a terminal, a progress
bar shows on stderr.

--format csv writes fixed columns (docs/cli.md#csv-columns lists them). It asks for the
include they are made of, %[2]s, and refuses any other
--include, which would have no column: export JSON Lines to keep included
data. An absent reference is an empty cell, whether the API sent 0 or null.

With --state FILE, only the %[1]s created since the last export with the
same FILE are written (all of them the first time), oldest first, and FILE is
then updated: written whole under a temporary name and renamed, only after
the output is complete. If the export fails, FILE is left as it was and the
next run exports the same %[1]s again. A crash between the end of the output
and the update of FILE has the same effect: the next run repeats that batch.
To never repeat a record, use ordermsg sync --db, which keeps the state in the
same transaction as the records. --since, --until, --sort, --direction and
--items do not go with --state, and --concurrency does not apply: pages are
fetched one at a time, as pages fetched at once can miss a record that
appears during the export.`, k.plural, strings.Join(k.csvIncludes, ", ")),
		Example: fmt.Sprintf("  ordermsg %[1]s export --demo -o %[1]s.jsonl\n  ordermsg %[1]s export --format csv --since 2024-01-01 -o %[1]s.csv --demo\n  ordermsg %[1]s export -o %[1]s.jsonl        # needs ORDERMSG_BASE_URL, ORDERMSG_API_KEY, ORDERMSG_WEBSITE_ID"+
			"\n  ordermsg %[1]s export --state %[1]s.state -o new-%[1]s.jsonl --demo",
			k.plural),
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if state != "" {
				return k.exportSince(cmd, a, &f, format, output, concurrency, state)
			}
			if err := k.checkFormat(format, &f); err != nil {
				return err
			}
			if items && format != "csv" {
				return usagef("--items goes with --format csv")
			}
			if err := f.check(); err != nil {
				return err
			}
			if concurrency < 1 {
				return usagef("--concurrency %d: want 1 or more", concurrency)
			}
			table := k.table
			if items {
				table = k.itemTable
			}
			c, site, closeFn, err := a.connect()
			if err != nil {
				return err
			}
			defer closeFn()
			var file *outputFile // opened before any request, as a shell would
			if output != "" {
				if file, err = openOutput(cmd.Context(), output); err != nil {
					return err
				}
				defer file.Discard() // a no-op once committed
			}
			return k.export(cmd.Context(), a, c, site, &f, exportTarget[T]{format: format, file: file, table: table, concurrency: concurrency})
		},
	}
	k.filterFlags(cmd, &f)
	fl := cmd.Flags()
	fl.IntVar(&f.count, "count", 100, "page size of the requests")
	fl.StringVar(&format, "format", "jsonl", "jsonl or csv")
	fl.StringVarP(&output, "output", "o", "", "write to this file (default: standard output)")
	fl.IntVar(&concurrency, "concurrency", 4, "pages fetched at once")
	fl.StringVar(&state, "state", "", "export only what was created since the state in this file, then update it")
	if k.itemTable != nil {
		fl.BoolVar(&items, "items", false, "with --format csv: one row per order item instead of per order")
	}
	return cmd
}

// checkFormat checks --format and, for CSV, --include: the CSV columns are
// fixed, so the only includes CSV takes are the ones its columns are made
// of (k.csvIncludes), which it asks for anyway; any other --include would
// be fetched and dropped, and is refused. f.includes becomes what the
// export asks for.
func (k *kind[T]) checkFormat(format string, f *filters) error {
	switch format {
	case "jsonl":
		return nil
	case "csv":
	default:
		return usagef("--format %q: want jsonl or csv", format)
	}
	if err := f.includes.check(); err != nil {
		return err
	}
	for _, inc := range f.includes.trimmed() {
		if !slices.Contains(k.csvIncludes, inc) {
			return usagef("--include %s: the CSV columns are fixed and have no place for it (see --help); export JSON Lines (--format jsonl) to keep included data", inc)
		}
	}
	f.includes.names = slices.Clone(k.csvIncludes)
	return nil
}

type exportTarget[T any] struct {
	format      string
	file        *outputFile // nil for standard output
	table       *csvTable[T]
	concurrency int
}

func (k *kind[T]) export(ctx context.Context, a *app, c *ordermsg.Client, site int64, f *filters, t exportTarget[T]) error {
	dst := io.Writer(stdoutWriter{a.stdout})
	if t.file != nil {
		dst = t.file
	}
	w := newRecordWriter(k, t.format, dst, t.table)
	bar := k.progress(ctx, a, c, site, f)

	n := 0
	for v, err := range k.res.All(ctx, c, site, f.options(), ordermsg.WithConcurrency(t.concurrency)) {
		if err != nil {
			bar.stop()
			progress := fmt.Sprintf("after %d %s%s", n, k.plural, noFileNote(t.file))
			if ctx.Err() != nil {
				return &stopped{progress}
			}
			return &apiFailure{fmt.Errorf("%s: %w", progress, err)}
		}
		if err := w.write(v); err != nil {
			bar.stop()
			return err
		}
		n++
		bar.add()
	}
	bar.stop()
	if err := w.flush(); err != nil {
		return err
	}
	if t.file != nil {
		if err := t.file.Commit(); err != nil {
			return err
		}
		fmt.Fprintf(a.stderr, "wrote %d %s to %s\n", n, k.plural, t.file.path)
	}
	return nil
}

// noFileNote says that a failed export left its file as it was (a device or
// FIFO has had what was written before the failure).
func noFileNote(file *outputFile) string {
	if file == nil || file.inPlace() {
		return ""
	}
	return "; " + file.path + " was not written"
}

// stdoutWriter makes the errors of writing standard output local failures.
type stdoutWriter struct{ w io.Writer }

func (s stdoutWriter) Write(p []byte) (int, error) {
	n, err := s.w.Write(p)
	if err != nil {
		err = stdoutFailure(err)
	}
	return n, err
}

// recordWriter writes records in one format.
type recordWriter[T any] struct {
	rawJSON func(*T) []byte
	buf     *bufio.Writer
	csv     *csv.Writer
	table   *csvTable[T]
}

func newRecordWriter[T any](k *kind[T], format string, dst io.Writer, table *csvTable[T]) *recordWriter[T] {
	w := &recordWriter[T]{rawJSON: k.rawJSON, buf: bufio.NewWriterSize(dst, 64<<10), table: table}
	if format == "csv" {
		w.csv = csv.NewWriter(w.buf)
		_ = w.csv.Write(table.columns) // errors surface at flush
	}
	return w
}

func (w *recordWriter[T]) write(v *T) error {
	if w.csv == nil { // JSON Lines: the record as the server sent it, on one line
		var line bytes.Buffer
		if err := json.Compact(&line, w.rawJSON(v)); err != nil {
			return err
		}
		line.WriteByte('\n')
		_, err := w.buf.Write(line.Bytes())
		return err
	}
	for _, row := range w.table.rows(v) {
		if err := w.csv.Write(row); err != nil {
			return err
		}
	}
	return nil
}

func (w *recordWriter[T]) flush() error {
	if w.csv != nil {
		w.csv.Flush()
		if err := w.csv.Error(); err != nil {
			return err
		}
	}
	return w.buf.Flush()
}

// progress is a progress bar on stderr when stderr is a terminal, else
// nothing.
type progress struct{ bar *progressbar.ProgressBar }

// progress starts the bar, after one small List call that tells the total.
func (k *kind[T]) progress(ctx context.Context, a *app, c *ordermsg.Client, site int64, f *filters) *progress {
	if !a.isTerminal(a.stderr) {
		return &progress{}
	}
	probe := *f
	probe.page, probe.count = 0, 1
	total := int64(-1) // unknown: the bar still shows count and rate
	if page, err := k.res.List(ctx, c, site, probe.options()); err == nil {
		total = int64(page.Meta.Pagination.Total)
	}
	return &progress{bar: progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(a.stderr),
		progressbar.OptionSetDescription("exporting "+k.plural),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString(k.plural),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)}
}

func (p *progress) add() {
	if p.bar != nil {
		_ = p.bar.Add(1)
	}
}

// clear takes the bar off the terminal, for a line to be printed; the next
// add draws it again.
func (p *progress) clear() {
	if p.bar != nil {
		_ = p.bar.Clear()
	}
}

func (p *progress) stop() {
	if p.bar != nil {
		_ = p.bar.Exit()
		p.bar = nil
	}
}
