package ordermsg

import "github.com/go-json-experiment/json/jsontext"

// Page is one page of a list: the records and the pagination metadata.
type Page[T any] struct {
	Object string   `json:"object"`
	Data   []*T     `json:"data"`
	Meta   ListMeta `json:"meta"`

	// Unknown holds the members the SDK does not model, as sent.
	Unknown jsontext.Value `json:",embed"`

	raw []byte // the page as sent, with KeepRawJSON
}

// ListMeta is the metadata of a list response.
type ListMeta struct {
	Pagination Pagination `json:"pagination"`

	// Unknown holds the members the SDK does not model, as sent.
	Unknown jsontext.Value `json:",embed"`
}

// Pagination tells where a page stands in the whole list.
type Pagination struct {
	// Total is the number of records that match, on all pages.
	Total int `json:"total"`
	// Count is the number of records on this page.
	Count int `json:"count"`
	// PerPage is the page size in force (the count asked for, or the
	// server's default).
	PerPage int `json:"per_page"`
	// CurrentPage is this page's number, from 1.
	CurrentPage int `json:"current_page"`
	// TotalPages is the number of pages at this page size.
	TotalPages int `json:"total_pages"`

	// Unknown holds the members the SDK does not model, as sent.
	Unknown jsontext.Value `json:",embed"`
}

// HasNextPage reports whether pages follow this one.
func (p *Page[T]) HasNextPage() bool {
	return p.Meta.Pagination.CurrentPage < p.Meta.Pagination.TotalPages
}

// NextPage returns the number of the next page, or 0 when this is the last.
func (p *Page[T]) NextPage() int {
	if !p.HasNextPage() {
		return 0
	}
	return p.Meta.Pagination.CurrentPage + 1
}
