package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/internal/secretmask"
	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
)

func (a *app) filesCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:     "files",
		Short:   "Download the files of orders and messages",
		Example: "  ordermsg files download -o hotfolder --since 2024-03-01 --demo",
	}
	cmd.AddCommand(a.filesDownloadCommand())
	return cmd
}

// downloadFlags are the flags of files download.
type downloadFlags struct {
	dir         string
	from        string
	concurrency int
	maxBytes    int64
	orders      filters
	messageType string
	state       string // --state FILE, "" without
}

// filesState is the file of files download --state: its owner (resource
// "files") and, for orders and for messages, the checkpoint of the last run
// that got every file of the records it walked.
type filesState struct {
	stateOwner
	Orders   ordermsg.Checkpoint `json:"orders"`
	Messages ordermsg.Checkpoint `json:"messages"`
}

func (a *app) filesDownloadCommand() *cobra.Command {
	var fl downloadFlags
	cmd := &cobra.Command{
		Use:   "download -o DIR",
		Short: "Download print-ready files of orders and files of messages into DIR",
		Long: `Download the print-ready files of every matching order and the file of every
matching message:

  DIR/orders/<order_id>/<item_id>/<filename>
  DIR/messages/<message_id>/<filename>

A file already in place is skipped: files are written under a temporary name
and renamed only when complete, so one that is there is whole. Inside DIR the
command follows no symlink: a symlink, FIFO or other non-regular file where
one of its directories or files goes is left alone, and that file counts as
failed (DIR itself may be a symlink). A link that has expired (or that the
file host refuses with 403) is refreshed by reading its order or message
again. Print-ready files whose status is not success (failure, with no
file) are counted as unavailable, not fetched: the first 3 are named, the
rest summed up in one line (-v names each one), since every run finds the
same ones again.
On a terminal a progress bar in bytes shows on stderr; the run ends with one
line: downloaded, skipped (already in place), failed, unavailable, bytes.

File names come from the server and are made safe: invalid UTF-8, control and
other unprintable characters, / \ < > : " | ? * and ~ become _; leading and
trailing dots and spaces go (no ".", "..", or hidden names); an empty name
becomes "file"; names are cut to 180 bytes, keeping the extension; then
Windows device names (CON, nul.txt, COM1, COM¹, in any case or width) get a
leading _. When one directory gets several files, a name equal to another
but for case, and any name outside ASCII, carries ~<file id> before its
extension. Nothing is written outside DIR and no file overwrites another.
A directory is filled from the first listing of its item or message only:
when the server repeats an id (an item in an order, a message, a file in one
item), the repeat's files are not downloaded but reported and counted as
failed, never lost unnoticed.

The filters are those of orders export and messages export (--status for
orders, --type for messages).

With --state FILE, only the files of the records created since the last run
with the same FILE are downloaded (all of them the first time), oldest record
first. FILE keeps, for one website, how far its orders and its messages have
been gone through; --from says which of the two a run walks and updates.
FILE is updated (written whole under a temporary name, then renamed) only
when the run ends with every file downloaded or skipped. If a file or a
listing failed, or the run was interrupted, FILE is left as it was: the next
run goes through the same records again and skips the files already
complete. A print-ready entry whose status is failure (no file) does not hold
FILE back: it is reported and counted as unavailable, and later runs with
FILE do not read its order again; to get its file once the server has it, run
without --state (with --since the order's date). --since, --until, --sort and
--direction do not go with --state.

Exit codes: 0 all downloaded or skipped, 1 some file or request failed,
2 usage error, 3 DIR could not be made (or the --state FILE read or
written), 130 interrupted, 143 terminated.`,
		Example: "  ordermsg files download -o hotfolder --demo\n" +
			"  ordermsg files download -o hotfolder --from orders --since 2024-03-01 --concurrency 8 --demo\n" +
			"  ordermsg files download -o hotfolder --state hotfolder.state --demo",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if fl.dir == "" {
				return usagef("-o DIR is required")
			}
			if fl.from != "orders" && fl.from != "messages" && fl.from != "all" {
				return usagef("--from %q: want orders, messages or all", fl.from)
			}
			if fl.concurrency < 1 {
				return usagef("--concurrency %d: want 1 or more", fl.concurrency)
			}
			if fl.maxBytes < 0 {
				return usagef("--max-bytes %d: want 0 (the default cap) or more", fl.maxBytes)
			}
			if _, _, err := fl.orders.dates(); err != nil {
				return err
			}
			var state *filesState // nil without --state
			if fl.state != "" {
				if err := refuseWithState(cmd, "since", "until", "sort", "direction"); err != nil {
					return err
				}
				s, err := readState[filesState](fl.state)
				if err != nil {
					return &localFailure{err}
				}
				state = &s
			}
			c, site, closeFn, err := a.connect()
			if err != nil {
				return err
			}
			defer closeFn()
			if state != nil {
				if err := state.claim(fl.state, site, "files"); err != nil {
					return err
				}
			}
			out, err := openOutDir(fl.dir)
			if err != nil {
				return &localFailure{err}
			}
			defer out.Close()
			return a.downloadFiles(cmd.Context(), c, site, &fl, out, state)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&fl.dir, "output", "o", "", "directory to download into (created if missing)")
	f.StringVar(&fl.from, "from", "all", "whose files: orders, messages or all")
	f.IntVar(&fl.concurrency, "concurrency", 4, "files downloaded at once")
	f.Int64Var(&fl.maxBytes, "max-bytes", 0, "largest file accepted, in bytes (0: the SDK's default, 4 GiB)")
	f.StringVar(&fl.orders.since, "since", "", "only records created after this date (YYYY-MM-DD)")
	f.StringVar(&fl.orders.until, "until", "", "only records created before this date (YYYY-MM-DD)")
	f.StringVar(&fl.orders.only, "status", "", "only orders with this status (observed: new)")
	f.StringVar(&fl.messageType, "type", "", "only messages of this type (observed: online_order, event_management, general_contact)")
	f.StringVar(&fl.orders.search, "search", "", "search string")
	f.StringVar(&fl.orders.sort, "sort", "", "field to sort by")
	f.StringVar(&fl.orders.direction, "direction", "", "asc or desc (the values the SDK assumes)")
	f.StringVar(&fl.state, "state", "", "download only the files of records created since the state in this file, then update it")
	return cmd
}

