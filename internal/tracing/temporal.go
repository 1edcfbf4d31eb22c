package tracing

import (
	temporalotel "go.temporal.io/sdk/contrib/opentelemetry"
	"go.temporal.io/sdk/interceptor"
)

// TemporalInterceptors are the interceptors of the client options
// (client.Options.Interceptors) that carry the trace through Temporal: the
// client's calls (StartWorkflow, UpdateWorkflow, …) write the span's context
// into the workflow's headers, and the workers built from that client read it:
// RunWorkflow, ValidateUpdate and HandleUpdate, StartActivity and RunActivity
// (local activities too) join the caller's trace. Spans carry the workflow,
// run, update and activity ids (temporalWorkflowID, …). Off: none.
func (p *Provider) TemporalInterceptors() []interceptor.ClientInterceptor {
	if !p.Enabled() {
		return nil
	}
	i, err := temporalotel.NewTracingInterceptor(temporalotel.TracerOptions{
		Tracer:            p.tp.Tracer("go.temporal.io/sdk"),
		TextMapPropagator: Propagator,
		DisableBaggage:    true,
	})
	if err != nil { // NewTracingInterceptor fails only on options it does not get here
		panic("tracing: temporal interceptor: " + err.Error())
	}
	return []interceptor.ClientInterceptor{i}
}
