package main

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// leafCommands returns the path of every command that runs (not a group).
func leafCommands() [][]string {
	var out [][]string
	var visit func(c *cobra.Command, path []string)
	visit = func(c *cobra.Command, path []string) {
		if len(c.Commands()) == 0 {
			out = append(out, path)
		}
		for _, sub := range c.Commands() {
			visit(sub, append(slices.Clone(path), sub.Name()))
		}
	}
	visit((&app{getenv: func(string) string { return "" }}).rootCommand(), nil)
	return out
}

// commandAt returns the command at path of a fresh root, its flags merged.
func commandAt(t *testing.T, path []string) *cobra.Command {
	t.Helper()
	root := (&app{getenv: func(string) string { return "" }}).rootCommand()
	c, _, err := root.Find(path)
	if err != nil {
		t.Fatal(err)
	}
	c.InitDefaultHelpFlag()
	return c
}

// forbidden are the words of Go and its libraries that a flag error must
// not show: the tool speaks of what a flag wants.
var forbidden = []string{"strconv", "Parse", "invalid syntax", "int64", "int32", "uint64", "float64", "Duration", "time:", "stringSlice", "bare \"", "non-quoted"}

// Every flag of every command, given a value it cannot take, is a usage
// error in the tool's words: the flag, the value, what it wants.
func TestEveryFlagErrorIsInTheToolsWords(t *testing.T) {
	bad := map[string][]string{ // by the flag's type: values it cannot take
		"int": {"abc", "1.5", "99999999999999999999"}, "int64": {"abc", "99999999999999999999"},
		"uint64": {"-1", "abc"}, "float64": {"abc", "1,5"}, "duration": {"abc", "10"},
		"bool": {"maybe"}, "stringSlice": {`a"b`},
	}
	types := map[string]bool{}
	for _, path := range leafCommands() {
		c := commandAt(t, path)
		c.Flags().VisitAll(func(f *pflag.Flag) {
			values, ok := bad[f.Value.Type()]
			if !ok {
				if f.Value.Type() != "string" && f.Value.Type() != "header" {
					t.Errorf("%v --%s: a flag of type %s that this test does not try", path, f.Name, f.Value.Type())
				}
				return
			}
			types[f.Value.Type()] = true
			for _, v := range values {
				args := append(slices.Clone(path), "--"+f.Name+"="+v)
				stdout, stderr, code := cli{}.run(context.Background(), args...)
				want := fmt.Sprintf("error: --%s %q: ", f.Name, v)
				if code != exitUsage || stdout != "" || !strings.HasPrefix(stderr, want) || !strings.Contains(stderr, ": want ") {
					t.Errorf("%v: exit %d, stderr %q; want it to start %q", args, code, stderr, want)
				}
				for _, word := range forbidden {
					if strings.Contains(stderr, word) {
						t.Errorf("%v: %q shows %q", args, stderr, word)
					}
				}
			}
			if f.NoOptDefVal == "" { // a flag that needs a value, given none
				_, stderr, code := cli{}.run(context.Background(), append(slices.Clone(path), "--"+f.Name)...)
				if code != exitUsage || !strings.Contains(stderr, "--"+f.Name) {
					t.Errorf("%v --%s without a value: exit %d, stderr %q", path, f.Name, code, stderr)
				}
			}
		})
	}
	for typ := range bad {
		if !types[typ] {
			t.Errorf("no flag of type %s was tried", typ)
		}
	}
}

// The tool's own examples in the issue: --website abc, and a bool given a
// word that is not one.
func TestFlagErrorsSayWhatTheFlagWants(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"orders", "list", "--website", "abc"}, `error: --website "abc": want a positive integer, the website's id` + "\n"},
		{[]string{"orders", "list", "--count", "ten"}, `error: --count "ten": want a whole number, such as 10` + "\n"},
		{[]string{"orders", "list", "--count", "99999999999999999999"}, `error: --count "99999999999999999999": out of range: want a whole number, such as 10` + "\n"},
		{[]string{"messages", "export", "--timeout", "5"}, `error: --timeout "5": want a duration, such as 30s, 1m30s or 500ms` + "\n"},
		{[]string{"orders", "get", "1", "--demo=yes"}, `error: --demo "yes": want true or false` + "\n"},
		{[]string{"serve", "--seed", "-1"}, `error: --seed "-1": want a whole number, 0 or more` + "\n"},
		{[]string{"files", "download", "-o", "x", "--max-bytes", "1GB"}, `error: --max-bytes "1GB": want a whole number, such as 10` + "\n"},
	} {
		_, stderr, code := cli{}.run(context.Background(), tc.args...)
		if code != exitUsage || !strings.HasPrefix(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want %q", tc.args, code, stderr, tc.want)
		}
	}
}

