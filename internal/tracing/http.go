package tracing

import (
	"net/http"
	"slices"

	"github.com/go-chi/chi/v5"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"
)

// Middleware is the chi middleware (Use it first on the root router) that
// starts a server span per request, named "METHOD /route/{pattern}" once chi
// has matched the route (just "METHOD" when none did: the web app's files),
// with http.route set. Requests to the paths in untraced (the probes) get no
// span. The portal is a public endpoint: a traceparent sent by a browser is
// only linked, never adopted as parent, so a client neither picks the trace
// nor forces its sampling. Off, it returns next unchanged.
func (p *Provider) Middleware(untraced ...string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		if !p.Enabled() {
			return next
		}
		named := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			defer func() {
				rctx := chi.RouteContext(r.Context())
				if rctx == nil {
					return
				}
				if route := rctx.RoutePattern(); route != "" && route != "/*" {
					span := trace.SpanFromContext(r.Context())
					span.SetName(r.Method + " " + route)
					span.SetAttributes(semconv.HTTPRoute(route))
				}
			}()
			next.ServeHTTP(w, r)
		})
		return otelhttp.NewHandler(named, "http",
			otelhttp.WithTracerProvider(p.tp),
			otelhttp.WithPropagators(Propagator),
			otelhttp.WithPublicEndpointFn(func(*http.Request) bool { return true }),
			otelhttp.WithFilter(func(r *http.Request) bool { return !slices.Contains(untraced, r.URL.Path) }),
			otelhttp.WithSpanNameFormatter(func(_ string, r *http.Request) string { return r.Method }))
	}
}

// Transport is rt (nil: http.DefaultTransport) with a client span per
// request, named "METHOD host", whose context the request carries in its
// traceparent header. Off, it returns rt unchanged.
func (p *Provider) Transport(rt http.RoundTripper) http.RoundTripper {
	if !p.Enabled() {
		return rt
	}
	if rt == nil {
		rt = http.DefaultTransport
	}
	return otelhttp.NewTransport(rt,
		otelhttp.WithTracerProvider(p.tp),
		otelhttp.WithPropagators(Propagator),
		otelhttp.WithSpanNameFormatter(func(_ string, r *http.Request) string { return r.Method + " " + r.URL.Host }))
}

// HTTPClient is an http.Client whose requests are traced (Transport); nil
// when off, which the CRM client (crm.NewSalesforce) takes as its default.
func (p *Provider) HTTPClient() *http.Client {
	if !p.Enabled() {
		return nil
	}
	return &http.Client{Transport: p.Transport(nil)}
}
