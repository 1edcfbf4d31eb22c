package workflows

import "go.temporal.io/sdk/worker"

// Register adds every workflow of the project to the worker.
func Register(w worker.Registry) {
	w.RegisterWorkflow(Opportunity)
	w.RegisterWorkflow(Resale)
	w.RegisterWorkflow(SendEmail)
}
