package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/mirror/worker"
	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

func (a *app) syncCommand() *cobra.Command {
	var (
		dbTarget     string
		refreshDays  int
		reconcile    bool
		moved        bool
		massDelete   bool
		count, pages int
		websites     string
		parallel     int
		keepChanges  time.Duration
		work         workerRun
	)
	cmd := &cobra.Command{
		Use:   "sync --db FILE|URL [--websites FILE]",
		Short: "Mirror the orders and messages of a website, or of many, into SQLite or PostgreSQL",
		Long: `Keep a mirror of the website's orders and messages in a database: a SQLite
file (--db shop.db, created if missing) or PostgreSQL (--db postgres://… or
postgresql://…; the database must exist). The first run copies every record;
later runs copy only the records created since, from the checkpoint stored in
the database. One database holds any number of websites; a database made by an
earlier ordermsg is upgraded in place.

Every record is stored with the data of these includes, and its JSON exactly
as the server sent it (column json):
  orders:   ` + wrapList(names(mirror.OrderIncludes()), 12, 79) + `
  messages: ` + wrapList(names(mirror.MessageIncludes()), 12, 79) + `
Not requested: an order's message, a message's order and order.items (both
kinds are mirrored, so the links stay ids). No flag narrows the includes: the
views below need them, in every record alike.

Tables orders and messages, keyed by website_id and id, hold beside the JSON
the fields people filter on: date_created (UTC; timestamptz in PostgreSQL), status, order_type,
currency, total, amount_paid, promo_code, message_type and the ids of linked
records (NULL when the API sends 0 or null). Views give one row per element:
order_items, order_item_fields, order_fields, message_fields, order_shipments,
order_notes, print_ready_files, order_payment_transactions and
message_payment_transactions (docs/mirror.md#views gives their columns and queries).

Records are written in transactions of up to 500, each with the checkpoint
that covers them, and no transaction stays open while a page is fetched: a
run stopped at any moment (Ctrl-C, a crash, kill -9) keeps what it committed,
the next run goes on from there, and two runs at once both finish. Every
record ends up in the database exactly once. Each run of a website leaves a
row in the table mirror_runs, once it holds the website (a run waits for
another's of the same website): ordermsg status reads them.

Nothing in the API says when a record changes (statuses do): --refresh-days N
reads again the records created in the N days before the newest one, and
rewrites those that changed. --reconcile reads every record the server lists:
a record the server no longer has gets deleted_at (rows are never removed; the
views leave it out), one listed again is live again, and one that changed is
rewritten, however old. A record is updated only when its data changed: a file
link signed anew (its url's query string, its expires) is no change. A
reconcile costs a full listing, about 10 requests per 1,000 records at --count
100 (BENCHMARKS.md gives its time), and writes nothing when nothing changed.
How often: a plain run every few minutes for the new records, and one with
--reconcile once a day, such as at night: deletions and late changes then
show within a day. A reconcile that would mark more than 10% of a website's
live orders (or messages) deleted, and more than 10, marks none and fails
that website, exit 1, saying how many: an empty or cut-short listing, or a
key that now reaches another website, looks just like a mass deletion. When
the server really deleted them, run once with --allow-mass-delete.

Every record found new, updated or deleted is also recorded as a change, in
the same transaction as its row: ordermsg changes prints them, in order, and
follows them. --keep-changes DURATION removes, after the run (the worker of
--every: every hour), the changes recorded longer ago (such as 720h); by
default they are all kept.

The orders and the messages are read at once. The new records of each are
read one page at a time: pages fetched at once can miss a record that
appears during the run. --concurrency applies only to the --refresh-days and
--reconcile passes, which read records already mirrored.

A record the SDK cannot decode (a lone surrogate such as \ud800 in a string)
never stalls the website: it is kept as sent in the table refused_records,
the summary counts it ("1 refused"), a note on stderr says so, and the run
goes on and exits 0. A NUL character (\u0000) is stored: the column json keeps
the record as sent, and text columns and views hold U+FFFD in its place.

Each website remembers the base URL it was first synced from: a run for it
from another base URL (staging and production of the same website id) is
refused before any write, exit 2. When the service really moved, run once
with --base-url-moved.

Many websites, each with its own key: --websites FILE syncs every website
FILE lists into the one database, --parallel N at a time (default 4). FILE has
one website a line, WEBSITE_ID API_KEY separated by spaces; blank lines and
lines that begin with # are left out. It holds keys: a FILE that group or
others may read or write is refused, exit 2 (chmod 600 FILE), and no key is
ever printed. The base URL and the version header are given as for one
website; --website and --api-key do not go with it. The schema is checked
once, not once per website. A website that fails does not stop the others.
It prints a line per website as it ends, then the total:
  website 1001: orders: 3 new, 0 updated, 0 unchanged, 0 deleted; messages: ...; 0.42s
  website 1002: skipped, held by another worker
  website 1003: failed: ordermsg: GET https://…/websites/1003/orders: 401 Unauthorized: …
  total: 3 websites, 1 synced, 1 failed, 1 skipped; orders: ...; messages: ...; 1.10s
and on a terminal a progress bar counts the websites done. It exits 0 when no
website failed, else with the worst failure's code: 3 (the database) over 2
(a website mirrored from another base URL) over 1 (the API or the network).

Workers share a fleet through PostgreSQL: several processes, on one machine or
many, may run the same command with the same FILE at once. A worker holds a
website while it syncs it (an advisory lock of its database session), skips
one that another holds or has synced since it began, and never waits for
another's. A worker killed at any moment (kill -9) loses nothing: its hold
ends with its session, and the next run takes the website. The table
mirror_runs gets a row per website per run: website_id, started_at,
finished_at, status (ok or failed), new_records, updated_records,
deleted_records and error (docs/mirror.md#which-websites-failed-or-have-not-synced
shows how to find the websites that failed or have not synced lately). In SQLite a worker holds a website through
a lease (a row of mirror_leases) instead, which a worker killed on the same
machine leaves to the next run at once, and one killed elsewhere after a
minute; the file takes one writer at a time, so run one worker per SQLite
file.

A worker that runs until it is stopped: --every DURATION (with --websites)
syncs each website of FILE about once per DURATION, until SIGTERM or SIGINT,
which let the runs in progress finish (or stop them after 20 s, keeping what
they read) and exit 0; a second signal exits at once, losing nothing. FILE is
read again every DURATION/2 and on SIGHUP: a website added is synced within
DURATION, one removed is no longer synced, and a FILE refused (unsafe,
malformed, a website twice) is said on stderr while the last good list goes
on. A website that fails is retried after 5s, 10s, 20s, 40s (never later
than DURATION), and after 5 failures in a row once per DURATION; a 429
waits its Retry-After. --reconcile-every DURATION reconciles each website on
that period too; --keep-runs removes older rows of mirror_runs (default
720h); --metrics ADDR serves /metrics (Prometheus) and /healthz;
--webhook-url URL --webhook-secret-file FILE deliver every change to URL,
signed as Standard Webhooks says, retried for 3 days (docs/webhooks.md).
Several workers share the websites through PostgreSQL (River's job queue, in
the same database); in SQLite run one. The database may come from
ORDERMSG_DB instead of --db. docs/cli.md tells it all.

For PostgreSQL, give the URL in quotes, such as
  --db 'postgres://mirror@db.example.com/shop?sslmode=require'
with the password in the URL, in PGPASSWORD or in ~/.pgpass (pgx reads
them). A URL's password is never shown: messages print it masked.
On a terminal a progress bar shows on stderr; at the end one line tells the
records that were new, updated, unchanged and deleted, and the seconds taken:
  orders: 0 new, 1 updated, 27 unchanged, 2 deleted; messages: ...; 0.42s`,
		Example: `  ordermsg sync --db shop.db                    # needs ORDERMSG_BASE_URL, ORDERMSG_API_KEY, ORDERMSG_WEBSITE_ID
  ordermsg sync --db shop.db --refresh-days 7   # needs ORDERMSG_BASE_URL, ORDERMSG_API_KEY, ORDERMSG_WEBSITE_ID
  ordermsg sync --db shop.db --reconcile        # needs ORDERMSG_BASE_URL, ORDERMSG_API_KEY, ORDERMSG_WEBSITE_ID
  ordermsg sync --db demo.db --demo
  ordermsg sync --db fleet.db --websites websites.txt  # needs ORDERMSG_BASE_URL; websites.txt: WEBSITE_ID API_KEY lines, chmod 600`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			dbTarget = cmp.Or(dbTarget, a.getenv(envDB))
			switch {
			case dbTarget == "":
				return usagef("--db FILE|URL (or %s) is required", envDB)
			case refreshDays < 0:
				return usagef("--refresh-days %d: want 0 or more", refreshDays)
			case count < 1 || pages < 1:
				return usagef("--count %d, --concurrency %d: want 1 or more", count, pages)
			case cmd.Flags().Changed("keep-changes") && keepChanges <= 0:
				return usagef("--keep-changes %v: want a positive duration, such as 720h", keepChanges)
			}
			target, err := parseTarget(dbTarget)
			if err != nil {
				return err
			}
			fleet := cmd.Flags().Changed("websites")
			switch {
			case fleet && websites == "":
				return usagef("--websites needs a FILE: %s", websitesFileForm)
			case !fleet && cmd.Flags().Changed("parallel"):
				return usagef("--parallel goes with --websites FILE: it is the number of its websites synced at once")
			case fleet && parallel < 1:
				return usagef("--parallel %d: want 1 or more", parallel)
			}
			if err := checkWorkerFlags(cmd.Flags(), fleet); err != nil {
				return err
			}
			if fleet {
				f := &fleetRun{a: a, target: target, file: websites, parallel: parallel, opts: mirror.Options{RefreshDays: refreshDays,
					Reconcile: reconcile, AllowMassDelete: massDelete, BaseURLMoved: moved, PageSize: count, Concurrency: pages}}
				if cmd.Flags().Changed("every") {
					work.fleet, work.keepChanges = f, keepChanges
					return work.run(cmd.Context())
				}
				return cmp.Or(f.run(cmd.Context()), a.pruneChanges(cmd.Context(), target, keepChanges))
			}
			c, site, closeFn, err := a.connectMirror()
			if err != nil {
				return err
			}
			defer closeFn()
			ctx := cmd.Context()
			db, err := target.open()
			if err != nil {
				return &localFailure{err}
			}
			defer db.Close()
			m, err := mirror.Open(ctx, db, target.backend)
			if err != nil {
				return &localFailure{target.hide(fmt.Errorf("%s: %w", target.name, err))}
			}
			bar := newSyncProgress(a)
			start := time.Now()
			// mirror_runs keeps the run's error: never with a secret.
			res, err := m.Sync(ctx, c, site, &mirror.Options{RefreshDays: refreshDays, Reconcile: reconcile, AllowMassDelete: massDelete, BaseURLMoved: moved,
				PageSize: count, Concurrency: pages, Progress: bar.add, Secrets: append(keySecrets(a.apiKey), target.secrets...)})
			bar.stop()
			switch {
			case err == nil:
			// A server may quote the API key in an error's message.
			case errors.Is(err, mirror.ErrOtherSource):
				return &configError{target.hideWith(fmt.Errorf("%s: %w", target.name, forCLI(err)), keySecrets(a.apiKey)...)}
			case ctx.Err() != nil:
				return &stopped{fmt.Sprintf("(%s keeps what was synced; run again to go on)", target.name)}
			case isDatabaseError(err):
				return &localFailure{target.hideWith(fmt.Errorf("%s: %w", target.name, err), keySecrets(a.apiKey)...)}
			default:
				return &apiFailure{target.hideWith(fmt.Errorf("%w; %s keeps what was synced before", forCLI(err), target.name), keySecrets(a.apiKey)...)}
			}
			if _, err := fmt.Fprintf(a.stdout, "orders: %v; messages: %v; %.2fs\n", res.Orders, res.Messages, time.Since(start).Seconds()); err != nil {
				return stdoutFailure(err)
			}
			if n := res.Orders.Refused + res.Messages.Refused; n > 0 {
				fmt.Fprintf(a.stderr, "note: %d of the records read could not be decoded; %s keeps them as sent in the table refused_records\n", n, target.name)
			}
			return a.pruneChanges(ctx, target, keepChanges)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&dbTarget, "db", "", "the SQLite database file (created if missing) or a postgres:// URL")
	fl.IntVar(&refreshDays, "refresh-days", 0, "also update the records created in the N days before the newest")
	fl.BoolVar(&reconcile, "reconcile", false, "also read every record: mark those the server no longer has, rewrite those that changed (once a day)")
	fl.BoolVar(&massDelete, "allow-mass-delete", false, "let --reconcile mark more than 10% of a website's orders or messages deleted, and more than 10")
	fl.BoolVar(&moved, "base-url-moved", false, "the service moved: take the base URL as the website's source from now on")
	fl.IntVar(&count, "count", 100, "page size of the requests")
	fl.StringVar(&websites, "websites", "", "sync every website FILE lists, a line of WEBSITE_ID API_KEY each (FILE readable by you alone)")
	fl.IntVar(&parallel, "parallel", mirror.DefaultParallel, "websites synced at once, with --websites")
	fl.DurationVar(&keepChanges, "keep-changes", 0, "after the run (with --every: every hour), remove the changes (ordermsg changes) recorded longer ago than this, such as 720h (0: keep all)")
	fl.DurationVar(&work.every, "every", 0, "with --websites: run until SIGTERM, syncing each website once per DURATION (at least 1s)")
	fl.DurationVar(&work.reconcileEvery, "reconcile-every", 0, "with --every: also reconcile each website once per DURATION, such as 24h")
	fl.DurationVar(&work.keepRuns, "keep-runs", worker.DefaultKeepRuns, "with --every: remove the rows of mirror_runs older than DURATION")
	fl.StringVar(&work.webhookURL, "webhook-url", "", "with --every: deliver every change to this https:// URL (http:// to loopback only), signed as Standard Webhooks says")
	fl.StringVar(&work.webhookSecret, "webhook-secret-file", "", "with --webhook-url: the file of the secret that signs each delivery, whsec_ and base64 (readable by you alone)")
	fl.StringVar(&work.metricsAddr, "metrics", "", "with --every: serve /metrics (Prometheus) and /healthz on ADDR, such as 127.0.0.1:9464")
	fl.IntVar(&pages, "concurrency", 4, "pages fetched at once by the --refresh-days and --reconcile passes of the orders, and of the messages, which are read at once (new records are read one page at a time)")
	return cmd
}

