package main

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// datasetFiles lists every file of a website's dataset.
func datasetFiles(w *ordermsgtest.Website) []*ordermsg.File {
	var out []*ordermsg.File
	for _, o := range w.Orders {
		for _, it := range o.Items {
			for _, p := range it.PrintReadyFiles {
				if p.File != nil {
					out = append(out, p.File)
				}
			}
		}
	}
	for _, m := range w.Messages {
		if m.File.Expanded != nil {
			out = append(out, m.File.Expanded)
		}
	}
	return out
}

// messageFiles counts the messages of w that have a file.
func messageFiles(w *ordermsgtest.Website) int {
	n := 0
	for _, m := range w.Messages {
		if m.File.Expanded != nil {
			n++
		}
	}
	return n
}

// regularFiles lists the regular files under root, relative to it.
func regularFiles(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			rel, _ := filepath.Rel(root, p)
			out = append(out, rel)
		}
		return err
	})
	return out
}

func TestFilesDownloadHostileNamesStayInsideDir(t *testing.T) {
	srv, env := smallService(t)
	files := datasetFiles(srv.Handler.Dataset().Website(srv.WebsiteID))
	for i, f := range files {
		f.Filename = hostileNames[i%len(hostileNames)]
	}
	root := t.TempDir()
	out := filepath.Join(root, "deep", "out")
	_, stderr, code := cli{env: env}.run(context.Background(), "files", "download", "-o", out, "--concurrency", "3")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got := regularFiles(t, root)
	if len(got) != len(files) {
		t.Fatalf("%d files written for %d in the dataset:\n%s", len(got), len(files), strings.Join(got, "\n"))
	}
	for _, p := range got {
		if !strings.HasPrefix(p, filepath.Join("deep", "out", "orders")+string(filepath.Separator)) &&
			!strings.HasPrefix(p, filepath.Join("deep", "out", "messages")+string(filepath.Separator)) {
			t.Errorf("%s is outside DIR/orders and DIR/messages", p)
		}
	}
	if !strings.Contains(stderr, fmt.Sprintf("files: %d downloaded, 0 skipped, 0 failed", len(files))) {
		t.Errorf("summary: %s", stderr)
	}
}

