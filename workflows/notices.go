package workflows

import (
	"fmt"

	"go.temporal.io/sdk/workflow"

	"oportuna/activities"
)

// Kinds of an opportunity's notices (activities.Notify titles and words them).
const (
	noticeRegistered        = "registered"
	noticeApproved          = "approved"
	noticeDisapproved       = "disapproved"
	noticeApprovalReminder  = "approval-reminder"
	noticeExpiredInAnalysis = "expired-in-analysis"
	noticeRenewalOpen       = "renewal-open"
	noticeExpired           = "expired"
	noticeRenewalRequested  = "renewal-requested"
	noticeRenewalReminder   = "renewal-reminder"
	noticeRenewalApproved   = "renewal-approved"
	noticeRenewalRefused    = "renewal-refused"
)

// notify sends a notice, to the brand's representatives (reps) and/or the
// opportunity's owner, without holding up the caller: it keeps trying in the
// background for a day, and the run waits for it before ending. Its key is the
// event's (id/cycle/seq/kind), so a notice is sent once whatever is retried.
func (wf *opportunityImpl) notify(ctx workflow.Context, kind string, reps, owner bool, detail string) {
	key := fmt.Sprintf("%s/%d/%d/%s", wf.st.ID, wf.st.Cycle, wf.st.Seq, kind)
	if kind == noticeApprovalReminder || kind == noticeRenewalReminder {
		key += "/" + detail // the reminder's number: reminders of one wait share the seq
	}
	n := activities.Notice{Key: key, Brand: wf.st.Brand,
		OpportunityID: wf.st.ID, Kind: kind, ToRepresentatives: reps, ToOwner: owner, Detail: detail}
	wf.route(&n)
	wf.inFlight++
	workflow.Go(ctx, func(ctx workflow.Context) {
		defer func() { wf.inFlight-- }()
		actx := workflow.WithActivityOptions(ctx, noticeOptions(ctx))
		if err := workflow.ExecuteActivity(actx, a.Notify, n).Get(ctx, nil); err != nil {
			workflow.GetLogger(ctx).Error("notification not delivered", "kind", kind, "err", err)
		}
	})
}

// notify sends a company's notice (sign-up, reminder, approval) to its brand's
// representatives in the background; its key is the company's and suffix.
func (wf *resaleImpl) notify(ctx workflow.Context, kind, suffix string) {
	n := activities.ResaleNotice{Key: ResaleWorkflowID(wf.st.ID) + "/" + suffix, Brand: wf.st.Brand, ResaleID: wf.st.ID, Kind: kind}
	if kind == activities.NoticeResaleReminder {
		n.Reminder, n.Since = wf.st.Reminders, wf.st.CreatedAt
	}
	wf.background(ctx, resaleNoticeOptions(ctx), "notice "+kind, a.NotifyResale, n)
}

// background runs a company's notice or e-mail after the caller got its
// answer; the run waits for it before ending. Failures are logged: the decision stands.
func (wf *resaleImpl) background(ctx workflow.Context, opts workflow.ActivityOptions, what string, activity any, arg any) {
	wf.inFlight++
	workflow.Go(ctx, func(ctx workflow.Context) {
		defer func() { wf.inFlight-- }()
		if err := workflow.ExecuteActivity(workflow.WithActivityOptions(ctx, opts), activity, arg).Get(ctx, nil); err != nil {
			workflow.GetLogger(ctx).Error(what+" failed", "resale", wf.st.ID, "err", err)
		}
	})
}
