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
)

// RegisterInput is a validated registration to persist.
type RegisterInput struct {
	ID     string             `json:"id"`
	Brand  string             `json:"brand"`
	Actor  Actor              `json:"actor"`
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
	mods, _, username := historyArgs(&in.Actor, "", creationChanges(r))
	var inserted int
	var rec opportunity.Record
	b := &pgx.Batch{}
	b.Queue(`WITH ins AS (
			INSERT INTO opportunities (id, brand, status, name, cnpj, contact, phone, email, network,
				fantasy_name, corporate_name, street, state, city, cep, country, probability_closing, seller,
				seller_salesforce_id, estimated, accepted_term, user_id, resale_id, projects, products, created_at, updated_at, conflicts)
			VALUES ($1, $2, 'analysis', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18,
				$19::numeric, $20, $21, NULLIF($22, '')::uuid, $23, $24, $25, $25,
				ARRAY(SELECT id FROM opportunities WHERE brand = $2 AND cnpj = $4 AND id <> $1
					AND status IN ('analysis', 'approved', 'renovation', 'awaiting_renovation') ORDER BY created_at))
			ON CONFLICT (id) DO NOTHING
			RETURNING id),
		hist AS (
			INSERT INTO history (event_key, type, type_id, brand, user_id, username, action_type, modifications, created_at)
			SELECT $26, 'opportunity', id, $2, $21, $27, 'create', $28, $25 FROM ins
			ON CONFLICT (event_key) DO NOTHING)
		SELECT count(*) FROM ins`,
		in.ID, in.Brand, r.Name, r.CNPJ, r.Contact, r.Phone, r.Email, r.Network, r.FantasyName, r.CorporateName,
		r.Street, r.State, r.City, r.CEP, r.Country, r.ProbabilityClosing, r.Seller, r.SellerSalesforceID,
		opportunity.Estimated(r.Products).String(), r.AcceptedTerm, in.Actor.UserID, in.Actor.ResaleID,
		projects, products, in.At, in.ID+"/create", username, mods).QueryRow(func(row pgx.Row) error { return row.Scan(&inserted) })
	QueueLoad(b, in.ID, &rec)
	if err := a.DB.SendBatch(ctx, b).Close(); err != nil {
		return Registered{}, fmt.Errorf("register opportunity: %w", err)
	}
	out := Registered{Record: rec, Conflicts: rec.Conflicts}
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
	var f OpportunityFacts
	var resaleID, resaleCNPJ *string
	err := a.DB.QueryRow(ctx, `SELECT o.id::text, o.status, o.name, o.probability_closing, o.register, o.user_id::text,
			o.resale_id::text, s.cnpj, o.created_at, o.valid_until, o.request_renovation_at,
			o.project_still_in_scope, o.last_visit_date, o.conflicts::text[],
			COALESCE(k.cycle, 0), COALESCE(k.seq, 1)
		FROM opportunities o LEFT JOIN resales s ON s.id = o.resale_id
		LEFT JOIN LATERAL (
			SELECT split_part(h.event_key, '/', 2)::int AS cycle, split_part(h.event_key, '/', 3)::int AS seq
			FROM history h WHERE h.type = 'opportunity' AND h.type_id = o.id AND h.event_key ~ ('^' || o.id::text || '/[0-9]+/[0-9]+$')
			ORDER BY 1 DESC, 2 DESC LIMIT 1) k ON true
		WHERE o.id = $1`, id).Scan(&f.ID, &f.Status, &f.Name, &f.Probability, &f.Register, &f.UserID, &resaleID, &resaleCNPJ,
		&f.CreatedAt, &f.ValidUntil, &f.RequestRenovationAt, &f.ProjectStillInScope, &f.LastVisitDate, &f.Conflicts, &f.Cycle, &f.Seq)
	if errors.Is(err, pgx.ErrNoRows) {
		return f, temporal.NewNonRetryableApplicationError("opportunity not found: "+id, "NotFound", nil)
	}
	if err != nil {
		return f, fmt.Errorf("opportunity facts %s: %w", id, err)
	}
	if resaleID != nil {
		f.ResaleID = *resaleID
	}
	if resaleCNPJ != nil {
		f.ResaleCNPJ = *resaleCNPJ
	}
	return f, nil
}

func creationChanges(r opportunity.Record) []Change {
	var cs []Change
	for _, f := range []struct{ attr, v string }{
		{"name", r.Name}, {"cnpj", r.CNPJ}, {"fantasyName", r.FantasyName}, {"corporateName", r.CorporateName},
		{"contact", r.Contact}, {"email", r.Email}, {"phone", r.Phone}, {"probabilityClosing", fmt.Sprint(r.ProbabilityClosing)},
		{"estimated", opportunity.Estimated(r.Products).String()}, {"status", string(opportunity.Analysis)},
	} {
		if f.v != "" {
			cs = append(cs, Change{Attribute: f.attr, NewValue: f.v})
		}
	}
	return cs
}

