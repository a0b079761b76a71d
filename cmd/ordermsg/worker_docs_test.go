package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// fencedBlocks returns the text of each block of markdown fenced with
// ```lang.
func fencedBlocks(markdown, lang string) []string {
	var out []string
	for _, part := range strings.Split(markdown, "```"+lang+"\n")[1:] {
		block, _, _ := strings.Cut(part, "```")
		out = append(out, block)
	}
	return out
}

// deployedArgs are the arguments of the tool in docs/worker.md: the
// systemd unit's ExecStart and each container's args list.
func deployedArgs(t *testing.T, doc string) [][]string {
	t.Helper()
	var out [][]string
	for _, unit := range fencedBlocks(doc, "ini") {
		for _, line := range strings.Split(unit, "\n") {
			if cmd, ok := strings.CutPrefix(line, "ExecStart="); ok {
				out = append(out, strings.Fields(cmd)[1:])
			}
		}
	}
	item := regexp.MustCompile(`^\s+- (\S+)$`)
	for _, manifest := range fencedBlocks(doc, "yaml") {
		_, after, ok := strings.Cut(manifest, "\n          args:\n")
		if !ok {
			continue
		}
		var args []string
		for _, line := range strings.Split(after, "\n") {
			m := item.FindStringSubmatch(line)
			if m == nil {
				break
			}
			args = append(args, m[1])
		}
		out = append(out, args)
	}
	return out
}

// TestDeploymentDocsUseFlagsThatExist reads the systemd unit and the
// Kubernetes manifests of docs/worker.md: each runs `sync`, with flags the
// command has, and with --every; none puts a secret on the command line
// (no --db, no --api-key); the DSN comes from ORDERMSG_DB out of a Secret,
// and the probes ask /healthz on the --metrics port.
func TestDeploymentDocsUseFlagsThatExist(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(repoTop(t), "docs", "worker.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	sync, _, err := (&app{getenv: func(string) string { return "" }}).rootCommand().Find([]string{"sync"})
	if err != nil {
		t.Fatal(err)
	}
	all := deployedArgs(t, doc)
	if len(all) != 2 {
		t.Fatalf("found %d command lines in docs/worker.md, want the unit's and the Deployment's", len(all))
	}
	for _, args := range all {
		if len(args) == 0 || args[0] != "sync" {
			t.Errorf("%q: want sync", args)
			continue
		}
		var flags []string
		for _, a := range args {
			if name, ok := strings.CutPrefix(a, "--"); ok {
				flags = append(flags, name)
				if sync.Flags().Lookup(name) == nil && sync.InheritedFlags().Lookup(name) == nil {
					t.Errorf("%q uses --%s, which sync does not have", args, name)
				}
			}
		}
		for _, want := range []string{"websites", "every", "metrics"} {
			if !slices.Contains(flags, want) {
				t.Errorf("%q has no --%s", args, want)
			}
		}
		for _, secret := range []string{"db", "api-key"} {
			if slices.Contains(flags, secret) {
				t.Errorf("%q puts --%s on the command line", args, secret)
			}
		}
	}
	for _, want := range []string{"name: " + envDB, "secretKeyRef:", "path: /healthz", "kind: Deployment", "EnvironmentFile="} {
		if !strings.Contains(doc, want) {
			t.Errorf("docs/worker.md has no %q", want)
		}
	}
	for _, env := range regexp.MustCompile(`\bORDERMSG_[A-Z_]+`).FindAllString(doc, -1) {
		if env != envDB && env != envBaseURL && env != envVersionHeader {
			t.Errorf("docs/worker.md sets %s, which the worker does not read", env)
		}
	}
}
