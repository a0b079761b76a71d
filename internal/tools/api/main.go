// Command api records the exported API of the repository's public packages
// in api/*.txt, one feature a line, sorted, as Go's own api/ files are, and
// checks the record:
//
//	go run ./internal/tools/api          # check (CI)
//	go run ./internal/tools/api -write   # rewrite the record after an API change
//
// The check fails when the record is not what the code exports, and when a
// feature of the record at the last release is gone (removed, or changed
// incompatibly) while CHANGELOG.md does not name it under a "Breaking
// changes" heading of a section above that release's (Unreleased, or the
// release being made). The last release is the highest vX.Y.Z tag that the
// current commit contains; with none (nothing released yet) no change can
// break a user, and the check says so.
//
// The public packages are every package of the modules in go.work that is
// not a command and has no "internal" element in its path. Each is recorded
// in api/NAME.txt, NAME being its path below the root module with "/" as
// "_", and "ordermsg" for the root package.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ordermsg/ordermsg-go/internal/tools/repository"
	"golang.org/x/mod/semver"
	"golang.org/x/tools/go/packages"
)

// valueless are the constants recorded without their value, by package
// path and name: numbers that move by design, so that a new value is no
// removal. Version is the release's own (the release script sets it);
// mirror.SchemaVersion grows with each schema step, which a database
// made earlier is upgraded from (the CHANGELOG says it).
var valueless = map[string]bool{
	"github.com/ordermsg/ordermsg-go.Version":              true,
	"github.com/ordermsg/ordermsg-go/mirror.SchemaVersion": true,
}

const recordDir = "api"

func main() {
	write := flag.Bool("write", false, "rewrite the record (api/*.txt) from the code")
	root := flag.String("C", ".", "the repository's top `folder`")
	flag.Parse()
	if err := run(*root, *write); err != nil {
		fmt.Fprintln(os.Stderr, "api:", err)
		os.Exit(1)
	}
}

func run(root string, write bool) error {
	current, err := load(root)
	if err != nil {
		return err
	}
	if write {
		return writeRecord(root, current)
	}
	var problems []string
	recorded, err := readRecord(root)
	if err != nil {
		return err
	}
	problems = append(problems, compare(recorded, current)...)

	last, err := lastRelease(root)
	if err != nil {
		return err
	}
	if last == "" {
		fmt.Println("api: no release tag yet: nothing is released, so no change can break a user")
	} else {
		released, err := gitRecord(root, last)
		if err != nil {
			return err
		}
		changelog, err := os.ReadFile(filepath.Join(root, "CHANGELOG.md"))
		if err != nil {
			return err
		}
		problems = append(problems, breaking(released, current, changelog, last)...)
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "\n"))
	}
	return nil
}

// record is the API by file name (ordermsg.txt, mirror.txt, …), each a
// sorted list of features.
type record map[string][]string

// load type-checks the public packages of every module in go.work.
func load(root string) (record, error) {
	_, mods, err := repository.Modules(func(name string) ([]byte, error) {
		return os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
	})
	if err != nil {
		return nil, err
	}
	var patterns []string
	for _, m := range mods {
		patterns = append(patterns, "./"+m.Dir+"/...")
	}
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedFiles | packages.NeedTypes, Dir: root}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, err
	}
	rec := record{}
	for _, p := range pkgs {
		if !public(mods[0].Path, p) {
			continue
		}
		if len(p.Errors) > 0 {
			return nil, fmt.Errorf("%s: %v", p.PkgPath, p.Errors[0])
		}
		rec[fileName(mods[0].Path, p)] = features(p.Types, valueless)
	}
	return rec, nil
}

// public reports whether users can import p: a package of the repository
// that is not a command, not internal, and not only tests.
func public(rootPath string, p *packages.Package) bool {
	if p.Name == "main" || len(p.GoFiles) == 0 || (p.PkgPath != rootPath && !strings.HasPrefix(p.PkgPath, rootPath+"/")) {
		return false
	}
	return !slices.Contains(strings.Split(p.PkgPath, "/"), "internal")
}

// fileName is the record file of package p: its path below the root
// module, or for the root package its name.
func fileName(rootPath string, p *packages.Package) string {
	rel := strings.TrimPrefix(strings.TrimPrefix(p.PkgPath, rootPath), "/")
	if rel == "" {
		rel = p.Name
	}
	return strings.ReplaceAll(rel, "/", "_") + ".txt"
}

func writeRecord(root string, rec record) error {
	dir := filepath.Join(root, recordDir)
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return err
	}
	old, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil {
		return err
	}
	for _, f := range old {
		if _, ok := rec[filepath.Base(f)]; !ok {
			if err := os.Remove(f); err != nil {
				return err
			}
		}
	}
	for name, lines := range rec {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(strings.Join(lines, "\n")+"\n"), 0o666); err != nil {
			return err
		}
	}
	return nil
}

func readRecord(root string) (record, error) {
	files, err := filepath.Glob(filepath.Join(root, recordDir, "*.txt"))
	if err != nil {
		return nil, err
	}
	rec := record{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		rec[filepath.Base(f)] = lines(string(data))
	}
	return rec, nil
}

func lines(data string) []string {
	var out []string
	for l := range strings.SplitSeq(data, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// compare returns what differs between the record and the code.
func compare(recorded, current record) []string {
	var problems []string
	names := slices.Sorted(func(yield func(string) bool) {
		seen := map[string]bool{}
		for _, r := range []record{recorded, current} {
			for n := range r {
				if !seen[n] {
					seen[n] = true
					if !yield(n) {
						return
					}
				}
			}
		}
	})
	for _, name := range names {
		gone, added := diff(recorded[name], current[name])
		if len(gone)+len(added) == 0 {
			continue
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%s/%s is not the API the code exports: run go run ./internal/tools/api -write (and say it in CHANGELOG.md)", recordDir, name)
		for _, l := range gone {
			fmt.Fprintf(&b, "\n  - %s", l)
		}
		for _, l := range added {
			fmt.Fprintf(&b, "\n  + %s", l)
		}
		problems = append(problems, b.String())
	}
	return problems
}

// diff returns the lines of a not in b, and of b not in a.
func diff(a, b []string) (onlyA, onlyB []string) {
	inA, inB := map[string]bool{}, map[string]bool{}
	for _, l := range a {
		inA[l] = true
	}
	for _, l := range b {
		inB[l] = true
		if !inA[l] {
			onlyB = append(onlyB, l)
		}
	}
	for _, l := range a {
		if !inB[l] {
			onlyA = append(onlyA, l)
		}
	}
	return onlyA, onlyB
}

// lastRelease is the highest release tag vX.Y.Z[-pre] the current commit
// contains, or "" when there is none.
func lastRelease(root string) (string, error) {
	out, err := repository.Git(root, "tag", "--merged", "HEAD", "--list", "v*")
	if err != nil {
		return "", err
	}
	last := ""
	for _, t := range lines(out) {
		if semver.IsValid(t) && semver.Canonical(t) == t && (last == "" || semver.Compare(t, last) > 0) {
			last = t
		}
	}
	return last, nil
}

// gitRecord is the record as it was at tag.
func gitRecord(root, tag string) (record, error) {
	out, err := repository.Git(root, "ls-tree", "--name-only", tag, recordDir+"/")
	if err != nil {
		return nil, err
	}
	rec := record{}
	for _, f := range lines(out) {
		if !strings.HasSuffix(f, ".txt") {
			continue
		}
		data, err := repository.Git(root, "show", tag+":"+f)
		if err != nil {
			return nil, err
		}
		rec[path.Base(f)] = lines(data)
	}
	return rec, nil
}
