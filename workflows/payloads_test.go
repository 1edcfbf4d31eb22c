package workflows_test

// Customer data in Temporal's history (issue 13, item 2): every payload is
// encrypted by the clients' codec (internal/payloadcodec, testenv.DataConverter
// as the api's and the worker's), and a plaintext update is refused.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"google.golang.org/protobuf/proto"

	"oportuna/cnpj"
	"oportuna/crm"
	"oportuna/internal/dev/localcrm"
	"oportuna/internal/testenv"
	"oportuna/opportunity"
	"oportuna/resale"
	"oportuna/seed"
	"oportuna/workflows"
)

// rawHistory is a run's history as whoever reaches the Temporal frontend
// without the keys reads it: every event, serialized (payloads, failures,
// search attributes, memos), and the events themselves.
func rawHistory(t *testing.T, c client.Client, wfID string) ([]byte, []*historypb.HistoryEvent) {
	raw, _, events := rawHistoryParts(t, c, wfID)
	return raw, events
}

// rawHistoryParts is rawHistory with, apart, the serialized events without
// their search attributes (the server indexes those: never encrypted).
func rawHistoryParts(t *testing.T, c client.Client, wfID string) (raw, payloads []byte, events []*historypb.HistoryEvent) {
	t.Helper()
	it := c.GetWorkflowHistory(context.Background(), wfID, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		b, err := ev.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		raw = append(raw, b...)
		events = append(events, ev)
		noSA := proto.Clone(ev).(*historypb.HistoryEvent)
		if a := noSA.GetWorkflowExecutionStartedEventAttributes(); a != nil {
			a.SearchAttributes = nil
		}
		if a := noSA.GetUpsertWorkflowSearchAttributesEventAttributes(); a != nil {
			a.SearchAttributes = nil
		}
		if a := noSA.GetWorkflowExecutionContinuedAsNewEventAttributes(); a != nil {
			a.SearchAttributes = nil
		}
		b, _ = proto.Marshal(noSA)
		payloads = append(payloads, b...)
	}
	d, err := c.DescribeWorkflowExecution(context.Background(), wfID, "")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := d.Marshal() // search attributes, memo, pending activities' last failures
	return append(append(raw, b...), wfID...), payloads, events
}

// assertNoneInClear fails for each secret found in the raw history, and
// unless its payloads (search attributes aside) are all encrypted.
func assertNoneInClear(t *testing.T, c client.Client, what, wfID string, secrets ...string) {
	t.Helper()
	raw, payloads, _ := rawHistoryParts(t, c, wfID)
	for _, s := range secrets {
		if bytes.Contains(raw, []byte(s)) {
			t.Errorf("%s: the raw history holds %q in clear", what, s)
		}
	}
	if !bytes.Contains(payloads, []byte("binary/encrypted")) {
		t.Errorf("%s: no encrypted payload in the history", what)
	}
	if bytes.Contains(payloads, []byte("json/plain")) {
		t.Errorf("%s: a payload in clear (json/plain) in the history", what)
	}
}

// missingCustomerCRM is the local CRM without an Account for one customer: it
// refuses the opportunity with Salesforce's client's error (crm/upsert.go), whose
// text quotes the customer's CNPJ.
type missingCustomerCRM struct {
	localcrm.CRM
	missing string
}

func (m missingCustomerCRM) UpsertOpportunity(ctx context.Context, o crm.Opportunity) (string, error) {
	if o.CustomerDoc == m.missing {
		return "", fmt.Errorf("%w: no Account with CNPJ__c %s", crm.ErrCustomerNotFound, cnpj.Format(o.CustomerDoc))
	}
	return m.CRM.UpsertOpportunity(ctx, o)
}

