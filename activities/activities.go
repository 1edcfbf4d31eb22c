// Package activities holds the side effects the workflows run: persisting the
// read model and history in PostgreSQL, syncing the CRM, notifying people.
// Every activity is idempotent: a retry never writes a second row or record.
package activities

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"go.temporal.io/sdk/temporal"

	"oportuna/brand"
	"oportuna/crm"
	"oportuna/opportunity"
	"oportuna/store"
)

// RegisterInput is a validated registration to persist.
type RegisterInput struct {
	ID     string             `json:"id"`
	Brand  string             `json:"brand"`
	Actor  opportunity.Actor  `json:"actor"`
	Record opportunity.Record `json:"record"`
	At     time.Time          `json:"at"`
}

// Registered is the persisted registration with the other open registrations
// of the same customer (the conflict check).
type Registered struct {
	Record    opportunity.Record `json:"record"`
	Conflicts []string           `json:"conflicts"`
	// Facts, when the row was already stored (an earlier run of the same
	// registration wrote it): its state, which the workflow adopts.
	Facts OpportunityFacts `json:"facts,omitempty"`
}

// OpportunityFacts is the stored state of an opportunity a workflow adopts:
// ids, status and dates, no personal data.
type OpportunityFacts struct {
	ID                  string             `json:"id"`
	Status              opportunity.Status `json:"status"`
	Name                string             `json:"name"`
	Probability         int                `json:"probability"`
	Register            string             `json:"register"`
	UserID              string             `json:"userId"`
	ResaleID            string             `json:"resaleId"`
	ResaleCNPJ          string             `json:"resaleCnpj"`
	CreatedAt           time.Time          `json:"createdAt"`
	ValidUntil          *time.Time         `json:"validUntil"`
	RequestRenovationAt *time.Time         `json:"requestRenovationAt"`
	ProjectStillInScope string             `json:"projectStillInScope"`
	LastVisitDate       string             `json:"lastVisitDate"`
	Conflicts           []string           `json:"conflicts"`
	// Cycle and Seq are the highest event key (id/cycle/seq) already recorded.
	Cycle int `json:"cycle"`
	Seq   int `json:"seq"`
}

// ErrTypeKeyUsed is a decision whose Idempotency-Key was already recorded by
// another event: it is not applied (the API answers the key's first outcome).
const ErrTypeKeyUsed = "IdempotencyKeyUsed"

// OperatorName is the history's user of an operator's action in the Temporal UI.
const OperatorName = "Operação (Temporal)"

// CRMInput asks the CRM to hold the opportunity.
type CRMInput struct {
	OpportunityID string `json:"opportunityId"`
	Brand         string `json:"brand"`
	Name          string `json:"name"`
	Probability   int    `json:"probability"`
}

// Notice is a message to people: an in-app notification, and an e-mail.
type Notice struct {
	Key           string `json:"key"`
	Brand         string `json:"brand"`
	OpportunityID string `json:"opportunityId"`
	Kind          string `json:"kind"`
	// ToRepresentatives sends it to the brand's representatives; ToOwner to the registering user.
	ToRepresentatives bool   `json:"toRepresentatives"`
	ToOwner           bool   `json:"toOwner"`
	Detail            string `json:"detail,omitempty"`
}

// Durations of the opportunity lifecycle, configured on the worker.
type Durations struct {
	Validity         time.Duration `json:"validity"`
	RenewalWindow    time.Duration `json:"renewalWindow"`
	ApprovalSLA      time.Duration `json:"approvalSla"`
	ExpiredRetention time.Duration `json:"expiredRetention"`
}

// Activities carries the dependencies of the activities.
type Activities struct {
	DB        *pgxpool.Pool
	Brands    *brand.Registry
	CRM       crm.Client
	Mailer    Mailer
	Durations Durations
}

// LifecycleDurations hands the worker's configured durations to a workflow
// (a local activity, so the value is recorded in the workflow's history).
func (a *Activities) LifecycleDurations(context.Context) (Durations, error) { return a.Durations, nil }

