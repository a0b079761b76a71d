package otelordermsg

import (
	"context"
	"errors"
	"net"
	"net/url"
	"strconv"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/semconv/v1.43.0/httpconv"
	"go.opentelemetry.io/otel/trace"
)

// The names of the attributes, the event and the metrics that are this
// package's own, beside OpenTelemetry's conventions.
const (
	resourceKey   = attribute.Key("ordermsg.resource")   // "orders" or "messages"
	recordsKey    = attribute.Key("ordermsg.records")    // records a call decoded
	retryWaitKey  = attribute.Key("ordermsg.retry.wait") // seconds
	retryEvent    = "retry"
	retriesMetric = "ordermsg.client.retries"
	recordsMetric = "ordermsg.client.records"
)

// observer turns the client's hooks into spans and measurements.
type observer struct {
	tracer      trace.Tracer
	propagators propagation.TextMapPropagator
	duration    httpconv.ClientRequestDuration
	retries     metric.Int64Counter
	records     metric.Int64Counter
}

func newObserver(cfg config) ordermsg.Observer {
	version := trace.WithInstrumentationVersion(ordermsg.Version)
	schema := trace.WithSchemaURL(semconv.SchemaURL)
	meter := cfg.meterProvider.Meter(ScopeName, metric.WithInstrumentationVersion(ordermsg.Version), metric.WithSchemaURL(semconv.SchemaURL))
	o := &observer{tracer: cfg.tracerProvider.Tracer(ScopeName, version, schema), propagators: cfg.propagators}
	var errs [3]error
	o.duration, errs[0] = httpconv.NewClientRequestDuration(meter)
	o.retries, errs[1] = meter.Int64Counter(retriesMetric, metric.WithUnit("{retry}"),
		metric.WithDescription("Retries of HTTP requests the client made, by the error.type retried."))
	o.records, errs[2] = meter.Int64Counter(recordsMetric, metric.WithUnit("{record}"),
		metric.WithDescription("Records the client decoded, by ordermsg.resource."))
	if err := errors.Join(errs[:]...); err != nil {
		otel.Handle(err) // an instrument that failed is a no-op one: the client works on
	}
	return ordermsg.Observer{StartCall: o.startCall, StartAttempt: o.startAttempt, Retry: o.retry}
}

// startCall starts the span of a call.
func (o *observer) startCall(ctx context.Context, op *ordermsg.Operation) (context.Context, func(ordermsg.CallEnd)) {
	ctx, span := o.tracer.Start(ctx, op.Name, trace.WithSpanKind(trace.SpanKindInternal))
	if span.IsRecording() {
		if op.Resource != "" {
			span.SetAttributes(resourceKey.String(op.Resource))
		}
		if op.URLTemplate != "" {
			span.SetAttributes(semconv.URLTemplate(op.URLTemplate))
		}
	}
	return ctx, func(end ordermsg.CallEnd) {
		if end.Records > 0 {
			span.SetAttributes(recordsKey.Int(end.Records))
			if o.records.Enabled(ctx) {
				o.records.Add(ctx, int64(end.Records), metric.WithAttributes(resourceKey.String(op.Resource)))
			}
		}
		if end.Err != nil {
			kind := errorType(end.Err)
			span.SetAttributes(semconv.ErrorTypeKey.String(kind))
			span.SetStatus(codes.Error, kind)
		}
		span.End()
	}
}

// startAttempt starts the client span of an attempt, within its call's
// span, and sends the trace context when asked to; its end records the
// attempt's duration.
func (o *observer) startAttempt(ctx context.Context, a *ordermsg.Attempt) func(ordermsg.AttemptEnd) {
	start := time.Now()
	template := a.Operation.URLTemplate
	name := a.Method
	attrs := make([]attribute.KeyValue, 0, 7)
	attrs = append(attrs, semconv.HTTPRequestMethodKey.String(a.Method),
		semconv.ServerAddress(a.ServerAddress), semconv.ServerPort(a.ServerPort))
	if template != "" {
		name += " " + template
		attrs = append(attrs, semconv.URLTemplate(template))
	}
	spanAttrs := attrs // and the resend count, which the metric has not
	if a.ResendCount > 0 {
		spanAttrs = append(attrs[:len(attrs):len(attrs)], semconv.HTTPRequestResendCount(a.ResendCount))
	}
	ctx, span := o.tracer.Start(ctx, name, trace.WithSpanKind(trace.SpanKindClient),
		trace.WithTimestamp(start), trace.WithAttributes(spanAttrs...))
	if o.propagators != nil {
		o.propagators.Inject(ctx, headerCarrier{a})
	}
	return func(end ordermsg.AttemptEnd) {
		elapsed := time.Since(start)
		var kind string
		switch {
		case end.StatusCode >= 400:
			kind = strconv.Itoa(end.StatusCode)
			span.SetStatus(codes.Error, "") // the status code says why
		case end.Err != nil:
			kind = errorType(end.Err)
			span.SetStatus(codes.Error, kind)
		}
		known := len(attrs)
		if end.StatusCode != 0 {
			attrs = append(attrs, semconv.HTTPResponseStatusCode(end.StatusCode))
		}
		if kind != "" {
			attrs = append(attrs, semconv.ErrorTypeKey.String(kind))
		}
		span.SetAttributes(attrs[known:]...)
		span.End()
		if o.duration.Enabled(ctx) {
			o.duration.Inst().Record(ctx, elapsed.Seconds(), metric.WithAttributes(attrs...))
		}
	}
}

// retry adds an event to the call's span and counts the retry.
func (o *observer) retry(ctx context.Context, r ordermsg.RetryWait) {
	kind := semconv.ErrorTypeKey.String(errorType(r.Err))
	trace.SpanFromContext(ctx).AddEvent(retryEvent, trace.WithAttributes(retryWaitKey.Float64(r.Wait.Seconds()), kind))
	if o.retries.Enabled(ctx) {
		a := r.Attempt
		attrs := []attribute.KeyValue{semconv.HTTPRequestMethodKey.String(a.Method),
			semconv.ServerAddress(a.ServerAddress), semconv.ServerPort(a.ServerPort), kind}
		if a.Operation.URLTemplate != "" {
			attrs = append(attrs, semconv.URLTemplate(a.Operation.URLTemplate))
		}
		o.retries.Add(ctx, 1, metric.WithAttributes(attrs...))
	}
}

// errorType is the error.type of err: the status code of an answer,
// "timeout", "canceled", "body_too_large", "link_expired", or else the
// type of the failure, never its text.
func errorType(err error) string {
	var apiErr *ordermsg.APIError
	var netErr net.Error
	var urlErr *url.Error
	switch {
	case errors.As(err, &apiErr):
		return strconv.Itoa(apiErr.StatusCode)
	case errors.Is(err, context.Canceled):
		return "canceled"
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &netErr) && netErr.Timeout():
		return "timeout"
	case errors.Is(err, ordermsg.ErrBodyTooLarge):
		return "body_too_large"
	case errors.Is(err, ordermsg.ErrLinkExpired):
		return "link_expired"
	case errors.As(err, &urlErr):
		err = urlErr.Err
	}
	return semconv.ErrorType(err).Value.AsString()
}

// headerCarrier lets a propagator set an attempt's headers; it reads none.
type headerCarrier struct{ a *ordermsg.Attempt }

func (c headerCarrier) Get(string) string { return "" }
func (c headerCarrier) Keys() []string    { return nil }
func (c headerCarrier) Set(key, value string) {
	_ = c.a.SetHeader(key, value) // a header the client sets itself stays the client's
}
