package workflows

import (
	"fmt"
	"strings"
	"time"

	"go.temporal.io/sdk/temporal"

	"oportuna/activities"
	"oportuna/auth"
	"oportuna/crm"
	"oportuna/opportunity"
	"oportuna/resale"
)

// Names of the workflows' handlers. The onboarding workflow (Resale) answers
// UpdateRegister, UpdateApprove, UpdateDisapprove and QueryState too.
const (
	UpdateRegister       = "register"
	UpdateApprove        = "approve"
	UpdateDisapprove     = "disapprove"
	UpdateEdit           = "edit"
	UpdateRequestRenewal = "request-renewal"
	UpdateDecideRenewal  = "decide-renewal"
	// UpdateRepair brings an opportunity's read model, and on request its CRM
	// record, back to the workflow's state: the workflow is the truth. Only the
	// reconciler sends it (docs/operations.md, "Reconciliation").
	UpdateRepair = "repair"
	QueryState   = "state"
)

// Durations of the lifecycle: OPPORTUNITY_VALIDITY (2160h), OPPORTUNITY_RENEWAL_WINDOW
// (360h), APPROVAL_SLA (48h), OPPORTUNITY_EXPIRED_RETENTION (4320h), read by the worker.
type Durations = activities.Durations

// DefaultDurations are the spec's: 90 days of validity, renewal opens 15 days before.
var DefaultDurations = Durations{Validity: 2160 * time.Hour, RenewalWindow: 360 * time.Hour, ApprovalSLA: 48 * time.Hour, ExpiredRetention: 4320 * time.Hour}

// OpportunityInput starts the workflow. Durations are left empty by the starter:
// the workflow asks the worker's configuration once (a local activity) and
// carries them, with its state, when a cycle continues as new.
type OpportunityInput struct {
	ID        string            `json:"id"`
	Brand     string            `json:"brand"`
	Durations Durations         `json:"durations"`
	Carry     *OpportunityState `json:"carry,omitempty"`
	// Adopt starts a run for an opportunity already stored whose workflow is
	// gone (the reconciliation restarts it): the state is read from the database.
	Adopt bool `json:"adopt,omitempty"`
}

// OpportunityState is what the workflow knows; the state query returns it.
type OpportunityState struct {
	ID            string             `json:"id"`
	Brand         string             `json:"brand"`
	Status        opportunity.Status `json:"status"`
	Name          string             `json:"name"`
	Probability   int                `json:"probability"`
	OwnerUserID   string             `json:"ownerUserId"`
	OwnerResaleID string             `json:"ownerResaleId"`
	ResaleCNPJ    string             `json:"resaleCnpj"`
	Register      string             `json:"register"`
	CreatedAt     time.Time          `json:"createdAt"`
	ValidUntil    time.Time          `json:"validUntil"`
	Reminders     int                `json:"reminders"`
	Cycle         int                `json:"cycle"`
	// Seq numbers the run's events (their keys are id/cycle/seq); it is carried
	// across continue-as-new and never starts again, so no key is ever reused.
	Seq       int      `json:"seq"`
	Conflicts []string `json:"conflicts"`
	// RenewalRequestedAt starts the representatives' SLA of a renewal request.
	RenewalRequestedAt time.Time `json:"renewalRequestedAt,omitempty"`
	// Deleted: an operator cancelled the workflow (the read model's isDeleted).
	Deleted bool `json:"deleted,omitempty"`
	// The last renewal request's answers that its history logs old and new.
	ProjectStillInScope string `json:"projectStillInScope,omitempty"`
	LastVisitDate       string `json:"lastVisitDate,omitempty"`
}

// Decided answers a decision: the workflow's state, and the event the
// decision recorded in the read model (none when it changed nothing). The API
// answers with the record it read before the decision, with this event
// applied (opportunity.Record.Applied): a decision reads its row once.
type Decided struct {
	OpportunityState
	Event *opportunity.Event `json:"event,omitempty"`
}

// RegisterRequest is the registration sent with Update-with-Start.
type RegisterRequest struct {
	Actor      opportunity.Actor  `json:"actor"`
	ResaleCNPJ string             `json:"resaleCnpj"`
	Record     opportunity.Record `json:"record"`
}

// The decisions below carry the caller's Deadline (zero: nobody waits; the
// API waits DecisionWait) and, for a call with an Idempotency-Key, Idem: the
// outcome to record under the key.

// ApproveRequest approves an opportunity in analysis.
type ApproveRequest struct {
	Actor       opportunity.Actor           `json:"actor"`
	Name        string                      `json:"name"`
	Probability int                         `json:"probability"`
	Deadline    time.Time                   `json:"deadline,omitempty"`
	Idem        *opportunity.IdempotencyKey `json:"idem,omitempty"`
	// OverrideReason approves despite earlier registrations of the same
	// customer (conflicts.go); empty: such a conflict refuses the approval.
	OverrideReason string `json:"overrideReason,omitempty"`
}

// DisapproveRequest refuses an opportunity in analysis.
type DisapproveRequest struct {
	Actor    opportunity.Actor           `json:"actor"`
	Reason   string                      `json:"reason"`
	Deadline time.Time                   `json:"deadline,omitempty"`
	Idem     *opportunity.IdempotencyKey `json:"idem,omitempty"`
}

// EditRequest changes the name and/or the probability.
type EditRequest struct {
	Actor       opportunity.Actor           `json:"actor"`
	Name        *string                     `json:"name,omitempty"`
	Probability *int                        `json:"probability,omitempty"`
	Deadline    time.Time                   `json:"deadline,omitempty"`
	Idem        *opportunity.IdempotencyKey `json:"idem,omitempty"`
}