// fileJob is one file to fetch, with what is needed to refresh its link.
type fileJob struct {
	file    *ordermsg.File
	path    string // relative to DIR
	orderID int64  // 0 for a message's file
	itemID  int64
	entryID int64 // the print-ready file's id
	message int64 // the message's id, for a message's file
}

// unavailableNamed is how many entries with no file a run names one by one
// without -v; the others are summed up in one line at its end. They are the
// server's doing, and every run (a rerun too) finds the same ones again.
const unavailableNamed = 3

// tally counts the outcome of a run.
type tally struct {
	downloaded, skipped, failed, unavailable atomic.Int64
	bytes                                    atomic.Int64
}

func (t *tally) String() string {
	return fmt.Sprintf("%d downloaded, %d skipped, %d failed, %d unavailable, %d bytes",
		t.downloaded.Load(), t.skipped.Load(), t.failed.Load(), t.unavailable.Load(), t.bytes.Load())
}

// downloadFiles walks the records and downloads their files into out with
// fl.concurrency workers. With a state (--state), it walks the records
// created since the state's checkpoints, and writes the advanced state to
// fl.state when every file is downloaded or skipped.
func (a *app) downloadFiles(ctx context.Context, c *ordermsg.Client, site int64, fl *downloadFlags, out *outDir, state *filesState) error {
	var t tally
	bar := newByteBar(a)
	jobs := make(chan fileJob)
	// A file's line may hold a server's message, which may quote the key.
	mask := secretmask.New(keySecrets(a.apiKey)...)
	report := func(format string, args ...any) { bar.printf("%s", mask.Text(fmt.Sprintf(format, args...))) }
	unavailable := func(format string, args ...any) {
		if n := t.unavailable.Add(1); a.verbose || n <= unavailableNamed {
			report(format, args...)
		}
	}
	var wg sync.WaitGroup
	for range fl.concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				a.fetch(ctx, c, site, fl, out, j, &t, bar, report)
			}
		}()
	}
	walkErr := walkFiles(ctx, c, site, fl, state, jobs, &t, report, unavailable)
	close(jobs)
	wg.Wait()
	bar.stop()
	if n := t.unavailable.Load(); !a.verbose && n > unavailableNamed {
		bar.printf("… and %d more print-ready files with no file to download (-v names each one)", n-unavailableNamed)
	}
	bar.printf("files: %s", &t)
	kept := "" // what became of the state
	if state != nil {
		kept = fmt.Sprintf("; %s not updated: the next run goes through these records again", fl.state)
	}
	switch {
	case ctx.Err() != nil:
		return &stopped{"after " + t.String() + kept}
	case walkErr != nil:
		return &apiFailure{fmt.Errorf("%w%s", walkErr, kept)}
	case t.failed.Load() > 0:
		return &apiFailure{fmt.Errorf("%d files failed%s", t.failed.Load(), kept)}
	case state == nil:
		return nil
	}
	if err := writeState(ctx, fl.state, state); err != nil {
		return &localFailure{fmt.Errorf("the files are in place, but %s was not updated (the next run goes through these records again): %w", fl.state, err)}
	}
	fmt.Fprintf(a.stderr, "state in %s\n", fl.state)
	return nil
}

