// Package workflows holds the project's durable Temporal workflows: an
// opportunity's lifecycle (Opportunity), a company's onboarding (Resale) and
// one e-mail's delivery (SendEmail). Read it in this order:
//
//   - opportunity.go: the lifecycle top to bottom (setup, then run);
//   - timers.go: what the clock does in each status (SLA reminders, renewal
//     window, expiry, retention);
//   - decisions.go: the people's decisions (updates with validators sharing one guard);
//   - crm.go, notices.go, readmodel.go, searchattributes.go: what a change
//     writes to the CRM, the people, the read model and the Temporal UI;
//   - repair.go: the reconciler's repair;
//   - resale.go, mail.go: the other two workflows;
//   - types.go, options.go, start.go: the wire types and errors, the
//     activities' options and queues, the ids and how clients start a workflow.
//
// docs/opportunity-lifecycle.md describes the lifecycle and how to change
// these workflows without breaking the runs in flight.
package workflows