// Register persists a new registration (once per id) with its history row and
// records the other open registrations of the same customer. One round trip:
// the row, its conflicts and its history row are one statement (one
// transaction), and the stored record is read in the same batch.
func (a *Activities) Register(ctx context.Context, in RegisterInput) (Registered, error) {
	r := in.Record
	projects, _ := json.Marshal(r.Projects)
	products, _ := json.Marshal(r.Products)
	h := opportunity.History{Actor: &in.Actor, Changes: creationChanges(r)}.Row()
	var inserted int
	var rec opportunity.Record
	var b store.Batch
	store.Row(&b, func(q *store.Queries) (int, error) {
		return q.RegisterOpportunity(ctx, store.RegisterOpportunityParams{ID: in.ID, Brand: in.Brand, Name: r.Name, Cnpj: r.CNPJ,
			Contact: r.Contact, Phone: r.Phone, Email: r.Email, Network: r.Network, FantasyName: r.FantasyName,
			CorporateName: r.CorporateName, Street: r.Street, State: r.State, City: r.City, Cep: r.CEP, Country: r.Country,
			ProbabilityClosing: r.ProbabilityClosing, Seller: r.Seller, SellerSalesforceID: r.SellerSalesforceID,
			Estimated: opportunity.Estimated(r.Products).String(), AcceptedTerm: r.AcceptedTerm, UserID: in.Actor.UserID,
			ResaleID: store.NilIfEmpty(in.Actor.ResaleID), Projects: projects, Products: products, CreatedAt: in.At,
			EventKey: in.ID + "/create", Username: h.Username, Modifications: h.Modifications,
			CnpjRoot: opportunity.CNPJRoot(r.CNPJ), NameKey: opportunity.NameKey(r.CorporateName)})
	}, func(n int, err error) error {
		inserted = n
		return err
	})
	opportunity.QueueLoad(ctx, &b, in.ID, &rec)
	if err := b.Send(ctx, a.DB); err != nil {
		return Registered{}, fmt.Errorf("register opportunity: %w", err)
	}
	out := Registered{Record: rec, Conflicts: rec.RegisteredConflicts}
	if inserted == 0 {
		// A retry, or a new run of the same registration: already stored.
		var err error
		if out.Facts, err = a.OpportunityFacts(ctx, in.ID); err != nil {
			return Registered{}, err
		}
	}
	return out, nil
}

// OpportunityFacts reads the stored state of an opportunity for a workflow
// that adopts it, with the highest event key its history holds.
func (a *Activities) OpportunityFacts(ctx context.Context, id string) (OpportunityFacts, error) {
	r, err := store.New(a.DB).OpportunityFacts(ctx, id)
	if errors.Is(err, pgx.ErrNoRows) {
		return OpportunityFacts{}, temporal.NewNonRetryableApplicationError("opportunity not found: "+id, "NotFound", nil)
	}
	if err != nil {
		return OpportunityFacts{}, fmt.Errorf("opportunity facts %s: %w", id, err)
	}
	return OpportunityFacts{ID: r.ID, Status: opportunity.Status(r.Status), Name: r.Name, Probability: r.ProbabilityClosing,
		Register: r.Register, UserID: r.UserID, ResaleID: store.Deref(r.ResaleID), ResaleCNPJ: store.Deref(r.ResaleCnpj),
		CreatedAt: r.CreatedAt, ValidUntil: r.ValidUntil, RequestRenovationAt: r.RequestRenovationAt,
		ProjectStillInScope: r.ProjectStillInScope, LastVisitDate: r.LastVisitDate, Conflicts: r.Conflicts,
		Cycle: r.Cycle, Seq: r.Seq}, nil
}

func creationChanges(r opportunity.Record) []opportunity.Change {
	var cs []opportunity.Change
	for _, f := range []struct{ attr, v string }{
		{"name", r.Name}, {"cnpj", r.CNPJ}, {"fantasyName", r.FantasyName}, {"corporateName", r.CorporateName},
		{"contact", r.Contact}, {"email", r.Email}, {"phone", r.Phone}, {"probabilityClosing", fmt.Sprint(r.ProbabilityClosing)},
		{"estimated", opportunity.Estimated(r.Products).String()}, {"status", string(opportunity.Analysis)},
	} {
		if f.v != "" {
			cs = append(cs, opportunity.Change{Attribute: f.attr, NewValue: f.v})
		}
	}
	return cs
}

// Applied is what Apply recorded when the event's key was recorded already
// (a retry): the approval time and validity the read model holds, for an
// event that sets them. A decision re-run after its workflow task was lost
// (a worker or history service killed before the task completed) computes
// them again from a later clock; the workflow takes these instead, so the
// read model and the workflow keep the first decision's validity.
type Applied struct {
	ApprovedAt *time.Time `json:"approvedAt,omitempty"`
	ValidUntil *time.Time `json:"validUntil,omitempty"`
}

// Apply applies an event to the read model and writes its history row, once
// per key: one statement (one round trip, one transaction) reads whether the
// key was recorded, and if not updates the row and records it, with the
// outcome of the decision's Idempotency-Key (ev.Idem) when it has one.
func (a *Activities) Apply(ctx context.Context, ev opportunity.Event) (Applied, error) {
	var out Applied
	err := a.apply(ctx, ev, &out)
	return out, err
}

