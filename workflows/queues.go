package workflows

import "go.temporal.io/sdk/workflow"

// Task queues of the activities that call outside services (docs/operations.md,
// "Task queues"). The workflows and the database activities stay on the
// workflow's queue (TaskQueue); the CRM's and the mail's activities are
// scheduled on queues of their own, named after it (oportuna-crm,
// oportuna-mail), whose workers the server rate-limits
// (TaskQueueActivitiesPerSecond): a burst of expiries or notices never exceeds
// Salesforce's or the SMTP relay's limits and never takes the database
// activities' slots. One process may poll all three (worker.Run), or each may
// run apart. The workflow queue's worker keeps every activity registered:
// activities scheduled there before these queues existed, and their retries,
// still run. (A task queue is not part of the commands replay compares, so
// runs in flight move to the new queues with no change id.)
const (
	CRMQueueSuffix  = "-crm"
	MailQueueSuffix = "-mail"
)

// CRMTaskQueue and MailTaskQueue are the activity queues of TaskQueue.
const (
	CRMTaskQueue  = TaskQueue + CRMQueueSuffix
	MailTaskQueue = TaskQueue + MailQueueSuffix
)

// CRMQueue is the CRM activities' queue of the running workflow's queue.
func CRMQueue(ctx workflow.Context) string {
	return workflow.GetInfo(ctx).TaskQueueName + CRMQueueSuffix
}

// MailQueue is the notices' and e-mails' queue of the running workflow's queue.
func MailQueue(ctx workflow.Context) string {
	return workflow.GetInfo(ctx).TaskQueueName + MailQueueSuffix
}