func TestFilesDownloadLayoutContentAndSkip(t *testing.T) {
	srv, env := smallService(t)
	w := srv.Handler.Dataset().Website(srv.WebsiteID)
	out := t.TempDir()
	if _, stderr, code := (cli{env: env}).run(context.Background(), "files", "download", "-o", out); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	checked := 0
	for _, o := range w.Orders {
		for _, it := range o.Items {
			for _, p := range it.PrintReadyFiles {
				if p.File == nil {
					continue
				}
				got, err := os.ReadFile(filepath.Join(out, "orders", fmt.Sprint(o.ID), fmt.Sprint(it.ID), p.File.Filename))
				if err != nil || !bytes.Equal(got, srv.Handler.FileContent(p.File.ID)) {
					t.Fatalf("order %d item %d %s: %v", o.ID, it.ID, p.File.Filename, err)
				}
				checked++
			}
		}
	}
	for _, m := range w.Messages {
		if m.File.Expanded != nil {
			if _, err := os.Stat(filepath.Join(out, "messages", fmt.Sprint(m.ID), m.File.Expanded.Filename)); err != nil {
				t.Fatal(err)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("the dataset has no files")
	}
	before := srv.Handler.FileStats().Requests
	_, stderr, code := cli{env: env}.run(context.Background(), "files", "download", "-o", out)
	if code != exitOK || !strings.Contains(stderr, fmt.Sprintf("files: 0 downloaded, %d skipped, 0 failed", checked)) {
		t.Fatalf("exit %d, second run: %s", code, stderr)
	}
	if srv.Handler.FileStats().Requests != before {
		t.Fatal("the second run fetched files that were complete")
	}
}

func TestFilesDownloadRefreshesExpiredLinks(t *testing.T) {
	// Links handed out by the lists have expired already; re-reading a
	// record (a retrieve) gives a live one.
	var fresh atomic.Bool
	now := func() time.Time {
		if fresh.Load() {
			return time.Now()
		}
		return time.Now().Add(-3 * time.Hour)
	}
	h := ordermsgtest.NewHandler(ordermsgtest.Generate(ordermsgtest.Config{Seed: 42, Websites: 1, OrdersPerWebsite: 12, MessagesPerWebsite: 16}),
		ordermsgtest.WithFileLinks(ordermsgtest.FileLinks{TTL: time.Hour, Now: now}))
	var gets atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Count(strings.Trim(r.URL.Path, "/"), "/") == 3 && strings.HasPrefix(r.URL.Path, "/websites/") {
			fresh.Store(true)
			gets.Add(1)
		}
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	site := h.Dataset().Websites[0]
	env := map[string]string{envBaseURL: srv.URL, envAPIKey: site.APIKey, envWebsiteID: fmt.Sprint(site.ID)}
	files := len(datasetFiles(site))
	_, stderr, code := cli{env: env}.run(context.Background(), "files", "download", "-o", t.TempDir(), "--concurrency", "1")
	if code != exitOK || !strings.Contains(stderr, fmt.Sprintf("files: %d downloaded", files)) {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if gets.Load() == 0 || h.FileStats().Expired != 0 {
		t.Fatalf("%d re-reads, file stats %+v: want expired links refreshed before use", gets.Load(), h.FileStats())
	}
}

func TestFilesDownloadSendsNoKeyToAnotherOrigin(t *testing.T) {
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 42, Websites: 1, OrdersPerWebsite: 12, MessagesPerWebsite: 16}),
		ordermsgtest.WithFileLinks(ordermsgtest.FileLinks{SeparateOrigin: true}))
	defer srv.Close()
	env := map[string]string{envBaseURL: srv.URL, envAPIKey: srv.APIKey, envWebsiteID: fmt.Sprint(srv.WebsiteID)}
	if _, stderr, code := (cli{env: env}).run(context.Background(), "files", "download", "-o", t.TempDir()); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if st := srv.Handler.FileStats(); st.Requests == 0 || st.Authorized != 0 {
		t.Fatalf("file host stats %+v", st)
	}
}

func TestFilesDownloadDemo(t *testing.T) {
	out := t.TempDir()
	_, stderr, code := cli{}.run(context.Background(), "files", "download", "--demo", "-o", out, "--from", "messages", "--since", "2024-03-01")
	if code != exitOK || !strings.Contains(stderr, "files: ") || strings.Contains(stderr, " 0 downloaded") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "orders")); err == nil {
		t.Error("--from messages wrote order files")
	}
}

func TestFilesDownloadUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"files", "download", "--demo"},
		{"files", "download", "--demo", "-o", "x", "--from", "both"},
		{"files", "download", "--demo", "-o", "x", "--concurrency", "0"},
		{"files", "download", "--demo", "-o", "x", "--since", "yesterday"},
	} {
		if _, _, code := (cli{}).run(context.Background(), args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
}

func TestFilesDownloadInterruptedLeavesNoPartialFile(t *testing.T) {
	// A bare handler: its links take the origin of the request, the front's.
	h := ordermsgtest.NewHandler(ordermsgtest.Generate(ordermsgtest.Config{Seed: 42, Websites: 1, OrdersPerWebsite: 12, MessagesPerWebsite: 16}))
	site := h.Dataset().Websites[0]
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// A front that presses Ctrl-C while the third file is on its way.
	var files atomic.Int32
	front := http.NewServeMux()
	front.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/files/") && files.Add(1) == 3 {
			w.Header().Set("Content-Length", "100000")
			w.Write(make([]byte, 5000))
			w.(http.Flusher).Flush()
			cancel()
			<-r.Context().Done()
			return
		}
		h.ServeHTTP(w, r)
	})
	env := map[string]string{envBaseURL: newLoopback(t, front), envAPIKey: site.APIKey, envWebsiteID: fmt.Sprint(site.ID)}
	out := t.TempDir()
	_, stderr, code := cli{env: env}.run(ctx, "files", "download", "-o", out, "--concurrency", "1")
	if code != exitSignalBase+2 || !strings.Contains(stderr, "files: 2 downloaded") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	for _, p := range regularFiles(t, out) {
		if strings.HasPrefix(filepath.Base(p), ".") {
			t.Errorf("an interrupted download left %s", p)
		}
	}
	if n := len(regularFiles(t, out)); n != 2 {
		t.Errorf("%d files, want the 2 complete ones", n)
	}
}

