package workflows

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"oportuna/activities"
)

// TaskQueue is the task queue of the workflows and the database activities.
const TaskQueue = "oportuna"

// Task queues of the activities that call outside services (docs/operations.md,
// "Task queues"): the CRM's and the mail's activities are scheduled on queues
// of their own, named after the workflow's (oportuna-crm, oportuna-mail),
// whose workers the server rate-limits (TaskQueueActivitiesPerSecond): a burst
// of expiries or notices never exceeds Salesforce's or the SMTP relay's limits
// and never takes the database activities' slots. One process may poll all
// three (worker.Run), or each may run apart.
const (
	CRMQueueSuffix  = "-crm"
	MailQueueSuffix = "-mail"
	CRMTaskQueue    = TaskQueue + CRMQueueSuffix
	MailTaskQueue   = TaskQueue + MailQueueSuffix
)

// CRMQueue is the CRM activities' queue of the running workflow's queue.
func CRMQueue(ctx workflow.Context) string {
	return workflow.GetInfo(ctx).TaskQueueName + CRMQueueSuffix
}

// MailQueue is the notices' and e-mails' queue of the running workflow's queue.
func MailQueue(ctx workflow.Context) string {
	return workflow.GetInfo(ctx).TaskQueueName + MailQueueSuffix
}

// ActivityHeartbeat: the CRM and notice activities heartbeat while they run, so
// an attempt lost with a killed worker is retried within seconds, not after its
// whole start-to-close timeout.
const ActivityHeartbeat = 3 * time.Second

// dbAttemptTimeout caps one attempt of a database activity: a write takes
// milliseconds, and an attempt lost with a killed worker is retried this soon.
const dbAttemptTimeout = 5 * time.Second

// RegistrationWait is how long a run started by Update-with-Start waits for its
// registration. The registration's own write has less (registerBudget), so
// the run always learns its outcome before giving up.
const (
	RegistrationWait = time.Minute
	registerBudget   = 40 * time.Second
)

// The CRM step of a decision a person waits for (approval, edit of an
// opportunity in the CRM, renewal approval) has CRMBudget in all, attempts
// included, each attempt at most CRMAttemptTimeout, so that the API, which
// waits DecisionWait, always hears the outcome: the spec's communication error
// when the CRM is down or slow, and never an approval landing after it.
const (
	CRMRetryAttempts  = 5
	CRMAttemptTimeout = 15 * time.Second
	CRMBudget         = 45 * time.Second
	// DecisionWait is how long the API waits for a decision's answer.
	DecisionWait = 90 * time.Second
	// decisionMargin is kept, after the CRM step, for recording the decision.
	decisionMargin = 15 * time.Second
	// minCRMBudget: with less time than this left, a decision that waited for
	// its turn fails without calling the CRM.
	minCRMBudget = 5 * time.Second
	// minDecisionTime: a decision with less than this left before its deadline is refused.
	minDecisionTime = 2 * time.Second
)

// Retry budget of one e-mail: SMTP outages of up to three days are waited out.
const (
	MailRetryBudget     = 72 * time.Hour
	MailMaxRetryBackoff = 10 * time.Minute
	// MailHeartbeatTimeout is how soon an attempt on a crashed worker is retried elsewhere.
	MailHeartbeatTimeout = 10 * time.Second
)

// backgroundBudget: a notice or a background CRM sync keeps trying for a day
// (a mail server or the CRM may be down for hours).
const backgroundBudget = 24 * time.Hour

// Retry policies (a new value each time: options hold a pointer).

// quickRetry: a database write someone waits for.
func quickRetry() *temporal.RetryPolicy {
	return &temporal.RetryPolicy{InitialInterval: 200 * time.Millisecond, BackoffCoefficient: 2, MaximumInterval: 5 * time.Second}
}

// dbRetry: a database activity nobody waits for.
func dbRetry() *temporal.RetryPolicy {
	return &temporal.RetryPolicy{InitialInterval: 200 * time.Millisecond, BackoffCoefficient: 2, MaximumInterval: time.Minute}
}

// crmRetry: a CRM write within a decision's budget.
func crmRetry() *temporal.RetryPolicy {
	return &temporal.RetryPolicy{InitialInterval: 500 * time.Millisecond, BackoffCoefficient: 2,
		MaximumInterval: 5 * time.Second, MaximumAttempts: CRMRetryAttempts}
}

// backgroundRetry: a notice or a background CRM sync, for backgroundBudget.
func backgroundRetry() *temporal.RetryPolicy {
	return &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: 10 * time.Minute}
}

// lifecycleDurations asks the worker's configuration for the lifecycle's
// durations (a local activity: once per run, recorded as a marker).
func lifecycleDurations(ctx workflow.Context) (Durations, error) {
	var d Durations
	lctx := workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{StartToCloseTimeout: 5 * time.Second})
	err := workflow.ExecuteLocalActivity(lctx, a.LifecycleDurations).Get(ctx, &d)
	return d, err
}

