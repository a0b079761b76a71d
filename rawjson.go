package ordermsg

// RawJSON returns the order exactly as the server sent it, member for member,
// when it was read with KeepRawJSON (Get, List or All); else nil. Each order
// of a page has its own bytes. Do not modify them.
func (o *Order) RawJSON() []byte { return o.raw }

// RawJSON returns the message exactly as the server sent it, member for
// member, when it was read with KeepRawJSON (Get, List or All); else nil. Each
// message of a page has its own bytes. Do not modify them.
func (m *Message) RawJSON() []byte { return m.raw }

// RawJSON returns the page exactly as the server sent it when it was read
// with KeepRawJSON (List); else nil. Do not modify it.
func (p *Page[T]) RawJSON() []byte { return p.raw }

func (o *Order) setRaw(raw []byte)   { o.raw = raw }
func (m *Message) setRaw(raw []byte) { m.raw = raw }

// rawKeeper is an options struct that can ask for the records' bytes.
type rawKeeper interface{ keepsRawJSON() bool }

func (o *GetOrderOptions) keepsRawJSON() bool     { return o != nil && o.KeepRawJSON }
func (o *ListOrdersOptions) keepsRawJSON() bool   { return o != nil && o.KeepRawJSON }
func (o *GetMessageOptions) keepsRawJSON() bool   { return o != nil && o.KeepRawJSON }
func (o *ListMessagesOptions) keepsRawJSON() bool { return o != nil && o.KeepRawJSON }

// keepsRawJSON reports whether opts ask for the records' bytes.
func keepsRawJSON(opts queryOptions) bool {
	k, ok := opts.(rawKeeper)
	return ok && k.keepsRawJSON()
}
