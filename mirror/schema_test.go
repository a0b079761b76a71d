package mirror_test

import (
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

// releasedSteps are the SHA-256 of every released step of the schema: a
// step never changes once released (a change is a new step), for the
// databases it made are already out there.
var releasedSteps = map[string]string{
	"sqlite/0001_one_website.sql":               "bf18e3b144eeb53b7c8b8c91ef8f3745386919ba20ca31ac04fb884e62ad3998",
	"sqlite/0002_websites_and_includes.sql":     "ce25a04e59e91a5c97556b1a1c4d0e8c98e4978238eba826422b4a6b36919d75",
	"sqlite/0003_exact_over_time.sql":           "1615e32bd99cd132a322fe6b2804d34fd97cd8d0d5c776db0d091e230dfd292c",
	"postgresql/0001_one_website.sql":           "bf18e3b144eeb53b7c8b8c91ef8f3745386919ba20ca31ac04fb884e62ad3998",
	"postgresql/0002_websites_and_includes.sql": "9b5dbd3777ec05c1465cd0ce4d0272eb6d8a22e6f07964603991a1cb05a4f6fe",
	"postgresql/0003_exact_over_time.sql":       "4f7cdd0e08de46b6f7d061e782e78babf1edac38d41f53473c298c9341d0c00e",
	"sqlite/0004_fleet_runs.sql":                "84e2adbc9663946a58283082b61fb88c08c7ac635fa34a689d1144e04f48a604",
	"postgresql/0004_fleet_runs.sql":            "e7a6bfb65cdbd31a4850fe03ab88191c1f078dfae2b9bfb9f45d092fe6a382ef",
	"sqlite/0005_website_states.sql":            "ea91697316e337a74a81238ca16a9e2658f8ce1c93c4b1b6295cac49b874adde",
	"postgresql/0005_website_states.sql":        "d3d08f17fdecc1302cf8fc5e2a49149e53cebc962e8fab5520e1b3a83fd08cc8",
	"sqlite/0006_changes.sql":                   "ccde45b70f43533fb55c50a2fdb05b0b53e27810a114cfc8f638f898ff2ca776",
	"postgresql/0006_changes.sql":               "0f5316fb78927f25ce3127e56b704d208dce80c71fb025d3020fa6e66a0752a5",
}

// TestReleasedStepsNeverChange: the steps are numbered from 1 to
// SchemaVersion for each backend, and every released one is as released.
func TestReleasedStepsNeverChange(t *testing.T) {
	for _, backend := range []string{"sqlite", "postgresql"} {
		files, err := filepath.Glob(filepath.Join("migrations", backend, "*"))
		if err != nil {
			t.Fatal(err)
		}
		if len(files) != mirror.SchemaVersion {
			t.Errorf("%s: %d steps, want SchemaVersion (%d)", backend, len(files), mirror.SchemaVersion)
		}
		for i, f := range files {
			name := backend + "/" + filepath.Base(f)
			if !strings.HasPrefix(filepath.Base(f), fmt.Sprintf("%04d_", i+1)) {
				t.Errorf("step %d is %s", i+1, name)
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256(b)
			if got, ok := releasedSteps[name]; !ok || got != hex.EncodeToString(sum[:]) {
				t.Errorf("%s: SHA-256 %x, released %q", name, sum, got)
			}
		}
	}
}