// walkFiles sends a job for every file of the matching records: all of
// them, or with a state those created since its checkpoints, which it
// advances. It reports a print-ready entry with no file to unavailable,
// which counts it.
func walkFiles(ctx context.Context, c *ordermsg.Client, site int64, fl *downloadFlags, state *filesState, jobs chan<- fileJob, t *tally,
	report, unavailable func(string, ...any)) error {
	claimed := map[string]bool{} // the directories under DIR that a record has filled
	send := func(j fileJob) bool {
		select {
		case jobs <- j:
			return true
		case <-ctx.Done():
			return false
		}
	}
	if fl.from != "messages" {
		opts := fl.orders.options()
		opts.Count = 100
		opts.Includes = []string{string(ordermsg.OrderIncludeItemsPrintReadyFiles)}
		opts.KeepRawJSON = false // only the links are needed
		orders := ordersKind.res.All(ctx, c, site, opts)
		if state != nil {
			orders = ordersKind.res.Sync(ctx, c, site, &state.Orders, opts)
		}
		if err := sendJobs(orders, "orders", send, func(o *ordermsg.Order) []fileJob { return orderJobs(o, claimed, t, report, unavailable) }); err != nil {
			return err
		}
	}
	if fl.from != "orders" {
		mf := fl.orders
		mf.only = fl.messageType
		opts := mf.options()
		opts.Count = 100
		opts.Includes = []string{string(ordermsg.MessageIncludeFile)}
		opts.KeepRawJSON = false // only the links are needed
		messages := messagesKind.res.All(ctx, c, site, opts)
		if state != nil {
			messages = messagesKind.res.Sync(ctx, c, site, &state.Messages, opts)
		}
		return sendJobs(messages, "messages", send, func(m *ordermsg.Message) []fileJob { return messageJobs(m, claimed, t, report) })
	}
	return nil
}