func insertHistory(ctx context.Context, tx pgx.Tx, key, id, brandSlug string, actor *Actor, action string, changes []Change, at time.Time) error {
	return insertHistoryAs(ctx, tx, key, id, brandSlug, actor, "", action, changes, at)
}

// historyArgs are a history row's modifications, user id and user name: the
// actor's, or system's when there is none (empty: "Sistema").
func historyArgs(actor *Actor, system string, changes []Change) ([]byte, *string, *string) {
	if changes == nil {
		changes = []Change{}
	}
	mods, _ := json.Marshal(changes)
	if actor != nil {
		return mods, &actor.UserID, &actor.Name
	}
	if system == "" {
		system = "Sistema"
	}
	return mods, nil, &system
}

// insertHistoryAs is insertHistory naming who acted when there is no actor
// (system; empty: "Sistema").
func insertHistoryAs(ctx context.Context, tx pgx.Tx, key, id, brandSlug string, actor *Actor, system, action string, changes []Change, at time.Time) error {
	mods, userID, username := historyArgs(actor, system, changes)
	_, err := tx.Exec(ctx, `INSERT INTO history (event_key, type, type_id, brand, user_id, username, action_type, modifications, created_at)
		VALUES ($1, 'opportunity', $2, $3, $4::uuid, $5, $6, $7, $8) ON CONFLICT (event_key) DO NOTHING`,
		key, id, brandSlug, userID, username, action, mods, at)
	return err
}

// Apply applies an event to the read model and writes its history row, once
// per key: one statement (one round trip, one transaction) reads whether the
// key was recorded, and if not updates the row and records it, with the
// outcome of the decision's Idempotency-Key (ev.Idem) when it has one.
func (a *Activities) Apply(ctx context.Context, ev Event) error {
	var scope, visit, proposal, homologated, next *string
	var requestedAt *time.Time
	if r := ev.Renewal; r != nil {
		scope, visit, requestedAt = &r.ProjectStillInScope, &r.LastVisitDate, &ev.At
		proposal, homologated, next = &r.ProposalSent, &r.ProductHomologated, &r.NextStep
	}
	mods, userID, username := historyArgs(ev.Actor, ev.System, ev.Changes)
	var recorded []byte
	var updated int
	var idemUser, idemKey, idemAction, idemMessage *string
	var idemStatus *int
	if k := ev.Idem; k != nil {
		idemUser, idemKey, idemAction, idemStatus, idemMessage = &k.UserID, &k.Key, &k.Action, &k.Status, &k.Message
	}
	var used bool
	err := a.DB.QueryRow(ctx, `WITH prior AS (SELECT modifications FROM history WHERE event_key = $17),
		used AS (SELECT 1 FROM idempotency_keys WHERE user_id = $22::uuid AND key = $23),
		upd AS (
			UPDATE opportunities SET status = $2,
				name = COALESCE($3, name), probability_closing = COALESCE($4, probability_closing),
				reason = COALESCE($5, reason), approve_date = COALESCE($6, approve_date),
				valid_until = COALESCE($7, valid_until), register = COALESCE($8, register),
				project_still_in_scope = COALESCE($9, project_still_in_scope), last_visit_date = COALESCE($10, last_visit_date),
				request_renovation_at = COALESCE($11, request_renovation_at),
				renovation_date = CASE WHEN $2 = 'renovation' THEN $12 ELSE renovation_date END,
				is_deleted = COALESCE($13, is_deleted),
				proposal_sent = COALESCE($14, proposal_sent), product_homologated = COALESCE($15, product_homologated),
				next_step = COALESCE($16, next_step),
				updated_at = $12
			WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM prior) AND NOT EXISTS (SELECT 1 FROM used)
			RETURNING id),
		hist AS (
			INSERT INTO history (event_key, type, type_id, brand, user_id, username, action_type, modifications, created_at)
			SELECT $17, 'opportunity', id, $18, $19::uuid, $20, 'update', $21, $12 FROM upd
			ON CONFLICT (event_key) DO NOTHING),
		idem AS (
			-- No ON CONFLICT: a key taken meanwhile by a concurrent statement
			-- fails this one whole (retried, it then finds the key used).
			INSERT INTO idempotency_keys (user_id, key, opportunity_id, action, status, message, created_at)
			SELECT $22::uuid, $23, id, $24, $25, $26, $12 FROM upd WHERE $23::text IS NOT NULL)
		SELECT (SELECT modifications FROM prior), (SELECT count(*) FROM upd), EXISTS (SELECT 1 FROM used)`,
		ev.OpportunityID, ev.Status, ev.Name, ev.Probability, ev.Reason, ev.ApprovedAt,
		ev.ValidUntil, ev.Register, scope, visit, requestedAt, ev.At, ev.Deleted, proposal, homologated, next,
		ev.Key, ev.Brand, userID, username, mods, idemUser, idemKey, idemAction, idemStatus, idemMessage).Scan(&recorded, &updated, &used)
	switch {
	case err != nil:
		return fmt.Errorf("apply %s: %w", ev.Key, err)
	case recorded != nil:
		// Applied already (a retry): the same event, or a bug that reused a key.
		return sameEvent(ev, recorded)
	case used:
		// The call's Idempotency-Key names a decision already recorded (its
		// repetition reached a later run): nothing is applied.
		return temporal.NewNonRetryableApplicationError("idempotency key already used: "+ev.Key, ErrTypeKeyUsed, nil)
	case updated == 0:
		return temporal.NewNonRetryableApplicationError("opportunity not found: "+ev.OpportunityID, "NotFound", nil)
	}
	return nil
}

