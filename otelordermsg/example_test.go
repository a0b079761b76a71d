package otelordermsg_test

import (
	"context"
	"fmt"
	"log"
	"slices"
	"strings"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
	"github.com/ordermsg/ordermsg-go/otelordermsg"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

// A walk of three pages, traced: a span per page, and beneath each the
// client span of its request. A service gives the providers it exports
// with, such as OTLP's (docs/telemetry.md); this one keeps the spans in
// memory and prints them.
func Example() {
	spans := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))

	srv := ordermsgtest.NewServer(ordermsgtest.Generate(ordermsgtest.Config{Seed: 1, Websites: 1, OrdersPerWebsite: 6}))
	defer srv.Close()
	c, err := srv.Client(otelordermsg.New(otelordermsg.WithTracerProvider(tp), otelordermsg.WithMeterProvider(mp)))
	if err != nil {
		log.Fatal(err)
	}

	ctx, span := tp.Tracer("example").Start(context.Background(), "sync orders")
	for _, err := range c.Orders.All(ctx, srv.WebsiteID, &ordermsg.ListOrdersOptions{Count: 2}) {
		if err != nil {
			log.Fatal(err)
		}
	}
	span.End()
	printTree(spans.Ended(), trace.SpanID{}, "")
	// Output:
	// sync orders
	//   Orders.All (internal) ordermsg.records=2 ordermsg.resource=orders url.template=/websites/{website_id}/orders
	//     GET /websites/{website_id}/orders (client) http.request.method=GET http.response.status_code=200 server.address=127.0.0.1 url.template=/websites/{website_id}/orders
	//   Orders.All (internal) ordermsg.records=2 ordermsg.resource=orders url.template=/websites/{website_id}/orders
	//     GET /websites/{website_id}/orders (client) http.request.method=GET http.response.status_code=200 server.address=127.0.0.1 url.template=/websites/{website_id}/orders
	//   Orders.All (internal) ordermsg.records=2 ordermsg.resource=orders url.template=/websites/{website_id}/orders
	//     GET /websites/{website_id}/orders (client) http.request.method=GET http.response.status_code=200 server.address=127.0.0.1 url.template=/websites/{website_id}/orders
}

// printTree prints the spans beneath parent, in the order they started,
// each with its kind and attributes (but server.port, which changes from
// run to run).
func printTree(spans []sdktrace.ReadOnlySpan, parent trace.SpanID, indent string) {
	var children []sdktrace.ReadOnlySpan
	for _, s := range spans {
		if s.Parent().SpanID() == parent {
			children = append(children, s)
		}
	}
	slices.SortFunc(children, func(a, b sdktrace.ReadOnlySpan) int { return a.StartTime().Compare(b.StartTime()) })
	for _, s := range children {
		line := []string{indent + s.Name()}
		if s.SpanKind() != trace.SpanKindInternal || s.Parent().IsValid() {
			line = append(line, "("+s.SpanKind().String()+")")
		}
		var attrs []string
		for _, kv := range s.Attributes() {
			if kv.Key != "server.port" {
				attrs = append(attrs, string(kv.Key)+"="+kv.Value.String())
			}
		}
		slices.Sort(attrs)
		fmt.Println(strings.Join(append(line, attrs...), " "))
		printTree(spans, s.SpanContext().SpanID(), indent+"  ")
	}
}
