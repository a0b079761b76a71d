package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/internal/resources"
	"github.com/spf13/cobra"
)

// filters are the list flags, common to orders and messages.
type filters struct {
	includes     includeFlags
	since, until string
	only         string // --status (orders) or --type (messages)
	search, sort string
	direction    string
	page, count  int
}

// dates parses --since and --until.
func (f *filters) dates() (since, until ordermsg.Date, err error) {
	for _, d := range []struct {
		flag, value string
		dst         *ordermsg.Date
	}{{"--since", f.since, &since}, {"--until", f.until, &until}} {
		if d.value == "" {
			continue
		}
		if *d.dst, err = ordermsg.ParseDate(d.value); err != nil {
			return since, until, usagef("%s %q: want a date YYYY-MM-DD that exists, from 0001-01-01, such as 2024-03-01", d.flag, d.value)
		}
	}
	// Dates of the YYYY-MM-DD form sort as their text does.
	if !since.IsZero() && !until.IsZero() && since.String() > until.String() {
		return since, until, usagef("--since %s is after --until %s: no record can be created after the one and before the other", since, until)
	}
	return since, until, nil
}

// check finds the mistakes in the flags before any request.
func (f *filters) check() error {
	if f.page < 0 {
		return usagef("--page %d: must not be negative", f.page)
	}
	if f.count < 0 {
		return usagef("--count %d: must not be negative", f.count)
	}
	if err := f.includes.check(); err != nil {
		return err
	}
	_, _, err := f.dates()
	return err
}

// includeFlags are --include and --allow-unknown-include of a command of
// one resource.
type includeFlags struct {
	names        []string
	allowUnknown bool
	known        []string // the resource's includes, as the SDK lists them
	plural       string   // the resource: "orders" or "messages"
}

// check finds an empty or spaced name in --include ("a,,b"), and a name
// that is not one of the resource's includes, with the name it is closest
// to, unless --allow-unknown-include lets it through: the spec does not
// close the set, and the service may know more than it shows.
func (inc *includeFlags) check() error {
	for _, n := range inc.names {
		if n = strings.TrimSpace(n); n == "" || strings.ContainsAny(n, " \t") {
			return usagef("--include %q: want names separated by commas, such as %s", strings.Join(inc.names, ","), strings.Join(inc.known[:2], ","))
		}
		if inc.allowUnknown || slices.Contains(inc.known, n) {
			continue
		}
		unknown := fmt.Sprintf("--include %q: not an include of %s.", n, inc.plural)
		switch guesses := suggestions(n, inc.known); len(guesses) {
		case 0:
		case 1:
			unknown = fmt.Sprintf("--include %q: not an include of %s; did you mean %s?", n, inc.plural, guesses[0])
		default:
			unknown = fmt.Sprintf("--include %q: not an include of %s; did you mean one of %s?", n, inc.plural, strings.Join(guesses, ", "))
		}
		return usagef("%s The includes of %s: %s. --allow-unknown-include sends a name the tool does not know.",
			unknown, inc.plural, strings.Join(inc.known, ", "))
	}
	return nil
}

// trimmed returns the names, each without the spaces around it.
func (inc *includeFlags) trimmed() []string {
	out := make([]string, len(inc.names))
	for i, n := range inc.names {
		out[i] = strings.TrimSpace(n)
	}
	return out
}

// suggestions returns the names among known that name (case aside) was
// most likely meant as: every one that begins with name (shipments for the
// three shipments.* includes); else the nearest by edit distance, within 2,
// or 1 for a name of 4 characters or fewer (where 2 reaches names that
// share little with it), a tie going to the longer common prefix; else one
// whose part after its dot is name (attributes for items.attributes). None
// when nothing is near.
func suggestions(name string, known []string) []string {
	name = strings.ToLower(name)
	var begun []string
	for _, k := range known {
		if strings.HasPrefix(k, name) {
			begun = append(begun, k)
		}
	}
	if len(begun) > 0 {
		return begun
	}
	maxDistance := 2
	if utf8.RuneCountInString(name) <= 4 {
		maxDistance = 1
	}
	best, bestDistance, bestPrefix := "", maxDistance, -1
	for _, k := range known {
		d, p := editDistance(name, k), commonPrefix(name, k)
		if d < bestDistance || d == bestDistance && p > bestPrefix {
			best, bestDistance, bestPrefix = k, d, p
		}
	}
	if best != "" {
		return []string{best}
	}
	for _, k := range known {
		if _, after, ok := strings.Cut(k, "."); ok && after == name {
			return []string{k}
		}
	}
	return nil
}

