package mirror_test

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"iter"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// fleetOf is the websites of the given sites, in order.
func fleetOf(sites ...site) iter.Seq[mirror.Website] {
	return func(yield func(mirror.Website) bool) {
		for _, s := range sites {
			if !yield(mirror.Website{ID: s.id, Client: s.c}) {
				return
			}
		}
	}
}

// fleetSites starts a fake of n websites and returns it and its websites.
func fleetSites(t testing.TB, n int, opts ...ordermsgtest.Option) (*ordermsgtest.Server, []site) {
	t.Helper()
	srv := newFake(t, ordermsgtest.Config{Seed: 26, Websites: n, OrdersPerWebsite: 15, MessagesPerWebsite: 20}, opts...)
	sites := make([]site, n)
	for i := range sites {
		sites[i] = siteOf(t, srv, i)
	}
	return srv, sites
}

// syncFleet runs SyncFleet and returns its result, the result of each
// website, by id, as Done got them, and its error.
func syncFleet(m *mirror.Mirror, ctx context.Context, websites iter.Seq[mirror.Website], opts *mirror.FleetOptions) (mirror.FleetResult, map[int64]mirror.WebsiteResult, error) {
	var o mirror.FleetOptions
	if opts != nil {
		o = *opts
	}
	got := map[int64]mirror.WebsiteResult{}
	o.Done = func(r mirror.WebsiteResult) { got[r.WebsiteID] = r }
	res, err := m.SyncFleet(ctx, websites, &o)
	return res, got, err
}

// runRow is a row of mirror_runs.
type runRow struct {
	site                 int64
	started, finished    time.Time
	status               string
	added, updated, gone int64
	err                  sql.NullString
}

// runRows reads mirror_runs, ordered by website and start.
func runRows(t testing.TB, db *sql.DB) []runRow {
	t.Helper()
	var out []runRow
	for _, v := range rowValues(t, db, `SELECT website_id, started_at, finished_at, status, new_records, updated_records, deleted_records, error
		FROM mirror_runs ORDER BY website_id, started_at`) {
		r := runRow{site: v[0].(int64), started: stampOf(t, v[1]), finished: stampOf(t, v[2]), status: normalized(v[3]),
			added: v[4].(int64), updated: v[5].(int64), gone: v[6].(int64)}
		if v[7] != nil {
			r.err = sql.NullString{String: normalized(v[7]), Valid: true}
		}
		out = append(out, r)
	}
	return out
}

// stampOf is a time of mirror_runs: a timestamptz, or SQLite's text.
func stampOf(t testing.TB, v any) time.Time {
	t.Helper()
	if tm, ok := v.(time.Time); ok {
		return tm
	}
	tm, err := time.Parse(time.RFC3339Nano, normalized(v))
	if err != nil {
		t.Fatalf("a time of mirror_runs: %v", err)
	}
	return tm
}

// TestSyncFleet syncs four websites, one of them with a wrong key: the
// other three are mirrored exactly, the failure is a *FleetError that
// names it, Done gets every website once, and mirror_runs has one row per
// website, with the counts, and the failure's text without the key. A
// second run, with nothing new, makes 2 requests per website.
func TestSyncFleet(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		srv, sites := fleetSites(t, 4)
		const badKey = "omk_wrong_key_0123456789"
		bad := clientOf(t, srv.URL, site{id: sites[2].id, key: badKey, srv: srv})
		fleet := fleetOf(sites[0], sites[1], bad, sites[3])
		db := be.Open(t, target)
		m := openMirror(t, be, db)

		res, got, err := syncFleet(m, context.Background(), fleet, &mirror.FleetOptions{Parallel: 2})
		var fe *mirror.FleetError
		if !errors.As(err, &fe) || fe.Failed != 1 || fe.Websites != 4 || fe.First.WebsiteID != bad.id || !errors.Is(err, ordermsg.ErrUnauthorized) {
			t.Fatalf("SyncFleet: %v; want a *FleetError of website %d's 401", err, bad.id)
		}
		if strings.Contains(err.Error(), badKey) {
			t.Errorf("the error shows the key: %v", err)
		}
		if res.Synced != 3 || res.Failed != 1 || res.Skipped != 0 || res.Orders.New != 45 || res.Messages.New != 60 {
			t.Errorf("FleetResult %+v", res)
		}
		if len(got) != 4 {
			t.Fatalf("Done got %d websites, want 4", len(got))
		}
		for _, s := range []site{sites[0], sites[1], sites[3]} {
			r := got[s.id]
			if r.Err != nil || r.Skipped != mirror.NotSkipped || r.Orders.New != 15 || r.Messages.New != 20 || !r.Started.Before(r.Finished) {
				t.Errorf("website %d: %+v", s.id, r)
			}
			sameRecords(t, db, s)
		}
		if r := got[bad.id]; !errors.Is(r.Err, ordermsg.ErrUnauthorized) {
			t.Errorf("website %d with a wrong key: %+v", bad.id, r)
		}

		rows := runRows(t, db)
		if len(rows) != 4 {
			t.Fatalf("mirror_runs: %d rows, want 4: %+v", len(rows), rows)
		}
		for _, r := range rows {
			want := runRow{site: r.site, started: r.started, finished: r.finished, status: "ok", added: 35}
			if r.site == bad.id {
				want = runRow{site: r.site, started: r.started, finished: r.finished, status: "failed", err: r.err}
				if !r.err.Valid || !strings.Contains(r.err.String, "401 Unauthorized") || strings.Contains(r.err.String, badKey) {
					t.Errorf("the failed run's error: %+v", r.err)
				}
			}
			if r != want || r.finished.Before(r.started) {
				t.Errorf("mirror_runs row %+v, want %+v", r, want)
			}
		}

		before := srv.Handler.Stats().Requests
		good := fleetOf(sites[0], sites[1], sites[3])
		if res, _, err := syncFleet(m, context.Background(), good, nil); err != nil || res != (mirror.FleetResult{Synced: 3}) {
			t.Errorf("nothing new: %+v, %v", res, err)
		}
		if n := srv.Handler.Stats().Requests - before; n != 6 {
			t.Errorf("a run with nothing new made %d requests for 3 websites, want 2 each", n)
		}
		if rows := runRows(t, db); len(rows) != 7 {
			t.Errorf("mirror_runs: %d rows after a second run of 3 websites, want 7", len(rows))
		}
	})
}