func TestFilesDownloadProgressOnlyOnATerminal(t *testing.T) {
	_, env := smallService(t)
	_, stderr, _ := cli{env: env}.run(context.Background(), "files", "download", "-o", t.TempDir())
	if strings.Contains(stderr, "downloading") {
		t.Errorf("not a terminal, yet a progress bar: %q", stderr)
	}
	_, stderr, code := cli{env: env, terminal: true}.run(context.Background(), "files", "download", "-o", t.TempDir())
	if code != exitOK || !strings.Contains(stderr, "downloading") || !strings.Contains(stderr, "files: ") {
		t.Errorf("terminal: exit %d, stderr %q", code, stderr)
	}
}

// ordersWithAFile lists the orders of w whose first item's first entry has
// a file.
func ordersWithAFile(w *ordermsgtest.Website) []*ordermsg.Order {
	var out []*ordermsg.Order
	for _, o := range w.Orders {
		if len(o.Items) > 0 && len(o.Items[0].PrintReadyFiles) > 0 && o.Items[0].PrintReadyFiles[0].File != nil {
			out = append(out, o)
		}
	}
	return out
}

func TestFilesDownloadRepeatedIdsNeverShareAPath(t *testing.T) {
	// Each case makes the server list something of the first order with a
	// file twice, and returns the file of the repeat, not to be downloaded,
	// and what the report must say.
	cases := map[string]func(o, other *ordermsg.Order) (lost *ordermsg.File, why string){
		"an item twice in one order": func(o, other *ordermsg.Order) (*ordermsg.File, string) {
			// Another order's item under the same id, with a file of the
			// same name but other bytes.
			first, item := o.Items[0], other.Items[0]
			entry := item.PrintReadyFiles[0]
			f := *entry.File
			f.Filename = first.PrintReadyFiles[0].File.Filename
			entry.File = &f
			item.ID, item.PrintReadyFiles = first.ID, []ordermsg.PrintReadyFile{entry}
			o.Items = append(o.Items, item)
			return &f, fmt.Sprintf("item %d of order %d is listed twice", first.ID, o.ID)
		},
		"a file twice in one item": func(o, _ *ordermsg.Order) (*ordermsg.File, string) {
			it := &o.Items[0]
			it.PrintReadyFiles = append(it.PrintReadyFiles, it.PrintReadyFiles[0])
			f := it.PrintReadyFiles[0].File
			return f, fmt.Sprintf("file %d of item %d is listed twice", f.ID, it.ID)
		},
	}
	for name, repeat := range cases {
		t.Run(name, func(t *testing.T) {
			srv, env := smallService(t)
			w := srv.Handler.Dataset().Website(srv.WebsiteID)
			orders := ordersWithAFile(w)
			o := orders[0]
			listed := o.Items[0].PrintReadyFiles // the first listing
			lost, why := repeat(o, orders[1])
			out := t.TempDir()
			_, stderr, code := cli{env: env}.run(context.Background(), "files", "download", "-o", out, "--from", "orders", "--concurrency", "1")
			want := fmt.Sprintf("files: %d downloaded, 0 skipped, 1 failed", len(datasetFiles(w))-messageFiles(w)-1)
			if code != exitFailure || !strings.Contains(stderr, want) || !strings.Contains(stderr, fmt.Sprintf("file %d not downloaded: %s", lost.ID, why)) {
				t.Fatalf("exit %d, want %d, %q and the repeat reported:\n%s", code, exitFailure, want, stderr)
			}
			// The first listing's files are all there, each with its bytes.
			dir := filepath.Join(out, "orders", fmt.Sprint(o.ID), fmt.Sprint(o.Items[0].ID))
			var names []string
			var ids []int64
			for _, p := range listed {
				if p.File != nil {
					names, ids = append(names, p.File.Filename), append(ids, p.File.ID)
				}
			}
			if got := regularFiles(t, dir); len(got) != len(names) {
				t.Fatalf("%s holds %v, want the first listing's %d files", dir, got, len(names))
			}
			for i, name := range uniqueNames(names, ids) {
				if got, _ := os.ReadFile(filepath.Join(dir, name)); !bytes.Equal(got, srv.Handler.FileContent(ids[i])) {
					t.Errorf("%s does not hold file %d", name, ids[i])
				}
			}
		})
	}
}

