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

import (
	"github.com/ordermsg/ordermsg-go"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// ScopeName is the instrumentation scope of the tracer and the meter.
const ScopeName = "github.com/ordermsg/ordermsg-go/otelordermsg"

// New returns the option that has an ordermsg.Client traced and measured
// as the package doc says, by the providers that opts give, or else the
// global ones (otel.GetTracerProvider, otel.GetMeterProvider).
func New(opts ...Option) ordermsg.Option {
	var cfg config
	for _, o := range opts {
		if o != nil {
			o.apply(&cfg)
		}
	}
	if cfg.tracerProvider == nil {
		cfg.tracerProvider = otel.GetTracerProvider()
	}
	if cfg.meterProvider == nil {
		cfg.meterProvider = otel.GetMeterProvider()
	}
	return ordermsg.WithObserver(newObserver(cfg))
}

// Option configures New.
type Option interface {
	apply(*config)
}

type config struct {
	tracerProvider trace.TracerProvider
	meterProvider  metric.MeterProvider
	propagators    propagation.TextMapPropagator
}

type optionFunc func(*config)

func (f optionFunc) apply(c *config) { f(c) }

// WithTracerProvider sets the provider of the tracer; without it, the
// global one.
func WithTracerProvider(tp trace.TracerProvider) Option {
	return optionFunc(func(c *config) { c.tracerProvider = tp })
}

// WithMeterProvider sets the provider of the meter; without it, the global
// one.
func WithMeterProvider(mp metric.MeterProvider) Option {
	return optionFunc(func(c *config) { c.meterProvider = mp })
}

// WithPropagators has each attempt carry the trace context to the service,
// in the headers that p writes (propagation.TraceContext{} writes
// traceparent and tracestate), so that a service that traces can join its
// spans to the caller's. Without it, the default, nothing is sent: the
// service is a third party's, and the trace's ids and baggage are the
// caller's. p cannot set a header the client sets itself (Authorization,
// the version header, …).
func WithPropagators(p propagation.TextMapPropagator) Option {
	return optionFunc(func(c *config) { c.propagators = p })
}