// sendJobs sends the jobs of every record; it stops early, with no error,
// when send says the run is over.
func sendJobs[T any](records iter.Seq2[*T, error], plural string, send func(fileJob) bool, jobs func(*T) []fileJob) error {
	for r, err := range records {
		if err != nil {
			return fmt.Errorf("listing %s: %w", plural, err)
		}
		for _, j := range jobs(r) {
			if !send(j) {
				return nil
			}
		}
	}
	return nil
}

// messageJobs is the job of a message's file, if it has one and the
// message was not listed before.
func messageJobs(m *ordermsg.Message, claimed map[string]bool, t *tally, report func(string, ...any)) []fileJob {
	f := m.File.Expanded
	if f == nil {
		return nil
	}
	dir := filepath.Join("messages", strconv.FormatInt(m.ID, 10))
	if claimed[dir] {
		repeated(t, report, filepath.Join(dir, safeName(f.Filename)), f.ID, fmt.Sprintf("message %d", m.ID))
		return nil
	}
	claimed[dir] = true
	return []fileJob{{file: f, message: m.ID, path: filepath.Join(dir, safeName(f.Filename))}}
}

// orderJobs lists the files of an order's versadoc items, and reports the
// entries that have none to unavailable. An item's directory is filled once per run
// (claimed): the files of an item whose directory another listing of it has
// filled, and a file listed twice in one item, are reported and counted as
// failed.
func orderJobs(o *ordermsg.Order, claimed map[string]bool, t *tally, report, unavailable func(string, ...any)) []fileJob {
	var out []fileJob
	for _, it := range o.Items {
		dir := filepath.Join("orders", strconv.FormatInt(o.ID, 10), strconv.FormatInt(it.ID, 10))
		var files []*ordermsg.File
		var entries []int64
		listed := map[int64]bool{}
		for _, p := range it.PrintReadyFiles {
			f, err := p.Downloadable()
			switch {
			case err != nil:
				unavailable("order %d item %d: %v; not downloaded", o.ID, it.ID, err)
				continue
			case claimed[dir]:
				repeated(t, report, filepath.Join(dir, safeName(f.Filename)), f.ID, fmt.Sprintf("item %d of order %d", it.ID, o.ID))
				continue
			case listed[f.ID]:
				repeated(t, report, filepath.Join(dir, safeName(f.Filename)), f.ID, fmt.Sprintf("file %d of item %d", f.ID, it.ID))
				continue
			}
			listed[f.ID] = true
			files = append(files, f)
			entries = append(entries, p.ID)
		}
		if len(files) > 0 {
			claimed[dir] = true
		}
		names := make([]string, len(files))
		ids := make([]int64, len(files))
		for i, f := range files {
			names[i], ids[i] = f.Filename, f.ID
		}
		for i, name := range uniqueNames(names, ids) {
			out = append(out, fileJob{file: files[i], path: filepath.Join(dir, name), orderID: o.ID, itemID: it.ID, entryID: entries[i]})
		}
	}
	return out
}

// repeated counts as failed, and reports, a file not downloaded because the
// server listed what (the record that holds it, or the file) twice.
func repeated(t *tally, report func(string, ...any), path string, fileID int64, what string) {
	t.failed.Add(1)
	report("%s: file %d not downloaded: %s is listed twice by the server; only its first listing is downloaded", path, fileID, what)
}

// fetch downloads one file unless it is in place, refreshing its link once
// when it has expired or is refused.
func (a *app) fetch(ctx context.Context, c *ordermsg.Client, site int64, fl *downloadFlags, out *outDir, j fileJob, t *tally,
	bar *byteBar, report func(string, ...any)) {
	if !filepath.IsLocal(j.path) {
		t.failed.Add(1)
		report("%s: refused: not inside the output directory", j.path)
		return
	}
	complete, err := out.prepare(j.path)
	switch {
	case err != nil:
		t.failed.Add(1)
		report("%s: %v", j.path, err)
		return
	case complete:
		t.skipped.Add(1)
		return
	}
	opts := &ordermsg.DownloadOptions{MaxBytes: fl.maxBytes, Progress: bar.add}
	n, err := out.write(ctx, c, j.file, j.path, opts)
	if errors.Is(err, ordermsg.ErrLinkExpired) || errors.Is(err, ordermsg.ErrForbidden) {
		var fresh *ordermsg.File
		if fresh, err = refresh(ctx, c, site, j); err == nil {
			n, err = out.write(ctx, c, fresh, j.path, opts)
		}
	}
	switch {
	case err == nil:
		t.downloaded.Add(1)
		t.bytes.Add(n)
	case ctx.Err() == nil:
		t.failed.Add(1)
		report("%s: %v", j.path, err)
	}
}