func TestFilesDownloadRepeatedMessageIsReportedNotLost(t *testing.T) {
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 42, Websites: 1, OrdersPerWebsite: 1, MessagesPerWebsite: 250}))
	t.Cleanup(srv.Close)
	env := map[string]string{envBaseURL: srv.URL, envAPIKey: srv.APIKey, envWebsiteID: fmt.Sprint(srv.WebsiteID)}
	w := srv.Handler.Dataset().Website(srv.WebsiteID)
	var withFile []*ordermsg.Message
	newest := w.Messages[0].DateCreated.Time
	for _, m := range w.Messages {
		if m.File.Expanded != nil {
			withFile = append(withFile, m)
		}
		if m.DateCreated.After(newest) {
			newest = m.DateCreated.Time
		}
	}
	// A message again, newest of all so listed last (oldest first): pages
	// away from its first listing, past what the walk itself drops, with
	// another file of the same name.
	first, other := withFile[0], withFile[1]
	repeat := *first
	f := *other.File.Expanded
	f.Filename = first.File.Expanded.Filename
	repeat.File = ordermsg.Ref[ordermsg.File]{ID: f.ID, Expanded: &f}
	repeat.DateCreated.Time = newest.Add(time.Second)
	w.Messages = append(w.Messages, &repeat)
	out := t.TempDir()
	_, stderr, code := cli{env: env}.run(context.Background(), "files", "download", "-o", out, "--from", "messages", "--direction", "asc", "--concurrency", "1")
	want := fmt.Sprintf("files: %d downloaded, 0 skipped, 1 failed", len(withFile))
	report := fmt.Sprintf("file %d not downloaded: message %d is listed twice", f.ID, first.ID)
	if code != exitFailure || !strings.Contains(stderr, want) || !strings.Contains(stderr, report) {
		t.Fatalf("exit %d, want %d, %q and %q in:\n%s", code, exitFailure, want, report, stderr)
	}
	got, _ := os.ReadFile(filepath.Join(out, "messages", fmt.Sprint(first.ID), safeName(first.File.Expanded.Filename)))
	if !bytes.Equal(got, srv.Handler.FileContent(first.File.Expanded.ID)) {
		t.Fatal("the first listing's file is not what was downloaded")
	}
}

// datasetPaths lists where files download puts the files of w's records,
// relative to DIR.
func datasetPaths(w *ordermsgtest.Website) map[string]bool {
	out := map[string]bool{}
	for _, o := range w.Orders {
		for _, it := range o.Items {
			for _, p := range it.PrintReadyFiles {
				if p.File != nil {
					out[filepath.Join("orders", fmt.Sprint(o.ID), fmt.Sprint(it.ID), p.File.Filename)] = true
				}
			}
		}
	}
	for _, m := range w.Messages {
		if m.File.Expanded != nil {
			out[filepath.Join("messages", fmt.Sprint(m.ID), m.File.Expanded.Filename)] = true
		}
	}
	return out
}

