// Package tracingtest reads the spans the portal exports, for tests: from an
// in-memory exporter or from the wire of an OTLP receiver (HTTP or gRPC), as
// one list in which a test follows a trace from its root.
package tracingtest

import (
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	collectorpb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	"google.golang.org/protobuf/proto"
)

// Span is a finished span as a test reads it.
type Span struct {
	Service string // the resource's service.name
	Name    string
	Kind    trace.SpanKind
	TraceID trace.TraceID
	SpanID  trace.SpanID
	Parent  trace.SpanID // zero: a root
	Attrs   map[string]string
}

// Spans are the spans a test collected.
type Spans []Span

// FromStubs are the spans of an in-memory exporter (tracetest.InMemoryExporter).
func FromStubs(stubs tracetest.SpanStubs) Spans {
	out := make(Spans, 0, len(stubs))
	for _, s := range stubs {
		sp := Span{Name: s.Name, Kind: s.SpanKind, TraceID: s.SpanContext.TraceID(), SpanID: s.SpanContext.SpanID(),
			Attrs: map[string]string{}}
		if s.Parent.IsValid() {
			sp.Parent = s.Parent.SpanID()
		}
		for _, kv := range s.Attributes {
			sp.Attrs[string(kv.Key)] = kv.Value.String()
		}
		if s.Resource != nil {
			if v, ok := s.Resource.Set().Value("service.name"); ok {
				sp.Service = v.AsString()
			}
		}
		out = append(out, sp)
	}
	return out
}

// Roots are the spans named name without a parent.
func (ss Spans) Roots(name string) Spans {
	var out Spans
	for _, s := range ss {
		if s.Name == name && s.Parent == (trace.SpanID{}) {
			out = append(out, s)
		}
	}
	return out
}

// Chain is the names from s up to root, both included; nil when s is not in
// root's trace or a parent on the way was never exported.
func (ss Spans) Chain(root, s Span) []string {
	byID := map[trace.SpanID]Span{}
	for _, x := range ss {
		byID[x.SpanID] = x
	}
	var names []string
	for range len(ss) + 1 {
		if s.TraceID != root.TraceID {
			return nil
		}
		names = append(names, s.Name)
		if s.SpanID == root.SpanID {
			return names
		}
		p, ok := byID[s.Parent]
		if !ok {
			return nil
		}
		s = p
	}
	return nil // a cycle: not a tree
}

// Under is the first span that match accepts whose parent chain reaches root
// through spans named via, in that order (nearest first, others between allowed).
func (ss Spans) Under(root Span, match func(Span) bool, via ...string) (Span, bool) {
	for _, s := range ss {
		if !match(s) {
			continue
		}
		c := ss.Chain(root, s)
		if c == nil {
			continue
		}
		rest, ok := c[1:], true
		for _, v := range via {
			i := indexOf(rest, v)
			if i < 0 {
				ok = false
				break
			}
			rest = rest[i+1:]
		}
		if ok {
			return s, true
		}
	}
	return Span{}, false
}

// Named matches the spans called name.
func Named(name string) func(Span) bool { return func(s Span) bool { return s.Name == name } }

func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}

// Tree lists the spans with their parents and services, for a failure's message.
func (ss Spans) Tree() string {
	byID := map[trace.SpanID]string{}
	for _, s := range ss {
		byID[s.SpanID] = s.Name
	}
	var b strings.Builder
	for _, s := range ss {
		parent := "-"
		if s.Parent != (trace.SpanID{}) {
			if parent = byID[s.Parent]; parent == "" {
				parent = "(not exported) " + s.Parent.String()
			}
		}
		b.WriteString("  " + s.Name + " <- " + parent + "  [" + s.Service + " " + s.TraceID.String()[:8] + "]\n")
	}
	return b.String()
}

// Receiver is an OTLP trace receiver, what a collector (Jaeger, the
// OpenTelemetry Collector) gets: over HTTP (ServeHTTP, POST /v1/traces with a
// binary protobuf body) or gRPC (register it as the TraceService).
type Receiver struct {
	collectorpb.UnimplementedTraceServiceServer
	mu    sync.Mutex
	spans Spans
}

// Export is the gRPC TraceService's call.
func (r *Receiver) Export(_ context.Context, req *collectorpb.ExportTraceServiceRequest) (*collectorpb.ExportTraceServiceResponse, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, rs := range req.GetResourceSpans() {
		service := attrs(rs.GetResource().GetAttributes())["service.name"]
		for _, ss := range rs.GetScopeSpans() {
			for _, s := range ss.GetSpans() {
				sp := Span{Service: service, Name: s.GetName(), Kind: trace.SpanKind(s.GetKind()), Attrs: attrs(s.GetAttributes())}
				copy(sp.TraceID[:], s.GetTraceId())
				copy(sp.SpanID[:], s.GetSpanId())
				copy(sp.Parent[:], s.GetParentSpanId())
				r.spans = append(r.spans, sp)
			}
		}
	}
	return &collectorpb.ExportTraceServiceResponse{}, nil
}

// ServeHTTP is OTLP/HTTP: anything else than a protobuf POST to /v1/traces is refused.
func (r *Receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if req.Method != http.MethodPost || req.URL.Path != "/v1/traces" || req.Header.Get("Content-Type") != "application/x-protobuf" {
		http.Error(w, "not OTLP/HTTP protobuf: "+req.Method+" "+req.URL.Path+" "+req.Header.Get("Content-Type"), http.StatusBadRequest)
		return
	}
	body, err := io.ReadAll(req.Body)
	var msg collectorpb.ExportTraceServiceRequest
	if err == nil {
		err = proto.Unmarshal(body, &msg)
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	res, _ := r.Export(req.Context(), &msg)
	out, _ := proto.Marshal(res)
	w.Header().Set("Content-Type", "application/x-protobuf")
	_, _ = w.Write(out)
}

// Spans is what the receiver got so far.
func (r *Receiver) Spans() Spans {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append(Spans(nil), r.spans...)
}

func attrs(kvs []*commonpb.KeyValue) map[string]string {
	out := make(map[string]string, len(kvs))
	for _, kv := range kvs {
		v := kv.GetValue()
		switch v.GetValue().(type) {
		case *commonpb.AnyValue_StringValue:
			out[kv.GetKey()] = v.GetStringValue()
		case *commonpb.AnyValue_IntValue:
			out[kv.GetKey()] = strconv.FormatInt(v.GetIntValue(), 10)
		case *commonpb.AnyValue_BoolValue:
			out[kv.GetKey()] = strconv.FormatBool(v.GetBoolValue())
		case *commonpb.AnyValue_DoubleValue:
			out[kv.GetKey()] = strconv.FormatFloat(v.GetDoubleValue(), 'g', -1, 64)
		default:
			out[kv.GetKey()] = v.String()
		}
	}
	return out
}
