package mirror_test

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// exportJSONLines writes every record of the website, read as the mirror
// reads them (Sync from a zero checkpoint, the same includes, the same page
// size, the orders and the messages at once as the mirror reads them), to a
// JSON Lines file: the peer of a full mirror run.
func exportJSONLines(b *testing.B, c *ordermsg.Client, site int64, path string, count int) int {
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	var mu sync.Mutex
	n := 0
	write := func(raw []byte, err error) {
		if err != nil {
			b.Error(err)
			return
		}
		mu.Lock()
		defer mu.Unlock()
		w.Write(raw)
		w.WriteByte('\n')
		n++
	}
	ctx := context.Background()
	var wg sync.WaitGroup
	wg.Go(func() {
		var mcp ordermsg.Checkpoint
		for m, err := range c.Messages.Sync(ctx, site, &mcp, &ordermsg.ListMessagesOptions{Count: count, Includes: mirror.MessageIncludes(), KeepRawJSON: true}) {
			write(rawOf(m, err))
		}
	})
	var ocp ordermsg.Checkpoint
	for o, err := range c.Orders.Sync(ctx, site, &ocp, &ordermsg.ListOrdersOptions{Count: count, Includes: mirror.OrderIncludes(), KeepRawJSON: true}) {
		write(rawOf(o, err))
	}
	wg.Wait()
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	return n
}

func rawOf[T interface{ RawJSON() []byte }](v T, err error) ([]byte, error) {
	if err != nil {
		return nil, err
	}
	return v.RawJSON(), nil
}

// texts are includes as text.
func texts[I ~string](includes []I) []string {
	out := make([]string, len(includes))
	for i, inc := range includes {
		out[i] = string(inc)
	}
	return out
}

// The benchmarks' website: 10,000 orders and 10,000 messages.
const orders, messages = 10000, 10000

// benchFake starts a loopback fake of the benchmarks' website (the fake
// dates the newest record now, see ordermsgtest.Config.Now, so that Sync
// never meets a record dated in the future), behind a server that counts
// the requests (and answers each URL with the fake's first answer to it
// when once), and returns that server and the website, read through it.
func benchFake(b *testing.B, once bool) (*counting, site) {
	ds := ordermsgtest.Generate(ordermsgtest.Config{Seed: 9, Websites: 1, OrdersPerWebsite: orders, MessagesPerWebsite: messages})
	srv := ordermsgtest.NewServer(ds)
	b.Cleanup(srv.Close)
	front := &counting{next: srv.Handler}
	if once {
		front.answers = map[string]*httptest.ResponseRecorder{}
	}
	hs := httptest.NewServer(front)
	b.Cleanup(hs.Close)
	s := siteOf(b, srv, 0)
	s.url = hs.URL
	var err error
	if s.c, err = ordermsg.NewClient(hs.URL, s.key); err != nil {
		b.Fatal(err)
	}
	return front, s
}

// counting passes each request to next, the fake, and counts them. With
// answers not nil, it answers each URL with the fake's answer to the first
// request for it, rendered once: the fake renders its pages on the
// benchmark's two cores, as a real service does not, and the records do not
// change while a benchmark runs.
type counting struct {
	next     http.Handler
	mu       sync.Mutex
	answers  map[string]*httptest.ResponseRecorder
	requests atomic.Int64
}

func (c *counting) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.requests.Add(1)
	if c.answers == nil {
		c.next.ServeHTTP(w, r)
		return
	}
	c.mu.Lock()
	answer, ok := c.answers[r.URL.String()]
	c.mu.Unlock()
	if !ok {
		answer = httptest.NewRecorder()
		c.next.ServeHTTP(answer, r)
		c.mu.Lock()
		c.answers[r.URL.String()] = answer
		c.mu.Unlock()
	}
	maps.Copy(w.Header(), answer.Header())
	w.WriteHeader(answer.Code)
	w.Write(answer.Body.Bytes())
}