// sameFiles fails t unless the regular files under out are want.
func sameFiles(t *testing.T, out string, want map[string]bool) {
	t.Helper()
	got := regularFiles(t, out)
	for _, p := range got {
		if !want[p] {
			t.Errorf("%s was downloaded, but is no file of the dataset", p)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d files in DIR, want %d", len(got), len(want))
	}
}

func TestFilesDownloadState(t *testing.T) {
	srv, env := smallService(t)
	w := srv.Handler.Dataset().Website(srv.WebsiteID)
	dir := t.TempDir()
	out, state := filepath.Join(dir, "out"), filepath.Join(dir, "files.state")
	run := func(args ...string) string {
		t.Helper()
		_, stderr, code := cli{env: env}.run(context.Background(), append([]string{"files", "download", "-o", out, "--state", state}, args...)...)
		if code != exitOK || !strings.Contains(stderr, "state in "+state) {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		return stderr
	}

	// The first run gets every file; failure entries are reported, and do
	// not hold the state back.
	stderr := run()
	if !strings.Contains(stderr, fmt.Sprintf("files: %d downloaded, 0 skipped, 0 failed", len(datasetFiles(w)))) ||
		strings.Contains(stderr, " 0 unavailable") {
		t.Fatalf("first run, want every file and the failure entries reported: %s", stderr)
	}
	sameFiles(t, out, datasetPaths(w))

	// Nothing new: no file is looked at, and one page of each list is read.
	api, files := srv.Handler.Stats().Requests, srv.Handler.FileStats().Requests
	if stderr := run(); !strings.Contains(stderr, "files: 0 downloaded, 0 skipped, 0 failed, 0 unavailable") {
		t.Errorf("nothing new: %s", stderr)
	}
	if n := srv.Handler.Stats().Requests - api; n > 2 || srv.Handler.FileStats().Requests != files {
		t.Errorf("nothing new, yet %d API requests and %d file requests", n, srv.Handler.FileStats().Requests-files)
	}

	// New orders (each with its message): exactly their files.
	before := datasetPaths(w)
	srv.AddOrders(6)
	after := datasetPaths(w)
	if len(after) == len(before) {
		t.Fatal("the new orders have no file")
	}
	if stderr := run(); !strings.Contains(stderr, fmt.Sprintf("files: %d downloaded, 0 skipped, 0 failed", len(after)-len(before))) {
		t.Errorf("after 6 new orders, want their %d files: %s", len(after)-len(before), stderr)
	}
	sameFiles(t, out, after)

	// --from walks and updates one resource's checkpoint only.
	srv.AddMessages(4)
	srv.AddOrders(4)
	newMessages := 0
	for p := range datasetPaths(w) {
		if !after[p] && strings.HasPrefix(p, "messages") {
			newMessages++
		}
	}
	if stderr := run("--from", "messages"); !strings.Contains(stderr, fmt.Sprintf("files: %d downloaded, 0 skipped", newMessages)) {
		t.Errorf("--from messages, want the %d files of new messages: %s", newMessages, stderr)
	}
	run("--from", "orders")
	sameFiles(t, out, datasetPaths(w))
}

func TestFilesDownloadStateUntouchedUntilEveryFileIsIn(t *testing.T) {
	for _, interrupt := range []bool{false, true} {
		t.Run(fmt.Sprint("interrupt=", interrupt), func(t *testing.T) {
			// A bare handler: its links take the origin of the request, the front's.
			h := ordermsgtest.NewHandler(ordermsgtest.Generate(ordermsgtest.Config{Seed: 42, Websites: 1, OrdersPerWebsite: 12, MessagesPerWebsite: 16}))
			site := h.Dataset().Websites[0]
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var refused atomic.Value // the path prefix of the file refused, "" for none
			refused.Store("")
			front := http.NewServeMux()
			front.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
				if p := refused.Load().(string); p != "" && strings.HasPrefix(r.URL.Path, p) {
					if interrupt {
						cancel()
					}
					http.NotFound(w, r)
					return
				}
				h.ServeHTTP(w, r)
			})
			env := map[string]string{envBaseURL: newLoopback(t, front), envAPIKey: site.APIKey, envWebsiteID: fmt.Sprint(site.ID)}
			dir := t.TempDir()
			out, state := filepath.Join(dir, "out"), filepath.Join(dir, "files.state")
			args := []string{"files", "download", "-o", out, "--state", state, "--concurrency", "1"}
			if _, stderr, code := (cli{env: env}).run(context.Background(), args...); code != exitOK {
				t.Fatalf("first run: exit %d: %s", code, stderr)
			}
			saved, err := os.ReadFile(state)
			if err != nil {
				t.Fatal(err)
			}

			// New orders, and the file host refuses one of their files.
			before := datasetPaths(site)
			var lost *ordermsg.File
			for _, o := range h.AddOrders(site.ID, 6) {
				for _, it := range o.Items {
					for _, p := range it.PrintReadyFiles {
						if lost == nil && p.File != nil {
							lost = p.File
						}
					}
				}
			}
			if lost == nil {
				t.Fatal("the new orders have no file")
			}
			refused.Store(fmt.Sprintf("/files/%d/", lost.ID))
			added := len(datasetPaths(site)) - len(before)
			_, stderr, code := cli{env: env}.run(ctx, args...)
			wantCode := exitFailure
			if interrupt {
				wantCode = exitSignalBase + 2
			}
			if code != wantCode || !strings.Contains(stderr, state+" not updated") {
				t.Fatalf("exit %d, want %d and the state kept: %s", code, wantCode, stderr)
			}
			if got, _ := os.ReadFile(state); !bytes.Equal(got, saved) {
				t.Fatalf("the state changed: %s -> %s", saved, got)
			}

			// The next run gets the same records again: their files that
			// are in place are skipped, the others downloaded.
			refused.Store("")
			_, stderr, code = cli{env: env}.run(context.Background(), args...)
			var downloaded, skipped int
			summary := stderr[strings.Index(stderr, "files: "):]
			if _, err := fmt.Sscanf(summary, "files: %d downloaded, %d skipped, 0 failed", &downloaded, &skipped); err != nil ||
				code != exitOK || downloaded+skipped != added || (!interrupt && downloaded != 1) {
				t.Fatalf("exit %d, want the batch's %d files downloaded or skipped (1 downloaded after a failure): %s", code, added, stderr)
			}
			sameFiles(t, out, datasetPaths(site))
			if got, _ := os.ReadFile(state); bytes.Equal(got, saved) {
				t.Error("a complete run left the state as it was")
			}
		})
	}
}

