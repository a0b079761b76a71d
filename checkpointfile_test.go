package ordermsg_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go"
)

func TestCheckpointSaveAndLoad(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "cp.json")
	if _, err := ordermsg.LoadCheckpoint(path); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing file: err = %v, want fs.ErrNotExist", err)
	}
	cp := ordermsg.NewCheckpointAt(time.Date(2024, 3, 10, 12, 0, 0, 0, time.UTC))
	if err := cp.Save(path); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path+".other", nil, 0o600); err != nil { // a neighbour Save must leave alone
		t.Fatal(err)
	}
	again := ordermsg.NewCheckpointAt(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
	if err := again.Save(path); err != nil { // replaces the file
		t.Fatal(err)
	}
	got, err := ordermsg.LoadCheckpoint(path)
	if err != nil || mustJSON(t, *got) != mustJSON(t, *again) {
		t.Fatalf("loaded %v, %v; want %s", got, err, mustJSON(t, *again))
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("directory holds %v; want the checkpoint and its neighbour, no temporary file", entries)
	}
	if err := os.Chmod(path, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := cp.Save(path); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, %v; want 0640: a replaced file keeps its mode", fi.Mode(), err)
	}
	for name, body := range map[string]string{"garbage": "not json", "bad": `{"v":2,"created":"2024-03-10T12:00:00Z","covered_before":"2024-03-11T00:00:00Z"}`} {
		bad := filepath.Join(dir, name)
		if err := os.WriteFile(bad, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		if cp, err := ordermsg.LoadCheckpoint(bad); cp != nil || !errors.Is(err, ordermsg.ErrInvalidCheckpoint) || !strings.Contains(err.Error(), bad) {
			t.Errorf("%s: %v, %v; want no checkpoint and ErrInvalidCheckpoint naming the file", name, cp, err)
		}
	}
	if err := cp.Save(filepath.Join(dir, "no", "such", "dir.json")); err == nil {
		t.Error("Save into a missing directory succeeded")
	}
}

// Save of a nil checkpoint is an error: its JSON would be null, which
// LoadCheckpoint refuses rather than start again from the beginning.
func TestCheckpointSaveOfNilIsAnError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cp.json")
	var cp *ordermsg.Checkpoint
	if err := cp.Save(path); !errors.Is(err, ordermsg.ErrInvalidArgument) {
		t.Fatalf("Save of nil: err = %v, want ErrInvalidArgument", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Save of nil wrote %s (stat: %v)", path, err)
	}
	if err := os.WriteFile(path, []byte("null"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ordermsg.LoadCheckpoint(path); !errors.Is(err, ordermsg.ErrInvalidCheckpoint) {
		t.Errorf("LoadCheckpoint of null: err = %v, want ErrInvalidCheckpoint", err)
	}
}
