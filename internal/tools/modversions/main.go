package main

import (
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/ordermsg/ordermsg-go/internal/tools/repository"
	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
)

func main() {
	set := flag.String("set", "", "set every sibling require, the go.work replaces and Version to this `version`")
	tags := flag.String("tags", "", "print the tag of every module for this `version`")
	current := flag.Bool("current", false, "print the version the modules require one another at")
	root := flag.String("C", ".", "the repository's top `folder`")
	flag.Parse()
	if err := run(*root, *set, *tags, *current); err != nil {
		fmt.Fprintln(os.Stderr, "modversions:", err)
		os.Exit(1)
	}
}

func run(root, set, tags string, current bool) error {
	r := repo{root: root}
	switch {
	case tags != "":
		if err := checkVersion(tags); err != nil {
			return err
		}
		_, mods, err := r.read()
		if err != nil {
			return err
		}
		for _, m := range mods {
			fmt.Println(m.Tag(tags))
		}
		return nil
	case set != "":
		if err := checkVersion(set); err != nil {
			return err
		}
		if err := r.set(set); err != nil {
			return err
		}
	}
	version, problems, err := r.check()
	if err != nil {
		return err
	}
	if len(problems) > 0 {
		return fmt.Errorf("the modules do not name one another as RELEASING.md says:\n  %s", strings.Join(problems, "\n  "))
	}
	if current {
		fmt.Println(version)
	}
	return nil
}

// checkVersion accepts what a release of these module paths can be called:
// a semantic version without build metadata, major 0 or 1 (v2 and later
// need a /v2 module path).
func checkVersion(v string) error {
	switch {
	case !semver.IsValid(v) || semver.Canonical(v) != v:
		return fmt.Errorf("%q is not a version vMAJOR.MINOR.PATCH[-PRERELEASE]", v)
	case semver.Major(v) != "v0" && semver.Major(v) != "v1":
		return fmt.Errorf("%s: a major version above v1 needs a new module path (/%s) first", v, semver.Major(v))
	case module.IsPseudoVersion(v):
		return fmt.Errorf("%s is a pseudo-version, not a release", v)
	}
	return nil
}

// repo is the repository at root, on the disk.
type repo struct{ root string }

func (r repo) readFile(name string) ([]byte, error) {
	return os.ReadFile(filepath.Join(r.root, filepath.FromSlash(name)))
}

func (r repo) read() (*modfile.WorkFile, []repository.Module, error) {
	return repository.Modules(r.readFile)
}

// check returns the version the modules require one another at, and every
// broken rule, one sentence each.
func (r repo) check() (string, []string, error) {
	work, mods, err := r.read()
	if err != nil {
		return "", nil, err
	}
	var problems []string
	used := map[string]bool{}
	for _, m := range mods {
		used[m.Dir] = true
	}
	unused, err := r.modulesNotIn(used)
	if err != nil {
		return "", nil, err
	}
	for _, dir := range unused {
		problems = append(problems, fmt.Sprintf("go.work does not use ./%s, which has a go.mod: add it (go work use ./%s)", dir, dir))
	}

	// The version the modules require one another at, and who requires whom.
	var version string
	required := map[string]bool{}
	for _, m := range mods {
		name := m.FileName("go.mod")
		for _, rep := range m.File.Replace {
			problems = append(problems, fmt.Sprintf("%s: replace %s: a go.mod has no replace directive (go.work serves a clone)", name, rep.Old.Path))
		}
		for _, req := range m.File.Require {
			if !repository.Own(mods, req.Mod.Path) {
				continue
			}
			required[req.Mod.Path] = true
			switch v := req.Mod.Version; {
			case module.IsPseudoVersion(v):
				problems = append(problems, fmt.Sprintf("%s: requires %s at the pseudo-version %s: require the release version", name, req.Mod.Path, v))
			case version == "":
				version = v
			case v != version:
				problems = append(problems, fmt.Sprintf("%s: requires %s %s, and another module requires a sibling at %s: one version for all", name, req.Mod.Path, v, version))
			}
		}
	}
	sdk, err := r.sdkVersion(mods[0])
	if err != nil {
		return "", nil, err
	}
	if version == "" {
		version = "v" + sdk.value
	}
	if err := checkVersion(version); err != nil {
		problems = append(problems, err.Error())
	}
	if "v"+sdk.value != version {
		problems = append(problems, fmt.Sprintf("%s: Version is %q, the modules require one another at %s: they must agree (modversions -set)", sdk.file, sdk.value, version))
	}

	want := workReplaces(mods, required, version)
	var got []string
	for _, rep := range work.Replace {
		got = append(got, fmt.Sprintf("%s %s => %s", rep.Old.Path, rep.Old.Version, rep.New.Path))
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		problems = append(problems, fmt.Sprintf("go.work replaces %q; want %q (modversions -set %s)", got, want, version))
	}
	return version, problems, nil
}

