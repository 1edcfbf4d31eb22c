package worker

import (
	"go.temporal.io/sdk/client"
	sdkworker "go.temporal.io/sdk/worker"

	"oportuna/activities"
	"oportuna/config"
	"oportuna/reconcile"
	"oportuna/workflows"
)

// Queue kinds a process may poll (WORKER_QUEUES): the workflows with their
// database activities, the CRM's activities, the mail's.
const (
	QueueWorkflows = "workflows"
	QueueCRM       = "crm"
	QueueMail      = "mail"
)

// Defaults of Settings (README, Configuration; docs/operations.md, Task queues);
// their values are config's, which reads the environment with them.
const (
	// DefaultCRMPerSecond caps the CRM syncs the server hands out per second
	// (each is at most two Salesforce requests): a ceiling on bursts such as a
	// mass expiry. Salesforce counts requests per rolling 24 h (Enterprise:
	// 100,000 plus 1,000 per licence) and has no per-second limit; at 50/s a
	// burst of 10,000 expiries takes about 3.5 minutes and 20,000 requests.
	DefaultCRMPerSecond = config.DefaultCRMPerSecond
	// DefaultCRMSlots: CRM syncs running at once in one worker, below
	// Salesforce's 25 concurrent long-running requests per org.
	DefaultCRMSlots = config.DefaultCRMSlots
	// DefaultMailPerSecond caps notices and e-mails per second: an SMTP relay
	// such as Amazon SES starts at 14 messages per second, and a notice mails
	// one or a few people.
	DefaultMailPerSecond = config.DefaultMailPerSecond
	// DefaultMailSlots: SMTP conversations at once in one worker.
	DefaultMailSlots = config.DefaultMailSlots
	// DefaultMaxPollers is the most pollers per queue and task kind; the SDK
	// scales them between 1 and this with the backlog (poller autoscaling).
	DefaultMaxPollers = config.DefaultMaxPollers
)

// Settings are the worker's queues, rate limits, slots and pollers.
type Settings struct {
	// Queues this process polls (QueueWorkflows, QueueCRM, QueueMail); empty: all.
	Queues []string
	// DBSlots bounds the activities and the local activities of the workflow
	// queue running at once: they use the PostgreSQL pool, so its size
	// (pool_max_conns in DATABASE_URL). 0: the pool's MaxConns.
	DBSlots int
	// CRMPerSecond and MailPerSecond are the queues' TaskQueueActivitiesPerSecond.
	CRMPerSecond  float64
	MailPerSecond float64
	// CRMSlots and MailSlots bound each queue's activities running at once in one worker.
	CRMSlots  int
	MailSlots int
	// MaxPollers is the autoscaling pollers' maximum per queue and task kind.
	MaxPollers int
}

func (s Settings) withDefaults(acts *activities.Activities) Settings {
	if len(s.Queues) == 0 {
		s.Queues = []string{QueueWorkflows, QueueCRM, QueueMail}
	}
	if s.DBSlots <= 0 {
		s.DBSlots = 4 // pgxpool's default: max(4, CPUs)
		if acts != nil && acts.DB != nil {
			s.DBSlots = int(acts.DB.Config().MaxConns)
		}
	}
	if s.CRMPerSecond <= 0 {
		s.CRMPerSecond = DefaultCRMPerSecond
	}
	if s.MailPerSecond <= 0 {
		s.MailPerSecond = DefaultMailPerSecond
	}
	if s.CRMSlots <= 0 {
		s.CRMSlots = DefaultCRMSlots
	}
	if s.MailSlots <= 0 {
		s.MailSlots = DefaultMailSlots
	}
	if s.MaxPollers <= 0 {
		s.MaxPollers = DefaultMaxPollers
	}
	return s
}

func (s Settings) queueNames(workflowQueue string) []string {
	var names []string
	for _, q := range s.Queues {
		switch q {
		case QueueWorkflows:
			names = append(names, workflowQueue)
		case QueueCRM:
			names = append(names, workflowQueue+workflows.CRMQueueSuffix)
		case QueueMail:
			names = append(names, workflowQueue+workflows.MailQueueSuffix)
		}
	}
	return names
}

func pollers(max int) sdkworker.PollerBehavior {
	return sdkworker.NewPollerBehaviorAutoscaling(sdkworker.PollerBehaviorAutoscalingOptions{
		InitialNumberOfPollers: min(2, max), MinimumNumberOfPollers: 1, MaximumNumberOfPollers: max,
	})
}

// Options are the worker options of each queue kind: the workflow queue's
// activity and local-activity slots sized to the database pool, the CRM and
// mail queues rate-limited by the server, autoscaling pollers on all.
func (s Settings) Options(kind string, onFatal func(error)) sdkworker.Options {
	o := sdkworker.Options{
		WorkerStopTimeout:          StopTimeout,
		OnFatalError:               onFatal,
		ActivityTaskPollerBehavior: pollers(s.MaxPollers),
	}
	switch kind {
	case QueueWorkflows:
		o.WorkflowTaskPollerBehavior = pollers(s.MaxPollers)
		o.MaxConcurrentActivityExecutionSize = s.DBSlots
		o.MaxConcurrentLocalActivityExecutionSize = s.DBSlots
	case QueueCRM:
		o.TaskQueueActivitiesPerSecond = s.CRMPerSecond
		o.MaxConcurrentActivityExecutionSize = s.CRMSlots
	case QueueMail:
		o.TaskQueueActivitiesPerSecond = s.MailPerSecond
		o.MaxConcurrentActivityExecutionSize = s.MailSlots
	}
	return o
}

// New makes, without starting them, the workers of workflowQueue and of its
// CRM and mail queues that s.Queues names (s with its defaults). The workflow
// queue's worker registers the workflows, the reconciliation and every
// activity (activities scheduled there before the CRM and mail queues
// existed still run); the others register their activities only.
func New(c client.Client, workflowQueue string, acts *activities.Activities, s Settings, onFatal func(error)) []sdkworker.Worker {
	s = s.withDefaults(acts)
	var ws []sdkworker.Worker
	for _, kind := range s.Queues {
		switch kind {
		case QueueWorkflows:
			w := sdkworker.New(c, workflowQueue, s.Options(kind, onFatal))
			workflows.Register(w)
			w.RegisterActivity(acts)
			reconcile.Register(w, &reconcile.Activities{DB: acts.DB, Temporal: c, Portal: acts})
			ws = append(ws, w)
		case QueueCRM:
			w := sdkworker.New(c, workflowQueue+workflows.CRMQueueSuffix, s.Options(kind, onFatal))
			w.RegisterActivity(acts.SyncCRM)
			ws = append(ws, w)
		case QueueMail:
			w := sdkworker.New(c, workflowQueue+workflows.MailQueueSuffix, s.Options(kind, onFatal))
			for _, f := range []any{acts.Notify, acts.SendMail, acts.NotifyResale, acts.MailResaleDecision} {
				w.RegisterActivity(f)
			}
			ws = append(ws, w)
		}
	}
	return ws
}
