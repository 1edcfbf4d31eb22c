// Package reconcile compares, on a Temporal Schedule, every open opportunity
// and reseller sign-up of the read model with its workflow's state and with the
// CRM, repairs what it can through the workflow (the workflow is the truth),
// and reports the rest: a row in reconciliation_findings, a log line and the
// metric oportuna_reconciliation_findings_total (docs/operations.md,
// "Reconciliation"). It also retries the background CRM syncs that failed
// (crm_sync_failures).
package reconcile

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"oportuna/workflows"
)

// ScheduleID is the Temporal Schedule that starts Reconcile; its runs have the
// workflow id ScheduleID plus the time they were started.
const ScheduleID = "oportuna-reconcile"

// DefaultInterval is RECONCILE_INTERVAL's default.
const DefaultInterval = 15 * time.Minute

// Kinds of findings (reconciliation_findings.kind, the metric's kind label).
const (
	KindReadModel       = "read_model"       // the row differs from its workflow's state: restored from it
	KindWorkflowMissing = "workflow_missing" // an open row whose workflow is gone (terminated, failed, never started)
	KindCRMMissing      = "crm_missing"      // the workflow has a CRM record the CRM does not hold: written again
	KindCRMMismatch     = "crm_mismatch"     // the CRM's stage, name or probability differ from the workflow's: written again, unless the CRM refuses
	KindCRMAhead        = "crm_ahead"        // the CRM holds a record of an opportunity in analysis (an approval whose answer was lost)
	KindCRMSyncFailure  = "crm_sync_failure" // a background CRM sync failed: retried
	KindResaleStatus    = "resale_status"    // a sign-up's row and its workflow disagree on the status
)

// Phases of a run, in order; a run continued as new goes on from its phase.
const (
	PhaseOpportunities = "opportunities"
	PhaseResales       = "resales"
	PhaseFailures      = "crm-sync-failures"
	PhaseClosed        = "closed-crm-ahead"
)

var phases = []string{PhaseOpportunities, PhaseResales, PhaseFailures, PhaseClosed}

// Input starts (or continues) a run; the schedule starts it empty.
type Input struct {
	RunAt  time.Time `json:"runAt,omitempty"`
	Phase  string    `json:"phase,omitempty"`
	After  string    `json:"after,omitempty"` // the last id of the phase already checked
	Totals Totals    `json:"totals"`
	// PageSize and PagesPerRun bound an activity and a run (zero: PageSize, DefaultPagesPerRun).
	PageSize    int `json:"pageSize,omitempty"`
	PagesPerRun int `json:"pagesPerRun,omitempty"`
}

// Totals count what a run checked and found.
type Totals struct {
	Checked  int `json:"checked"`
	Findings int `json:"findings"`
	Repaired int `json:"repaired"`
	// Incomplete lists the finding kinds some check could not run for (the CRM
	// or Temporal failing): their open findings stay open.
	Incomplete []string `json:"incomplete,omitempty"`
}

func (t *Totals) add(r PageResult) {
	t.Checked += r.Checked
	t.Findings += r.Findings
	t.Repaired += r.Repaired
	for _, k := range r.Incomplete {
		t.incomplete(k)
	}
}

func (t *Totals) incomplete(kinds ...string) {
	for _, k := range kinds {
		found := false
		for _, x := range t.Incomplete {
			found = found || x == k
		}
		if !found {
			t.Incomplete = append(t.Incomplete, k)
		}
	}
}

// Page asks an activity to check the next rows of a phase.
type Page struct {
	RunAt time.Time `json:"runAt"`
	After string    `json:"after"`
	Limit int       `json:"limit"`
}

// PageResult is what a page checked; Done when the phase has no more rows.
type PageResult struct {
	Next       string   `json:"next"`
	Done       bool     `json:"done"`
	Checked    int      `json:"checked"`
	Findings   int      `json:"findings"`
	Repaired   int      `json:"repaired"`
	Incomplete []string `json:"incomplete,omitempty"`
}

// PageSize rows per activity; DefaultPagesPerRun pages before a run continues
// as new (its history stays bounded whatever the number of rows).
const (
	PageSize           = 100
	DefaultPagesPerRun = 40
)

var acts *Activities

