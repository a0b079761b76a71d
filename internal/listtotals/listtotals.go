// Package listtotals lets the mirror see the total of each page of a walk
// of a list (ordermsg's All and AllRaw), which the SDK's API does not show:
// a total that drops between two pages means that records left the list
// during the walk, which then skipped as many records as it lost.
package listtotals

import "context"

type key struct{}

// With returns a context under which a walk of a list calls f with the
// total (meta.pagination.total) of each page, in page order, before the
// page's records; f runs on the goroutine that ranges over the walk.
func With(ctx context.Context, f func(total int)) context.Context {
	return context.WithValue(ctx, key{}, f)
}

// Of is the function that With put in ctx, or nil.
func Of(ctx context.Context) func(total int) {
	f, _ := ctx.Value(key{}).(func(total int))
	return f
}
