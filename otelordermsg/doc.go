// Package otelordermsg traces and measures an ordermsg.Client with
// OpenTelemetry, in a module of its own so that the SDK's users who do not
// want OpenTelemetry never get it:
//
//	c, err := ordermsg.NewClient(baseURL, apiKey,
//		otelordermsg.New(otelordermsg.WithTracerProvider(tp), otelordermsg.WithMeterProvider(mp)))
//
// Each call of the SDK (Orders.Get, Orders.List, a page of a walk or of a
// Sync, the same for Messages, Client.Get, Client.Download) is a span named
// for the operation, never with ids: "Orders.Get", "Orders.List",
// "Orders.All", "Orders.Sync", "Client.Get", "Client.Download". Beneath it,
// each HTTP attempt is a client span, named "GET" and its url.template
// ("GET /websites/{website_id}/orders"), with the attributes of
// OpenTelemetry's HTTP client conventions: http.request.method,
// server.address, server.port, url.template, http.response.status_code,
// error.type, and http.request.resend_count on a retry. An attempt answered
// 4xx or 5xx, or failed, has the Error status. A retry is an event named
// "retry" on the call's span, whose ordermsg.retry.wait attribute is the
// wait in seconds.
//
// The metrics are http.client.request.duration (seconds, per attempt, with
// the conventions' attributes), ordermsg.client.retries (retries, by
// method, server, url.template and the error.type retried) and
// ordermsg.client.records (records decoded, by ordermsg.resource).
//
// No attribute, event or metric holds the API key, the Authorization
// header, the version header's value, a URL's query or an error's text (a
// server's message may quote anything); errors are recorded by their
// error.type: the status code of an answer, "timeout", "canceled", or the
// type of the failure.
//
// Trace context is not sent to the service unless WithPropagators is given:
// the service is a third party's.
package otelordermsg
