package workflows_test

import (
	"context"
	"strings"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	sdkpb "go.temporal.io/api/sdk/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"

	"oportuna/activities"
	"oportuna/internal/testenv"
	"oportuna/workflows"
)

// TestOperatorsFindAnOverdueApprovalWithTheRunbooksFilter: what docs/operations.md
// tells an operator to look at in the Temporal UI is there on a real server — the
// workflow's summary, its current details, and the runbook's list filter for
// approvals waiting past the SLA.
func TestOperatorsFindAnOverdueApprovalWithTheRunbooksFilter(t *testing.T) {
	s := newStack(t, activities.Durations{Validity: time.Hour, RenewalWindow: 10 * time.Minute, ApprovalSLA: 2 * time.Second, ExpiredRetention: time.Hour}, nil)
	c, ctx := s.c, s.ctx
	id := "7a0c8f1e-0000-4000-8000-0000000000aa"
	s.register(t, id)
	wfID := workflows.OpportunityWorkflowID(id)

	// The summary: set at the start, no personal data.
	desc, err := c.DescribeWorkflowExecution(ctx, wfID, "")
	if err != nil {
		t.Fatal(err)
	}
	if got := decodeString(t, desc.GetExecutionConfig().GetUserMetadata().GetSummary()); got != "Oportunidade "+id+" · marca yep" {
		t.Errorf("summary %q", got)
	}

	// Past the SLA a reminder goes out and the flag the runbook filters on turns true.
	overdue := func() bool {
		d, err := c.DescribeWorkflowExecution(ctx, wfID, "")
		if err != nil {
			return false
		}
		var v bool
		p := d.GetWorkflowExecutionInfo().GetSearchAttributes().GetIndexedFields()["ApprovalOverdue"]
		return p != nil && converter.GetDefaultDataConverter().FromPayload(p, &v) == nil && v
	}
	testenv.WaitFor(t, 15*time.Second, "ApprovalOverdue=true", overdue)
	testenv.WaitFor(t, 15*time.Second, "the runbook's filter to list the workflow",
		lists(ctx, c, `WorkflowType="Opportunity" AND OpportunityStatus="analysis" AND ApprovalOverdue=true`, wfID))

	// The current details say what the workflow waits for.
	v, err := c.QueryWorkflow(ctx, wfID, "", "__temporal_workflow_metadata")
	if err != nil {
		t.Fatal(err)
	}
	var md sdkpb.WorkflowMetadata
	if err := v.Get(&md); err != nil {
		t.Fatal(err)
	}
	if d := md.GetCurrentDetails(); !strings.HasPrefix(d, "Em análise: aguardando a decisão de um representante (lembretes enviados: ") || strings.Contains(d, "enviados: 0;") {
		t.Errorf("current details %q", d)
	}
}

func decodeString(t *testing.T, p *commonpb.Payload) string {
	t.Helper()
	var s string
	if p == nil {
		return ""
	}
	if err := testenv.DataConverter().FromPayload(p, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// lists is the condition that the visibility query lists the workflow wfID.
func lists(ctx context.Context, c client.Client, query, wfID string) func() bool {
	return func() bool {
		res, err := c.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{Query: query})
		if err != nil {
			return false
		}
		for _, e := range res.GetExecutions() {
			if e.GetExecution().GetWorkflowId() == wfID {
				return true
			}
		}
		return false
	}
}
