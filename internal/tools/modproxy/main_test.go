package main

import (
	"archive/zip"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// run runs a command in dir, failing the test on error.
func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

var gitIdentity = []string{"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.invalid", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.invalid"}

// gitRepository makes a git repository of two modules, example.com/r and
// example.com/r/sub (which requires the first), and returns its folder.
func gitRepository(t *testing.T, files map[string]string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo := t.TempDir()
	base := map[string]string{
		"go.work":    "go 1.26.0\n\nuse (\n\t.\n\t./sub\n)\n",
		"go.mod":     "module example.com/r\n\ngo 1.26.0\n",
		"r.go":       "package r\n\nconst Answer = 42\n",
		"LICENSE":    "the license\n",
		"sub/go.mod": "module example.com/r/sub\n\ngo 1.26.0\n\nrequire example.com/r v0.1.0\n",
		"sub/sub.go": "package sub\n\nimport \"example.com/r\"\n\nconst Twice = 2 * r.Answer\n",
	}
	for name, content := range files {
		base[name] = content
	}
	for name, content := range base {
		p := filepath.Join(repo, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	run(t, repo, nil, "git", "init", "-q")
	run(t, repo, nil, "git", "add", ".")
	run(t, repo, gitIdentity, "git", "commit", "-q", "-m", "first")
	return repo
}

func zipNames(t *testing.T, file string) []string {
	t.Helper()
	r, err := zip.OpenReader(file)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var names []string
	for _, f := range r.File {
		names = append(names, f.Name)
	}
	slices.Sort(names)
	return names
}

func TestProxyServesTheTaggedModules(t *testing.T) {
	repo := gitRepository(t, nil)
	run(t, repo, nil, "git", "tag", "v0.1.0")
	run(t, repo, nil, "git", "tag", "sub/v0.1.0")
	out := t.TempDir()
	paths, err := build(repo, "v0.1.0", out)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(paths, []string{"example.com/r", "example.com/r/sub"}) {
		t.Errorf("modules %q", paths)
	}
	// The root zip leaves the nested module out; the nested one gets the
	// repository's LICENSE.
	if got, want := zipNames(t, filepath.Join(out, "example.com/r/@v/v0.1.0.zip")), []string{"example.com/r@v0.1.0/LICENSE", "example.com/r@v0.1.0/go.mod", "example.com/r@v0.1.0/go.work", "example.com/r@v0.1.0/r.go"}; !slices.Equal(got, want) {
		t.Errorf("root zip holds %q, want %q", got, want)
	}
	if got, want := zipNames(t, filepath.Join(out, "example.com/r/sub/@v/v0.1.0.zip")), []string{"example.com/r/sub@v0.1.0/LICENSE", "example.com/r/sub@v0.1.0/go.mod", "example.com/r/sub@v0.1.0/sub.go"}; !slices.Equal(got, want) {
		t.Errorf("sub zip holds %q, want %q", got, want)
	}

	// The go command downloads and builds from it, with nothing else.
	user := t.TempDir()
	env := []string{"GOPROXY=file://" + filepath.ToSlash(out), "GONOSUMDB=example.com/r", "GOFLAGS=-modcacherw",
		"GOMODCACHE=" + filepath.Join(t.TempDir(), "mod"), "GOWORK=off", "GOTOOLCHAIN=local"}
	if err := os.WriteFile(filepath.Join(user, "main.go"), []byte("package main\n\nimport \"example.com/r/sub\"\n\nfunc main() { println(sub.Twice) }\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	run(t, user, env, "go", "mod", "init", "example.com/user")
	run(t, user, env, "go", "get", "example.com/r/sub@v0.1.0")
	if got := run(t, user, env, "go", "run", "."); got != "84\n" {
		t.Errorf("the program printed %q", got)
	}
}

func TestProxyRefusesWhatAReleaseCannotBe(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		tags  func(t *testing.T, repo string)
		want  string
	}{
		{"a module untagged", nil, func(t *testing.T, repo string) { run(t, repo, nil, "git", "tag", "v0.1.0") }, "has no tag sub/v0.1.0"},
		{"a replace", map[string]string{"sub/go.mod": "module example.com/r/sub\n\ngo 1.26.0\n\nrequire example.com/r v0.1.0\n\nreplace example.com/r => ../\n"},
			func(t *testing.T, repo string) {
				run(t, repo, nil, "git", "tag", "v0.1.0")
				run(t, repo, nil, "git", "tag", "sub/v0.1.0")
			}, "replace directive"},
		{"tags at two commits", nil, func(t *testing.T, repo string) {
			run(t, repo, nil, "git", "tag", "sub/v0.1.0")
			run(t, repo, gitIdentity, "git", "commit", "-q", "--allow-empty", "-m", "second")
			run(t, repo, nil, "git", "tag", "v0.1.0")
		}, "one commit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			repo := gitRepository(t, tc.files)
			tc.tags(t, repo)
			_, err := build(repo, "v0.1.0", t.TempDir())
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
}
