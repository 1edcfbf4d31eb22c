package main

import (
	"context"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"oportuna/cnpj"
	"oportuna/opportunity"
)

func TestEngineUpdateRunsItsActivityAndTheWorkflowEndsOnStop(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterWorkflowWithOptions(engineWorkflow, workflow.RegisterOptions{Name: engineWorkflowName})
	ran := 0
	env.RegisterActivityWithOptions(func(context.Context) error { ran++; return nil }, activity.RegisterOptions{Name: engineActivityName})
	for i, id := range []string{"register", "decide"} {
		env.RegisterDelayedCallback(func() {
			env.UpdateWorkflow(engineUpdate, id, &testsuite.TestUpdateCallback{
				OnReject: func(err error) { t.Errorf("update %s rejected: %v", id, err) },
				OnAccept: func() {},
				OnComplete: func(_ any, err error) {
					if err != nil {
						t.Errorf("update %s: %v", id, err)
					}
				},
			})
		}, time.Duration(i+1)*time.Second)
	}
	env.RegisterDelayedCallback(func() { env.SignalWorkflow(engineStop, nil) }, time.Minute)
	env.ExecuteWorkflow(engineWorkflowName)
	if !env.IsWorkflowCompleted() || env.GetWorkflowError() != nil {
		t.Fatalf("workflow completed %v, error %v", env.IsWorkflowCompleted(), env.GetWorkflowError())
	}
	if ran != 2 {
		t.Errorf("the no-op activity ran %d times for 2 updates", ran)
	}
}

// Every customer is a company of its own (its CNPJ root): registrations of
// one root conflict, and an approval of the second would be refused without
// a reason (REGISTRATION_CONFLICT), measuring nothing.
func TestEveryCustomerHasItsOwnValidCNPJAndRoot(t *testing.T) {
	seen := map[string]bool{}
	for n := 0; n < 20000; n++ {
		doc := customerCNPJ(99_999_990, n)
		if !cnpj.Valid(doc) || doc[8:12] == "9999" {
			t.Fatalf("customer %d: %s is not a valid customer CNPJ", n, doc)
		}
		root := opportunity.CNPJRoot(doc)
		if seen[root] {
			t.Fatalf("customer %d: %s has the root of another customer", n, doc)
		}
		seen[root] = true
	}
}

func TestPercentilesAreNearestRank(t *testing.T) {
	var ds []time.Duration
	for i := 100; i >= 1; i-- {
		ds = append(ds, time.Duration(i)*time.Millisecond)
	}
	for _, c := range []struct{ p, want float64 }{{50, 50}, {95, 95}, {99, 99}, {100, 100}, {1, 1}} {
		if got := percentile(ds, c.p); got != c.want {
			t.Errorf("p%v = %v ms, want %v", c.p, got, c.want)
		}
	}
	if got := percentile([]time.Duration{7 * time.Millisecond}, 99); got != 7 {
		t.Errorf("p99 of one call = %v", got)
	}
	if got := percentile(nil, 50); got != 0 {
		t.Errorf("p50 of none = %v", got)
	}
}

func TestRatioIsLatencyWithOneClientAndThroughputWithMore(t *testing.T) {
	one := &Result{Clients: 1, P50: 40, PerSec: 25}
	compare(one, &Result{Clients: 1, Calls: 10, P50: 20, PerSec: 50})
	if one.RatioOf != "p50" || one.Ratio != 2 {
		t.Errorf("1 client: ratio %v of %s, want 2 of p50", one.Ratio, one.RatioOf)
	}
	many := &Result{Clients: 8, P50: 300, PerSec: 24}
	compare(many, &Result{Clients: 8, Calls: 10, P50: 100, PerSec: 64})
	if many.RatioOf != "/s" || many.Ratio != 0.375 {
		t.Errorf("8 clients: ratio %v of %s, want 0.375 of /s", many.Ratio, many.RatioOf)
	}
	none := &Result{Clients: 8}
	compare(none, &Result{Clients: 8, Errors: 3})
	if none.RatioOf != "" {
		t.Errorf("an engine phase with no answered call still gave a ratio")
	}
}