// gate holds the first list request of one website until it is opened,
// and says when that request arrives.
type gate struct {
	next    http.Handler
	path    string // the list request's path
	arrived chan struct{}
	open    chan struct{}
	once    sync.Once
}

func newGate(next http.Handler, websiteID int64) *gate {
	return &gate{next: next, path: "/websites/" + itoa(websiteID) + "/orders", arrived: make(chan struct{}), open: make(chan struct{})}
}

func (g *gate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == g.path {
		first := false
		g.once.Do(func() { first = true })
		if first {
			close(g.arrived)
			<-g.open
		}
	}
	g.next.ServeHTTP(w, r)
}

// TestWorkersShareAFleet runs two workers (each a SyncFleet on a handle of
// its own, one website at a time) over the same four websites. The first
// is held in the first request of the first website; meanwhile the second
// runs to its end without waiting for it, skipping the website the first
// holds. Then the first goes on, and skips the websites the second synced
// since it began. Every website is exact, and synced once, the two runs of
// no website overlapping.
func TestWorkersShareAFleet(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		srv, sites := fleetSites(t, 4)
		g := newGate(srv.Handler, sites[0].id)
		front := httptest.NewServer(g)
		t.Cleanup(front.Close)
		for i := range sites {
			sites[i] = clientOf(t, front.URL, sites[i])
		}
		fleet := fleetOf(sites...)
		one := &mirror.FleetOptions{Parallel: 1}
		openMirror(t, be, be.Open(t, target))

		type outcome struct {
			res  mirror.FleetResult
			err  error
			each map[int64]mirror.WebsiteResult
		}
		first := make(chan outcome, 1)
		go func() {
			res, each, err := syncFleet(openMirror(t, be, be.Open(t, target)), context.Background(), fleet, one)
			first <- outcome{res, err, each}
		}()
		<-g.arrived
		res, second, err := syncFleet(openMirror(t, be, be.Open(t, target)), context.Background(), fleet, one)
		close(g.open)
		if err != nil {
			t.Fatalf("the second worker: %v", err)
		}
		wantSecond := mirror.FleetResult{Synced: 3, Skipped: 1}
		if res.Synced != wantSecond.Synced || res.Skipped != wantSecond.Skipped {
			t.Errorf("the second worker: %+v, want %+v", res, wantSecond)
		}
		if second[sites[0].id].Skipped != mirror.SkipHeld {
			t.Errorf("the second worker, website %d: %+v; want skipped, held", sites[0].id, second[sites[0].id])
		}
		o := <-first
		if o.err != nil || o.res.Synced != 1 || o.res.Skipped != 3 {
			t.Fatalf("the first worker: %+v, %v; want 1 synced, 3 skipped", o.res, o.err)
		}
		for _, s := range sites[1:] {
			if r := o.each[s.id]; r.Skipped != mirror.SkipSynced {
				t.Errorf("the first worker, website %d: %+v; want skipped, synced", s.id, r)
			}
		}
		db := be.Open(t, target)
		for _, s := range sites {
			sameRecords(t, db, s)
		}
		rows := runRows(t, db)
		if len(rows) != 4 {
			t.Errorf("mirror_runs: %d rows, want one per website", len(rows))
		}
		noOverlap(t, rows)
	})
}

