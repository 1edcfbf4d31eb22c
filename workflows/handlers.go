package workflows

import "go.temporal.io/sdk/workflow"

// update is an update handler with its validator.
type update struct {
	name      string
	handler   any
	validator any
}

// setHandlers registers the query QueryState answering state, and the updates.
func setHandlers[S any](ctx workflow.Context, state func() S, updates ...update) error {
	if err := workflow.SetQueryHandler(ctx, QueryState, func() (S, error) { return state(), nil }); err != nil {
		return err
	}
	for _, u := range updates {
		if err := workflow.SetUpdateHandlerWithOptions(ctx, u.name, u.handler, workflow.UpdateHandlerOptions{Validator: u.validator}); err != nil {
			return err
		}
	}
	return nil
}
