package ordermsg

import (
	"context"
	"iter"

	"github.com/ordermsg/ordermsg-go/internal/resources"
)

// MessagesService reads a website's messages. Use it as Client.Messages.
type MessagesService struct {
	r resource[Message, *Message]
}

// Get returns one message of the website. opts may be nil.
func (s *MessagesService) Get(ctx context.Context, websiteID, messageID int64, opts *GetMessageOptions) (*Message, error) {
	return s.r.get(ctx, websiteID, messageID, orNew(opts))
}

// List returns one page of the website's messages. opts may be nil.
func (s *MessagesService) List(ctx context.Context, websiteID int64, opts *ListMessagesOptions) (*Page[Message], error) {
	return s.r.list(ctx, websiteID, orNew(opts))
}

// All walks every page of the website's messages that opts describe and
// yields each message once, as Orders.All does for orders (see there for
// errors, breaking out of the loop, and records that shift between pages).
func (s *MessagesService) All(ctx context.Context, websiteID int64, opts *ListMessagesOptions, walk ...WalkOption) iter.Seq2[*Message, error] {
	return s.r.walkList(ctx, &s.r.ops.all, websiteID, orNew(opts), walk, nil)
}

// Sync yields, in ascending creation order, every message of the website
// that the checkpoint cp does not cover, and advances *cp as each message is
// yielded, exactly as Orders.Sync does for orders (see there for the options
// it sets and refuses, and the errors it yields); a MessageType filter is
// accepted as Status is there, and WithSkipUndecodable as there. A
// checkpoint belongs to the messages of one website.
func (s *MessagesService) Sync(ctx context.Context, websiteID int64, cp *Checkpoint, opts *ListMessagesOptions, walk ...WalkOption) iter.Seq2[*Message, error] {
	return s.r.sync(ctx, websiteID, cp, orNew(opts), walk)
}

// GetRaw returns one message of the website as a *RawRecord, as
// Orders.GetRaw does for an order.
func (s *MessagesService) GetRaw(ctx context.Context, websiteID, messageID int64, opts *GetMessageOptions) (*RawRecord, error) {
	return getRaw(ctx, s.r, websiteID, messageID, orNew(opts))
}

// AllRaw walks the website's messages as All does and yields each as a
// *RawRecord, as Orders.AllRaw does for orders.
func (s *MessagesService) AllRaw(ctx context.Context, websiteID int64, opts *ListMessagesOptions, walk ...WalkOption) iter.Seq2[*RawRecord, error] {
	return allRaw(ctx, s.r, websiteID, orNew(opts), walk)
}

// SyncRaw is Sync yielding each message as a *RawRecord, as
// Orders.SyncRaw is for orders.
func (s *MessagesService) SyncRaw(ctx context.Context, websiteID int64, cp *Checkpoint, opts *ListMessagesOptions, walk ...WalkOption) iter.Seq2[*RawRecord, error] {
	return syncRaw(ctx, s.r, websiteID, cp, orNew(opts), walk)
}

// GetMessageOptions are the query parameters of Messages.Get, as
// GetOrderOptions are for orders.
type GetMessageOptions struct {
	Includes    []MessageInclude `url:"includes,comma,omitempty"`
	KeepRawJSON bool             `url:"-"`
	Response    *Response        `url:"-"` // receives the response, as in GetOrderOptions
}

// ListMessagesOptions are the query parameters of Messages.List and
// Messages.All. The fields are those of ListOrdersOptions, with MessageType
// (keeps messages of this type) for Status.
type ListMessagesOptions struct {
	Page        int              `url:"page,omitempty"`
	Count       int              `url:"count,omitempty"`
	DateStart   Date             `url:"date_start,omitempty"`
	DateEnd     Date             `url:"date_end,omitempty"`
	Direction   Direction        `url:"direction,omitempty"`
	Sort        string           `url:"sort,omitempty"`
	Search      string           `url:"search,omitempty"`
	MessageType MessageType      `url:"message_type,omitempty"`
	Includes    []MessageInclude `url:"includes,comma,omitempty"`
	KeepRawJSON bool             `url:"-"`
	Response    *Response        `url:"-"` // receives the response (of the page, in All and Sync), as in ListOrdersOptions
}

func (o *GetMessageOptions) validate() error           { return checkIncludes(o.Includes) }
func (o *GetMessageOptions) keepsRawJSON() bool        { return o.KeepRawJSON }
func (o *GetMessageOptions) responseInto() *Response   { return o.Response }
func (o *ListMessagesOptions) keepsRawJSON() bool      { return o.KeepRawJSON }
func (o *ListMessagesOptions) responseInto() *Response { return o.Response }
func (o *ListMessagesOptions) startPage() int          { return o.Page }

func (o *ListMessagesOptions) validate() error {
	return checkListOptions(o.Page, o.Count, o.DateStart, o.DateEnd, o.Includes)
}

func (o *ListMessagesOptions) forSync(start Date, into *Response) (listOptions, error) {
	out := *o
	out.Response = into
	return &out, setSyncFields(&out.Page, &out.DateStart, &out.DateEnd, &out.Direction, &out.Sort, start)
}

func (o *ListMessagesOptions) certainlyLists(rec *Message) bool {
	return o.Search == "" && (o.MessageType == "" || o.MessageType == rec.MessageType)
}

// MessagesResource returns the description of messages that code handling
// orders and messages alike uses (see Resource): its calls are those of
// Client.Messages, with ResourceOptions' Filter as MessageType.
func MessagesResource() Resource[Message] {
	return Resource[Message]{name: resources.Messages.Collection, calls: typedCalls[Message, *Message, *GetMessageOptions, *ListMessagesOptions]{
		of:      func(c *Client) resource[Message, *Message] { return c.Messages.r },
		convert: messagesOptions,
	}}
}

// messagesOptions are the options of Messages' calls that o gives.
func messagesOptions(o *ResourceOptions) (*GetMessageOptions, *ListMessagesOptions) {
	includes := includesOf[MessageInclude](o.Includes)
	return &GetMessageOptions{Includes: includes, KeepRawJSON: o.KeepRawJSON, Response: o.Response},
		&ListMessagesOptions{Page: o.Page, Count: o.Count, DateStart: o.DateStart, DateEnd: o.DateEnd,
			Direction: o.Direction, Sort: o.Sort, Search: o.Search, MessageType: MessageType(o.Filter),
			Includes: includes, KeepRawJSON: o.KeepRawJSON, Response: o.Response}
}
