package workflows

import (
	"fmt"
	"time"

	"go.temporal.io/sdk/workflow"

	"oportuna/opportunity"
)

// awaitNextTimer waits for the next timer of the opportunity's status and does
// what it brings (docs/opportunity-lifecycle.md):
//
//   - in analysis: a reminder to the representatives every APPROVAL_SLA, and
//     the expiry when the validity has passed with no decision;
//   - approved: the renewal window opens RENEWAL_WINDOW before the validity
//     ends, then the expiry;
//   - in renovation (the window is open): the expiry;
//   - awaiting renovation (a renewal was requested): a reminder every
//     APPROVAL_SLA since the request;
//   - expired: a renewal may still be requested until the retention ends,
//     which ends the run;
//   - disapproved: nothing is left; the run ends.
//
// A decision that changes the status ends the wait early: the run's loop then
// waits for the next status's timer. It reports whether the run ends.
func (wf *opportunityImpl) awaitNextTimer(ctx workflow.Context) (ended bool) {
	switch cur := wf.st.Status; cur {
	case opportunity.Analysis:
		deadline := wf.st.CreatedAt.Add(wf.d.Validity)
		reminder := wf.st.CreatedAt.Add(time.Duration(wf.st.Reminders+1) * wf.d.ApprovalSLA)
		if !wf.waitUntil(ctx, earliest(deadline, reminder), cur) {
			return false
		}
		if !workflow.Now(ctx).Before(deadline) {
			wf.timerTransition(ctx, opportunity.Expired, noticeExpiredInAnalysis, true, true)
		} else {
			wf.remind(ctx, noticeApprovalReminder)
		}
	case opportunity.Approved:
		// The window opens RenewalWindow before the end; one already open (an
		// approval recorded with an earlier time, a transition that failed and
		// is retried) opens now: an approved opportunity never skips renovation.
		if workflow.Now(ctx).Before(wf.st.ValidUntil) {
			if wf.waitUntil(ctx, wf.st.ValidUntil.Add(-wf.d.RenewalWindow), cur) {
				wf.timerTransition(ctx, opportunity.Renovation, noticeRenewalOpen, false, true)
			}
			return false
		}
		if wf.waitUntil(ctx, wf.st.ValidUntil, cur) {
			wf.timerTransition(ctx, opportunity.Expired, noticeExpired, false, true)
		}
	case opportunity.Renovation:
		if wf.waitUntil(ctx, wf.st.ValidUntil, cur) {
			wf.timerTransition(ctx, opportunity.Expired, noticeExpired, false, true)
		}
	case opportunity.AwaitingRenovation:
		if wf.st.RenewalRequestedAt.IsZero() {
			// An adopted row that does not say when the renewal was asked for:
			// no SLA to count, the request waits for its decision.
			wf.details(ctx, time.Time{})
			_ = workflow.Await(ctx, func() bool { return wf.st.Status != cur || wf.renewed })
			return false
		}
		next := wf.st.RenewalRequestedAt.Add(time.Duration(wf.st.Reminders+1) * wf.d.ApprovalSLA)
		if wf.waitUntil(ctx, next, cur) {
			wf.remind(ctx, noticeRenewalReminder)
		}
	case opportunity.Expired:
		return wf.waitUntil(ctx, wf.expiredSince().Add(wf.d.ExpiredRetention), cur)
	case opportunity.Disapproved:
		return true
	}
	return false
}

// timerSummaries name, in the Temporal UI, what an opportunity's timer waits for in each status.
var timerSummaries = map[opportunity.Status]string{
	opportunity.Analysis:           "Próximo lembrete ou fim do prazo de análise",
	opportunity.Approved:           "Abertura da renovação ou fim da validade",
	opportunity.Renovation:         "Fim da validade",
	opportunity.Expired:            "Fim do prazo para pedir renovação",
	opportunity.AwaitingRenovation: "Próximo lembrete do pedido de renovação",
}

