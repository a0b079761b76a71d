package webhook

import (
	"context"
	"errors"
	"fmt"

	"github.com/ordermsg/ordermsg-go/mirror"
)

// FromMirror is the change feed of m as deliveries read it: the cursors of
// Mirror.Changes, and each change's line as `ordermsg changes` prints it.
// A change that PruneChanges removed matches ErrNoChange.
func FromMirror(m *mirror.Mirror) Changes { return mirrorChanges{m} }

type mirrorChanges struct{ m *mirror.Mirror }

func (c mirrorChanges) After(ctx context.Context, cursor string, limit int) ([]string, error) {
	var out []string
	for ch, err := range c.m.Changes(ctx, cursor, nil) {
		if err != nil {
			return nil, err
		}
		if out = append(out, ch.Cursor); len(out) == limit {
			break
		}
	}
	return out, nil
}

func (c mirrorChanges) Line(ctx context.Context, cursor string) ([]byte, error) {
	ch, err := c.m.Change(ctx, cursor)
	if errors.Is(err, mirror.ErrCursorExpired) {
		return nil, fmt.Errorf("%w: %w", ErrNoChange, err)
	}
	if err != nil {
		return nil, err
	}
	return ch.AppendJSON(nil), nil
}