// pruneChanges removes the changes of the mirror at target recorded more
// than keep ago, and says how many on stdout; with keep 0 it does nothing.
func (a *app) pruneChanges(ctx context.Context, target *mirrorTarget, keep time.Duration) error {
	if keep == 0 {
		return nil
	}
	db, err := target.open()
	if err != nil {
		return &localFailure{err}
	}
	defer db.Close()
	m, err := mirror.OpenExisting(ctx, db, target.backend)
	var n int64
	if err == nil {
		n, err = m.PruneChanges(ctx, time.Now().Add(-keep))
	}
	if err != nil {
		return &localFailure{target.hide(fmt.Errorf("%s: %w", target.name, err))}
	}
	if _, err := fmt.Fprintf(a.stdout, "changes: %d recorded more than %v ago removed\n", n, keep); err != nil {
		return stdoutFailure(err)
	}
	return nil
}

// workerFlags go with --every, which goes with --websites.
var workerFlags = []string{"reconcile-every", "keep-runs", "metrics", "webhook-url", "webhook-secret-file"}

// checkWorkerFlags refuses --every without --websites (a single website is
// a FILE of one line), and the worker's other flags without --every.
func checkWorkerFlags(fl *pflag.FlagSet, fleet bool) error {
	every := fl.Changed("every")
	if every && !fleet {
		return usagef("--every goes with --websites FILE: the worker syncs the websites FILE lists (one website is a FILE of one line)")
	}
	for _, name := range workerFlags {
		if fl.Changed(name) && !every {
			return usagef("--%s goes with --every DURATION: it tunes the worker", name)
		}
	}
	return nil
}

// wrapList joins items with commas in lines of at most width characters,
// the lines after the first indented by indent spaces (as the first starts
// after indent characters).
func wrapList(items []string, indent, width int) string {
	var b strings.Builder
	col := indent
	for i, item := range items {
		if i > 0 {
			b.WriteString(",")
			col++
			if col+1+len(item)+1 > width {
				b.WriteString("\n" + strings.Repeat(" ", indent))
				col = indent
			} else {
				b.WriteString(" ")
				col++
			}
		}
		b.WriteString(item)
		col += len(item)
	}
	return b.String()
}

// newSyncProgress is a progress bar of records, of unknown total, on stderr
// when stderr is a terminal, else nothing.
func newSyncProgress(a *app) *progress {
	if !a.isTerminal(a.stderr) {
		return &progress{}
	}
	return &progress{bar: progressbar.NewOptions64(-1,
		progressbar.OptionSetWriter(a.stderr),
		progressbar.OptionSetDescription("syncing"),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("records"),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
		// No spinner: with no total it would redraw from a goroutine
		// that Exit does not stop.
		progressbar.OptionSetSpinnerChangeInterval(0),
	)}
}
