package webhook

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
)

// Changes is the mirror's change feed, as deliveries read it.
type Changes interface {
	// After returns the cursors of up to limit changes that follow cursor
	// ("" for the first change), in cursor order.
	After(ctx context.Context, cursor string, limit int) ([]string, error)
	// Line returns the change at cursor as `ordermsg changes` prints it:
	// one JSON object, without the line end. A change that is no longer
	// kept is an error matching ErrNoChange.
	Line(ctx context.Context, cursor string) ([]byte, error)
}

// ErrNoChange is what Changes.Line matches when the change is no longer
// kept: its delivery is given up at once.
var ErrNoChange = errors.New("webhook: the change is no longer kept")

// DeliveryID is the webhook-id of the change at cursor: the same for every
// attempt, and every endpoint, so that receivers can deduplicate.
func DeliveryID(cursor string) string {
	sum := sha256.Sum256([]byte(cursor))
	return "msg_" + hex.EncodeToString(sum[:16])
}
