package mirror_test

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
)

// TestStepsMakeTheDescribedTables: a new database, which goes through every
// step of the schema, has exactly the tables that tables.go describes, each
// with exactly its columns, in order, of its types and nullability.
func TestStepsMakeTheDescribedTables(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		db := be.Open(t, target)
		openMirror(t, be, db)
		want := mirror.DescribedColumns(be.Backend)
		tablesQuery := "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
		columnsQuery := "SELECT name, type, CASE WHEN \"notnull\" = 1 THEN 'NOT NULL' ELSE 'NULL' END FROM pragma_table_info('%s') ORDER BY cid"
		if be.Backend == mirror.PostgreSQL {
			tablesQuery = "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
			columnsQuery = `SELECT column_name, data_type, CASE WHEN is_nullable = 'NO' THEN 'NOT NULL' ELSE 'NULL' END
				FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = '%s' ORDER BY ordinal_position`
		}
		if got := rowsOf(t, db, tablesQuery); !slices.Equal(got, slices.Sorted(maps.Keys(want))) {
			t.Errorf("tables %q, described %q", got, slices.Sorted(maps.Keys(want)))
		}
		for table, cols := range want {
			var got []string
			for _, row := range rowValues(t, db, fmt.Sprintf(columnsQuery, table)) {
				got = append(got, fmt.Sprintf("%s %s %s", row[0], row[1], row[2]))
			}
			if !slices.Equal(got, cols) {
				t.Errorf("table %s:\n made      %q\n described %q", table, got, cols)
			}
		}
	})
}

// stepHashes are the SHA-256 of every step of the schema, released or not:
// a step is edited on purpose or not at all. A released step is also in
// testdata/released_steps.txt, which holds it for good.
var stepHashes = map[string]string{
	"sqlite/0001_mirror.sql":     "fbc248e2f17ee1ab33c3be5583ded8ee8f8f8350edd37ef65ffd0cfd9bcfab24",
	"postgresql/0001_mirror.sql": "355f52d8547134b72239597c55bc78e4268f43cb854c95543b79993a1c4dd9fb",
}

// stepBackends are the folders of migrations/.
var stepBackends = []string{"sqlite", "postgresql"}

