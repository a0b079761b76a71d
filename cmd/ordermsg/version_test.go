package main

import (
	"context"
	"runtime/debug"
	"testing"
)

func TestVersionAndTheVersionFlagPrintTheBuildsVersion(t *testing.T) {
	want := "ordermsg " + version() + "\n"
	for _, args := range [][]string{{"version"}, {"--version"}} {
		stdout, stderr, code := cli{}.run(context.Background(), args...)
		if code != exitOK || stdout != want || stderr != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %q", args, code, stdout, stderr, want)
		}
	}
	// -v stays --verbose: it is no shorthand of --version.
	if stdout, _, code := (cli{}).run(context.Background(), "-v"); code != exitUsage || stdout != "" {
		t.Errorf("-v: exit %d, stdout %q; want a usage error", code, stdout)
	}
}

func TestVersionOf(t *testing.T) {
	vcs := func(rev, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}
	}
	for _, tc := range []struct {
		name string
		info debug.BuildInfo
		want string
	}{
		{"go install …@v0.2.0", debug.BuildInfo{Main: debug.Module{Version: "v0.2.0"}}, "v0.2.0"},
		{"a stamped clone", debug.BuildInfo{Main: debug.Module{Version: "v0.2.1-0.20261125201906-53661f50f7f9+dirty"}}, "v0.2.1-0.20261125201906-53661f50f7f9+dirty"},
		{"a clone without VCS stamping", debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "(devel)"},
		{"no version at all", debug.BuildInfo{}, "(devel)"},
		{"a commit", debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("53661f50f7f9a3a0d5e2c1b4a6f8e9d0c1b2a3f4", "false")}, "(devel) 53661f50f7f9"},
		{"a modified commit", debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("53661f50f7f9a3a0d5e2c1b4a6f8e9d0c1b2a3f4", "true")}, "(devel) 53661f50f7f9 (modified)"},
	} {
		if got := versionOf(&tc.info); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