// dbOptions run a database activity nobody waits for.
func dbOptions(ctx workflow.Context) workflow.Context {
	return workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: dbAttemptTimeout, RetryPolicy: dbRetry()})
}

// registerOptions bound a sign-up's write (the company's onboarding) below the
// run's wait for it (RegistrationWait): a stalled database fails the sign-up,
// which the client retries, instead of a write landing after the run gave up.
func registerOptions(ctx workflow.Context) workflow.Context {
	return workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: dbAttemptTimeout, ScheduleToCloseTimeout: registerBudget, RetryPolicy: quickRetry()})
}

// localRegisterOptions are registerOptions for an opportunity's registration,
// a local activity written inside the workflow task that started the run.
func localRegisterOptions(ctx workflow.Context) workflow.Context {
	return workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
		StartToCloseTimeout: dbAttemptTimeout, ScheduleToCloseTimeout: registerBudget, RetryPolicy: quickRetry()})
}

// localDecisionOptions record a decision whose caller waits until deadline:
// a local activity (one short, idempotent write inside the workflow task),
// recorded while its caller can still hear of it, or not at all. A local
// activity retries inside the worker; an attempt lost with a crashed worker is
// run again when the workflow task is retried elsewhere, which the event key
// makes harmless.
func localDecisionOptions(ctx workflow.Context, deadline time.Time) workflow.Context {
	left := max(deadline.Sub(workflow.Now(ctx)), time.Second)
	return workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
		StartToCloseTimeout: min(dbAttemptTimeout, left), ScheduleToCloseTimeout: left, RetryPolicy: quickRetry()})
}

// crmOptions run a CRM write within budget on the CRM queue.
func crmOptions(ctx workflow.Context, budget time.Duration) workflow.Context {
	return workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		TaskQueue:              CRMQueue(ctx),
		StartToCloseTimeout:    min(CRMAttemptTimeout, budget),
		ScheduleToCloseTimeout: budget,
		HeartbeatTimeout:       ActivityHeartbeat,
		RetryPolicy:            crmRetry(),
	})
}

// localCRMOptions are crmOptions for the CRM write of a decision someone waits
// for, run as a local activity: the same attempts, cap and budget. A worker
// lost mid-attempt has the workflow task, and so the write, run again
// elsewhere: the upsert by external id makes that harmless.
func localCRMOptions(ctx workflow.Context, budget time.Duration) workflow.Context {
	return workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
		StartToCloseTimeout: min(CRMAttemptTimeout, budget), ScheduleToCloseTimeout: budget, RetryPolicy: crmRetry()})
}

// backgroundCRMOptions run a background CRM sync for backgroundBudget; a
// superseding sync starts after this one's last attempt ended.
func backgroundCRMOptions(ctx workflow.Context) workflow.Context {
	return workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		TaskQueue:              CRMQueue(ctx),
		StartToCloseTimeout:    CRMAttemptTimeout,
		ScheduleToCloseTimeout: backgroundBudget,
		HeartbeatTimeout:       ActivityHeartbeat,
		WaitForCancellation:    true,
		RetryPolicy:            backgroundRetry(),
	})
}

// noticeOptions send an opportunity's notice (each recipient's e-mail is sent
// once; the in-app notice is stored first) for backgroundBudget.
func noticeOptions(ctx workflow.Context) workflow.ActivityOptions {
	return workflow.ActivityOptions{
		TaskQueue:              MailQueue(ctx),
		StartToCloseTimeout:    30 * time.Second,
		ScheduleToCloseTimeout: backgroundBudget,
		HeartbeatTimeout:       ActivityHeartbeat,
		RetryPolicy:            backgroundRetry(),
	}
}

// resaleNoticeOptions send a company's notice to its brand's representatives.
func resaleNoticeOptions(ctx workflow.Context) workflow.ActivityOptions {
	return workflow.ActivityOptions{
		TaskQueue:           MailQueue(ctx),
		StartToCloseTimeout: time.Minute,
		HeartbeatTimeout:    ActivityHeartbeat,
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 10, MaximumInterval: time.Minute},
	}
}

// mailOptions send an e-mail (SendEmail, a company's decision): SMTP outages
// of up to MailRetryBudget are waited out; an unsendable message is given up at once.
func mailOptions(ctx workflow.Context) workflow.ActivityOptions {
	return workflow.ActivityOptions{
		TaskQueue:              MailQueue(ctx),
		StartToCloseTimeout:    2 * time.Minute,
		HeartbeatTimeout:       MailHeartbeatTimeout,
		ScheduleToCloseTimeout: MailRetryBudget,
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2,
			MaximumInterval: MailMaxRetryBackoff, NonRetryableErrorTypes: []string{activities.ErrTypeMailInvalid}},
	}
}