func TestRawHistoryHoldsNoCustomerData(t *testing.T) {
	const unknownCustomer = "44555666999952" // no Account in the CRM
	db := testenv.DB(t)
	// On "default", where PlainTemporalClient reads.
	s := startStack(t, testenv.TemporalClient(t), "default", db, hourly, nil,
		missingCustomerCRM{CRM: localcrm.CRM{DB: db}, missing: unknownCustomer})
	seller, rep := people(t, s)
	plain := testenv.PlainTemporalClient(t)

	// An opportunity registered and approved.
	customer := opportunity.Record{Name: "Projeto Sigiloso", CNPJ: "45997418000153", Contact: "Beatriz Sigilosa",
		Phone: "11977771234", Email: "beatriz.sigilosa@cliente-secreto.com.br", ProbabilityClosing: 25,
		Products: []opportunity.Product{{PartNumber: "P-1", Description: "Coletor", Amount: 1, Price: 10000}}}
	id := opportunity.NewID()
	wfID := workflows.OpportunityWorkflowID(id)
	terminateOnCleanup(t, s, wfID)
	s.explainOnFailure(t, wfID)
	if _, err := workflows.RegisterOpportunity(s.ctx, s.c, id, "yep", workflows.RegisterRequest{Actor: seller,
		ResaleCNPJ: seed.ResaleCNPJ(0), Record: customer}); err != nil {
		t.Fatal(err)
	}
	s.decided(t, wfID, workflows.UpdateApprove, workflows.ApproveRequest{Actor: rep, Name: "Projeto Sigiloso Aprovado", Probability: 50})
	s.settleRunning(t, wfID, s.runID(t, wfID))
	st := s.state(t, id) // through the codec
	if st.Status != opportunity.Approved || st.Name != "Projeto Sigiloso Aprovado" {
		t.Fatalf("state through the codec: %s %q", st.Status, st.Name)
	}
	const ownerEmail = "vendedor1@yep.demo" // the seller who registered
	_, events := rawHistory(t, plain, wfID)
	assertNoneInClear(t, plain, "opportunity", wfID, customer.Contact, customer.Email, customer.Phone, customer.CNPJ, customer.Name,
		ownerEmail, seller.Name, "Projeto Sigiloso Aprovado")

	// The codec reads the raw history's update arguments back.
	var decoded int
	for _, ev := range events {
		if a := ev.GetWorkflowExecutionUpdateAcceptedEventAttributes(); a != nil && a.GetAcceptedRequest().GetInput().GetName() == workflows.UpdateRegister {
			var req workflows.RegisterRequest
			if err := testenv.DataConverter().FromPayloads(a.GetAcceptedRequest().GetInput().GetArgs(), &req); err != nil {
				t.Fatal(err)
			}
			if req.Record.Email != customer.Email || req.Record.Phone != customer.Phone {
				t.Errorf("decoded registration %+v", req.Record)
			}
			decoded++
		}
	}
	if decoded != 1 {
		t.Errorf("%d registrations decoded from the history, want 1", decoded)
	}

	// A failed decision: the CRM has no Account for the customer. The failure's
	// message quotes the CNPJ; the history holds it encrypted, and the client
	// (the API) reads it, and its type, back through the codec.
	failedID := opportunity.NewID()
	failedWF := workflows.OpportunityWorkflowID(failedID)
	terminateOnCleanup(t, s, failedWF)
	s.explainOnFailure(t, failedWF)
	unknown := customer
	unknown.CNPJ = unknownCustomer
	if _, err := workflows.RegisterOpportunity(s.ctx, s.c, failedID, "yep", workflows.RegisterRequest{Actor: seller,
		ResaleCNPJ: seed.ResaleCNPJ(0), Record: unknown}); err != nil {
		t.Fatal(err)
	}
	err := s.decide(failedWF, workflows.UpdateApprove, workflows.ApproveRequest{Actor: rep, Name: "Projeto Sigiloso", Probability: 50,
		Deadline: time.Now().Add(workflows.DecisionWait)})
	var app *temporal.ApplicationError
	if !errors.As(err, &app) || app.Type() != crm.ErrTypeCustomerNotFound || !strings.Contains(err.Error(), "44.555.666/9999-52") {
		t.Fatalf("approval of an unknown customer: %v, want %s quoting the CNPJ", err, crm.ErrTypeCustomerNotFound)
	}
	s.settleRunning(t, failedWF, s.runID(t, failedWF))
	failedRaw, _, failedEvents := rawHistoryParts(t, plain, failedWF)
	var failures int
	for _, ev := range failedEvents {
		if f := ev.GetWorkflowExecutionUpdateCompletedEventAttributes().GetOutcome().GetFailure(); f != nil {
			failures++
			if f.GetMessage() != "Encoded failure" || f.GetEncodedAttributes() == nil {
				t.Errorf("the update's failure in clear: %q", f.GetMessage())
			}
		}
	}
	if failures != 1 {
		t.Errorf("%d failed updates in the history, want 1", failures)
	}
	for _, secret := range []string{unknownCustomer, "44.555.666/9999-52", "no Account", "CNPJ__c"} {
		if bytes.Contains(failedRaw, []byte(secret)) {
			t.Errorf("failed approval: the raw history holds %q in clear", secret)
		}
	}

	// A reseller's sign-up.
	rid := opportunity.NewID()
	rwf := workflows.ResaleWorkflowID(rid)
	reg := resale.Registration{Email: "carla.sigilosa@revenda-secreta.com.br", Phone: "11966665432",
		ContactName: "Carla Sigilosa", CNPJ: "11222333000181", FantasyName: "Revenda Sigilosa", CorporateName: "Revenda Sigilosa Ltda", Country: "Brasil"}
	start := workflows.ResaleStart(rid, "yep")
	start.WorkflowIDConflictPolicy = enumspb.WORKFLOW_ID_CONFLICT_POLICY_FAIL
	op := s.c.NewWithStartWorkflowOperation(start, workflows.Resale, workflows.ResaleInput{ID: rid, Brand: "yep"})
	h, err := s.c.UpdateWithStartWorkflow(s.ctx, client.UpdateWithStartWorkflowOptions{StartWorkflowOperation: op,
		UpdateOptions: client.UpdateWorkflowOptions{UpdateName: workflows.UpdateRegister, WaitForStage: client.WorkflowUpdateStageCompleted,
			Args: []any{workflows.ResaleRegisterRequest{Registration: reg}}}})
	if err == nil {
		err = h.Get(s.ctx, nil)
	}
	if err != nil {
		t.Fatalf("sign-up: %v", err)
	}
	terminateOnCleanup(t, s, rwf)
	s.settleRunning(t, rwf, h.RunID())
	// The company's CNPJ is the ResaleCnpj search attribute (a company's public
	// registration, docs/security-payloads.md): not checked here.
	assertNoneInClear(t, plain, "sign-up", rwf, reg.ContactName, reg.Email, reg.Phone, reg.FantasyName)
}

