package tracing_test

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	collectorpb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/grpc"

	"oportuna/internal/tracing"
	"oportuna/internal/tracing/tracingtest"
)

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestConfigReadsTheEndpointAndTheProtocol(t *testing.T) {
	for _, c := range []struct {
		vars    map[string]string
		want    tracing.Config
		wantErr string
	}{
		{vars: nil, want: tracing.Config{Protocol: tracing.ProtocolHTTP}},
		{vars: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": " http://collector:4318 "},
			want: tracing.Config{Endpoint: "http://collector:4318", Protocol: tracing.ProtocolHTTP}},
		{vars: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4317", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"},
			want: tracing.Config{Endpoint: "http://collector:4317", Protocol: tracing.ProtocolGRPC}},
		{vars: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318", "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json"},
			wantErr: `OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" is not http/protobuf nor grpc`},
	} {
		got, err := tracing.ConfigFromEnv(env(c.vars))
		switch {
		case c.wantErr != "":
			if err == nil || err.Error() != c.wantErr {
				t.Errorf("%v: err %v, want %q", c.vars, err, c.wantErr)
			}
		case err != nil || got != c.want:
			t.Errorf("%v: %+v %v, want %+v", c.vars, got, err, c.want)
		}
	}
}

type plainHandler struct{ spanned bool }

func (h *plainHandler) ServeHTTP(_ http.ResponseWriter, r *http.Request) {
	h.spanned = trace.SpanContextFromContext(r.Context()).IsValid()
}

// TestWithoutAnEndpointTracingIsOff: no OTEL_EXPORTER_OTLP_ENDPOINT, no
// tracing: the provider is the no-op one, and every hook hands back what it
// got, so an untraced process runs exactly the code it ran before.
func TestWithoutAnEndpointTracingIsOff(t *testing.T) {
	cfg, err := tracing.ConfigFromEnv(env(map[string]string{"OTEL_EXPORTER_OTLP_PROTOCOL": "grpc", "OTEL_SERVICE_NAME": "x"}))
	if err != nil {
		t.Fatal(err)
	}
	tp, err := tracing.Start(t.Context(), cfg, "oportuna-api", "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	for name, p := range map[string]*tracing.Provider{"started without an endpoint": tp, "nil": nil} {
		if p.Enabled() {
			t.Errorf("%s: enabled", name)
		}
		_, span := p.TracerProvider().Tracer("t").Start(t.Context(), "x")
		if span.IsRecording() || span.SpanContext().IsValid() {
			t.Errorf("%s: the tracer records spans", name)
		}
		h := &plainHandler{}
		got := p.Middleware()(h)
		if got != http.Handler(h) {
			t.Errorf("%s: the middleware wrapped the handler (%T)", name, got)
		}
		got.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/api/brand", nil))
		if h.spanned {
			t.Errorf("%s: the request has a span", name)
		}
		rt := &http.Transport{}
		if p.Transport(rt) != http.RoundTripper(rt) || p.Transport(nil) != nil {
			t.Errorf("%s: the transport was wrapped", name)
		}
		if p.HTTPClient() != nil {
			t.Errorf("%s: an HTTP client of its own", name)
		}
		if is := p.TemporalInterceptors(); len(is) != 0 {
			t.Errorf("%s: Temporal interceptors %v", name, is)
		}
		pcfg, err := pgxpool.ParseConfig("postgres://u@127.0.0.1/db")
		if err != nil {
			t.Fatal(err)
		}
		p.ConfigurePool(pcfg)
		if pcfg.ConnConfig.Tracer != nil {
			t.Errorf("%s: the pool got a tracer %T", name, pcfg.ConnConfig.Tracer)
		}
		if err := p.Shutdown(t.Context()); err != nil {
			t.Errorf("%s: shutdown: %v", name, err)
		}
	}
	// On, the same hooks do wrap (the test above is not vacuous).
	on := tracing.NewProvider()
	h := &plainHandler{}
	on.Middleware()(h).ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/api/brand", nil))
	if !h.spanned || on.HTTPClient() == nil || len(on.TemporalInterceptors()) != 1 {
		t.Errorf("an enabled provider: span in the request %v, client %v, interceptors %d",
			h.spanned, on.HTTPClient(), len(on.TemporalInterceptors()))
	}
}

