package tracingtest

import (
	"net/url"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/trace"

	"oportuna/workflows"
)

// CheckApproval checks that the approval of opportunity id is one trace
// rooted at its HTTP server span (PATCH /api/opportunity/{id}): the Temporal
// client's UpdateWorkflow under it, the workflow's update handler under that,
// the CRM write and the decision's record (activities) under the handler, a
// SQL statement of the record and the CRM's HTTP request (to crmURL; empty:
// any URL) under those. It returns the update handler's span.
func CheckApproval(t *testing.T, spans Spans, id, crmURL string) Span {
	t.Helper()
	roots := spans.Roots("PATCH /api/opportunity/{id}")
	if len(roots) != 1 || roots[0].Kind != trace.SpanKindServer {
		t.Fatalf("%d root server spans named by the route; the spans and their parents:\n%s", len(roots), spans.Tree())
	}
	root := roots[0]
	if got := root.Attrs["http.route"]; got != "/api/opportunity/{id}" {
		t.Errorf("http.route = %q", got)
	}
	missing := false
	find := func(what string, match func(Span) bool, via ...string) Span {
		t.Helper()
		s, ok := spans.Under(root, match, via...)
		if !ok {
			t.Errorf("%s: no span under the HTTP root through %v", what, via)
			missing = true
		}
		return s
	}
	update := "UpdateWorkflow:" + workflows.UpdateApprove
	handlerName := "HandleUpdate:" + workflows.UpdateApprove
	find("the Temporal client's update", Named(update))
	handler := find("the workflow's update handler", Named(handlerName), update)
	if got := handler.Attrs["temporalWorkflowID"]; !strings.Contains(got, id) {
		t.Errorf("the handler's temporalWorkflowID = %q, want the opportunity's workflow (%s)", got, id)
	}
	find("the CRM write", Named("RunActivity:SyncCRM"), handlerName)
	find("the decision's record", Named("RunActivity:Apply"), handlerName)
	sql := find("a SQL statement of the decision's record", func(s Span) bool {
		return s.Attrs["db.system.name"] == "postgresql" && s.Attrs["db.query.text"] != ""
	}, "RunActivity:Apply", handlerName, update)
	if strings.Contains(sql.Attrs["db.query.text"], id) {
		t.Errorf("the SQL statement carries a value, not a parameter: %s", sql.Attrs["db.query.text"])
	}
	crmCall := find("the CRM's HTTP request", func(s Span) bool {
		return s.Kind == trace.SpanKindClient && s.Attrs["url.full"] != "" && strings.HasPrefix(s.Attrs["url.full"], crmURL)
	}, "RunActivity:SyncCRM", handlerName, update)
	if u, _ := url.Parse(crmCall.Attrs["url.full"]); crmCall.Name != "" && !strings.HasSuffix(crmCall.Name, " "+u.Host) {
		t.Errorf("the CRM request's span is named %q, want METHOD %s", crmCall.Name, u.Host)
	}
	if missing {
		t.Logf("the spans and their parents:\n%s", spans.Tree())
	}
	return handler
}

// CheckNoPersonalData: no secret (a customer's data) in any span's name or
// attributes, nor the client's address, the request's path or query string,
// SQL arguments, or a URL's query string.
func CheckNoPersonalData(t *testing.T, spans Spans, secrets ...string) {
	t.Helper()
	for _, s := range spans {
		texts := []string{s.Name}
		for k, v := range s.Attrs {
			switch k {
			case "url.path", "url.query", "client.address", "network.peer.address", "pgx.query.parameters":
				t.Errorf("span %q carries %s=%s", s.Name, k, v)
			case "url.full":
				if strings.Contains(v, "?") {
					t.Errorf("span %q: url.full keeps its query string: %s", s.Name, v)
				}
			}
			texts = append(texts, v)
		}
		for _, txt := range texts {
			for _, secret := range secrets {
				if strings.Contains(txt, secret) {
					t.Errorf("span %q carries the customer's %q: %s", s.Name, secret, txt)
				}
			}
		}
	}
}
