// Package ordermsg is a client for the Order and Message Read API: a
// read-only HTTP/JSON service that returns a website's orders (purchases) and
// messages (form submissions).
//
//	c, err := ordermsg.NewClient("https://api.example.com", apiKey)
//	o, err := c.Orders.Get(ctx, websiteID, orderID, nil)
//	for o, err := range c.Orders.All(ctx, websiteID, nil) { … }
//
// Requests carry HTTP Basic authentication (the key as username, an empty
// password) and the version header, Service-Api-Version: 1 as the API's
// documentation writes it (DefaultVersionHeader), where Service stands for
// the maker's name: give the real one with WithVersionHeader. Failures that are
// safe to repeat are retried (see RetryPolicy). Errors are *APIError for a
// non-2xx response and *DecodeError for a 2xx body that is not the JSON
// expected. The package logs nothing unless WithLogger is given.
//
// The spec the package follows leaves much open (error shapes, the units of
// money, the values of direction, sort and status filters, count bounds); the
// package passes such values through and says in each doc comment what it
// assumes.
package ordermsg