// BenchmarkMirror mirrors 10,000 orders and 10,000 messages, with every
// include, from a loopback fake into a new database of each backend, and in
// the same iteration exports the same records as JSON Lines (the two take
// turns at going first: each leaves garbage to what runs next) and, in
// PostgreSQL, loads the exported lines with COPY into a table of one json
// column. It reports the mirror's records per second, its time as a ratio
// to the export's and to the COPY's (the median of the iterations'), the
// CPU time of the process during each (which holds the fake's), and the
// requests and time of a second run with nothing new.
//
// Each runs twice: with the fake rendering each page it is asked for
// (rendered-per-request; its rendering then takes about half of the two
// cores' time, shared by the mirror and the export alike), and with every
// page rendered once, before the timing, and served as bytes
// (rendered-once), which leaves the client's own work.
func BenchmarkMirror(b *testing.B) {
	const count = 100
	for _, mode := range []string{"rendered-per-request", "rendered-once"} {
		srv, s := benchFake(b, mode == "rendered-once")
		exportJSONLines(b, s.c, s.id, filepath.Join(b.TempDir(), "warm.jsonl"), count) // every page rendered, for rendered-once
		for _, be := range mirrortest.Backends() {
			b.Run(be.Name+"/"+mode, func(b *testing.B) { benchmarkMirror(b, be, srv, s, count) })
		}
	}
}

func benchmarkMirror(b *testing.B, be mirrortest.Backend, srv *counting, s site, count int) {
	var mirrorTime, exportTime, idleTime, mirrorCPU, exportCPU time.Duration
	var toExport, toCopy []float64
	var idleRequests int64
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		target := be.New(b)
		db := be.Open(b, target)
		m := openMirror(b, be, db)
		jsonl := filepath.Join(b.TempDir(), "export.jsonl")
		b.StartTimer()

		export := func() time.Duration {
			start, cpu := time.Now(), processCPU()
			if n := exportJSONLines(b, s.c, s.id, jsonl, count); n != orders+messages {
				b.Fatalf("exported %d records", n)
			}
			exportCPU += processCPU() - cpu
			return time.Since(start)
		}
		mirrorRun := func() time.Duration {
			start, cpu := time.Now(), processCPU()
			res := syncSite(b, m, s, &mirror.Options{PageSize: count})
			if res.Orders.New != orders || res.Messages.New != messages {
				b.Fatalf("%+v", res)
			}
			mirrorCPU += processCPU() - cpu
			return time.Since(start)
		}
		var mt, et time.Duration
		if i%2 == 0 {
			et, mt = export(), mirrorRun()
		} else {
			mt, et = mirrorRun(), export()
		}
		mirrorTime, exportTime = mirrorTime+mt, exportTime+et
		toExport = append(toExport, mt.Seconds()/et.Seconds())
		if be.Backend == mirror.PostgreSQL {
			toCopy = append(toCopy, mt.Seconds()/copyLines(b, db, jsonl).Seconds())
		}

		before := srv.requests.Load()
		start := time.Now()
		if res := syncSite(b, m, s, &mirror.Options{PageSize: count}); res != (mirror.Result{}) {
			b.Fatalf("nothing new: %+v", res)
		}
		idleTime += time.Since(start)
		idleRequests = srv.requests.Load() - before
	}
	n := float64(len(toExport))
	b.ReportMetric(float64(orders+messages)*n/mirrorTime.Seconds(), "records/s")
	b.ReportMetric(float64(orders+messages)*n/exportTime.Seconds(), "export-records/s")
	b.ReportMetric(median(toExport), "time/export-time")
	if cpuMeasured {
		// The process's CPU, the fake's rendering with it
		// (rendered-per-request), the mean of the iterations.
		b.ReportMetric(mirrorCPU.Seconds()/n, "cpu-s/run")
		b.ReportMetric(exportCPU.Seconds()/n, "export-cpu-s/run")
	}
	if toCopy != nil {
		b.ReportMetric(median(toCopy), "time/copy-time")
	}
	b.ReportMetric(float64(idleRequests), "requests/no-change-run")
	b.ReportMetric(idleTime.Seconds()*1000/n, "ms/no-change-run")
}

