package workflows

// Harnesses of the workflows' unit tests: each runs a workflow in the SDK's
// test environment (time skipping) with its activities mocked, and records
// what they were asked to do.

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	tlog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"oportuna/activities"
	"oportuna/auth"
	"oportuna/opportunity"
	"oportuna/resale"
)

var (
	seller   = opportunity.Actor{UserID: "u-seller", Name: "Vanessa", Roles: []auth.Role{auth.Seller}, ResaleID: "r-1"}
	other    = opportunity.Actor{UserID: "u-other", Name: "Victor", Roles: []auth.Role{auth.Seller}, ResaleID: "r-1"}
	reseller = opportunity.Actor{UserID: "u-resale", Name: "Ricardo", Roles: []auth.Role{auth.Resale}, ResaleID: "r-1"}
	foreign  = opportunity.Actor{UserID: "u-x", Name: "Xavier", Roles: []auth.Role{auth.Resale}, ResaleID: "r-2"}
	rep      = opportunity.Actor{UserID: "u-rep", Name: "Renata", Roles: []auth.Role{auth.Representative}}
	support  = opportunity.Actor{UserID: "u-sup", Name: "Sérgio", Roles: []auth.Role{auth.Support}}
)

type harness struct {
	t       *testing.T
	env     *testsuite.TestWorkflowEnvironment
	mu      sync.Mutex
	events  []opportunity.Event
	notices []activities.Notice
	crmErr  error
	d       Durations
	// crm, when set, answers SyncCRM instead of crmErr; crmCalls lists its inputs.
	crm      func(activities.CRMSyncInput) (string, error)
	crmDelay time.Duration // how long (workflow time) the next SyncCRM takes
	crmCalls []activities.CRMSyncInput
	// applyErr, when set, may refuse an event (before it is recorded).
	applyErr func(opportunity.Event) error
	// applied, when set, answers Apply (what a retry finds recorded).
	applied func(opportunity.Event) activities.Applied
	// cancellations are the events that marked the opportunity deleted.
	cancellations []opportunity.Event
	// registered, when set, answers the Register activity.
	registered func(activities.RegisterInput) (activities.Registered, error)
	// earlier answers EarlierConflicts (conflicts_test.go); overrides lists
	// the LogConflictOverride calls.
	earlier   []activities.EarlierConflict
	overrides []activities.ConflictOverride
}

func newHarness(t *testing.T) *harness {
	h := &harness{t: t, d: DefaultDurations}
	h.env = newTestEnv()
	h.env.RegisterWorkflow(Opportunity)
	h.env.RegisterActivity(a)
	h.env.OnActivity(a.Register, mock.Anything, mock.Anything).Return(
		func(_ context.Context, in activities.RegisterInput) (activities.Registered, error) {
			if h.registered != nil {
				return h.registered(in)
			}
			return activities.Registered{Record: in.Record, Conflicts: []string{"older-1"}}, nil
		})
	h.env.OnActivity(a.Apply, mock.Anything, mock.Anything).Return(func(_ context.Context, ev opportunity.Event) (activities.Applied, error) {
		h.mu.Lock()
		defer h.mu.Unlock()
		if h.applyErr != nil {
			if err := h.applyErr(ev); err != nil {
				return activities.Applied{}, err
			}
		}
		if ev.Deleted != nil {
			// The tests end runs by cancelling them: that event is kept apart.
			h.cancellations = append(h.cancellations, ev)
			return activities.Applied{}, nil
		}
		h.events = append(h.events, ev)
		if h.applied != nil {
			return h.applied(ev), nil
		}
		return activities.Applied{}, nil
	})
	h.env.OnActivity(a.Notify, mock.Anything, mock.Anything).Return(appendTo(&h.mu, &h.notices))
	h.env.OnActivity(a.EarlierConflicts, mock.Anything, mock.Anything).Return(
		func(context.Context, string) ([]activities.EarlierConflict, error) {
			h.mu.Lock()
			defer h.mu.Unlock()
			return h.earlier, nil
		})
	h.env.OnActivity(a.LogConflictOverride, mock.Anything, mock.Anything).Return(appendTo(&h.mu, &h.overrides))
	h.env.OnActivity(a.SyncCRM, mock.Anything, mock.Anything).AfterFn(func() time.Duration {
		h.mu.Lock()
		defer h.mu.Unlock()
		d := h.crmDelay
		h.crmDelay = 0
		return d
	}).Return(func(_ context.Context, in activities.CRMSyncInput) (string, error) {
		h.mu.Lock()
		h.crmCalls = append(h.crmCalls, in)
		fn := h.crm
		h.mu.Unlock()
		if fn != nil {
			return fn(in)
		}
		if h.crmErr != nil {
			return "", h.crmErr
		}
		return "006CRM0001", nil
	})
	return h
}

