// Package tracing is the portal's OpenTelemetry tracing: one trace per request
// from the HTTP handler through the Temporal client, the workflow and its
// activities (local ones too) to the SQL statements and the CRM's HTTP calls.
//
// It is off unless OTEL_EXPORTER_OTLP_ENDPOINT is set: then the Provider is
// nil-like (Enabled false) and every hook below returns what it was given, so
// an untraced process pays nothing. On, spans go over OTLP (http/protobuf by
// default, grpc with OTEL_EXPORTER_OTLP_PROTOCOL=grpc) through a batch
// processor; the exporter and the SDK read the other standard variables
// themselves (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES,
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_EXPORTER_OTLP_HEADERS,
// OTEL_EXPORTER_OTLP_TIMEOUT, OTEL_TRACES_SAMPLER, OTEL_BSP_*). The context
// travels as W3C tracecontext: in Temporal's headers, and in the CRM requests.
//
// Personal data stays out of the spans: the HTTP server's spans are named by
// the chi route pattern, SQL spans carry the parameterized statement and never
// its arguments, and the exporter drops or cuts the attributes that could hold
// personal data (scrub.go) before anything leaves the process.
package tracing

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
)

// The OTLP protocols the exporter speaks (OTEL_EXPORTER_OTLP_PROTOCOL).
const (
	ProtocolHTTP = "http/protobuf"
	ProtocolGRPC = "grpc"
)

// Config says whether and how spans are exported.
type Config struct {
	// Endpoint is OTEL_EXPORTER_OTLP_ENDPOINT; empty: tracing is off.
	Endpoint string
	// Protocol is OTEL_EXPORTER_OTLP_PROTOCOL: ProtocolHTTP (the default) or ProtocolGRPC.
	Protocol string
}

// ConfigFromEnv reads the tracing settings through getenv (os.Getenv).
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	c := Config{
		Endpoint: strings.TrimSpace(getenv("OTEL_EXPORTER_OTLP_ENDPOINT")),
		Protocol: strings.TrimSpace(getenv("OTEL_EXPORTER_OTLP_PROTOCOL")),
	}
	switch c.Protocol {
	case "":
		c.Protocol = ProtocolHTTP
	case ProtocolHTTP, ProtocolGRPC:
	default:
		return c, fmt.Errorf("OTEL_EXPORTER_OTLP_PROTOCOL: %q is not %s nor %s", c.Protocol, ProtocolHTTP, ProtocolGRPC)
	}
	return c, nil
}

// Propagator is how a span's context travels between processes: W3C tracecontext.
var Propagator propagation.TextMapPropagator = propagation.TraceContext{}

// Provider is the process's tracing. A nil *Provider, or one from Start
// without an endpoint, is off: its TracerProvider is the no-op one and its
// hooks change nothing.
type Provider struct {
	tp  trace.TracerProvider
	sdk *sdktrace.TracerProvider // nil when off
}

// Start builds the provider cfg asks for: off without an endpoint, else
// exporting over OTLP as service (the default of service.name; OTEL_SERVICE_NAME
// overrides it) at version. Shutdown flushes what is left.
func Start(ctx context.Context, cfg Config, service, version string) (*Provider, error) {
	if cfg.Endpoint == "" {
		return &Provider{tp: noop.NewTracerProvider()}, nil
	}
	var exp sdktrace.SpanExporter
	var err error
	switch cfg.Protocol {
	case ProtocolGRPC:
		exp, err = otlptracegrpc.New(ctx)
	case ProtocolHTTP, "":
		exp, err = otlptracehttp.New(ctx)
	default:
		err = fmt.Errorf("protocol %q is not %s nor %s", cfg.Protocol, ProtocolHTTP, ProtocolGRPC)
	}
	if err != nil {
		return nil, fmt.Errorf("tracing: OTLP exporter: %w", err)
	}
	res, err := Resource(ctx, service, version)
	if err != nil {
		_ = exp.Shutdown(ctx)
		return nil, err
	}
	// The exporter's failures (collector down) are warnings in the process's log, not a crash.
	otel.SetErrorHandler(otel.ErrorHandlerFunc(func(err error) { slog.Warn("tracing: exporting spans failed", "err", err) }))
	return NewProvider(sdktrace.WithBatcher(Scrub(exp)), sdktrace.WithResource(res)), nil
}

// Resource names the process: service.name (OTEL_SERVICE_NAME wins over
// service), service.version, OTEL_RESOURCE_ATTRIBUTES, the host.
func Resource(ctx context.Context, service, version string) (*resource.Resource, error) {
	res, err := resource.New(ctx,
		resource.WithAttributes(semconv.ServiceName(service), semconv.ServiceVersion(version)),
		resource.WithTelemetrySDK(), resource.WithHost(), resource.WithFromEnv())
	if err != nil && !errors.Is(err, resource.ErrPartialResource) {
		return nil, fmt.Errorf("tracing: resource: %w", err)
	}
	return res, nil
}

// NewProvider is an enabled provider with opts, e.g. a test's in-memory
// exporter: sdktrace.WithSyncer(Scrub(exporter)).
func NewProvider(opts ...sdktrace.TracerProviderOption) *Provider {
	sdk := sdktrace.NewTracerProvider(opts...)
	return &Provider{tp: sdk, sdk: sdk}
}

// Enabled reports whether spans are recorded and exported.
func (p *Provider) Enabled() bool { return p != nil && p.sdk != nil }

// TracerProvider is the provider's OpenTelemetry TracerProvider (the no-op one when off).
func (p *Provider) TracerProvider() trace.TracerProvider {
	if !p.Enabled() {
		return noop.NewTracerProvider()
	}
	return p.tp
}

// Shutdown exports the spans still buffered and stops the exporter.
func (p *Provider) Shutdown(ctx context.Context) error {
	if !p.Enabled() {
		return nil
	}
	return p.sdk.Shutdown(ctx)
}
