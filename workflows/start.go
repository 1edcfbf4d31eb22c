package workflows

import (
	"context"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"oportuna/activities"
)

// OpportunityWorkflowID is the workflow id of an opportunity.
func OpportunityWorkflowID(id string) string { return "opportunity/" + id }

// ResaleWorkflowID is the workflow id of a company's onboarding.
func ResaleWorkflowID(id string) string { return "resale/" + id }

// MailWorkflowID is the workflow id of the e-mail recorded under key.
func MailWorkflowID(key string) string { return "mail/" + key }

// RegisterUpdateID is the update id of an opportunity's registration, or of a
// company's sign-up (afterRun empty). When the latest run of the opportunity
// failed (its registration was not stored in time), the retry that starts a
// new run is named after the failed run: the server answers an update id it
// already completed in the latest run with that outcome.
func RegisterUpdateID(afterRun string) string {
	if afterRun == "" {
		return UpdateRegister
	}
	return UpdateRegister + "/after/" + afterRun
}

// OpportunityStart are the start options of an opportunity's workflow, with the
// summary the Temporal UI shows (no personal data); callers add the id policies.
func OpportunityStart(id, brand string) client.StartWorkflowOptions {
	return client.StartWorkflowOptions{ID: OpportunityWorkflowID(id), TaskQueue: TaskQueue,
		StaticSummary: "Oportunidade " + id + " · marca " + brand,
		StaticDetails: "Registro de oportunidade (deal registration): análise → aprovada (validade) → renovação → expirada. " +
			"No portal: /Painel/Opportunities/" + id + ". O estado atual está em Current details."}
}

// ResaleStart are the start options of a company's onboarding workflow, with the
// summary the Temporal UI shows (no personal data); callers add the id policies.
func ResaleStart(id, brand string) client.StartWorkflowOptions {
	return client.StartWorkflowOptions{ID: ResaleWorkflowID(id), TaskQueue: TaskQueue,
		StaticSummary: "Cadastro de revenda " + id + " · marca " + brand,
		StaticDetails: "Onboarding de revenda: análise → aprovada (cria o usuário da revenda) ou reprovada. " +
			"No portal: /Painel/Resales. O estado atual está em Current details."}
}

// RegisterOpportunity starts an opportunity's workflow with its registration
// (Update-with-Start), or joins the run already registering it (a client's
// retry with the same id). When the latest run failed (its registration was
// not stored in time), the retry starts a new run (ALLOW_DUPLICATE_FAILED_ONLY)
// that adopts the row if the write landed after all.
func RegisterOpportunity(ctx context.Context, c client.Client, id, brand string, req RegisterRequest) (activities.Registered, error) {
	began := time.Now()
	out, err := registerOnce(ctx, c, id, brand, RegisterUpdateID(""), req)
	if err == nil {
		return out, nil
	}
	// Only the outcome of a run that failed before this call is replaced by a
	// new run; a registration that failed now is answered as it failed.
	d, derr := c.DescribeWorkflowExecution(ctx, OpportunityWorkflowID(id), "")
	info := d.GetWorkflowExecutionInfo()
	if derr != nil || info.GetStatus() != enumspb.WORKFLOW_EXECUTION_STATUS_FAILED || !info.GetCloseTime().AsTime().Before(began) {
		return out, err
	}
	return registerOnce(ctx, c, id, brand, RegisterUpdateID(info.GetExecution().GetRunId()), req)
}

func registerOnce(ctx context.Context, c client.Client, id, brand, updateID string, req RegisterRequest) (activities.Registered, error) {
	start := OpportunityStart(id, brand)
	start.WorkflowIDConflictPolicy = enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING
	start.WorkflowIDReusePolicy = enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE_FAILED_ONLY
	op := c.NewWithStartWorkflowOperation(start, Opportunity, OpportunityInput{ID: id, Brand: brand})
	var out activities.Registered
	h, err := c.UpdateWithStartWorkflow(ctx, client.UpdateWithStartWorkflowOptions{
		StartWorkflowOperation: op,
		UpdateOptions: client.UpdateWorkflowOptions{UpdateID: updateID, UpdateName: UpdateRegister,
			Args: []any{req}, WaitForStage: client.WorkflowUpdateStageCompleted},
	})
	if err == nil {
		err = h.Get(ctx, &out)
	}
	return out, err
}
