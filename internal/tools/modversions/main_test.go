package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tree writes a repository of two modules, the second requiring the first,
// as the rules want them at v0.1.0, with changes applied over it.
func tree(t *testing.T, changes map[string]string) string {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		"go.work":    "go 1.26.0\n\nuse (\n\t.\n\t./sub\n)\n\n// The siblings, from here.\nreplace example.com/r v0.1.0 => ./\n",
		"go.mod":     "module example.com/r\n\ngo 1.26.0\n",
		"client.go":  "package r\n\n// Version is sent in the User-Agent header.\nconst Version = \"0.1.0\"\n",
		"sub/go.mod": "module example.com/r/sub\n\ngo 1.26.0\n\nrequire example.com/r v0.1.0\n",
	}
	for name, content := range changes {
		files[name] = content
	}
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name    string
		changes map[string]string
		want    string // in the one problem; "" for none
	}{
		{"in step", nil, ""},
		{"a pseudo-version", map[string]string{"sub/go.mod": "module example.com/r/sub\n\ngo 1.26.0\n\nrequire example.com/r v0.0.0-00010101000000-000000000000\n"}, "pseudo-version"},
		{"a replace", map[string]string{"sub/go.mod": "module example.com/r/sub\n\ngo 1.26.0\n\nrequire example.com/r v0.1.0\n\nreplace example.com/r => ../\n"}, "no replace directive"},
		{"Version behind", map[string]string{"client.go": "package r\n\nconst Version = \"0.0.9\"\n"}, "must agree"},
		{"go.work without the replace", map[string]string{"go.work": "go 1.26.0\n\nuse (\n\t.\n\t./sub\n)\n"}, "go.work replaces"},
		{"a module go.work does not use", map[string]string{"tools/go.mod": "module example.com/r/tools\n\ngo 1.26.0\n"}, "does not use ./tools"},
		{"a go.mod in testdata is no module", map[string]string{"testdata/x/go.mod": "module x\n"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, problems, err := repo{tree(t, tc.changes)}.check()
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tc.want == "" && len(problems) > 0:
				t.Errorf("problems %q, want none", problems)
			case tc.want != "" && (len(problems) != 1 || !strings.Contains(problems[0], tc.want)):
				t.Errorf("problems %q, want one saying %q", problems, tc.want)
			}
		})
	}
}

func TestSetMovesEveryVersionTogether(t *testing.T) {
	root := tree(t, nil)
	if err := run(root, "v0.2.0", "", false); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"sub/go.mod": "require example.com/r v0.2.0\n",
		"go.work":    "// The siblings, from here.\nreplace example.com/r v0.2.0 => ./\n",
		"client.go":  "// Version is sent in the User-Agent header.\nconst Version = \"0.2.0\"\n",
	} {
		got, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(got), want) || strings.Contains(string(got), "0.1.0") {
			t.Errorf("%s after -set v0.2.0:\n%s\nwant it to hold %q and no 0.1.0", name, got, want)
		}
	}
	if err := run(root, "", "", false); err != nil {
		t.Errorf("the check after -set: %v", err)
	}
}

func TestVersionsThatCannotBeReleases(t *testing.T) {
	for _, v := range []string{"0.2.0", "v0.2", "v2.0.0", "v0.2.0+build", "v0.0.0-20260101000000-abcdefabcdef"} {
		if err := run(tree(t, nil), v, "", false); err == nil {
			t.Errorf("-set %s: no error", v)
		}
	}
	if err := checkVersion("v0.2.0-rc.1"); err != nil {
		t.Errorf("a prerelease: %v", err)
	}
}
