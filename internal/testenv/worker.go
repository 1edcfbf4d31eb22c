package testenv

import (
	"testing"

	sdkworker "go.temporal.io/sdk/worker"
)

// StartWorkers starts the workers and stops them when the test ends; one that
// does not start fails the test.
func StartWorkers(t testing.TB, workers ...sdkworker.Worker) {
	t.Helper()
	for _, w := range workers {
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(w.Stop)
	}
}
