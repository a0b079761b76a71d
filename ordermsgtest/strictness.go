package ordermsgtest

import (
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// WithStrictQuery sets how the fake answers query values the spec leaves
// open. Strict (the default) answers 400 to an unknown include, a count
// outside 1 to MaxCount, a page below 1, and a direction or sort it does not
// know, to catch a client's mistakes early. Lenient (strict false) serves
// them as a forgiving server would: unknown includes are ignored, count and
// page are brought into range (a value that is not an integer counts as
// absent), and an unknown direction or sort gives the default order. Dates
// that are not YYYY-MM-DD answer 400 in both modes, as the spec gives
// their form.
func WithStrictQuery(strict bool) Option { return func(h *Handler) { h.lenient = !strict } }

// relaxQuery rewrites q in place to what the strict checks accept, as the
// lenient mode reads it.
func relaxQuery(q url.Values, orders bool) {
	allowed := messageIncludes
	if orders {
		allowed = orderIncludes
	}
	if raw := q.Get("includes"); raw != "" {
		var known []string
		for _, name := range strings.Split(raw, ",") {
			if allowed[name] {
				known = append(known, name)
			}
		}
		q.Set("includes", strings.Join(known, ","))
	}
	clamp(q, "page", 1, math.MaxInt)
	clamp(q, "count", 1, MaxCount)
	keepIfOneOf(q, "direction", "asc", "desc")
	keepIfOneOf(q, "sort", "date_created", "id")
}

// clamp brings the integer q[key] into [lo, hi], and drops it when it is
// not an integer.
func clamp(q url.Values, key string, lo, hi int) {
	if _, ok := q[key]; !ok {
		return
	}
	n, err := strconv.Atoi(q.Get(key))
	if err != nil {
		q.Del(key)
		return
	}
	q.Set(key, strconv.Itoa(min(max(n, lo), hi)))
}

// keepIfOneOf drops q[key] unless it is one of the values.
func keepIfOneOf(q url.Values, key string, values ...string) {
	if !slices.Contains(values, q.Get(key)) {
		q.Del(key)
	}
}
