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