// Reconcile is one reconciliation run: each phase pages through its rows, one
// activity per page; then the findings no longer found are resolved.
func Reconcile(ctx workflow.Context, in Input) (Totals, error) {
	if in.RunAt.IsZero() {
		in.RunAt = workflow.Now(ctx)
	}
	if in.Phase == "" {
		in.Phase = phases[0]
	}
	if in.PageSize <= 0 {
		in.PageSize = PageSize
	}
	if in.PagesPerRun <= 0 {
		in.PagesPerRun = DefaultPagesPerRun
	}
	log := workflow.GetLogger(ctx)
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 15 * time.Minute,
		HeartbeatTimeout:    2 * time.Minute,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: time.Minute, MaximumAttempts: 5},
	})
	pages := 0
	started := false
	for _, phase := range phases {
		if !started && phase != in.Phase {
			continue
		}
		started = true
		after := ""
		if phase == in.Phase {
			after = in.After
		}
		for {
			workflow.SetCurrentDetails(ctx, fmt.Sprintf("Reconciliação de %s: fase %s, após %q; verificados %d, divergências %d, reparadas %d.",
				in.RunAt.Format(time.RFC3339), phase, after, in.Totals.Checked, in.Totals.Findings, in.Totals.Repaired))
			var res PageResult
			err := workflow.ExecuteActivity(actx, phaseActivity(phase), Page{RunAt: in.RunAt, After: after, Limit: in.PageSize}).Get(ctx, &res)
			if err != nil {
				// One phase failing does not stop the others; its findings stay open.
				log.Error("reconciliation phase failed", "phase", phase, "after", after, "err", err)
				in.Totals.incomplete(phaseKinds(phase)...)
				break
			}
			in.Totals.add(res)
			pages++
			if res.Done {
				break
			}
			after = res.Next
			if pages >= in.PagesPerRun || workflow.GetInfo(ctx).GetContinueAsNewSuggested() {
				next := in
				next.Phase, next.After = phase, after
				return in.Totals, workflow.NewContinueAsNewError(ctx, Reconcile, next)
			}
		}
	}
	var resolved int
	if err := workflow.ExecuteActivity(actx, acts.FinishReconciliation, Finish{RunAt: in.RunAt, Skip: in.Totals.Incomplete}).Get(ctx, &resolved); err != nil {
		return in.Totals, err
	}
	log.Info("reconciliation done", "checked", in.Totals.Checked, "findings", in.Totals.Findings, "repaired", in.Totals.Repaired,
		"resolved", resolved, "incomplete", in.Totals.Incomplete)
	return in.Totals, nil
}

func phaseActivity(phase string) any {
	switch phase {
	case PhaseOpportunities:
		return acts.ReconcileOpportunities
	case PhaseResales:
		return acts.ReconcileResales
	case PhaseFailures:
		return acts.RetryCRMSyncFailures
	default:
		return acts.CloseCRMAhead
	}
}

// phaseKinds are the finding kinds a phase checks.
func phaseKinds(phase string) []string {
	switch phase {
	case PhaseOpportunities:
		return []string{KindReadModel, KindWorkflowMissing, KindCRMMissing, KindCRMMismatch, KindCRMAhead}
	case PhaseResales:
		return []string{KindResaleStatus, KindWorkflowMissing}
	case PhaseFailures:
		return []string{KindCRMSyncFailure}
	default:
		return []string{KindCRMAhead}
	}
}

// Register adds the workflow and its activities to a worker.
func Register(w worker.Registry, a *Activities) {
	w.RegisterWorkflow(Reconcile)
	w.RegisterActivity(a)
}

// EnsureSchedule creates the schedule that starts Reconcile every interval
// (RECONCILE_INTERVAL), or updates the interval and action of an existing
// one, keeping its state: a schedule an operator paused stays paused. Every
// worker calls it at start; a run still going when the next is due makes the
// schedule skip that one.
func EnsureSchedule(ctx context.Context, c client.Client, every time.Duration) error {
	if every <= 0 {
		every = DefaultInterval
	}
	spec := client.ScheduleSpec{Intervals: []client.ScheduleIntervalSpec{{Every: every}}}
	action := &client.ScheduleWorkflowAction{ID: ScheduleID, Workflow: Reconcile, Args: []any{Input{}}, TaskQueue: workflows.TaskQueue,
		WorkflowRunTimeout: 6 * time.Hour}
	_, err := c.ScheduleClient().Create(ctx, client.ScheduleOptions{
		ID: ScheduleID, Spec: spec, Action: action, Overlap: enumspb.SCHEDULE_OVERLAP_POLICY_SKIP,
		CatchupWindow: every, // after an outage, one run catches up, not every missed one
		Note:          "RECONCILE_INTERVAL=" + every.String(),
	})
	if err == nil {
		slog.InfoContext(ctx, "reconciliation schedule created", "schedule", ScheduleID, "every", every)
		return nil
	}
	if !errors.Is(err, temporal.ErrScheduleAlreadyRunning) {
		return fmt.Errorf("reconcile: create schedule: %w", err)
	}
	h := c.ScheduleClient().GetHandle(ctx, ScheduleID)
	err = h.Update(ctx, client.ScheduleUpdateOptions{DoUpdate: func(in client.ScheduleUpdateInput) (*client.ScheduleUpdate, error) {
		s := in.Description.Schedule
		s.Spec, s.Action = &spec, action
		if s.Policy == nil {
			s.Policy = &client.SchedulePolicies{}
		}
		s.Policy.Overlap, s.Policy.CatchupWindow = enumspb.SCHEDULE_OVERLAP_POLICY_SKIP, every
		return &client.ScheduleUpdate{Schedule: &s}, nil
	}})
	if err != nil {
		return fmt.Errorf("reconcile: update schedule: %w", err)
	}
	slog.InfoContext(ctx, "reconciliation schedule updated", "schedule", ScheduleID, "every", every)
	return nil
}
