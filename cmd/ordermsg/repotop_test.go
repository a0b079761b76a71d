package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// repoTop is the repository's top, from this module's folder: the root
// module's folder, with the README, docs/ and LICENSE. A module zip of the
// tool, as in a user's module cache, holds no sibling folder: where the
// root module is absent, the test skips, saying so; the repository's run
// checks what it reads there.
func repoTop(t *testing.T) string {
	t.Helper()
	top := filepath.Join("..", "..")
	if _, err := os.Stat(filepath.Join(top, "go.mod")); errors.Is(err, fs.ErrNotExist) {
		t.Skip("reads the root module's files, whose folder is not beside the tool's (a module zip): checked where the repository is whole")
	}
	return top
}

// readmeText is the whole README.
func readmeText(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoTop(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
