package worker

import (
	"context"
	"errors"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	_ "unsafe" // go:linkname

	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"google.golang.org/grpc"

	"oportuna/activities"
	"oportuna/internal/testenv"
	"oportuna/workflows"
)

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

// TestWorkerIsReadyWhilePollingAndFailsOnAFatalError runs the worker against the
// dev server through a connection that, once told to, answers the task polls
// NamespaceNotFound (what a deleted namespace answers): the SDK's fatal error.
// Readiness is "not polling" before the start, ok while polling, and down after
// the fatal error, and Run returns the error instead of blocking until SIGTERM.
func TestWorkerIsReadyWhilePollingAndFailsOnAFatalError(t *testing.T) {
	// The SDK retries a "non-retriable" poll error for 2 minutes before calling it
	// fatal (proxies sometimes answer nonsense); shorten that, as its own tests do.
	setRetryLongPollGracePeriod(time.Second)
	defer setRetryLongPollGracePeriod(2 * time.Minute)
	breakIt := make(chan struct{})
	polls := atomic.Int64{}
	intercept := func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		if !strings.Contains(method, "/Poll") {
			return invoker(ctx, method, req, reply, cc, opts...)
		}
		polls.Add(1)
		// A long poll in flight when the namespace goes answers the error too.
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		go func() {
			select {
			case <-breakIt:
				cancel()
			case <-ctx.Done():
			}
		}()
		err := invoker(ctx, method, req, reply, cc, opts...)
		select {
		case <-breakIt:
			// On the wire, as the server answers it (a gRPC status).
			return serviceerror.ToStatus(serviceerror.NewNamespaceNotFound("default")).Err()
		default:
			return err
		}
	}
	c, err := client.Dial(client.Options{HostPort: testenv.TemporalAddress(t), Namespace: "default",
		ConnectionOptions: client.ConnectionOptions{DialOptions: []grpc.DialOption{grpc.WithChainUnaryInterceptor(intercept)}}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	st := &Status{}
	if err := st.Check(ctx); !errors.Is(err, ErrNotPolling) {
		t.Fatalf("readiness before the start: %v, want ErrNotPolling", err)
	}
	done := make(chan error, 1)
	go func() { done <- RunWithStatus(ctx, c, "default", &activities.Activities{}, st) }()
	testenv.WaitFor(t, 30*time.Second, "the worker to poll", func() bool { return st.Check(ctx) == nil && polls.Load() > 0 })

	close(breakIt)
	select {
	case err := <-done:
		var nf *serviceerror.NamespaceNotFound
		if !errors.As(err, &nf) {
			t.Errorf("Run returned %v, want the NamespaceNotFound fatal error", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("Run still blocked 30 s after the fatal error (%d polls)", polls.Load())
	}
	if err := st.Check(ctx); err == nil {
		t.Error("readiness ok after the fatal error")
	}
}

// TestWorkerIsNotReadyAfterItsContextEnds: a shutdown stops polling and readiness says so.
func TestWorkerIsNotReadyAfterItsContextEnds(t *testing.T) {
	c := testenv.TemporalClient(t)
	ctx, cancel := context.WithCancel(context.Background())
	st := &Status{}
	done := make(chan error, 1)
	go func() { done <- RunWithStatus(ctx, c, "default", &activities.Activities{}, st) }()
	testenv.WaitFor(t, 30*time.Second, "the worker to poll", func() bool { return st.Check(context.Background()) == nil })
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run after its context ended: %v, want nil", err)
		}
	case <-time.After(StopTimeout + 10*time.Second):
		t.Fatal("Run did not return after its context ended")
	}
	if err := st.Check(context.Background()); !errors.Is(err, ErrNotPolling) {
		t.Errorf("readiness after the stop: %v, want ErrNotPolling", err)
	}
}

// TestWorkerStoppedBeforeItPollsReturnsNil: a context that ends while the
// worker still registers its search attributes is a stop, not a failure
// (`oportuna seed` with nothing to seed stopped its worker so on a cluster).
func TestWorkerStoppedBeforeItPollsReturnsNil(t *testing.T) {
	c := testenv.TemporalClient(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := RunWithStatus(ctx, c, "default", &activities.Activities{}, nil); err != nil {
		t.Errorf("Run with its context already ended: %v, want nil", err)
	}
}

// setRetryLongPollGracePeriod is the SDK's test hook (internal.SetRetryLongPollGracePeriod,
// "for test use only, not safe to call with a running worker").
//
//go:linkname setRetryLongPollGracePeriod go.temporal.io/sdk/internal.SetRetryLongPollGracePeriod
func setRetryLongPollGracePeriod(time.Duration)
