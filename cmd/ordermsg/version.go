package main

import "runtime/debug"

// version is the tool's version, from the build information the go command
// writes into every binary: the module's version for a release installed
// with go install …/cmd/ordermsg@v0.2.0. A build of a git clone with VCS
// stamping (-buildvcs, the default outside this repository's CI) gets a
// version from the go command too, naming the commit
// (v0.2.1-0.20261125201906-53661f50f7f9, +dirty for uncommitted changes).
// Otherwise it is "(devel)", followed by the commit and "(modified)" when
// the build recorded them.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	return versionOf(info)
}

func versionOf(info *debug.BuildInfo) string {
	v := info.Main.Version
	if v != "" && v != "(devel)" {
		return v
	}
	v = "(devel)"
	vcs := map[string]string{}
	for _, s := range info.Settings {
		vcs[s.Key] = s.Value
	}
	if rev := vcs["vcs.revision"]; rev != "" {
		v += " " + rev[:min(len(rev), 12)]
		if vcs["vcs.modified"] == "true" {
			v += " (modified)"
		}
	}
	return v
}
