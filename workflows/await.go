package workflows

import (
	"time"

	"go.temporal.io/sdk/workflow"
)

// awaitOrTimeout waits until cond is true (true) or d has passed (false); the
// timer carries summary in the Temporal UI. A wait that ends because cond came
// true cancels its timer: the SDK's AwaitWithOptions leaves it running, and it
// would fire later for nothing (an empty workflow task, and an SLA timer shown
// "Fired" days after the decision). An error only if ctx is cancelled.
func awaitOrTimeout(ctx workflow.Context, d time.Duration, summary string, cond func() bool) (bool, error) {
	timerCtx, cancel := workflow.WithCancel(ctx)
	defer cancel()
	return workflow.AwaitWithOptions(timerCtx, workflow.AwaitOptions{Timeout: d, TimerOptions: workflow.TimerOptions{Summary: summary}}, cond)
}