// RenewalRequest asks for a new validity period.
type RenewalRequest struct {
	Actor    opportunity.Actor           `json:"actor"`
	Renewal  opportunity.RenewalRequest  `json:"renewal"`
	Deadline time.Time                   `json:"deadline,omitempty"`
	Idem     *opportunity.IdempotencyKey `json:"idem,omitempty"`
}

// RenewalDecision approves or refuses a renewal request.
type RenewalDecision struct {
	Actor    opportunity.Actor           `json:"actor"`
	Approve  bool                        `json:"approve"`
	Reason   string                      `json:"reason"`
	Deadline time.Time                   `json:"deadline,omitempty"`
	Idem     *opportunity.IdempotencyKey `json:"idem,omitempty"`
}

// --- the onboarding of a company (Resale) ---

// ResaleInput starts the onboarding. The API starts it with the sign-up
// (Update-with-Start of UpdateRegister). Adopt starts it for a company already
// stored whose workflow is gone (a decision on it restarts one): the state is
// read from the database instead. Carry continues a long analysis as new.
type ResaleInput struct {
	ID    string       `json:"id"`
	Brand string       `json:"brand"`
	Adopt bool         `json:"adopt,omitempty"`
	Carry *ResaleState `json:"carry,omitempty"`
}

// ResaleState is what the workflow knows of a company; the state query returns it.
type ResaleState struct {
	ID        string    `json:"id"`
	Brand     string    `json:"brand"`
	Status    string    `json:"status"`
	CNPJ      string    `json:"cnpj"`
	CreatedAt time.Time `json:"createdAt"`
	Reminders int       `json:"reminders"`
	UserID    string    `json:"userId,omitempty"` // the RESALE user created on approval
}

// ResaleRegisterRequest is the sign-up sent with Update-with-Start.
type ResaleRegisterRequest struct {
	Registration resale.Registration `json:"registration"`
}

// ResaleApproval approves a company in analysis. Portal is the base URL of the
// set-password link e-mailed to the company (empty: the mailer's PORTAL_URL);
// InviteTTL how long the link lasts (zero: auth.DefaultInviteTTL).
type ResaleApproval struct {
	Actor     opportunity.Actor `json:"actor"`
	Brand     string            `json:"brand"`
	Portal    string            `json:"portal,omitempty"`
	InviteTTL time.Duration     `json:"inviteTtl,omitempty"`
}

// ResaleDisapproval refuses a company in analysis, with the reason e-mailed to it.
type ResaleDisapproval struct {
	Actor  opportunity.Actor `json:"actor"`
	Brand  string            `json:"brand"`
	Reason string            `json:"reason"`
}

// MsgResaleReason is the answer to a refusal without a reason; MsgResaleReasonLong
// to one over MaxResaleReason characters (the dialog's cap).
const (
	MsgResaleReason     = "Informe o motivo da reprovação."
	MsgResaleReasonLong = "O motivo da reprovação deve ter no máximo 2000 caracteres."
	MaxResaleReason     = 2000
)

// ResaleTransitionMessage is the answer to a decision on a company that is not in analysis.
func ResaleTransitionMessage(status string) string {
	return "Ação não permitida: a revenda está " + resale.StatusLabel(status) + "."
}

func resaleTransitionError(status string) error {
	return refusal(ResaleTransitionMessage(status), ErrTypeTransition)
}

// Error types the API maps to HTTP statuses.
const (
	ErrTypeInvalid    = "Invalid"           // 400
	ErrTypeForbidden  = "Forbidden"         // 403
	ErrTypeTransition = "InvalidTransition" // 409
	ErrTypeLate       = "DecisionTooLate"   // 504: the caller stopped waiting before the decision's turn came
	ErrTypeCanceled   = "Canceled"          // 409: an operator cancelled the workflow
)

// Messages of the workflow's validators (pt-BR, shown to users).
const (
	MsgNameRequired      = "Por favor, digite um nome para a oportunidade!!"
	MsgReasonRequired    = "Informe o motivo."
	MsgProbability       = "Probabilidade de fechamento inválida."
	MsgNotAllowed        = "Você não tem permissão para esta ação."
	MsgAlreadyRegistered = "Oportunidade já registrada."
	MsgNothingToChange   = "Nada a alterar."
	// MsgTooLate answers a decision that reached the workflow after its caller
	// stopped waiting (the API answered 504): it is not carried out.
	MsgTooLate = "O sistema demorou a responder e a ação não foi realizada. Tente novamente."
)

// refusal is a validator's or handler's answer: an application error the
// client sees with its type, never retried.
func refusal(msg, errType string) error {
	return temporal.NewApplicationErrorWithOptions(msg, errType, temporal.ApplicationErrorOptions{NonRetryable: true})
}

func invalid(msg string) error { return refusal(msg, ErrTypeInvalid) }

func forbidden() error { return refusal(MsgNotAllowed, ErrTypeForbidden) }

func tooLate() error { return refusal(MsgTooLate, ErrTypeLate) }

func transitionError(st opportunity.Status) error {
	return refusal(fmt.Sprintf("Ação não permitida: a oportunidade está %s.", strings.ToLower(st.Label())), ErrTypeTransition)
}

// crmUnavailable is the CRM communication error the API answers with 502.
func crmUnavailable(msg string, cause error) error {
	return temporal.NewNonRetryableApplicationError(msg, crm.ErrTypeUnavailable, cause)
}

// has reports whether the actor holds one of the roles.
func has(a opportunity.Actor, roles ...auth.Role) bool {
	c := auth.Claims{Roles: a.Roles}
	return c.Has(roles...)
}
