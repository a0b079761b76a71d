package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"
	"unicode"

	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/mirror/webhook"
	"github.com/spf13/cobra"
)

// defaultStale is the default of status --stale: a daily sync, with an
// hour for the run itself and the drift of its schedule.
const defaultStale = 25 * time.Hour

func (a *app) statusCommand() *cobra.Command {
	var (
		dbTarget string
		websites string
		stale    time.Duration
		asJSON   bool
	)
	cmd := &cobra.Command{
		Use:   "status --db FILE|URL [--websites FILE] [--stale DURATION] [--json]",
		Short: "Say whether each website of a mirror synced lately, for cron, Nagios or a probe",
		Long: `Read the state of each website from a mirror that sync --db keeps (the view
mirror_website_states, read from the table mirror_runs, where every sync
records its run) and print a line per website: whether it is fresh, stale or
failing; its last success and how long ago; its last run's status and how
long ago; the number of its runs that failed since its last success, and
the last one's error:
  website 1001: fresh; last success 3m12s ago (2026-11-27T23:12:04Z); last run ok 3m12s ago; 0 consecutive failures
  website 1003: stale, failing; last success never; last run failed 5m0s ago; 4 consecutive failures: ordermsg: GET …: 401 Unauthorized: …
  website 1004: stale; never ran

A website is stale when it has had no successful run within --stale (default
25h: a daily cron, with an hour for the run and its schedule's drift; give
about three periods for a shorter one, such as --stale 15m for a sync every 5
minutes); failing when its last run failed, however recent its last success
(a monitor that should wait for a second failure has its own setting for it,
such as Nagios's max_check_attempts or a probe's failureThreshold).

Without --websites, every website that has a run in the database is shown.
With --websites FILE, the file of sync --websites, the websites of FILE are
shown, each of them counts, and one that never ran is stale; a website of
the database that FILE does not list is left out. FILE is read as sync reads
it (only its ids are used): one that group or others may read is refused.

--json prints a JSON object per line (JSON Lines) per website instead:
website_id, stale, failing, last_success_at (RFC 3339 UTC, null when none),
seconds_since_success (null when none), last_run_started_at,
last_run_finished_at, last_status ("ok" or "failed"; these three null when it
never ran), last_error (null unless its last run failed) and
consecutive_failures.

When a worker delivers webhooks into the database (sync --every
--webhook-url), a last line says how many changes were never delivered, given up
after 3 days of retries (docs/webhooks.md); River keeps them in river_job.

It exits 0 when every website is fresh and none is failing; 1 when any is
stale or failing, the error line naming each, or any webhook delivery was
given up; 1 too when the database has
no run at all and no --websites was given; 2 on a usage error (a --stale
that is not a positive duration, an unsafe FILE); 3 when the database cannot
be read: a missing SQLite file, PostgreSQL unreachable, a database that
holds no mirror. It never makes a mirror: a database of an earlier version
of ordermsg is upgraded in place, as sync does.`,
		Example: `  ordermsg status --db fleet.db
  ordermsg status --db fleet.db --stale 2h --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch {
			case dbTarget == "":
				return usagef("--db FILE|URL is required: the mirror whose websites to read")
			case stale <= 0:
				return usagef("--stale %v: want a positive duration, such as 25h or 15m", stale)
			case cmd.Flags().Changed("websites") && websites == "":
				return usagef("--websites needs a FILE: %s", websitesFileForm)
			}
			target, err := parseTarget(dbTarget)
			if err != nil {
				return err
			}
			s := &statusRun{a: a, target: target, stale: stale, json: asJSON}
			if websites != "" {
				lines, err := readWebsites(cmd.Context(), websites, func(string) error { return nil })
				if err != nil {
					if cmd.Context().Err() != nil {
						return &stopped{"while waiting to read --websites " + websites}
					}
					return err
				}
				for _, l := range lines {
					s.ids = append(s.ids, l.id)
				}
			}
			return s.run(cmd.Context())
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&dbTarget, "db", "", "the mirror: a SQLite database file or a postgres:// URL")
	fl.StringVar(&websites, "websites", "", "show the websites of FILE, the file of sync --websites, each of which must be fresh")
	fl.DurationVar(&stale, "stale", defaultStale, "a website with no successful run within this time is stale")
	fl.BoolVar(&asJSON, "json", false, "print a JSON object per website, one a line")
	return cmd
}

// statusRun is one status command.
type statusRun struct {
	a      *app
	target *mirrorTarget
	stale  time.Duration
	json   bool
	ids    []int64 // the websites of --websites FILE, nil without it
}

// run reads the states, prints a line per website and returns the error
// that names the stale and failing ones.
func (s *statusRun) run(ctx context.Context) error {
	states, givenUp, err := s.read(ctx)
	if err != nil {
		return err
	}
	now := time.Now()
	shown := states
	if s.ids != nil {
		byID := map[int64]mirror.WebsiteState{}
		for _, st := range states {
			byID[st.WebsiteID] = st
		}
		shown = make([]mirror.WebsiteState, len(s.ids))
		for i, id := range s.ids {
			shown[i] = byID[id]
			shown[i].WebsiteID = id
		}
	}
	if len(shown) == 0 {
		return fmt.Errorf("%s holds no run of any website: give --websites FILE to name those that must have one", s.target.name)
	}
	w := &reportWriter{w: s.a.stdout}
	var bad []string
	for _, st := range shown {
		v := verdictOf(st, now, s.stale)
		if s.json {
			s.printJSON(w, st, v, now)
		} else {
			fmt.Fprintln(w, v.line(st, now))
		}
		if v.stale || v.failing {
			bad = append(bad, fmt.Sprintf("%d (%s)", st.WebsiteID, v.word()))
		}
	}
	if givenUp >= 0 && !s.json {
		fmt.Fprintf(w, "webhooks: %s given up, never delivered\n", counted(int(givenUp), "change"))
	}
	if err := w.failure(); err != nil {
		return err
	}
	var problems []string
	if len(bad) > 0 {
		problems = append(problems, fmt.Sprintf("%d of %s are stale or failing: %s", len(bad), counted(len(shown), "website"), strings.Join(bad, ", ")))
	}
	if givenUp > 0 {
		problems = append(problems, fmt.Sprintf("%s never delivered to the webhook endpoint, given up (River keeps them as discarded or cancelled jobs of %s)",
			counted(int(givenUp), "change"), webhook.Kind))
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "; "))
	}
	return nil
}

// read opens the mirror, which must exist, and reads its websites' states
// and the webhook deliveries given up (-1 when no worker delivered
// webhooks into it). Every failure is the database's (exit 3).
func (s *statusRun) read(ctx context.Context) (states []mirror.WebsiteState, givenUp int64, err error) {
	t := s.target
	if t.backend == mirror.SQLite {
		// Opening a missing file would make it.
		if _, err := os.Stat(t.name); errors.Is(err, fs.ErrNotExist) {
			return nil, 0, &localFailure{fmt.Errorf("--db %s: no such file: status reads a mirror that sync --db made, and makes none", t.name)}
		}
	}
	db, err := t.open()
	if err != nil {
		return nil, 0, &localFailure{err}
	}
	defer db.Close()
	m, err := mirror.OpenExisting(ctx, db, t.backend)
	if err == nil {
		if states, err = m.WebsiteStates(ctx); err == nil {
			if givenUp, err = t.givenUpDeliveries(ctx, db); err == nil {
				return states, givenUp, nil
			}
		}
	}
	if ctx.Err() != nil {
		return nil, 0, &stopped{"before reading " + t.name}
	}
	return nil, 0, &localFailure{t.hide(fmt.Errorf("%s: %w", t.name, err))}
}

// verdict is what status says of a website.
type verdict struct {
	stale, failing bool
	ran            bool
}

// verdictOf judges st at now: stale without a success within stale,
// failing when its last run failed.
func verdictOf(st mirror.WebsiteState, now time.Time, stale time.Duration) verdict {
	return verdict{
		stale:   st.LastSuccess.IsZero() || now.Sub(st.LastSuccess) > stale,
		failing: st.LastStatus == "failed",
		ran:     !st.LastFinished.IsZero(),
	}
}

// word is "fresh", "stale", "failing" or "stale, failing".
func (v verdict) word() string {
	switch {
	case v.stale && v.failing:
		return "stale, failing"
	case v.stale:
		return "stale"
	case v.failing:
		return "failing"
	}
	return "fresh"
}

// line is the text line of st.
func (v verdict) line(st mirror.WebsiteState, now time.Time) string {
	head := fmt.Sprintf("website %d: %s", st.WebsiteID, v.word())
	if !v.ran {
		return head + "; never ran"
	}
	success := "never"
	if !st.LastSuccess.IsZero() {
		success = fmt.Sprintf("%s ago (%s)", ago(now, st.LastSuccess), st.LastSuccess.UTC().Format(time.RFC3339))
	}
	line := fmt.Sprintf("%s; last success %s; last run %s %s ago; %d consecutive failures",
		head, success, st.LastStatus, ago(now, st.LastFinished), st.ConsecutiveFailures)
	if st.LastError != "" {
		line += ": " + oneLine(st.LastError)
	}
	return line
}

// ago is how long before now t was, to the second; 0s for a time after now
// (another machine's clock).
func ago(now, t time.Time) time.Duration {
	return max(now.Sub(t), 0).Round(time.Second)
}

// oneLine is text with every character that is not printable (a line
// break, a terminal's escape) replaced by a space, so that a website's
// error keeps to its line and cannot drive the terminal.
func oneLine(text string) string {
	return strings.Map(func(r rune) rune {
		if !unicode.IsPrint(r) {
			return ' '
		}
		return r
	}, text)
}

// statusJSON is the JSON object of a website that status --json prints.
type statusJSON struct {
	WebsiteID           int64      `json:"website_id"`
	Stale               bool       `json:"stale"`
	Failing             bool       `json:"failing"`
	LastSuccessAt       *time.Time `json:"last_success_at"`
	SecondsSinceSuccess *float64   `json:"seconds_since_success"`
	LastRunStartedAt    *time.Time `json:"last_run_started_at"`
	LastRunFinishedAt   *time.Time `json:"last_run_finished_at"`
	LastStatus          *string    `json:"last_status"`
	LastError           *string    `json:"last_error"`
	ConsecutiveFailures int        `json:"consecutive_failures"`
}

// printJSON prints st's object on a line of w.
func (s *statusRun) printJSON(w *reportWriter, st mirror.WebsiteState, v verdict, now time.Time) {
	at := func(t time.Time) *time.Time {
		if t.IsZero() {
			return nil
		}
		t = t.UTC()
		return &t
	}
	o := statusJSON{WebsiteID: st.WebsiteID, Stale: v.stale, Failing: v.failing, LastSuccessAt: at(st.LastSuccess),
		LastRunStartedAt: at(st.LastStarted), LastRunFinishedAt: at(st.LastFinished), ConsecutiveFailures: st.ConsecutiveFailures}
	if !st.LastSuccess.IsZero() {
		secs := max(now.Sub(st.LastSuccess), 0).Seconds()
		o.SecondsSinceSuccess = &secs
	}
	if v.ran {
		o.LastStatus = &st.LastStatus
	}
	if st.LastError != "" {
		o.LastError = &st.LastError
	}
	b, _ := json.Marshal(o) // plain types: it always encodes
	fmt.Fprintf(w, "%s\n", b)
}