// TestSpansReachAnOTLPReceiver starts tracing as the process does, against an
// OTLP receiver over each protocol, and checks what arrives on the wire: the
// span, the service name (the default, or OTEL_SERVICE_NAME), and no personal
// data: a CRM URL without its query string (a SOQL query naming a customer's
// CNPJ), no client address.
func TestSpansReachAnOTLPReceiver(t *testing.T) {
	for _, c := range []struct {
		protocol, serviceEnv, wantService string
	}{
		{protocol: tracing.ProtocolHTTP, wantService: "oportuna-api"},
		{protocol: tracing.ProtocolGRPC, serviceEnv: "oportuna-worker-sp", wantService: "oportuna-worker-sp"},
	} {
		t.Run(c.protocol, func(t *testing.T) {
			rec := &tracingtest.Receiver{}
			var endpoint string
			if c.protocol == tracing.ProtocolGRPC {
				ln, err := net.Listen("tcp", "127.0.0.1:0")
				if err != nil {
					t.Fatal(err)
				}
				gs := grpc.NewServer()
				collectorpb.RegisterTraceServiceServer(gs, rec)
				go func() { _ = gs.Serve(ln) }()
				t.Cleanup(gs.Stop)
				endpoint = "http://" + ln.Addr().String()
			} else {
				srv := httptest.NewServer(rec)
				t.Cleanup(srv.Close)
				endpoint = srv.URL
			}
			// The exporter reads its endpoint (and the rest) from the environment, as in production.
			t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint)
			t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", c.protocol)
			t.Setenv("OTEL_SERVICE_NAME", c.serviceEnv)
			cfg, err := tracing.ConfigFromEnv(func(k string) string {
				return map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": endpoint, "OTEL_EXPORTER_OTLP_PROTOCOL": c.protocol}[k]
			})
			if err != nil {
				t.Fatal(err)
			}
			tp, err := tracing.Start(t.Context(), cfg, "oportuna-api", "1.2.3")
			if err != nil {
				t.Fatal(err)
			}
			if !tp.Enabled() {
				t.Fatal("an endpoint and tracing is off")
			}
			_, span := tp.TracerProvider().Tracer("t").Start(t.Context(), "POST crm", trace.WithAttributes(
				attribute.String("url.full", "https://org.my.salesforce.com/services/data/v62.0/query?q=SELECT+Id+FROM+Account+WHERE+CNPJ__c+%3D+%2711222333000181%27"),
				attribute.String("client.address", "203.0.113.7"),
				attribute.String("http.route", "/api/opportunity/{id}")))
			span.End()
			if err := tp.Shutdown(t.Context()); err != nil { // flushes the batch
				t.Fatal(err)
			}
			spans := rec.Spans()
			if len(spans) != 1 || spans[0].Name != "POST crm" {
				t.Fatalf("received %d spans: %v", len(spans), spans)
			}
			if spans[0].Service != c.wantService {
				t.Errorf("service.name %q, want %q", spans[0].Service, c.wantService)
			}
			got := spans[0].Attrs
			if got["url.full"] != "https://org.my.salesforce.com/services/data/v62.0/query" || got["http.route"] != "/api/opportunity/{id}" {
				t.Errorf("attributes %v", got)
			}
			if _, ok := got["client.address"]; ok {
				t.Errorf("client.address reached the collector: %v", got)
			}
			for k, v := range got {
				if strings.Contains(v, "11222333000181") {
					t.Errorf("%s=%s carries the CNPJ", k, v)
				}
			}
		})
	}
}