// median is the median of xs, which it sorts.
func median(xs []float64) float64 {
	slices.Sort(xs)
	if len(xs)%2 == 1 {
		return xs[len(xs)/2]
	}
	return (xs[len(xs)/2-1] + xs[len(xs)/2]) / 2
}

// copyLines loads the lines of the JSON Lines file at path into a new table
// of db, a PostgreSQL database, of one json column (compressed as the
// mirror's json columns are), with pgx's COPY, the lines read from the file
// as it goes, and returns how long it took: the floor of storing the
// records' JSON.
func copyLines(b *testing.B, db *sql.DB, path string) time.Duration {
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	table := fmt.Sprintf("copied_%d", time.Now().UnixNano())
	var compression string
	if err := conn.QueryRowContext(ctx, "SELECT attcompression FROM pg_attribute WHERE attrelid = 'orders'::regclass AND attname = 'json'").Scan(&compression); err != nil {
		b.Fatal(err)
	}
	ddl := "CREATE TABLE " + table + " (doc json NOT NULL)"
	if compression == "l" {
		ddl += "; ALTER TABLE " + table + " ALTER COLUMN doc SET COMPRESSION lz4"
	}
	if _, err := conn.ExecContext(ctx, ddl); err != nil {
		b.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	start := time.Now()
	lines := &lineSource{sc: bufio.NewScanner(f)}
	lines.sc.Buffer(nil, 64<<20)
	err = conn.Raw(func(dc any) error {
		_, err := dc.(*stdlib.Conn).Conn().CopyFrom(ctx, pgx.Identifier{table}, []string{"doc"}, lines)
		return err
	})
	took := time.Since(start)
	if err != nil || lines.n != orders+messages {
		b.Fatalf("COPY of %d lines: %v", lines.n, err)
	}
	return took
}

// lineSource is the lines of a file as the rows of a COPY.
type lineSource struct {
	sc *bufio.Scanner
	n  int
}

func (l *lineSource) Next() bool {
	if l.sc.Scan() {
		l.n++
		return true
	}
	return false
}

func (l *lineSource) Values() ([]any, error) { return []any{l.sc.Bytes()}, nil }
func (l *lineSource) Err() error             { return l.sc.Err() }

// listAll walks every record of the website as a reconcile lists them (All,
// ascending by date_created, the mirror's includes, raw JSON kept, pages of
// count, concurrency pages at once, the orders and the messages at once)
// and returns how many it read: the peer of a reconcile.
func listAll(b *testing.B, c *ordermsg.Client, site int64, count, concurrency int) int {
	ctx := context.Background()
	var n atomic.Int64
	read := func(_ []byte, err error) bool {
		if err != nil {
			b.Error(err)
			return false
		}
		n.Add(1)
		return true
	}
	walk := ordermsg.WithConcurrency(concurrency)
	opts := func(includes []string) *ordermsg.ResourceOptions {
		return &ordermsg.ResourceOptions{Count: count, Includes: includes, KeepRawJSON: true}
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		for m, err := range ordermsg.MessagesResource().AllSince(ctx, c, site, ordermsg.Date{}, opts(texts(mirror.MessageIncludes())), walk) {
			if !read(rawOf(m, err)) {
				return
			}
		}
	})
	for o, err := range ordermsg.OrdersResource().AllSince(ctx, c, site, ordermsg.Date{}, opts(texts(mirror.OrderIncludes())), walk) {
		if !read(rawOf(o, err)) {
			break
		}
	}
	wg.Wait()
	return int(n.Load())
}

