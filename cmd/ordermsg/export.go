package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
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
	)
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Write every " + k.singular + " as JSON Lines or CSV",
		Long: fmt.Sprintf(`Walk every page of the website's %[1]s and write each one, as JSON Lines
(one object per line, the default) or as CSV (--format csv).

With -o FILE the output goes to a temporary file beside FILE, renamed to FILE
only when the export is complete: an export that fails or is interrupted
leaves no file that looks finished. On a terminal, a progress bar shows on
stderr.`, k.plural),
		Example: fmt.Sprintf("  ordermsg %[1]s export -o %[1]s.jsonl\n  ordermsg %[1]s export --format csv --since 2024-01-01 -o %[1]s.csv --demo",
			k.plural),
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if format != "jsonl" && format != "csv" {
				return fmt.Errorf("--format %q: want jsonl or csv", format)
			}
			if items && (k.itemTable == nil || format != "csv") {
				return fmt.Errorf("--items goes with orders export --format csv")
			}
			if _, _, err := f.dates(); err != nil {
				return err
			}
			if concurrency < 1 {
				return fmt.Errorf("--concurrency %d: want 1 or more", concurrency)
			}
			table := k.table
			if items {
				table = k.itemTable
			}
			if format == "csv" && len(k.csvIncludes) > 0 && !hasItemsInclude(f.includes) {
				f.includes = append(f.includes, k.csvIncludes...)
			}
			c, site, closeFn, err := a.connect(cmd)
			if err != nil {
				return err
			}
			defer closeFn()
			return k.export(cmd.Context(), a, c, site, &f, exportTarget[T]{format: format, output: output, table: table, concurrency: concurrency})
		},
	}
	k.filterFlags(cmd, &f)
	fl := cmd.Flags()
	fl.IntVar(&f.count, "count", 100, "page size of the requests")
	fl.StringVar(&format, "format", "jsonl", "jsonl or csv")
	fl.StringVarP(&output, "output", "o", "", "write to this file (default: standard output)")
	fl.IntVar(&concurrency, "concurrency", 4, "pages fetched at once")
	if k.itemTable != nil {
		fl.BoolVar(&items, "items", false, "with --format csv: one row per order item instead of per order")
	}
	return cmd
}

func hasItemsInclude(includes []string) bool {
	for _, inc := range includes {
		if strings.HasPrefix(inc, "items.") {
			return true
		}
	}
	return false
}

type exportTarget[T any] struct {
	format, output string
	table          *csvTable[T]
	concurrency    int
}

func (k *kind[T]) export(ctx context.Context, a *app, c *ordermsg.Client, site int64, f *filters, t exportTarget[T]) error {
	var dst io.Writer = a.stdout
	var file *atomicFile
	if t.output != "" {
		var err error
		if file, err = createAtomic(t.output); err != nil {
			return err
		}
		defer file.discard() // a no-op once committed
		dst = file
	}
	w := newRecordWriter(t.format, dst, t.table)
	bar := k.progress(ctx, a, c, site, f)

	n := 0
	for v, err := range k.all(ctx, c, site, f, ordermsg.WithConcurrency(t.concurrency)) {
		if err != nil {
			bar.stop()
			if ctx.Err() != nil {
				fmt.Fprintf(a.stderr, "interrupted after %d %s%s\n", n, k.plural, noFileNote(t.output))
				return errInterrupted
			}
			return &apiFailure{fmt.Errorf("after %d %s%s: %w", n, k.plural, noFileNote(t.output), err)}
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
	if file != nil {
		if err := file.commit(); err != nil {
			return err
		}
		fmt.Fprintf(a.stderr, "wrote %d %s to %s\n", n, k.plural, t.output)
	}
	return nil
}

func noFileNote(output string) string {
	if output == "" {
		return ""
	}
	return "; " + output + " was not written"
}

// recordWriter writes records in one format.
type recordWriter[T any] struct {
	buf   *bufio.Writer
	csv   *csv.Writer
	table *csvTable[T]
}

func newRecordWriter[T any](format string, dst io.Writer, table *csvTable[T]) *recordWriter[T] {
	w := &recordWriter[T]{buf: bufio.NewWriterSize(dst, 64<<10), table: table}
	if format == "csv" {
		w.csv = csv.NewWriter(w.buf)
		_ = w.csv.Write(table.columns) // errors surface at flush
	}
	return w
}

func (w *recordWriter[T]) write(v *T) error {
	if w.csv == nil { // JSON Lines: the record as the server sent it, on one line
		var line bytes.Buffer
		if err := json.Compact(&line, rawJSON(v)); err != nil {
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

// atomicFile is an output file written under a temporary name in the same
// directory and renamed to its own only when complete.
type atomicFile struct {
	*os.File
	path string
	done bool
}

func createAtomic(path string) (*atomicFile, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".partial-*")
	if err != nil {
		return nil, err
	}
	return &atomicFile{File: f, path: path}, nil
}

func (f *atomicFile) commit() error {
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(f.Name(), f.path); err != nil {
		return err
	}
	f.done = true
	return nil
}

// discard removes the temporary file unless commit has renamed it.
func (f *atomicFile) discard() {
	if f.done {
		return
	}
	f.Close()
	os.Remove(f.Name())
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
	if page, err := k.list(ctx, c, site, &probe); err == nil {
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

func (p *progress) stop() {
	if p.bar != nil {
		_ = p.bar.Exit()
		p.bar = nil
	}
}
