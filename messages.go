package ordermsg

import (
	"context"
	"iter"
)

// MessagesService reads a website's messages. Use it as Client.Messages.
type MessagesService struct {
	r resource[Message]
}

// Get returns one message of the website. opts may be nil.
func (s *MessagesService) Get(ctx context.Context, websiteID, messageID int64, opts *GetMessageOptions) (*Message, error) {
	return s.r.get(ctx, websiteID, messageID, opts)
}

// List returns one page of the website's messages. opts may be nil.
func (s *MessagesService) List(ctx context.Context, websiteID int64, opts *ListMessagesOptions) (*Page[Message], error) {
	return s.r.list(ctx, websiteID, opts)
}

// All walks every page of the website's messages that opts describe, from
// opts.Page (default 1), and yields each message once, in the list's order.
// An error is yielded once, and ends the walk. Breaking out of the loop stops
// the walk at once: nothing it started is left running. opts is not changed.
//
// Records that shift between pages while the walk runs (new records at the
// head of a newest-first list) are not yielded twice. Records deleted during
// the walk can make others shift the other way and be skipped; for a
// consistent walk, sort ascending (Direction: DirectionAsc) within a closed
// date window (DateEnd in the past), so that the pages do not move.
func (s *MessagesService) All(ctx context.Context, websiteID int64, opts *ListMessagesOptions, walk ...WalkOption) iter.Seq2[*Message, error] {
	return s.r.all(ctx, websiteID, opts, walk)
}

// Sync yields, in ascending creation order, every message of the website
// that the checkpoint cp does not cover, and advances *cp as each message is
// yielded, exactly as Orders.Sync does for orders (see there for how the
// day-granular date bounds are dealt with, how messages that join or leave
// the list during a run are dealt with, and why pages are fetched one at a
// time). A checkpoint belongs to the messages of one website. opts may be
// nil; Sync sets Page, DateStart, DateEnd, Direction and Sort itself. A
// MessageType filter is accepted as Orders.Sync accepts Status.
func (s *MessagesService) Sync(ctx context.Context, websiteID int64, cp *Checkpoint, opts *ListMessagesOptions) iter.Seq2[*Message, error] {
	return s.r.sync(ctx, websiteID, cp, opts)
}
