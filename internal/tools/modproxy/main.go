// Command modproxy writes a file-based Go module proxy (for
// GOPROXY=file://DIR) that holds one release of the repository's modules,
// as the public proxy would serve them: each module's zip is made from the
// module's tag by golang.org/x/mod/zip, the reference for what a module zip
// holds (git archive of the tagged tree, nested modules left out, the
// repository's LICENSE added to modules without one).
//
//	go run ./internal/tools/modproxy -repo CLONE -version v0.2.0 -out DIR
//
// The modules are those of go.work at the tag; every one must be tagged at
// the same commit, with no replace directive in its go.mod. The release
// rehearsal (.ci/rehearse-release.sh) installs the release from such a
// proxy before anything is published.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ordermsg/ordermsg-go/internal/tools/repository"
	"golang.org/x/mod/module"
	"golang.org/x/mod/zip"
)

func main() {
	repo := flag.String("repo", ".", "the git `clone` that holds the tags")
	version := flag.String("version", "", "the release `version` (vX.Y.Z)")
	out := flag.String("out", "", "the proxy's `folder`")
	flag.Parse()
	if *version == "" || *out == "" {
		flag.Usage()
		os.Exit(2)
	}
	mods, err := build(*repo, *version, *out)
	if err != nil {
		fmt.Fprintln(os.Stderr, "modproxy:", err)
		os.Exit(1)
	}
	for _, m := range mods {
		fmt.Printf("%s@%s\n", m, *version)
	}
}

// build writes the proxy for version into out and returns the module paths
// it serves.
func build(repo, version, out string) ([]string, error) {
	repo, err := filepath.Abs(repo)
	if err != nil {
		return nil, err
	}
	commit, err := repository.Git(repo, "rev-parse", version+"^{commit}")
	if err != nil {
		return nil, fmt.Errorf("no tag %s: %w", version, err)
	}
	commit = strings.TrimSpace(commit)
	_, mods, err := repository.Modules(func(name string) ([]byte, error) {
		s, err := repository.Git(repo, "show", version+":"+name)
		return []byte(s), err
	})
	if err != nil {
		return nil, err
	}
	when, err := repository.Git(repo, "show", "-s", "--format=%cI", commit)
	if err != nil {
		return nil, err
	}
	info, err := json.Marshal(struct{ Version, Time string }{version, strings.TrimSpace(when)})
	if err != nil {
		return nil, err
	}

	var paths []string
	for _, m := range mods {
		tag := m.Tag(version)
		at, err := repository.Git(repo, "rev-parse", tag+"^{commit}")
		if err != nil {
			return nil, fmt.Errorf("module %s has no tag %s: %w", m.Path, tag, err)
		}
		if strings.TrimSpace(at) != commit {
			return nil, fmt.Errorf("tag %s is not at the commit of %s: every module is tagged at one commit", tag, version)
		}
		if len(m.File.Replace) > 0 {
			return nil, fmt.Errorf("%s at %s has a replace directive, which users of the release would not get", m.FileName("go.mod"), tag)
		}
		if err := writeModule(repo, out, m, version, tag, info); err != nil {
			return nil, err
		}
		paths = append(paths, m.Path)
	}
	return paths, nil
}

// writeModule writes the list, .info, .mod and .zip of one module version,
// in the layout of the GOPROXY protocol.
func writeModule(repo, out string, m repository.Module, version, tag string, info []byte) error {
	escPath, err := module.EscapePath(m.Path)
	if err != nil {
		return err
	}
	escVersion, err := module.EscapeVersion(version)
	if err != nil {
		return err
	}
	dir := filepath.Join(out, filepath.FromSlash(escPath), "@v")
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return err
	}
	var z bytes.Buffer
	subdir := ""
	if m.Dir != "." {
		subdir = m.Dir
	}
	if err := zip.CreateFromVCS(&z, module.Version{Path: m.Path, Version: version}, repo, tag, subdir); err != nil {
		return err
	}
	mod, err := repository.Git(repo, "show", tag+":"+m.FileName("go.mod"))
	if err != nil {
		return err
	}
	for ext, data := range map[string][]byte{".info": info, ".mod": []byte(mod), ".zip": z.Bytes()} {
		if err := os.WriteFile(filepath.Join(dir, escVersion+ext), data, 0o666); err != nil {
			return err
		}
	}
	// list: every version the proxy holds, one a line.
	listFile := filepath.Join(dir, "list")
	old, err := os.ReadFile(listFile)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	versions := strings.Fields(string(old))
	if !slices.Contains(versions, version) {
		versions = append(versions, version)
	}
	return os.WriteFile(listFile, []byte(strings.Join(versions, "\n")+"\n"), 0o666)
}
