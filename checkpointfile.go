package ordermsg

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// LoadCheckpoint reads a checkpoint that Save wrote to path. A missing file
// is an error that matches fs.ErrNotExist: start from the beginning (a new,
// zero Checkpoint) or from now (NewCheckpointAt) then, as the caller
// chooses. A file that is not a checkpoint is an error that matches
// ErrInvalidCheckpoint and names the file.
func LoadCheckpoint(path string) (*Checkpoint, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	cp := new(Checkpoint)
	if err := cp.UnmarshalJSON(b); err != nil { // not json.Unmarshal: its syntax errors would not match ErrInvalidCheckpoint
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return cp, nil
}

// Save writes c to path as JSON, replacing the file only once the new one is
// complete and on disk: a temporary file in the same directory is written,
// synced and renamed over path, so a crash leaves the old checkpoint or the
// new one, never a mix. The file is readable by its owner only.
func (c *Checkpoint) Save(path string) (err error) {
	b, err := json.Marshal(c)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if _, err = f.Write(b); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
