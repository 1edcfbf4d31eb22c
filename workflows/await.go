package workflows

import (
	"time"

	"go.temporal.io/sdk/workflow"
)

// changeCancelAwaitTimers: a wait that ends because its condition came true
// cancels its timer. The SDK's AwaitWithOptions leaves it running (its flag
// for cancelling is off by default), so every decision left a timer to fire
// later: an empty workflow task, and an SLA timer "Fired" days after the
// approval in the Temporal UI. Histories from before keep the old commands.
const changeCancelAwaitTimers = "cancel-await-timers"

// awaitOrTimeout waits until cond is true (true) or d has passed (false); the
// timer carries summary in the Temporal UI and is cancelled when cond wins.
// An error only if ctx is cancelled.
func awaitOrTimeout(ctx workflow.Context, d time.Duration, summary string, cond func() bool) (bool, error) {
	return awaitTimeout(ctx, workflow.GetVersion(ctx, changeCancelAwaitTimers, workflow.DefaultVersion, 1) >= 1, d, summary, cond)
}

// awaitTimeout is awaitOrTimeout with changeCancelAwaitTimers decided by the
// caller (cancelTimer).
func awaitTimeout(ctx workflow.Context, cancelTimer bool, d time.Duration, summary string, cond func() bool) (bool, error) {
	timerCtx, cancel := ctx, workflow.CancelFunc(func() {})
	if cancelTimer {
		timerCtx, cancel = workflow.WithCancel(ctx)
	}
	defer cancel()
	return workflow.AwaitWithOptions(timerCtx, workflow.AwaitOptions{Timeout: d, TimerOptions: workflow.TimerOptions{Summary: summary}}, cond)
}