// RecordKey records the outcome of a decision that changed nothing (an edit to
// the values the opportunity already has) under its Idempotency-Key (ev.Idem),
// so that its repetition after another change does not act then.
func (a *Activities) RecordKey(ctx context.Context, ev Event) error {
	k := ev.Idem
	if k == nil {
		return nil
	}
	_, err := a.DB.Exec(ctx, `INSERT INTO idempotency_keys (user_id, key, opportunity_id, action, status, message, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (user_id, key) DO NOTHING`,
		k.UserID, k.Key, ev.OpportunityID, k.Action, k.Status, k.Message, ev.At)
	return err
}

// ErrTypeEventKeyReused is an event whose key was recorded with other changes:
// a key must name one event forever, so this is a bug to look at, not to retry.
const ErrTypeEventKeyReused = "EventKeyReused"

// sameEvent checks that an event key already recorded holds ev's changes.
func sameEvent(ev Event, recorded []byte) error {
	var have []Change
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

// loadSQL reads an opportunity with its owner's name and e-mail and its reseller's name.
const loadSQL = `SELECT o.id::text, o.brand, o.status, o.name, o.cnpj, o.contact, o.phone, o.email, o.network,
			o.fantasy_name, o.corporate_name, o.street, o.state, o.city, o.cep, o.country, o.probability_closing, o.seller,
			o.seller_salesforce_id, o.estimated::text, o.register, o.reason, o.accepted_term, o.approve_date, o.valid_until,
			o.renovation_date, o.request_renovation_at, o.last_visit_date, o.project_still_in_scope,
			o.proposal_sent, o.product_homologated, o.next_step, o.user_id::text,
			u.name, u.email, o.resale_id::text, s.corporate_name, o.conflicts::text[], o.is_deleted, o.created_at, o.projects, o.products
		FROM opportunities o JOIN users u ON u.id = o.user_id LEFT JOIN resales s ON s.id = o.resale_id
		WHERE o.id = $1`

// Load reads an opportunity with its owner's name and e-mail and its reseller's name.
func (a *Activities) Load(ctx context.Context, id string) (opportunity.Record, error) {
	var r opportunity.Record
	if err := scanRecord(a.DB.QueryRow(ctx, loadSQL, id), &r); err != nil {
		return r, fmt.Errorf("load opportunity %s: %w", id, err)
	}
	return r, nil
}

// QueueLoad queues Load's read of opportunity id into r on a batch (one round
// trip with the batch's other statements); the batch's Close answers its error.
func QueueLoad(b *pgx.Batch, id string, r *opportunity.Record) {
	b.Queue(loadSQL, id).QueryRow(func(row pgx.Row) error {
		if err := scanRecord(row, r); err != nil {
			return fmt.Errorf("load opportunity %s: %w", id, err)
		}
		return nil
	})
}

func scanRecord(row pgx.Row, r *opportunity.Record) error {
	var estimated string
	var projects, products []byte
	var resaleID, resale *string
	err := row.Scan(&r.ID, &r.Brand, &r.Status, &r.Name, &r.CNPJ, &r.Contact, &r.Phone, &r.Email, &r.Network,
		&r.FantasyName, &r.CorporateName, &r.Street, &r.State, &r.City, &r.CEP, &r.Country, &r.ProbabilityClosing, &r.Seller,
		&r.SellerSalesforceID, &estimated, &r.Register, &r.Reason, &r.AcceptedTerm, &r.ApproveDate, &r.ValidUntil,
		&r.RenovationDate, &r.RequestRenovationAt, &r.LastVisitDate, &r.ProjectStillInScope,
		&r.ProposalSent, &r.ProductHomologated, &r.NextStep, &r.UserID,
		&r.UserName, &r.UserEmail, &resaleID, &resale, &r.Conflicts, &r.IsDeleted, &r.CreatedAt, &projects, &products)
	if err != nil {
		return err
	}
	if resaleID != nil {
		r.ResaleID = *resaleID
	}
	if resale != nil {
		r.Resale = *resale
	}
	if r.Estimated, err = opportunity.ParseMoney(estimated); err != nil {
		return err
	}
	if err := json.Unmarshal(projects, &r.Projects); err != nil {
		return err
	}
	return json.Unmarshal(products, &r.Products)
}
