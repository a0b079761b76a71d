// Package ordermsgtest is an in-process fake of the Order and Message Read
// API, for examples, for tests of code that uses package ordermsg, and for
// trying the SDK without credentials. It holds state and paginates for real.
//
// Three ways to use it:
//
//   - NewServer starts it on a loopback port, like httptest.NewServer; its
//     URL, APIKey and WebsiteID are what a client needs.
//   - NewHandler returns it as an http.Handler, to mount anywhere.
//   - Handler.Register serves it through an httpmock.MockTransport, so that a
//     test needs no port at all; Handler.Client returns an SDK client whose
//     transport answers the same way, in the process, as Server.Client does
//     for a server.
//
// # Fixtures for httpmock
//
// A test that sets up its own httpmock routes gets responders for them:
// RecordResponder serves one record, PageResponder one page of a list, and
// ListResponder every page of a list (it reads page and count and fills in
// the pagination); each takes your own *ordermsg.Order or
// *ordermsg.Message values, or raw JSON (json.RawMessage). ErrorResponder
// serves an error of any status, RateLimitResponder a 429 with
// Retry-After. Like httpmock's *OrPanic constructors, they panic when made
// with a fixture that no response of the API holds, rather than serve it
// or fail each request: a nil record, raw JSON that is not a JSON object,
// an error status outside 400 to 599. The URL layout under the base URL is
// /websites/{website_id}/orders, /websites/{website_id}/orders/{order_id},
// and the same for messages; httpmock matches a URL registered without a
// query whatever the request's query. For records like the real ones,
// Website.ListedOrders, ListedMessages, RetrievedOrder and RetrievedMessage
// return the fake's data as the API shows it, with the includes asked for;
// but their file links are the dataset's (on files.example.com, expired),
// not the signed ones the fake mints on its own origin as it serves.
//
// The responders return func(*http.Request) (*http.Response, error), the
// type behind httpmock.Responder, and Register takes its transport as a
// MockTransport: the package does not import httpmock, so that a program
// that runs the fake (the ordermsg command's serve and --demo) does not
// link the testing package, which httpmock imports. A responder registers
// as it is; httpmock.Responder(r) gives it httpmock's methods, such as
// Times and Delay.
//
// A client retries 429 and 5xx responses, and network errors, by default,
// three times with backoff; httpmock's answer to a URL without a responder
// is such an error. Give a client on fixtures
// ordermsg.WithRetry(ordermsg.RetryPolicy{}), so that an error fixture, or
// a URL the test did not register, answers at once. The repository's
// docs/testing.md walks through each of these with the runnable examples.
//
// # OpenAPI
//
// The fake serves the API's OpenAPI 3.1 description, openapi.yaml in this
// package's directory, at OpenAPIPath (/openapi.yaml) to GET and HEAD, without
// credentials, faults or latency, so that a code generator or a mock tool
// can be pointed at a running fake (Server.OpenAPIURL). OpenAPIDocument
// returns it. The module github.com/ordermsg/ordermsg-go/contract checks
// the SDK's requests and the fake's responses against it: those of its own
// tests, and, in the repository's CI, every exchange the fakes of the other
// test suites serve.
//
// # Data
//
// Generate builds a deterministic Dataset from a seed and sizes. Every
// website belongs to its own account with its own API key. Records are
// linked and their numbers agree: total = subtotal − subtotal_discount +
// shipping + tax; an item's subtotal = unit × quantity; an order's message
// and that message's order point at each other; amount_paid is the sum of
// the order's payment transactions (none for a pay-later order, which has
// amount_paid 0). Every order is linked to an online_order message; the
// other messages are event_management or general_contact. Only the values
// the spec observed are used for status-like fields.
//
// # Conventions
//
// The fake follows the spec where it differs by context: the user of an
// order with no user is null (retrieved or listed); an order inside a
// message carries its user as an integer id and its items only with
// order.items; a message's user is 0 when none, except null in a list with
// include user; a message's file is its id or 0, and with include file the
// object or null; promo_code is null when no code applies; fields that
// depend on an include are absent without it.
//
// # Choices where the spec is silent
//
// These are the fake's, not the real service's; tests that rely on them
// test against the fake.
//
//   - Errors are JSON: {"object": "error", "status": <code>, "message":
//     "<text>"}. A 404 says "<what> <id> not found" with the id as the path
//     wrote it, for every unknown website, order, message or endpoint:
//     "order 12 not found", "order x1 not found", "website 0 not found".
//   - Authentication: a missing or unknown key, or a non-empty password,
//     gives 401 with WWW-Authenticate. A known key reading another
//     account's website gives 403. An unknown website or record gives 404.
//   - Version header: Service-Api-Version must be "1"; a missing header or
//     another value gives 400. The spec's Service stands for the maker's
//     name, so WithVersionHeader makes the fake require the real name (and
//     value) instead, to test code that sends it; Server.Client and
//     Handler.Client send whatever the fake requires. A name or value that
//     the SDK refuses (ordermsg.CheckVersionHeader) is refused here too:
//     Client returns the error and every request gets a 501 that says it
//     (a server error that the SDK does not retry, unlike a 500).
//   - Methods other than GET give 405.
//   - count: default 25 (DefaultCount), from 1 to 100 (MaxCount); outside
//     that, 400. page: from 1, default 1; a page past the end is empty.
//   - date_start and date_end are YYYY-MM-DD, compared with date_created in
//     UTC, and both are inclusive by default: date_start=2024-01-02 keeps
//     records from 2024-01-02T00:00:00, date_end=2024-01-05 keeps them up
//     to the end of that day. Any other form gives 400. The spec says
//     neither whether a bound is inclusive nor where a day starts, so
//     WithDayBounds serves the other readings (exclusive bounds, days that
//     start at another UTC offset), for testing code against each.
//   - direction is asc or desc; sort is date_created or id (ties on
//     date_created fall back to id); other values, 400. The default is
//     date_created, desc: newest first, as the spec's sample list is.
//   - status (orders) and message_type (messages) keep exact matches; an
//     unobserved value is not an error, it matches nothing.
//   - search is a case-insensitive substring match on: for orders, the id,
//     the currency, item SKUs and titles, the billing address's formatted
//     values and the user's username; for messages, the id, the
//     message_tracking_number, the form submission's formatted values and
//     the user's username.
//   - includes must be among the values the spec uses for the resource;
//     any other gives 400. Unknown query parameters are ignored.
//   - The include order.items alone expands a message's order, with its
//     items, as order and order.items together do. The spec ties the
//     expansion to order and the items to order.items; a nested include
//     naming a field of the order implies the order, as JSON:API's
//     include=comments.author includes the comments.
//   - An unknown include, a count outside 1 to MaxCount, a page below 1,
//     or another direction or sort answers 400, to catch a client's
//     mistakes early; the SDK passes any such value through, and the real
//     service's answer is not shown.
//
// # Records added while serving
//
// Server.AddOrders and Server.AddMessages (and Handler's, per website) add
// records created after every existing one, some sharing a timestamp, while
// requests are served; they are listed and retrieved like the others. This
// is what an incremental sync (ordermsg's Sync) is tested against.
// Handler.Snapshot reads the dataset safely meanwhile. The command
// `ordermsg serve --add-every D` does the same on a timer, for a poller
// that runs as a process of its own.
//
// # Files
//
// Every file of the dataset (print-ready files and message files) has
// deterministic content, served at its url: on the API's origin under
// /files/, or on a second origin with FileLinks.SeparateOrigin. A link is
// minted, signed, each time its record is served and expires after
// FileLinks.TTL; an expired or forged link answers 403 (the spec does not
// say how a real file host answers). Range requests are served unless
// FileLinks.NoRange, and the fault injection below applies to files too.
// WithFileLinks sets this up; Handler.FileContent and Handler.FileStats are
// for tests. Register's httpmock responder serves the API only.
//
// # Faults
//
// WithFaults makes a seeded share of responses fail: 429 with Retry-After,
// 500, 503, a dropped connection, a 200 whose body is cut off halfway, or a
// slow answer. WithLatency delays every response. Handler.Stats counts
// requests and faults.
package ordermsgtest
