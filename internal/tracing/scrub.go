package tracing

import (
	"context"
	"net/url"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// dropped are the attributes the instrumentations may set that could hold
// personal data or a client's identity: the request's path (a CNPJ in
// /api/cnpj/{digits}; http.route, the pattern, stays) and query string (a
// name in /api/seller/name?name=), the client's and the peer's addresses, and
// SQL arguments (otelpgx records them only when asked to; never here).
var dropped = map[attribute.Key]bool{
	"url.path":             true,
	"url.query":            true,
	"client.address":       true,
	"network.peer.address": true,
	"network.peer.port":    true,
	"pgx.query.parameters": true,
}

// cut are the URLs whose query string and fragment go: url.full of the CRM
// requests carries SOQL queries with a customer's CNPJ in q=.
var cut = map[attribute.Key]bool{"url.full": true}

// Scrub wraps exp so that the spans it exports lose the attributes that could
// hold personal data (dropped) and the query strings of their URLs (cut).
func Scrub(exp sdktrace.SpanExporter) sdktrace.SpanExporter { return scrubber{exp} }

type scrubber struct{ sdktrace.SpanExporter }

func (s scrubber) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	out := make([]sdktrace.ReadOnlySpan, len(spans))
	for i, sp := range spans {
		out[i] = scrubSpan(sp)
	}
	return s.SpanExporter.ExportSpans(ctx, out)
}

// scrubbed is a span whose attributes were cleaned; the rest is the original's.
type scrubbed struct {
	sdktrace.ReadOnlySpan
	attrs []attribute.KeyValue
}

func (s scrubbed) Attributes() []attribute.KeyValue { return s.attrs }

func scrubSpan(sp sdktrace.ReadOnlySpan) sdktrace.ReadOnlySpan {
	attrs := sp.Attributes()
	changed := false
	for _, kv := range attrs {
		if dropped[kv.Key] || cut[kv.Key] {
			changed = true
			break
		}
	}
	if !changed {
		return sp
	}
	clean := make([]attribute.KeyValue, 0, len(attrs))
	for _, kv := range attrs {
		switch {
		case dropped[kv.Key]:
		case cut[kv.Key]:
			clean = append(clean, attribute.String(string(kv.Key), withoutQuery(kv.Value.AsString())))
		default:
			clean = append(clean, kv)
		}
	}
	return scrubbed{ReadOnlySpan: sp, attrs: clean}
}

// withoutQuery is raw without its query string, fragment and user info; what
// does not parse as a URL is dropped whole.
func withoutQuery(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment, u.User = "", false, "", "", nil
	return u.String()
}