// refresh reads a file's record again for a fresh link.
func refresh(ctx context.Context, c *ordermsg.Client, site int64, j fileJob) (*ordermsg.File, error) {
	if j.orderID == 0 {
		m, err := c.Messages.Get(ctx, site, j.message, &ordermsg.GetMessageOptions{Includes: []ordermsg.MessageInclude{ordermsg.MessageIncludeFile}})
		if err != nil {
			return nil, fmt.Errorf("refreshing the link: %w", err)
		}
		if m.File.Expanded == nil || m.File.Expanded.ID != j.file.ID {
			return nil, fmt.Errorf("refreshing the link: message %d no longer has file %d", j.message, j.file.ID)
		}
		return m.File.Expanded, nil
	}
	o, err := c.Orders.Get(ctx, site, j.orderID, &ordermsg.GetOrderOptions{Includes: []ordermsg.OrderInclude{ordermsg.OrderIncludeItemsPrintReadyFiles}})
	if err != nil {
		return nil, fmt.Errorf("refreshing the link: %w", err)
	}
	for _, it := range o.Items {
		for _, p := range it.PrintReadyFiles {
			if it.ID == j.itemID && p.ID == j.entryID && p.File != nil && p.File.ID == j.file.ID {
				return p.File, nil
			}
		}
	}
	return nil, fmt.Errorf("refreshing the link: order %d item %d no longer has file %d", j.orderID, j.itemID, j.file.ID)
}

// byteBar is a progress bar in bytes on stderr when it is a terminal (the
// total is not known ahead: the API gives no sizes), and the one writer of
// stderr lines while it runs. The workers share it. The bar renders from a
// goroutine of its own as well, so every write to stderr goes through one
// lock.
type byteBar struct {
	mu     sync.Mutex // held to add to, clear or write above the bar
	bar    *progressbar.ProgressBar
	stderr *lockedWriter
}

// lockedWriter serializes writes to w.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func newByteBar(a *app) *byteBar {
	b := &byteBar{stderr: &lockedWriter{w: a.stderr}}
	if a.isTerminal(a.stderr) {
		b.bar = progressbar.NewOptions64(-1,
			progressbar.OptionSetWriter(b.stderr),
			progressbar.OptionSetDescription("downloading"),
			progressbar.OptionShowBytes(true),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish(),
			// Started (drawn blank) before its spinner's goroutine is: that
			// goroutine reads the start time without the bar's lock, so a
			// first Add that set it would race with it.
			progressbar.OptionSetRenderBlankState(true),
		)
	}
	return b
}

func (b *byteBar) add(n int) {
	if b.bar != nil {
		b.mu.Lock() // Clear reads the bar's state without its own lock
		_ = b.bar.Add(n)
		b.mu.Unlock()
	}
}

// printf writes a line to stderr above the bar.
func (b *byteBar) printf(format string, args ...any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.bar != nil {
		_ = b.bar.Clear()
	}
	fmt.Fprintf(b.stderr, format+"\n", args...)
}

// stop finishes the bar, which also ends its rendering goroutine.
func (b *byteBar) stop() {
	if b.bar != nil {
		b.mu.Lock()
		_ = b.bar.Finish()
		b.mu.Unlock()
	}
}
