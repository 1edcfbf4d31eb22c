package activities

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"go.temporal.io/sdk/temporal"

	"oportuna/cnpj"
	"oportuna/crm"
	"oportuna/internal/calendar"
	"oportuna/opportunity"
)

// DuplicateValueBackoff is the wait before the attempt after a
// DUPLICATE_VALUE on our external id, instead of the retry policy's first
// 0.5–1 s: the overlapping write (an attempt that timed out here) is still
// running inside Salesforce, and an attempt at once would meet it again.
const DuplicateValueBackoff = 2 * time.Second

// CRMSyncInput is SyncCRM's input: the opportunity, the name and probability
// being decided, and the status the CRM must show. It embeds CRMInput, so the
// inputs recorded before Status existed still decode.
type CRMSyncInput struct {
	CRMInput
	// Status is the status the CRM record shows (its stage comes from the
	// stage map). Empty, as in an approval recorded before it existed: the
	// read model's status, an opportunity in analysis being sent as approved.
	Status opportunity.Status `json:"status,omitempty"`
	// Reopen: a renewal approval, which may reopen the CRM record the portal
	// closed at the expiry (crm.Opportunity.Reopen).
	Reopen bool `json:"reopen,omitempty"`
	// Background: nobody waits for this sync (an expiry, a renewal refusal;
	// the CRM queue's background writes). It leaves the CRM alone while the
	// org's API usage is near its limit (crm.Pacer), so the approvals people
	// wait for keep the rest of the org's daily requests.
	Background bool `json:"background,omitempty"`
}

// SyncCRM upserts the opportunity in the CRM, built from the read model with
// the name, probability and status being decided, and returns its CRM id. The
// CRM's refusals become typed, non-retryable errors; its outages, timeouts and
// rate limits retryable ones (CRMUnavailable), left to the workflow's retry
// policy, except for the waits retryLater sets. A background sync first asks
// the CRM whether to pause (CRMPaused, retried after the pause).
func (a *Activities) SyncCRM(ctx context.Context, in CRMSyncInput) (string, error) {
	defer heartbeat(ctx)()
	if in.Background {
		if wait, why := backgroundWait(a.CRM); wait > 0 {
			return "", temporal.NewApplicationErrorWithOptions("crm: background sync paused: "+why, crm.ErrTypePaused,
				temporal.ApplicationErrorOptions{NextRetryDelay: wait})
		}
	}
	rec, err := a.Load(ctx, in.OpportunityID)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", temporal.NewNonRetryableApplicationError("opportunity not found: "+in.OpportunityID, "NotFound", nil)
	}
	if err != nil {
		return "", err
	}
	id, err := a.CRM.UpsertOpportunity(ctx, CRMOpportunity(rec, in, time.Now(), a.Durations.Validity))
	switch {
	case err == nil:
		return id, nil
	case errors.Is(err, crm.ErrCustomerNotFound):
		return "", temporal.NewNonRetryableApplicationError(err.Error(), crm.ErrTypeCustomerNotFound, err)
	case errors.Is(err, crm.ErrMultipleMatches):
		return "", temporal.NewNonRetryableApplicationError(err.Error(), crm.ErrTypeMultipleMatches, err)
	case errors.Is(err, crm.ErrLocked):
		return "", temporal.NewNonRetryableApplicationError(err.Error(), crm.ErrTypeLocked, err)
	case errors.Is(err, crm.ErrUnavailable):
		return "", retryLater(a.CRM, in.Background, err)
	default:
		// A refusal no retry can fix (configuration, validation rule, missing
		// product): the caller hears of a communication error at once.
		slog.ErrorContext(ctx, "crm refused the opportunity", "opportunity", in.OpportunityID, "err", err)
		return "", temporal.NewNonRetryableApplicationError(err.Error(), crm.ErrTypeUnavailable, err)
	}
}

// backgroundWait is how long a background sync should leave the CRM alone,
// and why (zero for a CRM that does not pace).
func backgroundWait(c crm.Client) (time.Duration, string) {
	if p, ok := c.(crm.Pacer); ok {
		return p.BackgroundWait()
	}
	return 0, ""
}

