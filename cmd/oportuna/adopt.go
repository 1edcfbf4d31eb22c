package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	enumspb "go.temporal.io/api/enums/v1"

	"oportuna/config"
	"oportuna/opportunity"
	"oportuna/store"
	"oportuna/workflows"
)

// adopt starts a run of an opportunity's workflow that adopts the stored row
// (workflows.OpportunityInput.Adopt): the operator's way back for an
// opportunity whose workflow was cancelled or terminated (docs/operations.md,
// "Retry, reset, terminate"). The input is encrypted with the payload keys, as
// every client's; the Temporal CLI cannot send it (its input would be in
// clear, which the workers refuse). The brand is the row's.
func adopt(ctx context.Context, cfg config.Config, args []string) error {
	if len(args) != 1 || !opportunity.ValidID(args[0]) {
		return errors.New("usage: oportuna adopt <opportunity id>")
	}
	id := args[0]
	db, err := openDB(ctx, cfg, nil)
	if err != nil {
		return err
	}
	defer db.Close()
	row, err := store.New(db).OpportunityBrand(ctx, id)
	slug, deleted := row.Brand, row.IsDeleted
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return fmt.Errorf("no opportunity %s in the database", id)
	case err != nil:
		return err
	case deleted:
		return fmt.Errorf("opportunity %s is marked deleted: clear it first (UPDATE opportunities SET is_deleted = false WHERE id = '%s')", id, id)
	}
	tc, err := dialTemporal(ctx, cfg, nil, nil)
	if err != nil {
		return err
	}
	defer tc.Close()
	start := workflows.OpportunityStart(id, slug)
	start.WorkflowIDConflictPolicy = enumspb.WORKFLOW_ID_CONFLICT_POLICY_FAIL
	start.WorkflowIDReusePolicy = enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE
	start.WorkflowExecutionErrorWhenAlreadyStarted = true
	run, err := tc.ExecuteWorkflow(ctx, start, workflows.Opportunity, workflows.OpportunityInput{ID: id, Brand: slug, Adopt: true})
	if err != nil {
		return fmt.Errorf("start the workflow %s: %w", workflows.OpportunityWorkflowID(id), err)
	}
	fmt.Printf("workflow %s run %s adopts opportunity %s (brand %s)\n", run.GetID(), run.GetRunID(), id, slug)
	return nil
}