// crmStatuses lists the statuses SyncCRM was asked to write, in order.
func (h *harness) crmStatuses() []opportunity.Status {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]opportunity.Status, len(h.crmCalls))
	for i, c := range h.crmCalls {
		out[i] = c.Status
	}
	return out
}

// newTestEnv is the SDK's test environment with its logger silenced.
func newTestEnv() *testsuite.TestWorkflowEnvironment {
	var s testsuite.WorkflowTestSuite
	s.SetLogger(tlog.NewStructuredLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	return s.NewTestWorkflowEnvironment()
}

// updateAt schedules an update at a moment of the workflow's life; the outcome lands in *err.
func updateAt(env *testsuite.TestWorkflowEnvironment, d time.Duration, name string, arg any, err *error) {
	env.RegisterDelayedCallback(func() {
		env.UpdateWorkflow(name, "", &testsuite.TestUpdateCallback{
			OnReject:   func(e error) { *err = e },
			OnAccept:   func() {},
			OnComplete: func(_ interface{}, e error) { *err = e },
		}, arg)
	}, d)
}

// queryState answers the workflow's state query.
func queryState[S any](t *testing.T, env *testsuite.TestWorkflowEnvironment) S {
	var st S
	v, err := env.QueryWorkflow(QueryState)
	if err == nil {
		err = v.Get(&st)
	}
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// appendTo is a mocked activity that keeps its inputs in *list.
func appendTo[T any](mu *sync.Mutex, list *[]T) func(context.Context, T) error {
	return func(_ context.Context, v T) error {
		mu.Lock()
		defer mu.Unlock()
		*list = append(*list, v)
		return nil
	}
}

// noErrors fails the test for each named outcome that is an error.
func noErrors(t *testing.T, outcomes map[string]error) {
	t.Helper()
	for name, err := range outcomes {
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// countKinds counts notices by their kind.
func countKinds[N any](mu *sync.Mutex, notices []N, kind func(N) string) map[string]int {
	mu.Lock()
	defer mu.Unlock()
	out := map[string]int{}
	for _, n := range notices {
		out[kind(n)]++
	}
	return out
}

// at schedules an update at a moment of the workflow's life; the result lands in *err.
func (h *harness) at(d time.Duration, name string, arg any, err *error) {
	updateAt(h.env, d, name, arg, err)
}

func (h *harness) state() OpportunityState { return queryState[OpportunityState](h.t, h.env) }

func (h *harness) statusAt(d time.Duration, want opportunity.Status) {
	h.env.RegisterDelayedCallback(func() {
		if got := h.state().Status; got != want {
			h.t.Errorf("at %v: status %s, want %s", d, got, want)
		}
	}, d)
}

func (h *harness) run() error {
	var regErr error
	h.at(0, UpdateRegister, RegisterRequest{Actor: seller, ResaleCNPJ: "11222300000181",
		Record: opportunity.Record{Name: "Oportunidade Yep", ProbabilityClosing: 25}}, &regErr)
	h.env.ExecuteWorkflow(Opportunity, OpportunityInput{ID: "op-1", Brand: "yep", Durations: h.d})
	if regErr != nil {
		h.t.Fatalf("register: %v", regErr)
	}
	return h.env.GetWorkflowError()
}

func (h *harness) kinds() map[string]int {
	return countKinds(&h.mu, h.notices, func(n activities.Notice) string { return n.Kind })
}

func errType(err error) string {
	var app *temporal.ApplicationError
	if errors.As(err, &app) {
		return app.Type()
	}
	return ""
}

const day = 24 * time.Hour

// resaleHarness runs the onboarding workflow with time skipping and records
// what its activities were asked to do.
type resaleHarness struct {
	t         *testing.T
	env       *testsuite.TestWorkflowEnvironment
	mu        sync.Mutex
	decisions []activities.ResaleDecisionInput
	mails     []activities.ResaleMailInput
	notices   []activities.ResaleNotice
	statuses  []string // ResaleStatus search attribute values, in order
	regErr    error    // what RegisterResale answers
	facts     activities.ResaleFacts
	sla       time.Duration
}

var signup = resale.Registration{Email: "contato@revenda.com.br", Phone: "11987654321", ContactName: "Carla",
	CNPJ: "11222333000181", FantasyName: "Revenda", CorporateName: "Revenda Boa Ltda", Country: "Brasil"}

func newResaleHarness(t *testing.T) *resaleHarness {
	h := &resaleHarness{t: t, sla: 48 * time.Hour}
	h.env = newTestEnv()
	h.env.RegisterWorkflow(Resale)
	h.env.RegisterActivity(a)
	h.env.OnActivity(a.LifecycleDurations, mock.Anything).Return(func(context.Context) (Durations, error) {
		d := DefaultDurations
		d.ApprovalSLA = h.sla
		return d, nil
	})
	h.env.OnActivity(a.RegisterResale, mock.Anything, mock.Anything).Return(
		func(_ context.Context, in activities.RegisterResaleInput) (activities.ResaleFacts, error) {
			if h.regErr != nil {
				return activities.ResaleFacts{}, h.regErr
			}
			return activities.ResaleFacts{ID: in.ID, Brand: in.Brand, Status: resale.Analysis, CNPJ: in.Registration.CNPJ, CreatedAt: in.At}, nil
		})
	h.env.OnActivity(a.ResaleFacts, mock.Anything, mock.Anything).Return(func(context.Context, string) (activities.ResaleFacts, error) {
		return h.facts, nil
	})
	h.env.OnActivity(a.DecideResale, mock.Anything, mock.Anything).Return(
		func(_ context.Context, in activities.ResaleDecisionInput) (activities.ResaleDecided, error) {
			h.mu.Lock()
			defer h.mu.Unlock()
			h.decisions = append(h.decisions, in)
			if in.Approve {
				return activities.ResaleDecided{Status: resale.Approved, UserID: "u-new"}, nil
			}
			return activities.ResaleDecided{Status: resale.Disapproved}, nil
		})
	h.env.OnActivity(a.MailResaleDecision, mock.Anything, mock.Anything).Return(appendTo(&h.mu, &h.mails))
	h.env.OnActivity(a.NotifyResale, mock.Anything, mock.Anything).Return(appendTo(&h.mu, &h.notices))
	h.env.OnUpsertTypedSearchAttributes(mock.Anything).Return(nil).Run(func(args mock.Arguments) {
		sa := args.Get(0).(temporal.SearchAttributes)
		st, _ := sa.GetKeyword(AttrResaleStatus)
		brandSlug, _ := sa.GetKeyword(AttrBrand)
		doc, _ := sa.GetKeyword(AttrResaleCnpj)
		if brandSlug != "yep" || doc != signup.CNPJ {
			t.Errorf("search attributes brand %q cnpj %q", brandSlug, doc)
		}
		h.mu.Lock()
		defer h.mu.Unlock()
		h.statuses = append(h.statuses, st)
	})
	return h
}

// at schedules an update at a moment of the workflow's life; the outcome lands in *err.
func (h *resaleHarness) at(d time.Duration, name string, arg any, err *error) {
	updateAt(h.env, d, name, arg, err)
}

func (h *resaleHarness) state() ResaleState { return queryState[ResaleState](h.t, h.env) }

// run registers the sign-up with the start and runs the workflow to its end.
func (h *resaleHarness) run() (regErr error) {
	h.at(0, UpdateRegister, ResaleRegisterRequest{Registration: signup}, &regErr)
	h.env.ExecuteWorkflow(Resale, ResaleInput{ID: "r-1", Brand: "yep"})
	return regErr
}

func (h *resaleHarness) kinds() map[string]int {
	return countKinds(&h.mu, h.notices, func(n activities.ResaleNotice) string { return n.Kind })
}

func ptr[T any](v T) *T { return &v }