func TestFilesDownloadStateUsageErrors(t *testing.T) {
	_, env := smallService(t)
	dir := t.TempDir()
	exported := filepath.Join(dir, "orders.state")
	if _, stderr, code := (cli{env: env}).run(context.Background(), "orders", "export", "--state", exported, "-o", filepath.Join(dir, "o.jsonl")); code != exitOK {
		t.Fatalf("export: exit %d: %s", code, stderr)
	}
	saved, _ := os.ReadFile(exported)
	for _, args := range [][]string{
		{"--since", "2024-01-01"},
		{"--until", "2024-01-01"},
		{"--sort", "date_created"},
		{"--direction", "asc"},
	} {
		args = append([]string{"files", "download", "--demo", "-o", filepath.Join(dir, "x"), "--state", filepath.Join(dir, "x.state")}, args...)
		if _, stderr, code := (cli{}).run(context.Background(), args...); code != exitUsage || !strings.Contains(stderr, "does not go with --state") {
			t.Errorf("%v: exit %d, want %d: %s", args, code, exitUsage, stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x")); err == nil {
		t.Error("a usage error made DIR")
	}
	// The state of orders export is not the state of files download.
	_, stderr, code := cli{env: env}.run(context.Background(), "files", "download", "-o", filepath.Join(dir, "y"), "--state", exported)
	if code != exitUsage || !strings.Contains(stderr, "not of the files") {
		t.Errorf("the state of orders export: exit %d: %s", code, stderr)
	}
	if got, _ := os.ReadFile(exported); !bytes.Equal(got, saved) {
		t.Errorf("the export's state changed: %s -> %s", saved, got)
	}
}

// A run names the first few print-ready entries with no file and sums up
// the rest, so that a rerun, which finds the same ones again, says what it
// did in a few lines; -v names each one.
func TestFilesDownloadRerunSumsUpUnavailableFiles(t *testing.T) {
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 42, Websites: 1, OrdersPerWebsite: 60}))
	t.Cleanup(srv.Close)
	env := map[string]string{envBaseURL: srv.URL, envAPIKey: srv.APIKey, envWebsiteID: fmt.Sprint(srv.WebsiteID)}
	w := srv.Handler.Dataset().Website(srv.WebsiteID)
	files, noFile := len(datasetFiles(w)), 0
	for _, o := range w.Orders {
		for _, it := range o.Items {
			for _, p := range it.PrintReadyFiles {
				if p.File == nil {
					noFile++
				}
			}
		}
	}
	if noFile <= unavailableNamed+1 {
		t.Fatalf("the dataset has %d entries with no file; the test needs more", noFile)
	}
	out := t.TempDir()
	named := func(stderr string) int { return strings.Count(stderr, ": no file to download: ") }
	summed := fmt.Sprintf("… and %d more print-ready files with no file to download (-v names each one)\n", noFile-unavailableNamed)
	for i, want := range []string{
		fmt.Sprintf("files: %d downloaded, 0 skipped, 0 failed, %d unavailable,", files, noFile),
		fmt.Sprintf("files: 0 downloaded, %d skipped, 0 failed, %d unavailable, 0 bytes\n", files, noFile),
	} {
		_, stderr, code := cli{env: env}.run(context.Background(), "files", "download", "-o", out)
		if code != exitOK || named(stderr) != unavailableNamed || !strings.Contains(stderr, summed) || !strings.Contains(stderr, want) {
			t.Fatalf("run %d: exit %d, %d entries named:\n%s", i+1, code, named(stderr), stderr)
		}
		if lines := strings.Count(stderr, "\n"); lines != unavailableNamed+2 {
			t.Errorf("run %d: %d lines, want %d named, the sum and the tally:\n%s", i+1, lines, unavailableNamed, stderr)
		}
	}
	_, stderr, code := cli{env: env}.run(context.Background(), "files", "download", "-o", out, "-v")
	if code != exitOK || named(stderr) != noFile || strings.Contains(stderr, "more print-ready files") {
		t.Fatalf("-v: exit %d, %d of %d entries named:\n%s", code, named(stderr), noFile, stderr)
	}
}