// retryLater is the retryable CRMUnavailable error of a CRM failure, with the
// wait before the next attempt where the retry policy's would be wrong: after
// a DUPLICATE_VALUE on our external id, DuplicateValueBackoff; for a
// background sync whose call found the org near or past its limit (the
// answer's Sforce-Limit-Info, or REQUEST_LIMIT_EXCEEDED), the pause.
func retryLater(c crm.Client, background bool, err error) error {
	var delay time.Duration
	var apiErr *crm.APIError
	if errors.As(err, &apiErr) && apiErr.Code == crm.CodeDuplicateValue {
		delay = DuplicateValueBackoff
	}
	if background {
		if wait, why := backgroundWait(c); wait > delay {
			return temporal.NewApplicationErrorWithOptions("crm: background sync paused: "+why+": "+err.Error(), crm.ErrTypePaused,
				temporal.ApplicationErrorOptions{NextRetryDelay: wait, Cause: err})
		}
	}
	return temporal.NewApplicationErrorWithOptions(err.Error(), crm.ErrTypeUnavailable, temporal.ApplicationErrorOptions{NextRetryDelay: delay, Cause: err})
}

// CRMOpportunity is what the CRM receives of a registration, with the status
// the workflow is deciding (in.Status). Without one, the read model's status,
// an opportunity in analysis being sent as approved (SyncCRM runs while a
// representative approves). The expected close of an open opportunity is the
// project's conclusion date, else the end of the validity that starts now; an
// expired or disapproved one closes today.
func CRMOpportunity(r opportunity.Record, in CRMSyncInput, now time.Time, validity time.Duration) crm.Opportunity {
	status := in.Status
	if status == "" {
		status = r.Status
	}
	if status == opportunity.Analysis || status == "" {
		status = opportunity.Approved
	}
	closed := status == opportunity.Expired || status == opportunity.Disapproved
	name := strings.TrimSpace(in.Name)
	if name == "" {
		name = r.Name
	}
	prob := in.Probability
	if prob == 0 {
		prob = r.ProbabilityClosing
	}
	brandSlug := r.Brand
	if brandSlug == "" {
		brandSlug = in.Brand
	}
	if validity <= 0 {
		validity = 2160 * time.Hour
	}
	// A close date is a day of Brasília's calendar (midnight UTC, as ParseDate's).
	closeDate := calendar.Date(now.Add(validity))
	var project opportunity.Project
	if len(r.Projects) > 0 {
		project = r.Projects[0]
		if d, ok := opportunity.ParseDate(project.ConclusionDate); ok {
			closeDate = d
		}
	}
	if closed {
		closeDate = calendar.Date(now)
	}
	o := crm.Opportunity{
		ID: r.ID, Brand: brandSlug, Name: name, Status: status, Probability: prob,
		CustomerDoc: cnpj.Normalize(r.CNPJ), CustomerName: r.CorporateName, Amount: opportunity.Estimated(r.Products),
		CloseDate: closeDate, SellerCRMID: strings.TrimSpace(r.SellerSalesforceID), SellerName: r.Seller, Reseller: r.Resale,
		Reopen: in.Reopen && status == opportunity.Approved,
	}
	var competitors []string
	for _, p := range r.Products {
		if p.Competition {
			competitors = append(competitors, strings.TrimSpace(fmt.Sprintf("%s %s (%d × %s)", p.PartNumber, p.Description, p.Amount, p.Price.BRL())))
			continue
		}
		o.Lines = append(o.Lines, crm.LineItem{PartNumber: p.PartNumber, Description: p.Description, Quantity: p.Amount,
			UnitPrice: p.Price, Accessory: p.Accessory})
	}
	var b strings.Builder
	line := func(label, v string) {
		if v = strings.TrimSpace(v); v != "" {
			fmt.Fprintf(&b, "%s: %s\n", label, v)
		}
	}
	fmt.Fprintf(&b, "Registro de oportunidade do portal (marca %s), id %s.\n", brandSlug, r.ID)
	line("Revenda", r.Resale)
	line("Vendedor", r.Seller)
	line("Registrado por", strings.TrimSpace(r.UserName+" "+angle(r.UserEmail)))
	customer := r.CorporateName
	if r.FantasyName != "" && r.FantasyName != "N/C" {
		customer += " (" + r.FantasyName + ")"
	}
	line("Cliente", customer+" — CNPJ "+cnpj.Format(r.CNPJ))
	line("Endereço", strings.Trim(strings.Join([]string{r.Street, r.City, r.State, r.CEP}, ", "), ", "))
	line("Contato", strings.Trim(strings.Join([]string{r.Contact, r.Email, r.Phone}, " — "), " —"))
	line("Aplicação", project.Aplication)
	line("Especificação", project.Specification)
	line("Origem", project.OpportunityOrigin)
	line("Justificativa", project.Justification)
	line("Informações adicionais", project.AdditionalInformation)
	line("Concorrentes", strings.Join(competitors, "; "))
	line("Valor estimado", o.Amount.BRL())
	o.Description = strings.TrimSpace(b.String())
	return o
}

func angle(s string) string {
	if s == "" {
		return ""
	}
	return "<" + s + ">"
}
