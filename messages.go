package ordermsg

import "context"

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