// workReplaces are the replace directives go.work needs: each module that
// a sibling requires, at version, by its folder.
func workReplaces(mods []repository.Module, required map[string]bool, version string) []string {
	var want []string
	for _, m := range mods {
		if required[m.Path] {
			want = append(want, fmt.Sprintf("%s %s => %s", m.Path, version, localPath(m.Dir)))
		}
	}
	slices.Sort(want)
	return want
}

// localPath is dir as go.work writes a folder: ./dir, or ./ for the top.
func localPath(dir string) string {
	if dir == "." {
		return "./"
	}
	return "./" + dir
}

// modulesNotIn returns the folders with a go.mod that used lacks, outside
// testdata, hidden folders and the ones the go command ignores (_name).
func (r repo) modulesNotIn(used map[string]bool) ([]string, error) {
	var missing []string
	err := filepath.WalkDir(r.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() && p != r.root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		if !d.IsDir() && name == "go.mod" {
			rel, err := filepath.Rel(r.root, filepath.Dir(p))
			if err != nil {
				return err
			}
			if dir := filepath.ToSlash(rel); !used[dir] {
				missing = append(missing, dir)
			}
		}
		return nil
	})
	return missing, err
}

// set rewrites every require of a sibling, the go.work replaces and the
// SDK's Version to version.
func (r repo) set(version string) error {
	work, mods, err := r.read()
	if err != nil {
		return err
	}
	required := map[string]bool{}
	for _, m := range mods {
		changed := false
		for _, req := range m.File.Require {
			if repository.Own(mods, req.Mod.Path) {
				required[req.Mod.Path] = true
				if req.Mod.Version != version {
					if err := m.File.AddRequire(req.Mod.Path, version); err != nil {
						return err
					}
					changed = true
				}
			}
		}
		if changed {
			if err := r.write(m.FileName("go.mod"), m.File.Format); err != nil {
				return err
			}
		}
	}

	// Each line moves to the new version where it is, under its comment;
	// then missing lines are added, and lines of modules no sibling
	// requires are dropped.
	for _, rep := range work.Replace {
		if required[rep.Old.Path] && rep.Old.Version != version {
			if i := slices.Index(rep.Syntax.Token, rep.Old.Version); i >= 0 {
				rep.Syntax.Token[i] = version
			}
			rep.Old.Version = version
		}
	}
	for _, m := range mods {
		if required[m.Path] {
			if err := work.AddReplace(m.Path, version, localPath(m.Dir), ""); err != nil {
				return err
			}
		}
	}
	for _, rep := range slices.Clone(work.Replace) {
		if repository.Own(mods, rep.Old.Path) && (rep.Old.Version != version || !required[rep.Old.Path]) {
			if err := work.DropReplace(rep.Old.Path, rep.Old.Version); err != nil {
				return err
			}
		}
	}
	work.Cleanup()
	if err := r.write("go.work", func() ([]byte, error) { return modfile.Format(work.Syntax), nil }); err != nil {
		return err
	}

	sdk, err := r.sdkVersion(mods[0])
	if err != nil {
		return err
	}
	return sdk.set(r, strings.TrimPrefix(version, "v"))
}

func (r repo) write(name string, content func() ([]byte, error)) error {
	data, err := content()
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(r.root, filepath.FromSlash(name)), data, 0o666)
}

// versionConst is the SDK's Version constant: where its value is written.
type versionConst struct {
	file       string // slash-separated, from the top
	value      string
	start, end int // byte offsets of the string literal
}

// sdkVersion finds `const Version = "…"` among the root package's files.
func (r repo) sdkVersion(root repository.Module) (*versionConst, error) {
	entries, err := os.ReadDir(filepath.Join(r.root, root.Dir))
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		file := path.Join(root.Dir, name)
		src, err := r.readFile(file)
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(fset, file, src, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, decl := range f.Decls {
			gen, ok := decl.(*ast.GenDecl)
			if !ok || gen.Tok != token.CONST {
				continue
			}
			for _, spec := range gen.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if n.Name != "Version" || i >= len(vs.Values) {
						continue
					}
					lit, ok := vs.Values[i].(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						return nil, fmt.Errorf("%s: Version is not a string literal", file)
					}
					value, err := strconv.Unquote(lit.Value)
					if err != nil {
						return nil, err
					}
					return &versionConst{file: file, value: value,
						start: fset.Position(lit.Pos()).Offset, end: fset.Position(lit.End()).Offset}, nil
				}
			}
		}
	}
	return nil, errors.New("the root package has no `const Version = \"…\"`")
}

// set writes value as the constant's literal.
func (c *versionConst) set(r repo, value string) error {
	src, err := r.readFile(c.file)
	if err != nil {
		return err
	}
	out := slices.Concat(src[:c.start], []byte(strconv.Quote(value)), src[c.end:])
	return r.write(c.file, func() ([]byte, error) { return out, nil })
}
