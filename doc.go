// Package ordermsg is a client for the Order and Message Read API: a
// read-only HTTP/JSON service that returns a website's orders (purchases) and
// messages (form submissions).
//
//	c, err := ordermsg.NewClient("https://api.example.com", apiKey,
//		ordermsg.WithVersionHeader("Acme-Api-Version", "1"))
//	o, err := c.Orders.Get(ctx, websiteID, orderID, nil)
//	for o, err := range c.Orders.All(ctx, websiteID, nil) { … }
//
// Requests carry HTTP Basic authentication (the key as username, an empty
// password) and the version header, Service-Api-Version: 1 as the API's
// documentation writes it (DefaultVersionHeader), where Service stands for
// the maker's name: give the real one with WithVersionHeader. A 400 to a
// request sent under the default name says so in its error. A name that the
// client or net/http sets, drops or acts on itself could not carry the
// version, and is refused before any request ([CheckVersionHeader] has the
// list). Failures that are safe to repeat are retried (see RetryPolicy);
// WithRetry(RetryPolicy{}) turns retrying off, as tests on fixtures want.
// Errors are *APIError for a non-2xx response and *DecodeError for a 2xx body
// that is not the JSON expected. The package logs nothing unless WithLogger
// is given.
//
// The spec the package follows leaves much open (error shapes, the units of
// money, the values of direction, sort and status filters, count bounds); the
// package passes such values through and says in each doc comment what it
// assumes.
//
// # Records and JSON
//
// Records decode with encoding/json/v2. Members the SDK does not model are
// kept, at every level, in each type's Unknown field and written back when
// the value is encoded, so that json.Marshal of a decoded record gives back
// the JSON value it came from. Decoding is strict: invalid JSON, a value of
// the wrong kind, a record of the wrong object, a duplicate member name and
// invalid UTF-8 are a *DecodeError with the byte offset and the path of the
// failing value. References sent as an id or, with an include, as the
// object are a [Ref], which tells a null from a 0.
//
// KeepRawJSON in the options keeps each record's bytes as sent (RawJSON).
// AllRaw, SyncRaw and GetRaw yield each record as a [RawRecord]: checked
// exactly as decoding would check it, kept as sent, not decoded, for
// programs that store or forward records. By default a record that cannot be
// decoded fails its whole page; [WithSkipUndecodable] yields it instead as a
// [RecordDecodeError] in its place, with its id, position and bytes, and
// goes on. The Response field of the options receives the status and headers
// of the response behind a call, or behind the page of the current record.
//
// # Walks and incremental sync
//
// All walks every page, [WithConcurrency] pages in flight, and yields the
// records in order; a record pushed onto the next page by new records is
// not yielded twice, and a page that cannot be right ends the walk with a
// typed error (ErrEmptyPage, ErrNoPagination, ErrPaginationStuck,
// ErrPageMismatch) rather than a silent loss. For a walk that must see every
// record, sort ascending within a date window that has closed.
//
// Sync is a walk that starts where the last one stopped and yields each
// record once across runs, with a [Checkpoint] ([NewCheckpointAt] for a first
// run from now, [LoadCheckpoint] and [Checkpoint.Save] between runs). It
// lists from five days before the checkpoint's date, so that every reading of
// the API's whole-day date filters is covered, and drops what the checkpoint
// remembers yielding. When records leave the list during a run it lists
// again; it ends with a typed error ([OverlapError], ErrListShifted,
// ErrNotAscending) rather than skip a record in silence. A checkpoint belongs
// to one resource of one website ([CheckpointMismatchError]).
//
// # Downloads
//
// [Client.Download] and [Client.DownloadFile] fetch a print-ready file or a
// message's file: retried, resumed with Range, capped in size, checked in
// length, the key never sent to another origin, and a link whose expires has
// passed never requested (ErrLinkExpired).
//
// The repository's README gives the quick path; its docs folder has the
// whole reference (docs/records.md, docs/sync.md, docs/cli.md,
// docs/mirror.md, docs/testing.md), RELIABILITY.md each promise with its
// test, and BENCHMARKS.md each speed and memory goal with its benchmark.
package ordermsg
