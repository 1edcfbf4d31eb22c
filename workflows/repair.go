package workflows

import (
	"errors"
	"fmt"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"oportuna/activities"
	"oportuna/crm"
	"oportuna/opportunity"
)

// The reconciler's repair (UpdateRepair) brings an opportunity's read model,
// and on request its CRM record, back to the workflow's state: the workflow is
// the truth (docs/operations.md, "Reconciliation").

// RepairRequest asks the workflow to restore what diverged from its state.
type RepairRequest struct {
	// System is set by the reconciler only: no person's action repairs.
	System bool `json:"system"`
	// CRM also writes the workflow's state to the CRM (the reconciler asks it
	// for an opportunity the CRM holds, or should; one in analysis is never
	// written: only a representative's approval sends it there).
	CRM bool `json:"crm,omitempty"`
	// Kinds are the reconciler's findings that asked for the repair (logged).
	Kinds []string `json:"kinds,omitempty"`
}

// What a repair did to the CRM (RepairResult.CRM).
const (
	RepairCRMNone    = ""        // not asked, or nothing to write (no CRM record, in analysis)
	RepairCRMSynced  = "synced"  // the CRM now holds the workflow's state
	RepairCRMPending = "pending" // the CRM is unavailable: retrying in the background (then crm_sync_failures)
	RepairCRMRefused = "refused" // the CRM refused (CRMError: locked, several records, …): an operator must look
)

// RepairResult says what a repair corrected.
type RepairResult struct {
	State    OpportunityState `json:"state"`
	Fields   []string         `json:"fields"`             // read model fields corrected (none: it agreed)
	CRM      string           `json:"crm"`                // RepairCRM*
	CRMError string           `json:"crmError,omitempty"` // the error type of a refusal or an outage
}

// MsgRepairNotRegistered refuses a repair before the registration arrived.
const MsgRepairNotRegistered = "Oportunidade ainda não registrada."

func (wf *opportunityImpl) validateRepair(ctx workflow.Context, req RepairRequest) error {
	if !req.System {
		return forbidden()
	}
	if !wf.registered {
		return invalid(MsgRepairNotRegistered)
	}
	return nil
}

// repair writes the workflow's state to the CRM (when asked, first: a record
// recreated there gives a new register) and to the read model, under the
// workflow's lock, so no decision or timer is half-way through a change.
func (wf *opportunityImpl) repair(ctx workflow.Context, req RepairRequest) (RepairResult, error) {
	defer wf.lock(ctx)()
	var res RepairResult
	log := workflow.GetLogger(ctx)
	if req.CRM && wf.st.Status != opportunity.Analysis {
		res.CRM, res.CRMError = wf.repairCRM(ctx)
	}
	st := wf.st
	in := activities.RestoreInput{
		Key:           fmt.Sprintf("%s/repair/%s", st.ID, workflow.GetCurrentUpdateInfo(ctx).ID),
		OpportunityID: st.ID, Brand: st.Brand, Status: st.Status, Name: st.Name, Probability: st.Probability,
		Register: st.Register, At: workflow.Now(ctx), Cycle: st.Cycle, Seq: st.Seq,
	}
	if !st.ValidUntil.IsZero() {
		valid, approved := st.ValidUntil, st.ValidUntil.Add(-wf.d.Validity)
		in.ValidUntil, in.ApprovedAt = &valid, &approved
	}
	if err := workflow.ExecuteActivity(dbOptions(ctx), a.RestoreReadModel, in).Get(ctx, &res.Fields); err != nil {
		return res, err
	}
	if len(res.Fields) > 0 || res.CRM != RepairCRMNone {
		log.Warn("repaired", "kinds", req.Kinds, "fields", res.Fields, "crm", res.CRM, "crm_error", res.CRMError)
	}
	res.State = wf.st
	return res, nil
}

// repairCRM writes the workflow's state to the CRM within CRMBudget. An outage
// leaves it to a background sync (recorded in crm_sync_failures if it never
// lands); a refusal is answered for the reconciler to report.
func (wf *opportunityImpl) repairCRM(ctx workflow.Context) (string, string) {
	wf.stopCRMLater(ctx)
	in := activities.CRMSyncInput{CRMInput: activities.CRMInput{OpportunityID: wf.st.ID, Brand: wf.st.Brand,
		Name: wf.st.Name, Probability: wf.st.Probability}, Status: wf.st.Status}
	var id string
	err := workflow.ExecuteActivity(crmOptions(ctx, CRMBudget), a.SyncCRM, in).Get(ctx, &id)
	if err == nil {
		if id != "" {
			wf.st.Register = id
		}
		return RepairCRMSynced, ""
	}
	var app *temporal.ApplicationError
	if errors.As(err, &app) && app.NonRetryable() {
		return RepairCRMRefused, app.Type()
	}
	wf.syncCRMLater(ctx, wf.st.Status)
	return RepairCRMPending, crm.ErrTypeUnavailable
}
