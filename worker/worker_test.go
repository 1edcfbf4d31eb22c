package worker

import (
	"context"
	"sort"
	"testing"
	"time"

	"go.temporal.io/api/operatorservice/v1"

	"oportuna/internal/testenv"
	"oportuna/workflows"
)

func TestMain(m *testing.M) { testenv.Main(m) }

func TestWorkerRegistersMissingSearchAttributesOnce(t *testing.T) {
	c := testenv.TemporalClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	added, err := EnsureSearchAttributes(ctx, c, "default")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for name := range workflows.SearchAttributes() {
		want = append(want, name)
	}
	sort.Strings(want)
	if len(added) != len(want) {
		t.Fatalf("added %v, want %v", added, want)
	}
	list, err := c.OperatorService().ListSearchAttributes(ctx, &operatorservice.ListSearchAttributesRequest{Namespace: "default"})
	if err != nil {
		t.Fatal(err)
	}
	for name, typ := range workflows.SearchAttributes() {
		if got, ok := list.GetCustomAttributes()[name]; !ok || got != typ {
			t.Errorf("%s: registered as %v (present %v), want %v", name, got, ok, typ)
		}
	}
	// A second start (another worker, a restart) finds them and adds nothing.
	again, err := EnsureSearchAttributes(ctx, c, "default")
	if err != nil || len(again) != 0 {
		t.Errorf("second run added %v, err %v", again, err)
	}
}