// stepFiles returns the SHA-256 of each step of the schema, by
// "<backend>/<file>", and checks that each backend's steps are numbered
// from 1 to SchemaVersion.
func stepFiles(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, backend := range stepBackends {
		files, err := filepath.Glob(filepath.Join("migrations", backend, "*"))
		if err != nil {
			t.Fatal(err)
		}
		if len(files) != mirror.SchemaVersion {
			t.Errorf("%s: %d steps, want SchemaVersion (%d)", backend, len(files), mirror.SchemaVersion)
		}
		for i, f := range files {
			name := backend + "/" + filepath.Base(f)
			if !strings.HasPrefix(filepath.Base(f), fmt.Sprintf("%04d_", i+1)) || !strings.HasSuffix(f, ".sql") {
				t.Errorf("step %d is %s, want %04d_<name>.sql", i+1, name, i+1)
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256(b)
			out[name] = hex.EncodeToString(sum[:])
		}
	}
	return out
}

// releasedSteps reads testdata/released_steps.txt: the SHA-256 of each
// released step, by "<backend>/<file>".
func releasedSteps(t *testing.T) map[string]string {
	t.Helper()
	f, err := os.Open("testdata/released_steps.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	lines := bufio.NewScanner(f)
	for lines.Scan() {
		line := strings.TrimSpace(lines.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, sum, ok := strings.Cut(line, " ")
		if _, dup := out[name]; !ok || dup || len(sum) != 64 {
			t.Fatalf("testdata/released_steps.txt: %q is not a new \"<backend>/<file> <SHA-256>\"", line)
		}
		out[name] = sum
	}
	if err := lines.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestStepsAreAsRecorded: each step is as stepHashes records it, and
// stepHashes names no step that is gone.
func TestStepsAreAsRecorded(t *testing.T) {
	files := stepFiles(t)
	for name, sum := range files {
		if stepHashes[name] != sum {
			t.Errorf("%s: SHA-256 %s, recorded %q: a released step never changes (RELEASING.md); "+
				"an unreleased one's hash is updated with it", name, sum, stepHashes[name])
		}
	}
	for name := range stepHashes {
		if _, ok := files[name]; !ok {
			t.Errorf("stepHashes names %s, which is no step", name)
		}
	}
}

// releaseProblems lists what is wrong with the steps (SHA-256 by
// "<backend>/<file>") against the released ones: a released step missing
// or changed, a release of step n but not of an earlier one, of more steps
// of one backend than of another, or more than one step not released (the
// steps made between two releases are one step).
func releaseProblems(steps, released map[string]string) []string {
	var out []string
	for name, sum := range released {
		switch got, ok := steps[name]; {
		case !ok:
			out = append(out, fmt.Sprintf("released step %s is gone", name))
		case got != sum:
			out = append(out, fmt.Sprintf("released step %s was changed (SHA-256 %s, released %s)", name, got, sum))
		}
	}
	count := map[string]int{}
	for _, backend := range stepBackends {
		var names []string
		for name := range steps {
			if strings.HasPrefix(name, backend+"/") {
				names = append(names, name)
			}
		}
		slices.Sort(names)
		k := 0
		for k < len(names) && released[names[k]] != "" {
			k++
		}
		for _, name := range names[k:] {
			if released[name] != "" {
				out = append(out, fmt.Sprintf("%s is released but an earlier step of %s is not", name, backend))
			}
		}
		count[backend] = k
		if len(names)-k > 1 {
			out = append(out, fmt.Sprintf("%s: %d steps not released; the steps made between two releases are one step", backend, len(names)-k))
		}
	}
	if count[stepBackends[0]] != count[stepBackends[1]] {
		out = append(out, fmt.Sprintf("released steps by backend: %v; each release makes the same version in both", count))
	}
	return out
}

// TestReleasedStepsNeverChange: every step testdata/released_steps.txt
// lists is there, unchanged, every step before it is released too, and at
// most the last step of each backend is not yet released.
func TestReleasedStepsNeverChange(t *testing.T) {
	for _, p := range releaseProblems(stepFiles(t), releasedSteps(t)) {
		t.Error(p)
	}
}

// TestReleaseProblemsFindsAnEdit: releaseProblems, which
// TestReleasedStepsNeverChange relies on, finds a released step edited or
// removed, a hole in the released steps, and a second unreleased step.
func TestReleaseProblemsFindsAnEdit(t *testing.T) {
	released := map[string]string{"sqlite/0001_a.sql": "aa", "postgresql/0001_a.sql": "bb"}
	for _, c := range []struct {
		name  string
		steps map[string]string
		want  string
	}{
		{"edited", map[string]string{"sqlite/0001_a.sql": "ac", "postgresql/0001_a.sql": "bb"}, "sqlite/0001_a.sql was changed"},
		{"removed", map[string]string{"postgresql/0001_a.sql": "bb"}, "sqlite/0001_a.sql is gone"},
		{"two unreleased", map[string]string{"sqlite/0001_a.sql": "aa", "sqlite/0002_b.sql": "cc", "sqlite/0003_c.sql": "dd",
			"postgresql/0001_a.sql": "bb"}, "sqlite: 2 steps not released"},
	} {
		got := releaseProblems(c.steps, released)
		if !slices.ContainsFunc(got, func(p string) bool { return strings.Contains(p, c.want) }) {
			t.Errorf("%s: %q, want a problem naming %q", c.name, got, c.want)
		}
	}
	hole := releaseProblems(map[string]string{"sqlite/0001_a.sql": "aa", "sqlite/0002_b.sql": "cc"},
		map[string]string{"sqlite/0002_b.sql": "cc"})
	if !slices.ContainsFunc(hole, func(p string) bool { return strings.Contains(p, "an earlier step of sqlite is not") }) {
		t.Errorf("step 2 released without step 1: %q", hole)
	}
	both := map[string]string{"sqlite/0001_a.sql": "aa", "postgresql/0001_a.sql": "bb", "postgresql/0002_b.sql": "cc"}
	if uneven := releaseProblems(both, both); !slices.ContainsFunc(uneven, func(p string) bool { return strings.Contains(p, "released steps by backend") }) {
		t.Errorf("step 2 released for PostgreSQL alone: %q", uneven)
	}
	fine := releaseProblems(map[string]string{"sqlite/0001_a.sql": "aa", "sqlite/0002_b.sql": "cc", "postgresql/0001_a.sql": "bb"}, released)
	if len(fine) != 0 {
		t.Errorf("one new step after the release: %q", fine)
	}
}
