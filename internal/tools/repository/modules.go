// Package repository reads what the release tools need of the repository:
// its modules, from go.work (the one list of modules that the tools check,
// tag and record, so that a module added to go.work is released with the
// others), and its git history.
package repository

import (
	"fmt"
	"path"
	"strings"

	"golang.org/x/mod/modfile"
)

// Module is one module of the repository.
type Module struct {
	// Dir is the module's folder, slash-separated and relative to the
	// repository's top: "." for the root module, "mirror", "cmd/ordermsg".
	Dir string
	// Path is the module path its go.mod declares.
	Path string
	// File is its parsed go.mod.
	File *modfile.File
}

// Tag is the name of the module's tag for version v in Go's multi-module
// convention: v for the root module, Dir/v for the others.
func (m Module) Tag(v string) string {
	if m.Dir == "." {
		return v
	}
	return m.Dir + "/" + v
}

// File names a file under the module's folder, relative to the top.
func (m Module) FileName(name string) string { return path.Join(m.Dir, name) }

// Modules parses go.work and the go.mod of every module it uses; read gives
// the content of a file by its slash-separated name relative to the
// repository's top (from the disk, or from a commit). The root module comes
// first, the others in the order of go.work.
func Modules(read func(name string) ([]byte, error)) (*modfile.WorkFile, []Module, error) {
	data, err := read("go.work")
	if err != nil {
		return nil, nil, err
	}
	work, err := modfile.ParseWork("go.work", data, nil)
	if err != nil {
		return nil, nil, err
	}
	var mods []Module
	for _, u := range work.Use {
		dir := path.Clean(strings.TrimPrefix(u.Path, "./"))
		if path.IsAbs(dir) || dir == ".." || strings.HasPrefix(dir, "../") {
			return nil, nil, fmt.Errorf("go.work: use %s is outside the repository", u.Path)
		}
		name := path.Join(dir, "go.mod")
		data, err := read(name)
		if err != nil {
			return nil, nil, err
		}
		f, err := modfile.Parse(name, data, nil)
		if err != nil {
			return nil, nil, err
		}
		if f.Module == nil {
			return nil, nil, fmt.Errorf("%s: no module line", name)
		}
		m := Module{Dir: dir, Path: f.Module.Mod.Path, File: f}
		if dir == "." {
			mods = append([]Module{m}, mods...)
		} else {
			mods = append(mods, m)
		}
	}
	if len(mods) == 0 || mods[0].Dir != "." {
		return nil, nil, fmt.Errorf("go.work does not use the root module (use .)")
	}
	for _, m := range mods[1:] {
		if !strings.HasPrefix(m.Path, mods[0].Path+"/") || m.Path != mods[0].Path+"/"+m.Dir {
			return nil, nil, fmt.Errorf("%s: module %s is not %s/%s: a tag %s would not name it", m.FileName("go.mod"), m.Path, mods[0].Path, m.Dir, m.Tag("vX.Y.Z"))
		}
	}
	return work, mods, nil
}

// Own reports whether module path p is one of mods.
func Own(mods []Module, p string) bool {
	for _, m := range mods {
		if m.Path == p {
			return true
		}
	}
	return false
}
