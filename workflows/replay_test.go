package workflows

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/temporalproto"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	sdkworker "go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"oportuna/internal/testenv"
	"oportuna/mailer"
)

// replayRegistry lets Register (which takes a worker's registry) fill a
// replayer, so the replay covers every workflow the worker runs. Registering an
// activity or a Nexus service on it panics: Register must register workflows only.
type replayRegistry struct {
	sdkworker.Registry // nil: the methods below are the only ones used
	r                  sdkworker.WorkflowReplayer
	names              []string
}

func (rr *replayRegistry) RegisterWorkflow(w any) {
	rr.r.RegisterWorkflow(w)
	name := runtime.FuncForPC(reflect.ValueOf(w).Pointer()).Name()
	rr.names = append(rr.names, name[strings.LastIndex(name, ".")+1:])
}

func (rr *replayRegistry) RegisterWorkflowWithOptions(w any, o workflow.RegisterOptions) {
	rr.r.RegisterWorkflowWithOptions(w, o)
	rr.names = append(rr.names, o.Name)
}

func (rr *replayRegistry) RegisterDynamicWorkflow(w any, o workflow.DynamicRegisterOptions) {
	rr.r.RegisterDynamicWorkflow(w, o)
}

// TestRecordedHistoriesReplay guards deploys: every recorded history under
// testdata/ (testdata/histories: Opportunity, testdata/resale: Resale,
// testdata/mail: SendEmail) must replay with the current workflow code, on a
// replayer holding every workflow the worker registers. A change that breaks
// this needs workflow.GetVersion (docs/opportunity-lifecycle.md, "Changing
// the workflow safely"). Every workflow the worker runs must have at least one
// recorded history, and no history folder may be empty.
func TestRecordedHistoriesReplay(t *testing.T) {
	byDir := map[string][]string{}
	err := filepath.WalkDir("testdata", func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if _, seen := byDir[p]; !seen && p != "testdata" {
				byDir[p] = nil // a folder without histories is reported below
			}
			return nil
		}
		if strings.HasSuffix(p, ".json") {
			byDir[filepath.Dir(p)] = append(byDir[filepath.Dir(p)], p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(byDir) == 0 {
		t.Fatal("no history folders under testdata/")
	}
	// The replayer reads plaintext recordings and ones recorded with the tests' payload codec.
	replayer, err := sdkworker.NewWorkflowReplayerWithOptions(sdkworker.WorkflowReplayerOptions{DataConverter: testenv.ReplayDataConverter()})
	if err != nil {
		t.Fatal(err)
	}
	rr := &replayRegistry{r: replayer}
	Register(rr)
	covered := map[string]int{}
	for dir, files := range byDir {
		if len(files) == 0 {
			t.Errorf("%s holds no recorded history (*.json): record one or remove the folder", dir)
		}
		for _, f := range files {
			t.Run(strings.TrimPrefix(f, "testdata"+string(filepath.Separator)), func(t *testing.T) {
				b, err := os.Open(f)
				if err != nil {
					t.Fatal(err)
				}
				defer b.Close()
				hist, err := client.HistoryFromJSON(b, client.HistoryJSONOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if evs := hist.GetEvents(); len(evs) > 0 {
					covered[evs[0].GetWorkflowExecutionStartedEventAttributes().GetWorkflowType().GetName()]++
				}
				if err := rr.r.ReplayWorkflowHistory(nil, hist); err != nil {
					t.Fatal(err)
				}
			})
		}
	}
	sort.Strings(rr.names)
	for _, name := range rr.names {
		if covered[name] == 0 {
			t.Errorf("no recorded history of %s under testdata/: record one (docs/opportunity-lifecycle.md, Changing the workflow safely)", name)
		}
	}
	t.Logf("replayed %v with %v registered", covered, rr.names)
}

// TestRecordSendEmailHistory: a SendEmail run on the dev server whose
// delivery succeeds, its activity on the mail queue; with
// OPORTUNA_RECORD_HISTORIES=1 it records testdata/mail/send-email-delivered.json.
// The activity is a stand-in: replay checks the workflow's commands, not what
// the activity did.
func TestRecordSendEmailHistory(t *testing.T) {
	c := testenv.TemporalClient(t)
	queue := "record-send-email"
	w := sdkworker.New(c, queue, sdkworker.Options{})
	w.RegisterWorkflow(SendEmail)
	mail := sdkworker.New(c, queue+MailQueueSuffix, sdkworker.Options{})
	sent := make(chan string, 1)
	mail.RegisterActivityWithOptions(func(ctx context.Context, m mailer.Message) error {
		select {
		case sent <- m.Key:
		default:
		}
		return nil
	},
		activity.RegisterOptions{Name: "SendMail"})
	testenv.StartWorkers(t, w, mail)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	key := "password-reset/" + hashKey("ana@cliente.com.br", "https://yep.example/redefinir-senha?token=replay")
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: MailWorkflowID(key), TaskQueue: queue}, SendEmail,
		mailer.Message{Key: key, Brand: "yep"})
	if err != nil {
		t.Fatal(err)
	}
	if err := run.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if got := <-sent; got != key {
		t.Errorf("SendMail was asked for %q, want %q", got, key)
	}
	RecordHistory(t, c, run.GetID(), run.GetRunID(), "testdata/mail/send-email-delivered.json")
}

// RecordHistory writes a run's history to path (relative to workflows/), where
// TestRecordedHistoriesReplay replays it, when OPORTUNA_RECORD_HISTORIES is
// set (after a deliberate change of a workflow: docs/opportunity-lifecycle.md,
// "Changing the workflow safely"). Exported for the package's external tests.
func RecordHistory(t *testing.T, c client.Client, wfID, runID, path string) {
	t.Helper()
	if os.Getenv("OPORTUNA_RECORD_HISTORIES") == "" {
		return
	}
	it := c.GetWorkflowHistory(context.Background(), wfID, runID, false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	hist := &historypb.History{}
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		hist.Events = append(hist.Events, ev)
	}
	b, err := temporalproto.CustomJSONMarshalOptions{Indent: "  "}.Marshal(hist)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("recorded %d events in %s", len(hist.Events), path)
}