// noOverlap fails when two runs of a website in mirror_runs overlap in
// time.
func noOverlap(t testing.TB, rows []runRow) {
	t.Helper()
	for i := 1; i < len(rows); i++ { // ordered by website and start
		if a, b := rows[i-1], rows[i]; a.site == b.site && b.started.Before(a.finished) {
			t.Errorf("website %d was synced by two at once: %v to %v and %v to %v", a.site, a.started, a.finished, b.started, b.finished)
		}
	}
}

// barrier holds every list request until n websites have one in flight at
// once, or for wait (20 s when 0), and records the most it ever saw.
type barrier struct {
	next http.Handler
	n    int
	wait time.Duration

	mu       sync.Mutex
	inFlight map[string]int // by website path
	most     int
	reached  chan struct{}
}

func (b *barrier) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	site := strings.Join(strings.Split(r.URL.Path, "/")[:3], "/")
	b.mu.Lock()
	b.inFlight[site]++
	b.most = max(b.most, len(b.inFlight))
	if len(b.inFlight) == b.n {
		select {
		case <-b.reached:
		default:
			close(b.reached)
		}
	}
	b.mu.Unlock()
	select {
	case <-b.reached:
	case <-time.After(cmp.Or(b.wait, 20*time.Second)): // the test fails below, unless it expects fewer
	}
	// The request leaves the count before the client can read its
	// answer, and send the next.
	answer := httptest.NewRecorder()
	b.next.ServeHTTP(answer, r)
	b.mu.Lock()
	if b.inFlight[site]--; b.inFlight[site] == 0 {
		delete(b.inFlight, site)
	}
	b.mu.Unlock()
	maps.Copy(w.Header(), answer.Header())
	w.WriteHeader(answer.Code)
	w.Write(answer.Body.Bytes())
}

// TestSyncFleetSyncsParallelWebsitesAtOnce: with Parallel 3, six websites
// are synced three at a time, never more; and a pool of 1 connection
// lowers it to 1, without waiting for itself (a website takes one
// connection for all its work), as a pool of 2 does in SQLite.
func TestSyncFleetSyncsParallelWebsitesAtOnce(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		srv, sites := fleetSites(t, 6)
		b := &barrier{next: srv.Handler, n: 3, inFlight: map[string]int{}, reached: make(chan struct{})}
		front := httptest.NewServer(b)
		t.Cleanup(front.Close)
		for i := range sites {
			sites[i] = clientOf(t, front.URL, sites[i])
		}
		db := be.Open(t, target)
		m := openMirror(t, be, db)
		if res, _, err := syncFleet(m, context.Background(), fleetOf(sites...), &mirror.FleetOptions{Parallel: 3}); err != nil || res.Synced != 6 {
			t.Fatalf("%+v, %v", res, err)
		}
		select {
		case <-b.reached:
		default:
			t.Error("three websites were never synced at once")
		}
		if b.most != 3 {
			t.Errorf("%d websites were synced at once, want at most 3", b.most)
		}
		srv.AddOrders(2)
		db.SetMaxOpenConns(1)
		b.n, b.most = 1, 0
		if res, _, err := syncFleet(m, context.Background(), fleetOf(sites...), &mirror.FleetOptions{Parallel: 3}); err != nil || res.Synced != 6 || res.Orders.New != 2 {
			t.Fatalf("a pool of 1 connection: %+v, %v", res, err)
		}
		if b.most != 1 {
			t.Errorf("with a pool of 1 connection, %d websites were synced at once, want 1", b.most)
		}
		// A pool of 2: SQLite keeps one for its leases to move on from,
		// while a website's Sync holds the other. The barrier holds each
		// request a while for a second website, which only PostgreSQL
		// may sync at once.
		db.SetMaxOpenConns(2)
		want := map[mirror.Backend]int{mirror.PostgreSQL: 2, mirror.SQLite: 1}[be.Backend]
		b.n, b.most, b.wait, b.reached = 2, 0, 300*time.Millisecond, make(chan struct{})
		if res, _, err := syncFleet(m, context.Background(), fleetOf(sites[:2]...), &mirror.FleetOptions{Parallel: 3}); err != nil || res.Synced != 2 {
			t.Fatalf("a pool of 2 connections: %+v, %v", res, err)
		}
		if b.most > want {
			t.Errorf("with a pool of 2 connections, %d websites were synced at once, want at most %d", b.most, want)
		}
	})
}