// TestForgedPlaintextUpdateIsRefused: someone who reaches the Temporal frontend
// without the keys sends an approval in clear, with a representative's Actor.
// The worker refuses to decode it: the update is rejected and nothing changes.
func TestForgedPlaintextUpdateIsRefused(t *testing.T) {
	s := newStack(t, hourly, nil)
	_, rep := people(t, s)
	id, wfID, run := s.registered(t)
	s.settleRunning(t, wfID, run)
	_, before := rawHistory(t, s.c, wfID)

	// The forger sends in clear. The refusal it gets back is encrypted like
	// every failure (it reads "Encoded failure"); the test reads it with the
	// codec's failure converter, keeping the forger's plaintext arguments.
	plain, err := client.Dial(client.Options{HostPort: testenv.TemporalAddress(t), Namespace: s.ns,
		FailureConverter: testenv.FailureConverter()})
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	ctx, cancel := context.WithTimeout(s.ctx, 30*time.Second)
	defer cancel()
	h, err := plain.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{WorkflowID: wfID, UpdateName: workflows.UpdateApprove,
		Args: []any{workflows.ApproveRequest{Actor: rep, Name: "Aprovação forjada", Probability: 50}}, WaitForStage: client.WorkflowUpdateStageCompleted})
	if err == nil {
		err = h.Get(ctx, nil)
	}
	if err == nil || !strings.Contains(err.Error(), "not encrypted") {
		t.Fatalf("forged plaintext approval: %v, want a refusal (payload not encrypted)", err)
	}
	s.settleRunning(t, wfID, run)
	if st := s.state(t, id); st.Status != opportunity.Analysis || st.Name == "Aprovação forjada" {
		t.Fatalf("after the forged approval: %s %q, want still in analysis", st.Status, st.Name)
	}
	if status, _, register, _ := s.row(t, id); status != string(opportunity.Analysis) || register != "" {
		t.Fatalf("read model after the forged approval: %s %q", status, register)
	}
	if n := s.notices(t, id, "approved"); n != 0 {
		t.Fatalf("%d approval notices after the forged approval", n)
	}
	_, after := rawHistory(t, s.c, wfID)
	for _, ev := range after[len(before):] {
		if ev.GetWorkflowExecutionUpdateAcceptedEventAttributes() != nil || ev.GetWorkflowExecutionUpdateCompletedEventAttributes() != nil {
			t.Fatalf("the forged update left %v in the history", ev.GetEventType())
		}
	}
	// The same approval through the codec goes through (the refusal was the codec's).
	s.decided(t, wfID, workflows.UpdateApprove, workflows.ApproveRequest{Actor: rep, Name: "Aprovação legítima", Probability: 50})
	if st := s.state(t, id); st.Status != opportunity.Approved {
		t.Fatalf("the legitimate approval: %s", st.Status)
	}
}

// TestSearchAttributesAndIDsCarryNoPersonalData: the search attributes and the
// workflow ids are never encrypted (the server indexes them). Each attribute is
// listed here with why it is not personal data: a new one fails until reviewed.
func TestSearchAttributesAndIDsCarryNoPersonalData(t *testing.T) {
	reviewed := map[string]string{
		"Brand":             "the brand's slug",
		"OpportunityStatus": "a status",
		"ResaleStatus":      "a status",
		"ResaleCnpj":        "the reseller company's CNPJ, a public registration of a company (docs/security-payloads.md)",
		"ValidUntil":        "a date",
		"ApprovalOverdue":   "a flag",
		"Representatives":   "the responsible representatives' user ids (random UUIDs; no name or e-mail)",
	}
	for name := range workflows.SearchAttributes() {
		if _, ok := reviewed[name]; !ok {
			t.Errorf("search attribute %s is not reviewed for personal data: Temporal stores and indexes it in clear", name)
		}
	}
	id := opportunity.NewID()
	for _, wfID := range []string{workflows.OpportunityWorkflowID(id), workflows.ResaleWorkflowID(id)} {
		if _, rest, _ := strings.Cut(wfID, "/"); rest != id {
			t.Errorf("workflow id %q holds more than the record's random id", wfID)
		}
	}
	// E-mails' workflows are keyed by a hash of the address (MailDispatcher).
	if mid := workflows.MailWorkflowID("password-reset/0123abcd"); strings.Contains(mid, "@") {
		t.Errorf("mail workflow id %q", mid)
	}
}