// --since after --until cannot match a record: a usage error before any
// request, wherever the two flags are. The same day twice is a window.
func TestInvertedDateWindowIsAUsageError(t *testing.T) {
	srv, env := smallService(t)
	for _, cmd := range [][]string{{"orders", "list"}, {"messages", "list"}, {"orders", "export"}, {"messages", "export", "--format", "csv"},
		{"files", "download", "-o", t.TempDir()}} {
		args := append(slices.Clone(cmd), "--since", "2024-03-01", "--until", "2024-02-01")
		stdout, stderr, code := cli{env: env}.run(context.Background(), args...)
		want := "error: --since 2024-03-01 is after --until 2024-02-01: no record can be created after the one and before the other\n"
		if code != exitUsage || stdout != "" || !strings.HasPrefix(stderr, want) {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
		same := append(slices.Clone(cmd), "--since", "2024-01-02", "--until", "2024-01-02")
		if _, stderr, code := (cli{env: env}).run(context.Background(), same...); code != exitOK {
			t.Errorf("%v: exit %d, stderr %q", same, code, stderr)
		}
	}
	if n := srv.Handler.Stats().Requests; n == 0 {
		t.Error("the windows of one day sent no request")
	}
}

// --demo has its own URL, key and website: the flags that name others are
// refused, on every command that connects; the variables, likely set for
// the real service, are ignored.
func TestDemoRefusesConnectionFlags(t *testing.T) {
	for _, path := range leafCommands() {
		if c := commandAt(t, path); c.Flags().Lookup("demo") == nil {
			continue
		}
		for _, flag := range [][]string{{"--api-key", "sk_live_x"}, {"--base-url", "https://api.example.com"}, {"--website", "1002"}} {
			args := append(slices.Clone(path), "--demo", flag[0], flag[1])
			switch strings.Join(path, " ") { // what each needs besides
			case "orders get", "messages get":
				args = append(args, demoOrderID)
			case "files download":
				args = append(args, "-o", t.TempDir())
			case "sync":
				args = append(args, "--db", filepath.Join(t.TempDir(), "demo.db"))
			}
			stdout, stderr, code := cli{}.run(context.Background(), args...)
			want := "error: " + flag[0] + " does not go with --demo, which uses the built-in fake's own URL, key and website\n"
			if code != exitUsage || stdout != "" || !strings.HasPrefix(stderr, want) {
				t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
			}
		}
	}
	elsewhere := map[string]string{envBaseURL: "https://unreachable.invalid", envAPIKey: "sk_live_x", envWebsiteID: "99"}
	stdout, stderr, code := cli{env: elsewhere}.run(context.Background(), "orders", "list", "--demo", "--count", "1")
	if code != exitOK || !strings.Contains(stdout, `"object":"list"`) {
		t.Errorf("--demo with the connection's variables set: exit %d, stderr %q", code, stderr)
	}
}

// An include the tool does not know is refused before any request, with
// the resource's includes and the nearest of them; --allow-unknown-include
// sends it, for includes the service has and the documentation does not
// show.
func TestUnknownIncludeIsRefusedWithASuggestion(t *testing.T) {
	srv, env := smallService(t)
	w := srv.Handler.Dataset().Websites[0]
	for _, tc := range []struct {
		args  []string
		guess string
	}{
		{[]string{"orders", "list", "--include", "mesage"}, "; did you mean message?"},
		{[]string{"orders", "get", fmt.Sprint(w.Orders[0].ID), "--include", "user,attributes"}, "; did you mean items.attributes?"},
		{[]string{"orders", "export", "--include", "shipments.shiping_method"}, "; did you mean shipments.shipping_method?"},
		{[]string{"messages", "list", "--include", "User"}, "; did you mean user?"},
		{[]string{"messages", "export", "--format", "csv", "--include", "formsubmission"}, "; did you mean form_submission?"},
		{[]string{"messages", "get", fmt.Sprint(w.Messages[0].ID), "--include", "invoices"}, "."},
	} {
		name := tc.args[len(tc.args)-1]
		if i := strings.LastIndex(name, ","); i >= 0 {
			name = name[i+1:]
		}
		stdout, stderr, code := cli{env: env}.run(context.Background(), tc.args...)
		want := fmt.Sprintf("error: --include %q: not an include of %s%s The includes of %s: ", name, tc.args[0], tc.guess, tc.args[0])
		if code != exitUsage || stdout != "" || !strings.HasPrefix(stderr, want) || !strings.Contains(stderr, "--allow-unknown-include sends a name the tool does not know.\n") {
			t.Errorf("%v: exit %d, stderr %q; want it to start %q", tc.args, code, stderr, want)
		}
	}
	if n := srv.Handler.Stats().Requests; n != 0 {
		t.Errorf("%d requests for refused includes", n)
	}
	// Allowed, the name goes to the service (whose answer, here the fake's
	// 400, is the service's to give).
	_, stderr, code := cli{env: env}.run(context.Background(), "orders", "list", "--include", "mesage", "--allow-unknown-include")
	if code != exitFailure || !strings.Contains(stderr, "?includes=mesage: 400 Bad Request: unknown include \"mesage\"") {
		t.Errorf("--allow-unknown-include: exit %d, stderr %q", code, stderr)
	}
	if _, stderr, code := (cli{env: env}).run(context.Background(), "orders", "list", "--include", "user", "--allow-unknown-include"); code != exitOK {
		t.Errorf("a known include with --allow-unknown-include: exit %d, stderr %q", code, stderr)
	}
}

// The did-you-mean of --include: every include that the name begins (case
// aside), else the nearest by edit distance (within 2, or 1 for a name of 4
// characters or fewer), a tie going to the longer common prefix, else the
// include whose part after its dot is the name.
func TestIncludeSuggestions(t *testing.T) {
	orders, messages := ordersKind.includes, messagesKind.includes
	for _, tc := range []struct {
		name  string
		known []string
		want  []string
	}{
		{"port", orders, []string{"portal"}},
		{"port", messages, []string{"portal"}},
		{"ord", messages, []string{"order", "order.items"}},
		{"shipments", orders, []string{"shipments.shipping_address", "shipments.shipping_carrier", "shipments.shipping_method"}},
		{"items", orders, []string{"items.attributes", "items.portal", "items.print_ready_files"}},
		{"payment", orders, []string{"payment_transactions"}},
		{"Payment", messages, []string{"payment_transactions"}},
		{"Notes", orders, []string{"notes"}},
		{"mesage", orders, []string{"message"}},
		{"formsubmission", messages, []string{"form_submission"}},
		{"shipments.shiping_method", orders, []string{"shipments.shipping_method"}},
		{"usr", orders, []string{"user"}},
		{"noes", orders, []string{"notes"}},
		{"uzr", orders, nil}, // distance 2, too far for 3 characters
		{"files", messages, []string{"file"}},
		{"attributes", orders, []string{"items.attributes"}},
		{"items", messages, []string{"order.items"}},
		{"invoices", messages, nil},
		// A tie goes to the longer common prefix, whatever the order.
		{"abcx", []string{"zbcx", "abcy"}, []string{"abcy"}},
		{"abcx", []string{"abcy", "zbcx"}, []string{"abcy"}},
		{"abcde", []string{"abxye"}, []string{"abxye"}},
		{"abcd", []string{"abxy"}, nil},
	} {
		if got := suggestions(tc.name, tc.known); !slices.Equal(got, tc.want) {
			t.Errorf("suggestions(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
	// On the command line, several are listed.
	_, stderr, code := cli{}.run(context.Background(), "orders", "list", "--demo", "--include", "shipments")
	want := `error: --include "shipments": not an include of orders; did you mean one of shipments.shipping_address, shipments.shipping_carrier, shipments.shipping_method? The includes of orders: `
	if code != exitUsage || !strings.HasPrefix(stderr, want) {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// The SDK's hint about the version header names the tool's flag and
// variable; under --demo, whose fake requires the header the tool sends,
// there is no hint, even for a 400 that mentions a version (for which the
// SDK gives one).
func TestVersionHeaderHintNamesTheFlag(t *testing.T) {
	_, stderr, code := cli{}.run(context.Background(), "orders", "list", "--demo", "--include", "version", "--allow-unknown-include")
	if code != exitFailure || !strings.HasSuffix(stderr, `400 Bad Request: unknown include "version"`+"\n") {
		t.Errorf("--demo: exit %d, stderr %q", code, stderr)
	}
}
