package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/spf13/cobra"
)

func (a *app) changesCommand() *cobra.Command {
	var (
		dbTarget, after, resource string
		follow                    bool
		website                   int64
	)
	cmd := &cobra.Command{
		Use:   "changes --db FILE|URL [--after CURSOR] [--follow] [--website ID] [--resource orders|messages]",
		Short: "Print the changes a mirror recorded (new, updated, deleted records) as JSON Lines",
		Long: `Print the change feed of a mirror that sync --db keeps: every record that a
sync found new, updated (its data changed) or deleted is recorded with its row,
in the same transaction. One JSON object a line, in cursor order:
  {"cursor":"3f2a…","website_id":1001,"resource":"orders","id":42,"change":"updated","at":"2026-11-28T03:12:04.123456Z","record":{…}}
cursor is opaque; change is "new", "updated" or "deleted"; at is when the
mirror recorded it (RFC 3339, UTC); record, for new and updated, is the
record's JSON as stored.

Without --after it prints every change kept; with --after CURSOR the changes
after that one. Store the cursor of the last line you processed and resume
with --after: you never miss a change and never see one twice, whatever
stopped the reader (kill -9 too; a last line without its newline is
incomplete: leave it). Without --follow it exits 0 once it printed the
changes recorded so far. With --follow it then waits, and prints each new
change soon after its sync commits (PostgreSQL: LISTEN/NOTIFY; SQLite: it
reads every 250ms), until SIGINT or SIGTERM, and exits 0.

--website and --resource print only the changes of one website, one
resource, or both; their cursors resume as any other.

It exits 2 for a cursor that is malformed or that this database never
issued, and 4 for a cursor older than the changes kept (sync
--keep-changes removed changes after it: read the tables again, then follow
without --after); 3 when the database cannot be read.`,
		Example: `  ordermsg changes --db demo.db                  # after sync --db demo.db --demo: every change kept
  ordermsg changes --db demo.db --resource orders # the orders' alone; add --after CURSOR --follow to go on`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			filter := &mirror.ChangeFilter{WebsiteID: website, Resource: resource}
			switch {
			case dbTarget == "":
				return usagef("--db FILE|URL is required: the mirror whose changes to print")
			case website < 0:
				return usagef("--website %d: want a positive website id", website)
			case resource != "" && resource != "orders" && resource != "messages":
				return usagef("--resource %q: want orders or messages", resource)
			}
			target, err := parseTarget(dbTarget)
			if err != nil {
				return err
			}
			return a.printChanges(cmd.Context(), target, after, filter, follow)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&dbTarget, "db", "", "the mirror: a SQLite database file or a postgres:// URL")
	fl.StringVar(&after, "after", "", "print the changes after this cursor (the cursor of the last line you processed)")
	fl.BoolVar(&follow, "follow", false, "then wait and print new changes as they are recorded, until SIGINT or SIGTERM")
	fl.Int64Var(&website, "website", 0, "only the changes of this website")
	fl.StringVar(&resource, "resource", "", "only the changes of orders or of messages")
	return cmd
}

// printChanges prints the changes of the mirror at target after the
// cursor after, and with follow the new ones until ctx ends.
func (a *app) printChanges(ctx context.Context, target *mirrorTarget, after string, f *mirror.ChangeFilter, follow bool) error {
	if target.backend == mirror.SQLite {
		// Opening a missing file would make it.
		if _, err := os.Stat(target.name); errors.Is(err, fs.ErrNotExist) {
			return &localFailure{fmt.Errorf("--db %s: no such file: changes reads a mirror that sync --db made, and makes none", target.name)}
		}
	}
	db, err := target.open()
	if err != nil {
		return &localFailure{err}
	}
	defer db.Close()
	m, err := mirror.OpenExisting(ctx, db, target.backend)
	if err != nil {
		if ctx.Err() != nil && follow {
			return nil
		}
		return &localFailure{target.hide(fmt.Errorf("%s: %w", target.name, err))}
	}
	changes := m.Changes
	if follow {
		changes = m.FollowChanges
	}
	out := bufio.NewWriterSize(a.stdout, 64<<10)
	var line []byte
	for c, err := range changes(ctx, after, f) {
		var cursorErr *mirror.CursorError
		switch {
		case errors.As(err, &cursorErr) && cursorErr.Expired:
			return &expiredCursor{fmt.Errorf("--after %q: changes after it were removed (sync --keep-changes): read the tables again, then follow without --after", after)}
		case errors.As(err, &cursorErr):
			return usagef("--after %q: not a cursor that %s issued", after, target.name)
		case err != nil:
			return &localFailure{target.hide(fmt.Errorf("%s: %w", target.name, err))}
		}
		line = append(c.AppendJSON(line[:0]), '\n')
		if _, err := out.Write(line); err != nil {
			return stdoutFailure(err)
		}
		if follow {
			if err := out.Flush(); err != nil {
				return stdoutFailure(err)
			}
		}
	}
	if err := out.Flush(); err != nil {
		return stdoutFailure(err)
	}
	return nil
}