// commonPrefix is the length in bytes of the longest prefix a and b share.
func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// kind is what the commands need to know of a resource: orders or messages.
type kind[T any] struct {
	plural, singular string // plural is the resource's Name
	demoID           string // an id of the demo's data, for the help's examples
	onlyFlag         string // the kind's own filter flag: "status" or "type"
	onlyHelp         string
	includes         []string
	rawJSON          func(*T) []byte      // the record as the server sent it (read with KeepRawJSON)
	res              ordermsg.Resource[T] // its calls; Sync (sync --db and --state) fetches pages one at a time
	// table is the CSV of export --format csv; itemTable, when set, is the
	// one of --items.
	table, itemTable *csvTable[T]
	// csvIncludes are the includes an export to CSV asks for, for the
	// columns that need them; CSV refuses any other (see checkFormat).
	csvIncludes []string
}

// The first order of the demo's website and its message: the ids of the
// examples in the help, which run against --demo.
const (
	demoOrderID   = "1001000020"
	demoMessageID = "1001000019"
)

func newResourceCommand[T any](a *app, k *kind[T]) *cobra.Command {
	cmd := groupCommand(k.plural, "Get, list and export "+k.plural,
		fmt.Sprintf("  ordermsg %[1]s get %[2]s --demo\n  ordermsg %[1]s list --count 50 --demo\n  ordermsg %[1]s export --format csv -o %[1]s.csv --demo",
			k.plural, k.demoID))
	cmd.AddCommand(k.getCommand(a), k.listCommand(a), k.exportCommand(a))
	return cmd
}

func (k *kind[T]) includeFlag(cmd *cobra.Command, inc *includeFlags) {
	inc.known, inc.plural = k.includes, k.plural
	cmd.Flags().StringSliceVar(&inc.names, "include", nil,
		"additional fields, repeatable or comma-separated: "+strings.Join(k.includes, ", "))
	cmd.Flags().BoolVar(&inc.allowUnknown, "allow-unknown-include", false,
		"send an --include that is not in the list above (the service may know more than its documentation shows)")
}

// filterFlags adds the list filters to cmd.
func (k *kind[T]) filterFlags(cmd *cobra.Command, f *filters) {
	fl := cmd.Flags()
	k.includeFlag(cmd, &f.includes)
	fl.StringVar(&f.since, "since", "", "only records created after this date (YYYY-MM-DD)")
	fl.StringVar(&f.until, "until", "", "only records created before this date (YYYY-MM-DD)")
	fl.StringVar(&f.only, k.onlyFlag, "", k.onlyHelp)
	fl.StringVar(&f.search, "search", "", "search string")
	fl.StringVar(&f.sort, "sort", "", "field to sort by")
	fl.StringVar(&f.direction, "direction", "", "asc or desc (the values the SDK assumes)")
}

func (k *kind[T]) getCommand(a *app) *cobra.Command {
	var includes includeFlags
	cmd := &cobra.Command{
		Use:   "get ID",
		Short: "Print one " + k.singular + " as JSON",
		Example: fmt.Sprintf("  ordermsg %[1]s get %[2]s --demo\n  ordermsg %[1]s get %[2]s --include %[3]s --demo",
			k.plural, k.demoID, strings.Join(k.includes[:2], ",")),
		Args: exactlyOneID,
		RunE: func(cmd *cobra.Command, args []string) error {
			id, _ := strconv.ParseInt(args[0], 10, 64)
			if err := includes.check(); err != nil {
				return err
			}
			c, site, closeFn, err := a.connect()
			if err != nil {
				return err
			}
			defer closeFn()
			v, err := k.res.Get(cmd.Context(), c, site, id, &ordermsg.ResourceOptions{Includes: includes.trimmed(), KeepRawJSON: true})
			if err != nil {
				return &apiFailure{err}
			}
			return a.printJSON(k.rawJSON(v))
		},
	}
	k.includeFlag(cmd, &includes)
	return cmd
}

