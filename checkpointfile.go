package ordermsg

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/ordermsg/ordermsg-go/internal/safefile"
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
	cp, err := decodeCheckpoint(b)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrInvalidCheckpoint, path, err)
	}
	return &cp, nil
}

// Save writes c to path as JSON, the way DownloadFile writes a file: a
// regular file (new, or replacing an old one) is written to a temporary file
// beside it, synced, and renamed onto path only when complete, so a crash
// leaves the old checkpoint or the new one, never a mix. A new file gets mode
// 0666 less the umask; a replaced one keeps its mode; a symlink is followed.
func (c *Checkpoint) Save(path string) error {
	if c == nil {
		return invalidArgument("Save of a nil *Checkpoint")
	}
	b, err := json.Marshal(c)
	if err != nil {
		return err
	}
	out, err := safefile.Open(context.Background(), path)
	if err != nil {
		return fmt.Errorf("ordermsg: saving checkpoint: %w", err)
	}
	if _, err := out.Write(b); err != nil {
		out.Discard()
		return fmt.Errorf("ordermsg: saving checkpoint: %w", err)
	}
	if err := out.Commit(); err != nil {
		return fmt.Errorf("ordermsg: saving checkpoint: %w", err)
	}
	return nil
}
