package ordermsg

import (
	"context"
	"errors"
	"iter"
)

// MessagesService reads a website's messages. Use it as Client.Messages.
type MessagesService struct {
	r resource[Message, *Message]
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

// GetMessageOptions are the query parameters of Messages.Get.
type GetMessageOptions struct {
	// Includes asks for additional fields; sent as one comma-separated value.
	Includes []MessageInclude `url:"includes,comma,omitempty"`
	// KeepRawJSON keeps each record's bytes exactly as the server sent them,
	// for RawJSON. It costs nothing when false.
	KeepRawJSON bool `url:"-"`
}

// ListMessagesOptions are the query parameters of Messages.List and
// Messages.All. Zero values are left out of the query.
type ListMessagesOptions struct {
	// Page is the page number; the server's default is 1.
	Page int `url:"page,omitempty"`
	// Count is the page size. Its bounds are not given by the spec.
	Count int `url:"count,omitempty"`
	// DateStart keeps messages created after this date.
	DateStart Date `url:"date_start,omitempty"`
	// DateEnd keeps messages created before this date.
	DateEnd Date `url:"date_end,omitempty"`
	// Direction orders the result; see Direction for the assumed values.
	Direction Direction `url:"direction,omitempty"`
	// Sort names the field to sort by.
	Sort string `url:"sort,omitempty"`
	// Search is a search string.
	Search string `url:"search,omitempty"`
	// MessageType keeps messages of this type.
	MessageType MessageType `url:"message_type,omitempty"`
	// Includes asks for additional fields.
	Includes []MessageInclude `url:"includes,comma,omitempty"`
	// KeepRawJSON keeps each record's bytes exactly as the server sent them,
	// for RawJSON. It costs nothing when false.
	KeepRawJSON bool `url:"-"`
}

func (o *GetMessageOptions) validate() error {
	if o == nil {
		return nil
	}
	return checkIncludes(o.Includes)
}

func (o *ListMessagesOptions) validate() error {
	if o == nil {
		return nil
	}
	return errors.Join(checkPaging(o.Page, o.Count), checkDates(o.DateStart, o.DateEnd), checkIncludes(o.Includes))
}

func (o *ListMessagesOptions) paging() (int, int) {
	if o == nil {
		return 0, 0
	}
	return o.Page, o.Count
}

func (o *GetMessageOptions) keepsRawJSON() bool   { return o != nil && o.KeepRawJSON }
func (o *ListMessagesOptions) keepsRawJSON() bool { return o != nil && o.KeepRawJSON }

func (o *ListMessagesOptions) forSync(start Date) (listOptions, error) {
	out := ListMessagesOptions{}
	if o != nil {
		out = *o
	}
	return &out, setSyncFields(&out.Page, &out.DateStart, &out.DateEnd, &out.Direction, &out.Sort, start)
}

func (o *ListMessagesOptions) certainlyLists(rec *Message) bool {
	return o == nil || (o.Search == "" && (o.MessageType == "" || o.MessageType == rec.MessageType))
}