func (k *kind[T]) listCommand(a *app) *cobra.Command {
	var f filters
	cmd := &cobra.Command{
		Use:   "list",
		Short: "Print one page of " + k.plural + " as JSON, with its pagination",
		Example: fmt.Sprintf("  ordermsg %[1]s list --count 50 --page 2 --demo\n  ordermsg %[1]s list --since 2024-01-01 --direction asc --demo",
			k.plural),
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := f.check(); err != nil {
				return err
			}
			c, site, closeFn, err := a.connect()
			if err != nil {
				return err
			}
			defer closeFn()
			page, err := k.res.List(cmd.Context(), c, site, f.options())
			if err != nil {
				return &apiFailure{err}
			}
			return a.printJSON(page.RawJSON())
		},
	}
	k.filterFlags(cmd, &f)
	cmd.Flags().IntVar(&f.page, "page", 0, "page number (the server's default is 1)")
	cmd.Flags().IntVar(&f.count, "count", 0, "page size (the server's default when 0)")
	return cmd
}

// printJSON prints JSON exactly as the server sent it, indented when stdout
// is a terminal.
func (a *app) printJSON(asSent []byte) error {
	out := asSent
	var indented bytes.Buffer
	if a.isTerminal(a.stdout) && json.Indent(&indented, asSent, "", "  ") == nil {
		out = indented.Bytes()
	}
	if _, err := fmt.Fprintf(a.stdout, "%s\n", out); err != nil {
		return stdoutFailure(err)
	}
	return nil
}

// stdoutFailure is a failed write to standard output.
func stdoutFailure(err error) error {
	return &localFailure{fmt.Errorf("writing standard output: %w", err)}
}

// reportWriter writes a command's report of many lines, and keeps the
// first error of its writes (standard output on a full disk), for the
// command's exit: the lines are its result.
type reportWriter struct {
	w   io.Writer
	err error
}

func (r *reportWriter) Write(p []byte) (int, error) {
	n, err := r.w.Write(p)
	if err != nil && r.err == nil {
		r.err = err
	}
	return n, err
}

// failure is the stdoutFailure of the first write that failed, or nil.
func (r *reportWriter) failure() error {
	if r.err == nil {
		return nil
	}
	return stdoutFailure(r.err)
}

// exactlyOneID accepts one positive integer argument.
func exactlyOneID(_ *cobra.Command, args []string) error {
	if len(args) != 1 {
		return usagef("want one id, got %d arguments", len(args))
	}
	if id, err := strconv.ParseInt(args[0], 10, 64); err != nil || id <= 0 {
		return usagef("%q is not an id: want a positive integer", args[0])
	}
	return nil
}

func names[I ~string](all []I) []string {
	out := make([]string, len(all))
	for i, v := range all {
		out[i] = string(v)
	}
	return out
}

var ordersKind = &kind[ordermsg.Order]{
	rawJSON: (*ordermsg.Order).RawJSON, res: ordermsg.OrdersResource(),
	plural: ordermsg.OrdersResource().Name(), singular: resources.Orders.Object, demoID: demoOrderID,
	onlyFlag: "status", onlyHelp: "only orders with this status (observed: new)",
	includes:    names(ordermsg.AllOrderIncludes()),
	table:       orderTable,
	itemTable:   orderItemTable,
	csvIncludes: []string{string(ordermsg.OrderIncludeItemsPortal)},
}

var messagesKind = &kind[ordermsg.Message]{
	rawJSON: (*ordermsg.Message).RawJSON, res: ordermsg.MessagesResource(),
	plural: ordermsg.MessagesResource().Name(), singular: resources.Messages.Object, demoID: demoMessageID,
	onlyFlag: "type", onlyHelp: "only messages of this type (observed: online_order, event_management, general_contact)",
	includes:    names(ordermsg.AllMessageIncludes()),
	table:       messageTable,
	csvIncludes: []string{string(ordermsg.MessageIncludeFormSubmission)},
}

// options are the options of the calls that the flags ask for: --status or
// --type is the resource's Filter.
func (f *filters) options() *ordermsg.ResourceOptions {
	since, until, _ := f.dates() // checked before the client is made
	return &ordermsg.ResourceOptions{
		Page: f.page, Count: f.count, DateStart: since, DateEnd: until,
		Direction: ordermsg.Direction(f.direction), Sort: f.sort, Search: f.search,
		Filter: f.only, Includes: f.includes.trimmed(),
		KeepRawJSON: true, // printed and exported as the server sent them
	}
}