// The --since examples of files download (its --help, the README's lines)
// pick records of the demo's data, so that they show files arriving.
func TestFilesDownloadSinceExamplesMatchTheDemo(t *testing.T) {
	var lines []string
	for _, line := range strings.Split(readmeText(t), "\n") {
		if line, ok := strings.CutPrefix(strings.TrimSpace(line), "go run ./cmd/"); ok {
			lines = append(lines, line)
		}
	}
	root := (&app{getenv: func(string) string { return "" }}).rootCommand()
	for _, path := range [][]string{{"files"}, {"files", "download"}} {
		cmd, _, err := root.Find(path)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, strings.Split(cmd.Example, "\n")...)
	}
	demo := ordermsgtest.NewServer(nil) // the demo's data
	t.Cleanup(demo.Close)
	credentials := map[string]string{envBaseURL: demo.URL, envAPIKey: demo.APIKey, envWebsiteID: fmt.Sprint(demo.WebsiteID)}
	checked := 0
	for _, line := range lines {
		command, _, _ := strings.Cut(line, "#")
		args := strings.Fields(command)
		if len(args) < 3 || args[0] != "ordermsg" || args[1] != "files" || !strings.Contains(command, "--since") {
			continue
		}
		args = args[1:]
		for i := range args {
			if args[i] == "-o" {
				args[i+1] = t.TempDir()
			}
		}
		_, stderr, code := cli{env: credentials}.run(context.Background(), args...)
		if code != exitOK || !strings.Contains(stderr, "files: ") || strings.Contains(stderr, "files: 0 downloaded") {
			t.Errorf("%s: exit %d, %s", line, code, stderr)
		}
		checked++
	}
	if checked < 3 {
		t.Fatalf("found %d --since examples, want the README's and the two of --help", checked)
	}
}