// BenchmarkReconcile measures what a reconcile costs on a mirror of 10,000
// orders and 10,000 messages where nothing changed, from a loopback fake:
// each iteration runs a Sync with Reconcile (which must find every record
// unchanged) and, as its peer, a walk of every record as the reconcile lists
// them. It reports the reconcile's requests and milliseconds per 1,000
// records, and its time as a ratio to the walk's.
func BenchmarkReconcile(b *testing.B) {
	const count, concurrency = 100, 4
	srv, s := benchFake(b, false)
	for _, be := range mirrortest.Backends() {
		b.Run(be.Name, func(b *testing.B) {
			m := openMirror(b, be, be.Open(b, be.New(b)))
			syncSite(b, m, s, &mirror.Options{PageSize: count})
			var reconcileTime, listTime time.Duration
			var requests int64
			b.ResetTimer()
			for range b.N {
				before := srv.requests.Load()
				start := time.Now()
				res := syncSite(b, m, s, &mirror.Options{Reconcile: true, PageSize: count, Concurrency: concurrency})
				reconcileTime += time.Since(start)
				requests += srv.requests.Load() - before
				if res.Orders != (mirror.Counts{Unchanged: orders}) || res.Messages != (mirror.Counts{Unchanged: messages}) {
					b.Fatalf("reconcile with nothing changed: %+v", res)
				}

				start = time.Now()
				if n := listAll(b, s.c, s.id, count, concurrency); n != orders+messages {
					b.Fatalf("listed %d records", n)
				}
				listTime += time.Since(start)
			}
			per1000 := float64(b.N) * float64(orders+messages) / 1000
			b.ReportMetric(float64(requests)/per1000, "requests/1000-records")
			b.ReportMetric(reconcileTime.Seconds()*1000/per1000, "ms/1000-records")
			b.ReportMetric(reconcileTime.Seconds()/listTime.Seconds(), "time/listing-time")
		})
	}
}

// syntheticSite is a website of n orders and n messages that holds no
// records: it makes each page it is asked for from a page of the fake's
// records with every include (templates), each record k of the site
// (from 1) made of template k%100 with its id k and a date_created k
// minutes after start. It answers lists only, ascending, from date_start.
type syntheticSite struct {
	n         int
	start     time.Time
	templates map[string][][]byte // by collection: each record's members but id and date_created, from their ","
}

// newSyntheticSite makes a synthetic site of n orders and n messages, all
// created in the past.
func newSyntheticSite(b *testing.B, n int) *syntheticSite {
	srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 9, Websites: 1, OrdersPerWebsite: 100}))
	defer srv.Close()
	s := siteOf(b, srv, 0)
	site := &syntheticSite{n: n, start: time.Now().Add(-time.Duration(n)*time.Minute - 48*time.Hour).Truncate(time.Second),
		templates: map[string][][]byte{}}
	keep := func(collection string, raw []byte) {
		var members map[string]json.RawMessage
		if err := json.Unmarshal(raw, &members); err != nil {
			b.Fatal(err)
		}
		delete(members, "id")
		delete(members, "date_created")
		rest, err := json.Marshal(members)
		if err != nil {
			b.Fatal(err)
		}
		site.templates[collection] = append(site.templates[collection], append([]byte{','}, rest[1:]...))
	}
	for o, err := range s.c.Orders.AllRaw(context.Background(), s.id, &ordermsg.ListOrdersOptions{Count: 100, Includes: mirror.OrderIncludes()}) {
		if err != nil {
			b.Fatal(err)
		}
		keep("orders", o.RawJSON())
	}
	for m, err := range s.c.Messages.AllRaw(context.Background(), s.id, &ordermsg.ListMessagesOptions{Count: 100, Includes: mirror.MessageIncludes()}) {
		if err != nil {
			b.Fatal(err)
		}
		keep("messages", m.RawJSON())
	}
	return site
}

