package workflows

import (
	"path/filepath"
	"testing"

	"go.temporal.io/sdk/worker"
)

// TestRecordedHistoriesReplay guards deploys: every recorded history must replay
// with the current workflow code. A change that breaks this needs
// workflow.GetVersion (docs/opportunity-lifecycle.md).
func TestRecordedHistoriesReplay(t *testing.T) {
	files, err := filepath.Glob("testdata/histories/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no recorded histories in testdata/histories (%v)", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			r := worker.NewWorkflowReplayer()
			r.RegisterWorkflow(Opportunity)
			if err := r.ReplayWorkflowHistoryFromJSONFile(nil, f); err != nil {
				t.Fatal(err)
			}
		})
	}
}
