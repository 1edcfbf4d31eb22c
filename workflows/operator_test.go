package workflows_test

import (
	"context"
	"strings"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	sdkpb "go.temporal.io/api/sdk/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"

	"oportuna/activities"
	"oportuna/auth"
	"oportuna/brand"
	"oportuna/internal/dev/localcrm"
	"oportuna/internal/dev/mailbox"
	"oportuna/internal/testenv"
	"oportuna/opportunity"
	"oportuna/seed"
	"oportuna/worker"
	"oportuna/workflows"
)

// TestOperatorsFindAnOverdueApprovalWithTheRunbooksFilter: what docs/operations.md
// tells an operator to look at in the Temporal UI is there on a real server — the
// workflow's summary, its current details, and the runbook's list filter for
// approvals waiting past the SLA.
func TestOperatorsFindAnOverdueApprovalWithTheRunbooksFilter(t *testing.T) {
	c := testenv.TemporalClient(t)
	db := testenv.DB(t)
	ctx := testenv.Context(t)
	brands, _ := brand.Parse([]byte(`[{"slug":"yep","name":"Yep"}]`))
	if _, err := seed.Run(ctx, db, brands, "Oportuna@2026"); err != nil {
		t.Fatal(err)
	}
	acts := &activities.Activities{DB: db, Brands: brands, CRM: localcrm.CRM{DB: db}, Mailer: mailbox.Log{},
		Durations: activities.Durations{Validity: time.Hour, RenewalWindow: 10 * time.Minute, ApprovalSLA: 2 * time.Second, ExpiredRetention: time.Hour}}
	wctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- worker.Run(wctx, c, "default", acts) }()
	defer func() { stop(); <-done }()

	id := "7a0c8f1e-0000-4000-8000-0000000000aa"
	seller := actor(t, db, "vendedor1@yep.demo", auth.Seller)
	start := workflows.OpportunityStart(id, "yep")
	start.WorkflowIDConflictPolicy = enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING
	op := c.NewWithStartWorkflowOperation(start, workflows.Opportunity, workflows.OpportunityInput{ID: id, Brand: "yep"})
	h, err := c.UpdateWithStartWorkflow(ctx, client.UpdateWithStartWorkflowOptions{StartWorkflowOperation: op,
		UpdateOptions: client.UpdateWorkflowOptions{UpdateID: "register", UpdateName: workflows.UpdateRegister, WaitForStage: client.WorkflowUpdateStageCompleted,
			Args: []any{workflows.RegisterRequest{Actor: seller, ResaleCNPJ: seed.ResaleCNPJ(0), Record: opportunity.Record{
				Name: "Oportunidade Yep", CNPJ: "11222333000181", Contact: "Ana", Email: "ana@cliente.com.br", ProbabilityClosing: 25,
				Products: []opportunity.Product{{PartNumber: "P-1", Description: "Coletor", Amount: 1, Price: 10000}}}}}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
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
	waitFor(t, 15*time.Second, "ApprovalOverdue=true", overdue)
	waitFor(t, 15*time.Second, "the runbook's filter to list the workflow", func() bool {
		res, err := c.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{
			Query: `WorkflowType="Opportunity" AND OpportunityStatus="analysis" AND ApprovalOverdue=true`})
		if err != nil {
			return false
		}
		for _, e := range res.GetExecutions() {
			if e.GetExecution().GetWorkflowId() == wfID {
				return true
			}
		}
		return false
	})

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