func (s *syntheticSite) RoundTrip(r *http.Request) (*http.Response, error) {
	q := r.URL.Query()
	page, _ := strconv.Atoi(q.Get("page"))
	count, _ := strconv.Atoi(q.Get("count"))
	first := 1 // the first record listed: created on date_start or after
	if day, err := time.Parse(time.DateOnly, q.Get("date_start")); err == nil && day.After(s.start) {
		first = min(int(day.Sub(s.start)/time.Minute)+1, s.n+1)
	}
	total := s.n - first + 1
	templates := s.templates[path.Base(r.URL.Path)]
	var buf bytes.Buffer
	buf.WriteString(`{"object":"list","data":[`)
	for k := first + (page-1)*count; k < first+page*count && k <= s.n; k++ {
		if buf.Len() > len(`{"object":"list","data":[`) {
			buf.WriteByte(',')
		}
		fmt.Fprintf(&buf, `{"id":%d,"date_created":%q`, k, s.start.Add(time.Duration(k)*time.Minute).Format(time.RFC3339))
		buf.Write(templates[k%len(templates)])
	}
	fmt.Fprintf(&buf, `],"meta":{"pagination":{"total":%d,"count":%d,"per_page":%d,"current_page":%d,"total_pages":%d}}}`,
		total, min(count, max(total-(page-1)*count, 0)), count, page, max((total+count-1)/count, 1))
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(&buf), ContentLength: int64(buf.Len()), Request: r}, nil
}

// BenchmarkMirrorPeakHeap mirrors a synthetic site (which holds no
// records) of 5,000 and of 20,000 orders and as many messages, with every
// include, into a new database of each backend, and reports the peaks of
// the process's heap during the run above the heap before it, sampled
// every 5 ms: of its live objects as the last collection found them
// (peak-live-heap-MB), and of its objects, live or not yet swept
// (peak-heap-MB), which moves with the collector's timing. A worker whose
// memory is flat in the number of records has the same peaks at both
// sizes.
func BenchmarkMirrorPeakHeap(b *testing.B) {
	for _, be := range mirrortest.Backends() {
		for _, n := range []int{5_000, 20_000} {
			b.Run(fmt.Sprintf("%s/records=%d", be.Name, 2*n), func(b *testing.B) {
				site := newSyntheticSite(b, n)
				c, err := ordermsg.NewClient("https://api.example.com", "key", ordermsg.WithHTTPClient(&http.Client{Transport: site}))
				if err != nil {
					b.Fatal(err)
				}
				var live, all float64
				for b.Loop() {
					b.StopTimer()
					m := openMirror(b, be, be.Open(b, be.New(b)))
					runtime.GC()
					before := heap()
					stop, sampled := sampleHeapPeak()
					b.StartTimer()
					res, err := m.Sync(context.Background(), c, 1, &mirror.Options{PageSize: 100})
					stop()
					if err != nil || res.Orders.New != n || res.Messages.New != n {
						b.Fatalf("%+v, %v", res, err)
					}
					peak := <-sampled
					live = max(live, float64(peak.live-before.live)/(1<<20))
					all = max(all, float64(peak.objects-before.objects)/(1<<20))
				}
				b.ReportMetric(live, "peak-live-heap-MB")
				b.ReportMetric(all, "peak-heap-MB")
			})
		}
	}
}

// heapBytes is the heap's live objects as the last collection found them,
// and its objects live or not yet swept, in bytes.
type heapBytes struct{ live, objects uint64 }

func heap() heapBytes {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return heapBytes{s[0].Value.Uint64(), s[1].Value.Uint64()}
}

// sampleHeapPeak samples heap every 5 ms until stop is called, and then
// sends the largest samples.
func sampleHeapPeak() (stop func(), peak <-chan heapBytes) {
	done, out := make(chan struct{}), make(chan heapBytes, 1)
	go func() {
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		largest := heap()
		note := func() {
			h := heap()
			largest = heapBytes{max(largest.live, h.live), max(largest.objects, h.objects)}
		}
		for {
			select {
			case <-tick.C:
				note()
			case <-done:
				note()
				out <- largest
				return
			}
		}
	}()
	return sync.OnceFunc(func() { close(done) }), out
}
