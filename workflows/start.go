package workflows

import (
	"context"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"oportuna/activities"
)

// RegisterOpportunity starts an opportunity's workflow with its registration
// (Update-with-Start), or joins the run already registering it (a client's
// retry with the same id). When the latest run failed (its registration was
// not stored in time), the retry starts a new run (ALLOW_DUPLICATE_FAILED_ONLY)
// that adopts the row if the write landed after all. The server answers an
// update id it already completed in the latest run with that outcome, so the
// registration of a run that follows a failed one is named after it.
func RegisterOpportunity(ctx context.Context, c client.Client, id, brand string, req RegisterRequest) (activities.Registered, error) {
	began := time.Now()
	out, err := registerOnce(ctx, c, id, brand, "register", req)
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
	failed := d.GetWorkflowExecutionInfo().GetExecution().GetRunId()
	return registerOnce(ctx, c, id, brand, "register/after/"+failed, req)
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
