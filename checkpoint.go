package ordermsg

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/ordermsg/ordermsg-go/internal/checkpoint"
	"github.com/ordermsg/ordermsg-go/internal/safefile"
)

// Checkpoint is how far a Sync has gone: the creation time of the newest
// record it yielded (the high-water mark) and the records it yielded within
// the window behind the mark that the next Sync lists again. Store it (it
// encodes to JSON and back; LoadCheckpoint and Save keep it in a file) and
// pass it to the next Sync to get only what it has not yielded yet, as the
// example of OrdersService.Sync does. Its zero value means "from the
// beginning"; NewCheckpointAt starts at a given time instead, skipping the
// history.
//
// A checkpoint belongs to one resource (orders or messages) of one website:
// the first Sync it is given records which, and a Sync of another resource
// or website refuses it with a *CheckpointMismatchError before sending any
// request. Its size is the number of records created in the window: about
// three days of records, whatever the length of the history. Decoding is
// all or nothing: input that is not a valid checkpoint leaves the
// Checkpoint as it was and returns an error that says what is wrong and
// matches ErrInvalidCheckpoint. docs/sync.md gives the JSON format.
type Checkpoint struct {
	s checkpoint.State
}

// NewCheckpointAt returns a checkpoint that starts at t: a Sync given it
// yields the records created at or after t, and none created before, as if
// every record before t had been yielded already. t counts to the second,
// the resolution of the API's times: a record created in t's second is
// yielded even when it came after t's fraction (time.Now() has one). A
// record that the server shows late, created before t, is not yielded. The
// zero t starts from the beginning, as the zero Checkpoint does.
func NewCheckpointAt(t time.Time) *Checkpoint {
	return &Checkpoint{s: checkpoint.At(t)}
}

// IsZero reports whether c has nothing yielded yet and no start time: a
// Sync given it lists from the beginning. A zero checkpoint may already
// belong to a resource and website.
func (c *Checkpoint) IsZero() bool { return c.s.Mark.IsZero() }

// Mark is the high-water mark: the creation time of the newest record
// yielded (or the start time of NewCheckpointAt), zero before the first.
func (c *Checkpoint) Mark() time.Time { return c.s.Mark }

// check reports a *CheckpointMismatchError unless c belongs to the
// resource and website given, or to none yet.
func (c *Checkpoint) check(resource string, website int64) error {
	if c.s.Resource != "" && (c.s.Resource != resource || c.s.Website != website) {
		return &CheckpointMismatchError{CheckpointResource: c.s.Resource, CheckpointWebsite: c.s.Website, Resource: resource, Website: website}
	}
	return nil
}

// claim makes c, which check has passed, belong to the resource and website.
func (c *Checkpoint) claim(resource string, website int64) {
	c.s.Resource, c.s.Website = resource, website
}

// overlapStart is the date_start of a sync from c (see checkpoint.State.OverlapStart).
func (c *Checkpoint) overlapStart() Date {
	if c.IsZero() {
		return Date{}
	}
	return DateOf(c.s.OverlapStart())
}

// MarshalJSON encodes c in version 2 of the format (see Checkpoint); the
// zero Checkpoint is {}.
func (c Checkpoint) MarshalJSON() ([]byte, error) { return c.s.MarshalJSON() }

// UnmarshalJSON decodes version 2 of the format (see Checkpoint). On
// an error, c is left as it was.
func (c *Checkpoint) UnmarshalJSON(b []byte) error {
	s, err := checkpoint.Decode(b)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidCheckpoint, err)
	}
	c.s = s
	return nil
}

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
	s, err := checkpoint.Decode(b)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrInvalidCheckpoint, path, err)
	}
	return &Checkpoint{s: s}, nil
}

// Save writes c to path as JSON, the way DownloadFile writes a file: synced
// and renamed onto path only when complete, so a crash leaves the old
// checkpoint or the new one, never a mix.
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