// waitUntil sleeps until t (or, after a failed timer transition, until its
// retry) or until the status leaves cur; it reports whether the time came with
// the status unchanged (the timer fired). It reports false when ctx is
// cancelled: the loop then ends the run.
func (wf *opportunityImpl) waitUntil(ctx workflow.Context, t time.Time, cur opportunity.Status) bool {
	if wf.retryAt.After(t) {
		t = wf.retryAt
	}
	wf.details(ctx, t)
	changed := func() bool {
		// A suggested continue-as-new waits for a quiet moment, which may come during a wait.
		return wf.st.Status != cur || wf.renewed || wf.continueAsNewSuggested(ctx)
	}
	if d := t.Sub(workflow.Now(ctx)); d > 0 {
		ok, err := awaitOrTimeout(ctx, d, timerSummaries[cur], changed)
		if ok || err != nil {
			return false
		}
	}
	if err := workflow.Await(ctx, func() bool { return !wf.busy }); err != nil {
		return false
	}
	return !changed()
}

// expiredSince is when the validity ended. An opportunity that expired in
// analysis has no validity: its analysis deadline counts.
func (wf *opportunityImpl) expiredSince() time.Time {
	if wf.st.ValidUntil.IsZero() {
		return wf.st.CreatedAt.Add(wf.d.Validity)
	}
	return wf.st.ValidUntil
}

func earliest(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// Back-off of a timer transition that could not be recorded (the read model
// row refused the event): tried again after timerRetryFirst, doubling up to
// timerRetryMax, with an alert each time (log, metric, current details).
const (
	timerRetryFirst = time.Minute
	timerRetryMax   = time.Hour
)

// MetricTimerTransitionFailures counts timer transitions (expiry, renewal
// opening) the read model refused; each is retried with back-off.
const MetricTimerTransitionFailures = "oportuna_timer_transition_failures"

// timerTransition records a status the clock brings (expiry, renewal window)
// and sends its notice; an expiry of an opportunity the CRM holds reaches the
// CRM in the background.
func (wf *opportunityImpl) timerTransition(ctx workflow.Context, to opportunity.Status, kind string, reps, owner bool) {
	defer wf.lock(ctx)()
	if err := wf.apply(ctx, opportunity.Event{Status: to, Changes: []opportunity.Change{statusChange(wf.st.Status, to)}}); err != nil {
		wf.failures++
		backoff := min(timerRetryFirst<<min(wf.failures-1, 10), timerRetryMax)
		wf.retryAt = workflow.Now(ctx).Add(backoff)
		workflow.GetLogger(ctx).Error("ALERT timer transition not recorded; retrying later", "to", to,
			"failures", wf.failures, "retryIn", backoff, "err", err)
		workflow.GetMetricsHandler(ctx).WithTags(map[string]string{"to": string(to)}).Counter(MetricTimerTransitionFailures).Inc(1)
		return
	}
	wf.failures, wf.retryAt = 0, time.Time{}
	wf.st.Status = to
	wf.notify(ctx, kind, reps, owner, "")
	if to == opportunity.Expired && wf.st.Register != "" {
		wf.syncCRMLater(ctx, opportunity.Expired)
	}
}

// remind sends the representatives the next reminder of a wait past its SLA
// (an opportunity in analysis, a renewal request). Each reminder has its own
// notice key, so every one is delivered.
func (wf *opportunityImpl) remind(ctx workflow.Context, kind string) {
	defer wf.lock(ctx)()
	wf.st.Reminders++
	wf.notify(ctx, kind, true, false, fmt.Sprintf("%d", wf.st.Reminders))
}

// details shows, in the Temporal UI's Current details, what the run waits for
// (until: the wait's end).
func (wf *opportunityImpl) details(ctx workflow.Context, until time.Time) {
	var line string
	switch wf.st.Status {
	case opportunity.Analysis:
		line = fmt.Sprintf("Em análise: aguardando a decisão de um representante (lembretes enviados: %d; expira em %s).", wf.st.Reminders, wf.st.CreatedAt.Add(wf.d.Validity).Format(time.RFC3339))
	case opportunity.Approved:
		line = fmt.Sprintf("Aprovada: válida até %s; renovação abre em %s.", wf.st.ValidUntil.Format(time.RFC3339), until.Format(time.RFC3339))
	case opportunity.Renovation:
		line = fmt.Sprintf("Em renovação: aguardando o pedido da revenda até %s.", wf.st.ValidUntil.Format(time.RFC3339))
	case opportunity.AwaitingRenovation:
		line = fmt.Sprintf("Aguardando renovação: aguardando a decisão de um representante (lembretes enviados: %d).", wf.st.Reminders)
	case opportunity.Expired:
		line = fmt.Sprintf("Expirada: a revenda ainda pode pedir renovação até %s.", until.Format(time.RFC3339))
	}
	workflow.SetCurrentDetails(ctx, line)
}