func (a *Activities) apply(ctx context.Context, ev opportunity.Event, out *Applied) error {
	h := opportunity.History{Actor: ev.Actor, Username: ev.System, Changes: ev.Changes}.Row()
	p := store.ApplyEventParams{EventKey: ev.Key, ID: ev.OpportunityID, Brand: ev.Brand, Status: string(ev.Status),
		Name: ev.Name, Probability: ev.Probability, Reason: ev.Reason, ApprovedAt: ev.ApprovedAt, ValidUntil: ev.ValidUntil,
		Register: ev.Register, At: ev.At, Deleted: ev.Deleted,
		UserID: h.UserID, Username: h.Username, Modifications: h.Modifications}
	if r := ev.Renewal; r != nil {
		p.ProjectStillInScope, p.LastVisitDate, p.RequestedAt = &r.ProjectStillInScope, &r.LastVisitDate, &ev.At
		p.ProposalSent, p.ProductHomologated, p.NextStep = &r.ProposalSent, &r.ProductHomologated, &r.NextStep
	}
	if k := ev.Idem; k != nil {
		p.IdemUser, p.IdemKey, p.IdemAction, p.IdemStatus, p.IdemMessage = &k.UserID, &k.Key, &k.Action, &k.Status, &k.Message
	}
	res, err := store.New(a.DB).ApplyEvent(ctx, p)
	switch {
	case err != nil:
		return fmt.Errorf("apply %s: %w", ev.Key, err)
	case res.Recorded != nil:
		// Applied already (a retry): the same event, or a bug that reused a key.
		if err := sameEvent(ev, res.Recorded); err != nil {
			return err
		}
		if ev.ValidUntil != nil {
			rec, err := store.New(a.DB).RecordedValidity(ctx, ev.OpportunityID)
			if err != nil {
				return fmt.Errorf("apply %s: read the recorded validity: %w", ev.Key, err)
			}
			out.ApprovedAt, out.ValidUntil = rec.ApproveDate, rec.ValidUntil
		}
	case res.KeyUsed:
		// The call's Idempotency-Key names a decision already recorded (its
		// repetition reached a later run): nothing is applied.
		return temporal.NewNonRetryableApplicationError("idempotency key already used: "+ev.Key, ErrTypeKeyUsed, nil)
	case res.Updated == 0:
		return temporal.NewNonRetryableApplicationError("opportunity not found: "+ev.OpportunityID, "NotFound", nil)
	}
	if decides(ev) { // its notices are read for everyone (notices_read.go)
		return readNoticesOf(ctx, store.New(a.DB), opportunityNoticePrefix(ev.OpportunityID), ev.At)
	}
	return nil
}

// RecordKey records the outcome of a decision that changed nothing (an edit to
// the values the opportunity already has) under its Idempotency-Key (ev.Idem),
// so that its repetition after another change does not act then.
func (a *Activities) RecordKey(ctx context.Context, ev opportunity.Event) error {
	k := ev.Idem
	if k == nil {
		return nil
	}
	return store.New(a.DB).RecordIdempotencyKey(ctx, store.RecordIdempotencyKeyParams{UserID: k.UserID, Key: k.Key,
		OpportunityID: ev.OpportunityID, Action: k.Action, Status: k.Status, Message: k.Message, CreatedAt: ev.At})
}

// ErrTypeEventKeyReused is an event whose key was recorded with other changes:
// a key must name one event forever, so this is a bug to look at, not to retry.
const ErrTypeEventKeyReused = "EventKeyReused"

// sameEvent checks that an event key already recorded holds ev's changes.
func sameEvent(ev opportunity.Event, recorded []byte) error {
	var have []opportunity.Change
	if err := json.Unmarshal(recorded, &have); err != nil {
		return err
	}
	want := ev.Changes
	if len(have) == len(want) {
		same := true
		for i := range have {
			same = same && have[i] == want[i]
		}
		if same {
			return nil
		}
	}
	slog.Error("ALERT event key reused with other changes", "key", ev.Key, "opportunity", ev.OpportunityID,
		"recorded", string(recorded), "event", fmt.Sprint(want))
	return temporal.NewNonRetryableApplicationError(fmt.Sprintf("event %s was recorded with other changes", ev.Key),
		ErrTypeEventKeyReused, nil)
}

// Load reads an opportunity with its owner's name and e-mail and its reseller's name.
func (a *Activities) Load(ctx context.Context, id string) (opportunity.Record, error) {
	return opportunity.Load(ctx, store.New(a.DB), id)
}
