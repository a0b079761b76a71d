package main

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
)

// addSyncCommands adds `sync` to root and `--state` to the export commands.
func (a *app) addSyncCommands(root *cobra.Command) {
	root.AddCommand(a.syncCommand())
	addStateFlag(a, root, ordersKind)
	addStateFlag(a, root, messagesKind)
}

// syncBatch is the number of records of one transaction of sync --db.
const syncBatch = 500

func (a *app) syncCommand() *cobra.Command {
	var (
		dbPath       string
		refreshDays  int
		count, pages int
	)
	cmd := &cobra.Command{
		Use:   "sync --db FILE",
		Short: "Mirror a website's orders and messages into a SQLite database",
		Long: `Keep a local SQLite mirror of the website's orders and messages. The first
run copies every record; later runs copy only the records created since, using
the checkpoint stored in the database.

Tables orders and messages hold each record's JSON (column json) and the
fields people filter on: date_created (UTC), status, order_type, currency,
total, amount_paid, message_type and the ids of linked records (NULL when the
API sends 0 or null). Records are written in transactions of ` + fmt.Sprint(syncBatch) + `, each with the
checkpoint that covers them, so a run stopped at any moment (Ctrl-C, a crash,
kill -9) keeps what it committed, and the next run goes on from there: every
record ends up in the database exactly once.

Nothing in the API says when a record changes (statuses do): --refresh-days N
reads again the records created in the N days before the newest one, and
updates those whose JSON changed. A database mirrors one website.

The new records are read one page at a time: pages fetched at once can miss
a record that appears during the run. --concurrency applies only to the
--refresh-days pass, which updates records already mirrored.

On a terminal a progress bar shows on stderr; at the end one line tells the
records that were new, updated and unchanged, and the seconds taken.`,
		Example: `  ordermsg sync --db shop.db                    # needs ORDERMSG_BASE_URL, ORDERMSG_API_KEY, ORDERMSG_WEBSITE_ID
  ordermsg sync --db shop.db --refresh-days 7   # needs ORDERMSG_BASE_URL, ORDERMSG_API_KEY, ORDERMSG_WEBSITE_ID
  ordermsg sync --db demo.db --demo`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch {
			case dbPath == "":
				return usagef("--db FILE is required")
			case refreshDays < 0:
				return usagef("--refresh-days %d: want 0 or more", refreshDays)
			case count < 1 || pages < 1:
				return usagef("--count %d, --concurrency %d: want 1 or more", count, pages)
			}
			c, site, closeFn, err := a.connect()
			if err != nil {
				return err
			}
			defer closeFn()
			ctx := cmd.Context()
			db, err := openMirror(ctx, dbPath, site)
			if err != nil {
				return &localFailure{err}
			}
			defer db.Close()
			run := syncRun{db: db, c: c, site: site, refreshDays: refreshDays, count: count, pages: pages, bar: newSyncProgress(a)}
			start := time.Now()
			oc, err := mirror(ctx, &run, ordersMirror, ordersKind)
			var mc mirrorCounts
			if err == nil {
				mc, err = mirror(ctx, &run, messagesMirror, messagesKind)
			}
			run.bar.stop()
			if err != nil {
				if ctx.Err() != nil {
					return &stopped{fmt.Sprintf("(%s keeps what was synced; run again to go on)", dbPath)}
				}
				return &apiFailure{fmt.Errorf("%w; %s keeps what was synced before", err, dbPath)}
			}
			fmt.Fprintf(a.stdout, "orders: %v; messages: %v; %.2fs\n", oc, mc, time.Since(start).Seconds())
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&dbPath, "db", "", "the SQLite database file (created if missing)")
	fl.IntVar(&refreshDays, "refresh-days", 0, "also update the records created in the N days before the newest")
	fl.IntVar(&count, "count", 100, "page size of the requests")
	fl.IntVar(&pages, "concurrency", 4, "pages fetched at once by the --refresh-days pass (new records are read one page at a time)")
	return cmd
}

// syncRun is one run of sync --db.
type syncRun struct {
	db                        *sql.DB
	c                         *ordermsg.Client
	site                      int64
	refreshDays, count, pages int
	bar                       *progress
}

// mirror brings one table up to date: the records created since its
// checkpoint, then (with --refresh-days) the recent ones again.
func mirror[T any](ctx context.Context, run *syncRun, t *mirrorTable[T], k *kind[T]) (mirrorCounts, error) {
	// The database work is not cancelled with ctx, so that an interrupted
	// run commits what it has.
	dbctx := context.WithoutCancel(ctx)
	cp, err := loadCheckpoint(dbctx, run.db, t.name)
	if err != nil {
		return mirrorCounts{}, dbFailure(err)
	}
	w := newMirrorWriter(run.db, t, run.site, syncBatch)
	defer w.rollback()
	for v, err := range k.sync(ctx, run.c, run.site, &cp, &filters{count: run.count}) {
		if err != nil {
			return w.counts, joinCommit(err, w.commit(dbctx, &cp))
		}
		if err := w.put(dbctx, v, &cp); err != nil {
			return w.counts, dbFailure(err)
		}
		run.bar.add()
	}
	if err := w.commit(dbctx, &cp); err != nil || run.refreshDays == 0 || cp.IsZero() {
		return w.counts, dbFailure(err)
	}
	// Refresh: the records created from refreshDays before the newest on,
	// listed from two days earlier whatever the server's reading of
	// date_start, up to the checkpoint (what comes after is the next
	// sync's).
	from := cp.Mark().Add(-time.Duration(run.refreshDays) * 24 * time.Hour)
	walk := ordermsg.WithConcurrency(run.pages)
	recent := filters{since: ordermsg.DateOf(from.UTC().AddDate(0, 0, -2)).String(), direction: string(ordermsg.DirectionAsc), sort: "date_created", count: run.count}
	for v, err := range k.all(ctx, run.c, run.site, &recent, walk) {
		if err != nil {
			return w.counts, joinCommit(err, w.commit(dbctx, nil))
		}
		if created := t.created(v); created.Before(from) || created.After(cp.Mark()) {
			continue
		}
		if err := w.put(dbctx, v, nil); err != nil {
			return w.counts, dbFailure(err)
		}
		run.bar.add()
	}
	return w.counts, dbFailure(w.commit(dbctx, nil))
}

// dbFailure makes an error of the database a local failure (exit code 3);
// nil stays nil.
func dbFailure(err error) error {
	if err == nil {
		return nil
	}
	return &localFailure{err}
}

// joinCommit is the walk's error, with the commit's when that failed too.
func joinCommit(walkErr, commitErr error) error {
	if commitErr != nil {
		return fmt.Errorf("%w (and saving what was synced: %v)", walkErr, commitErr)
	}
	return walkErr
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