// TestSyncFleetStopsWithTheContext cancels a SyncFleet of six websites,
// one at a time, as the third begins: it returns an error that matches
// context.Canceled, takes no website after, records the interrupted run as
// failed, and the next SyncFleet makes every website exact.
func TestSyncFleetStopsWithTheContext(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		srv, sites := fleetSites(t, 6)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		stopAt := sites[2].id
		front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasPrefix(r.URL.Path, "/websites/"+itoa(stopAt)+"/") {
				cancel()
			}
			srv.Handler.ServeHTTP(w, r)
		}))
		t.Cleanup(front.Close)
		for i := range sites {
			sites[i] = clientOf(t, front.URL, sites[i])
		}
		db := be.Open(t, target)
		m := openMirror(t, be, db)
		res, got, err := syncFleet(m, ctx, fleetOf(sites...), &mirror.FleetOptions{Parallel: 1})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("SyncFleet cancelled: %v", err)
		}
		if res.Synced != 2 || res.Failed != 1 || len(got) != 3 || !errors.Is(got[stopAt].Err, context.Canceled) {
			t.Errorf("cancelled in the third website: %+v, %v", res, got)
		}
		rows := runRows(t, db)
		if len(rows) != 3 || rows[2].site != stopAt || rows[2].status != "failed" {
			t.Errorf("mirror_runs: %+v", rows)
		}
		if res, _, err := syncFleet(m, context.Background(), fleetOf(sites...), nil); err != nil || res.Synced != 6 {
			t.Fatalf("the next run: %+v, %v", res, err)
		}
		for _, s := range sites {
			sameRecords(t, db, s)
		}
	})
}

// TestSyncFleetRefusesBadInput: options and websites that cannot be synced
// are refused before any request; a website without a client, or with an
// id that is not positive, fails alone, without a row in mirror_runs.
func TestSyncFleetRefusesBadInput(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		srv, sites := fleetSites(t, 1)
		db := be.Open(t, target)
		m := openMirror(t, be, db)
		ctx := context.Background()
		for _, tc := range []struct {
			websites iter.Seq[mirror.Website]
			opts     *mirror.FleetOptions
			want     string
		}{
			{nil, nil, "SyncFleet needs websites"},
			{fleetOf(sites...), &mirror.FleetOptions{Parallel: -1}, "Parallel -1"},
			{fleetOf(sites...), &mirror.FleetOptions{Options: mirror.Options{PageSize: -2}}, "PageSize -2"},
		} {
			if _, err := m.SyncFleet(ctx, tc.websites, tc.opts); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%+v: %v, want %q", tc.opts, err, tc.want)
			}
		}
		if n := srv.Handler.Stats().Requests; n != 0 {
			t.Errorf("%d requests", n)
		}
		odd := slices.Values([]mirror.Website{{ID: 0, Client: sites[0].c}, {ID: sites[0].id}, {ID: sites[0].id, Client: sites[0].c}})
		res, err := m.SyncFleet(ctx, odd, &mirror.FleetOptions{Parallel: 1})
		var fe *mirror.FleetError
		if !errors.As(err, &fe) || res.Failed != 2 || res.Synced != 1 {
			t.Fatalf("%+v, %v", res, err)
		}
		if rows := runRows(t, db); len(rows) != 1 || rows[0].status != "ok" {
			t.Errorf("mirror_runs: %+v", rows)
		}
	})
}

// TestFleetChecksTheSchemaOnce: a second SyncFleet of three websites, with
// nothing new, makes 2 requests per website, and neither DDL nor a look-up
// in the catalog: Open checked the schema, once, and did no DDL either on a
// database of this version.
func TestFleetChecksTheSchemaOnce(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		srv, sites := fleetSites(t, 3)
		syncFleet(openMirror(t, be, be.Open(t, target)), context.Background(), fleetOf(sites...), nil)
		var s statements
		m := openMirror(t, be, counted(t, be, target, &s))
		if ddl, catalog := s.ddl.Load(), s.catalog.Load(); ddl != 0 || catalog == 0 {
			t.Errorf("Open of a database of this version: %d DDL statements, %d look-ups in the catalog; want none and some", ddl, catalog)
		}
		s = statements{}
		before := srv.Handler.Stats().Requests
		if res, _, err := syncFleet(m, context.Background(), fleetOf(sites...), nil); err != nil || res != (mirror.FleetResult{Synced: 3}) {
			t.Fatalf("nothing new: %+v, %v", res, err)
		}
		if n := srv.Handler.Stats().Requests - before; n != 6 {
			t.Errorf("%d requests for 3 websites with nothing new, want 2 each", n)
		}
		if ddl, catalog, all := s.ddl.Load(), s.catalog.Load(), s.all.Load(); ddl != 0 || catalog != 0 || all == 0 {
			t.Errorf("SyncFleet with nothing new: %d DDL statements and %d look-ups in the catalog of %d statements; want none", ddl, catalog, all)
		}
	})
}
