//go:build unix

package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/ordermsg/ordermsg-go/ordermsgtest"
	"github.com/spf13/cobra"
)

// documented is a command line shown to users: in the README, in a file
// under docs/, or in an example of a command's --help.
type documented struct {
	where string
	line  string
	args  []string
	// needsCredentials: the line says so in a comment ("# needs
	// ORDERMSG_…"); it runs against a service named by the environment.
	needsCredentials bool
}

// parseDocumented splits line, which starts with prefix, into arguments.
func parseDocumented(t *testing.T, where, prefix, line string) documented {
	t.Helper()
	command, comment, _ := strings.Cut(line, "#")
	d := documented{where: where, line: line, needsCredentials: strings.Contains(comment, "needs ORDERMSG_")}
	if strings.ContainsAny(command, `"'$\|<>;&`) {
		t.Errorf("%s: %q is not a plain command line", where, line)
	}
	d.args = strings.Fields(strings.TrimPrefix(command, prefix))
	return d
}

// readmeCommands are the `go run ./cmd/ordermsg …` lines of the whole
// README and of every file under docs/ (docs/cli.md, the tool's reference,
// above all), each command once: a line that repeats the arguments of one
// before it is left out.
func readmeCommands(t *testing.T) []documented {
	t.Helper()
	const prefix = "go run ./cmd/ordermsg "
	texts := map[string]string{"README.md": readmeText(t)}
	docs, err := filepath.Glob(filepath.Join(repoTop(t), "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"README.md"}
	for _, doc := range docs {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		name := "docs/" + filepath.Base(doc)
		texts[name] = string(b)
		names = append(names, name)
	}
	var out []documented
	seen := map[string]bool{}
	for _, name := range names {
		lines := bufio.NewScanner(strings.NewReader(texts[name]))
		for lines.Scan() {
			if line := strings.TrimSpace(lines.Text()); strings.HasPrefix(line, prefix) {
				d := parseDocumented(t, name, prefix, line)
				if key := strings.Join(d.args, " "); !seen[key] {
					seen[key] = true
					out = append(out, d)
				}
			}
		}
	}
	if !slices.Contains(names, "docs/cli.md") {
		t.Error("there is no docs/cli.md, the tool's reference")
	}
	return out
}

// helpExamples are the example lines of every command's --help.
func helpExamples(t *testing.T) []documented {
	t.Helper()
	var out []documented
	var visit func(c *cobra.Command)
	visit = func(c *cobra.Command) {
		for _, line := range strings.Split(c.Example, "\n") {
			if line = strings.TrimSpace(line); line != "" {
				if !strings.HasPrefix(line, "ordermsg ") {
					t.Errorf("%s --help: example %q does not start with ordermsg", c.CommandPath(), line)
				}
				out = append(out, parseDocumented(t, c.CommandPath()+" --help", "ordermsg ", line))
			}
		}
		for _, sub := range c.Commands() {
			visit(sub)
		}
	}
	visit((&app{getenv: func(string) string { return "" }}).rootCommand())
	return out
}

// Every command the README, docs/ or a --help shows runs as written: against
// --demo, or, where the line says it needs credentials, against a service
// named by the environment (the demo's data, so the same ids answer), and
// without them it says what is missing.
func TestDocumentedCommandsRun(t *testing.T) {
	readme, help := readmeCommands(t), helpExamples(t)
	if len(readme) < 7 || len(help) < 20 {
		t.Fatalf("found %d README and docs/ commands and %d help examples", len(readme), len(help))
	}
	srv := ordermsgtest.NewServer(nil)
	t.Cleanup(srv.Close)
	credentials := map[string]string{envBaseURL: srv.URL, envAPIKey: srv.APIKey, envWebsiteID: fmt.Sprint(srv.WebsiteID)}

	for _, d := range append(readme, help...) {
		name := d.where + ": " + d.line
		switch {
		case len(d.args) > 0 && d.args[0] == "serve":
			runServe(t, name, d.args)
		case len(d.args) > 0 && (d.args[0] == "status" || d.args[0] == "changes"):
			// status and changes read a mirror: the demo's, synced a moment ago
			// into the --db of the line, in the folder the line runs in.
			dir := t.TempDir()
			if i := slices.Index(d.args, "--db"); i >= 0 && i+1 < len(d.args) {
				if r := runCommand(t, command(t, dir, nil, "sync", "--db", d.args[i+1], "--demo")); r.code != exitOK {
					t.Fatalf("%s: syncing the demo first: %v", name, r)
				}
			}
			if r := runCommand(t, command(t, dir, nil, d.args...)); r.code != exitOK {
				t.Errorf("%s: %v", name, r)
			}
		case d.needsCredentials:
			// A --websites FILE lists the websites of the service, with
			// their keys, in the folder the line runs in.
			dir := t.TempDir()
			if i := slices.Index(d.args, "--websites"); i >= 0 && i+1 < len(d.args) {
				var lines strings.Builder
				for _, w := range srv.Handler.Dataset().Websites {
					fmt.Fprintf(&lines, "%d %s\n", w.ID, w.APIKey)
				}
				if err := os.WriteFile(filepath.Join(dir, d.args[i+1]), []byte(lines.String()), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if r := runCommand(t, command(t, dir, nil, d.args...)); r.code != exitUsage || !strings.HasPrefix(r.stderr, "error: missing ORDERMSG_BASE_URL") {
				t.Errorf("%s, without credentials: %v", name, r)
			}
			if r := runCommand(t, command(t, dir, credentials, d.args...)); r.code != exitOK {
				t.Errorf("%s, with credentials: %v", name, r)
			}
		default:
			if r := runTool(t, nil, d.args...); r.code != exitOK {
				t.Errorf("%s: %v", name, r)
			}
		}
	}
}

// runServe runs a serve command until it serves, then stops it with Ctrl-C:
// it must exit 0.
func runServe(t *testing.T, name string, args []string) {
	t.Helper()
	cmd := command(t, "", nil, args...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(stdout)
	serving := false
	for !serving && lines.Scan() {
		serving = strings.HasPrefix(lines.Text(), "serving until interrupted")
	}
	if serving {
		cmd.Process.Signal(syscall.SIGINT)
	}
	go func() {
		for lines.Scan() {
		}
	}()
	if code := exitCodeOf(t, cmd.Wait()); !serving || code != exitOK {
		t.Errorf("%s: served %v, exit %d, stderr %q", name, serving, code, stderr.String())
	}
}

// readmeSection is the README's "## title" section, up to the next one.
func readmeSection(t *testing.T, title string) string {
	t.Helper()
	_, after, ok := strings.Cut(readmeText(t), "\n## "+title+"\n")
	if !ok {
		t.Fatalf("the README has no section %q", title)
	}
	section, _, _ := strings.Cut(after, "\n## ")
	return section
}

// What a newcomer needs before the first call: the license, the version
// header's real name, and how to install the tool, from a clone or by
// version.
func TestReadmeSaysWhatAdoptionNeeds(t *testing.T) {
	license, err := os.ReadFile(filepath.Join(repoTop(t), "LICENSE"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(license), "MIT License\n") || !strings.Contains(string(license), "Copyright (c) 2026 The ordermsg-go authors") {
		t.Errorf("LICENSE is not the MIT license of the ordermsg-go authors:\n%.200s", license)
	}
	if s := readmeSection(t, "License"); !strings.Contains(s, "MIT") || !strings.Contains(s, "`LICENSE`") {
		t.Errorf("the README's License section: %q", s)
	}
	if s := readmeSection(t, "Quick start"); !strings.Contains(s, "ordermsg.WithVersionHeader(") || !strings.Contains(s, "Set the version header's real name") {
		t.Error("the quick start does not say that the version header's real name must be set")
	}
	cli := readmeSection(t, "Command-line tool")
	gomod, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	// From a clone, and by version, which go install allows only for a
	// go.mod without replace directives.
	if !strings.Contains(cli, "go install ./cmd/ordermsg") || !strings.Contains(cli, "go install github.com/ordermsg/ordermsg-go/cmd/ordermsg@latest") {
		t.Error("the README does not say how to install the tool from a clone and by version")
	}
	if strings.Contains(string(gomod), "\nreplace") {
		t.Error("go.mod has a replace directive: go install …@version would refuse it")
	}
}
