package workflows

import (
	"strings"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"oportuna/opportunity"
	"oportuna/resale"
)

// Search attributes let operators filter workflows in the Temporal UI. They hold
// no personal data (names, e-mails, phones): only ids, brand and state.
var (
	AttrBrand             = temporal.NewSearchAttributeKeyKeyword("Brand")
	AttrOpportunityStatus = temporal.NewSearchAttributeKeyKeyword("OpportunityStatus")
	AttrResaleStatus      = temporal.NewSearchAttributeKeyKeyword("ResaleStatus")
	AttrResaleCnpj        = temporal.NewSearchAttributeKeyKeyword("ResaleCnpj")
	AttrValidUntil        = temporal.NewSearchAttributeKeyTime("ValidUntil")
	AttrApprovalOverdue   = temporal.NewSearchAttributeKeyBool("ApprovalOverdue")
	// AttrRepresentatives: the user ids of an opportunity's responsible representatives.
	AttrRepresentatives = temporal.NewSearchAttributeKeyKeywordList("Representatives")
)

// SearchAttributes is every custom search attribute with its type, registered by
// the worker at start when missing.
func SearchAttributes() map[string]enums.IndexedValueType {
	return map[string]enums.IndexedValueType{
		AttrBrand.GetName():             enums.INDEXED_VALUE_TYPE_KEYWORD,
		AttrOpportunityStatus.GetName(): enums.INDEXED_VALUE_TYPE_KEYWORD,
		AttrResaleStatus.GetName():      enums.INDEXED_VALUE_TYPE_KEYWORD,
		AttrResaleCnpj.GetName():        enums.INDEXED_VALUE_TYPE_KEYWORD,
		AttrValidUntil.GetName():        enums.INDEXED_VALUE_TYPE_DATETIME,
		AttrApprovalOverdue.GetName():   enums.INDEXED_VALUE_TYPE_BOOL,
		AttrRepresentatives.GetName():   enums.INDEXED_VALUE_TYPE_KEYWORD_LIST,
	}
}

// searchAttrs are the values of an opportunity's search attributes.
type searchAttrs struct {
	status     opportunity.Status
	overdue    bool
	cnpj       string
	validUntil time.Time
	reps       string // the responsible representatives' ids, joined
}

// publish updates the search attributes of an opportunity when they changed
// (ApprovalOverdue: a decision it waits for is past its SLA).
func (wf *opportunityImpl) publish(ctx workflow.Context) {
	cur := searchAttrs{status: wf.st.Status, cnpj: wf.st.ResaleCNPJ, validUntil: wf.st.ValidUntil,
		reps:    strings.Join(wf.st.Representatives, ","),
		overdue: (wf.st.Status == opportunity.Analysis || wf.st.Status == opportunity.AwaitingRenovation) && wf.st.Reminders > 0}
	if wf.published != nil && *wf.published == cur {
		return
	}
	updates := []temporal.SearchAttributeUpdate{
		AttrBrand.ValueSet(wf.st.Brand),
		AttrOpportunityStatus.ValueSet(string(cur.status)),
		AttrApprovalOverdue.ValueSet(cur.overdue),
	}
	if cur.cnpj != "" {
		updates = append(updates, AttrResaleCnpj.ValueSet(cur.cnpj))
	}
	if !cur.validUntil.IsZero() {
		updates = append(updates, AttrValidUntil.ValueSet(cur.validUntil))
	}
	if cur.reps != "" {
		updates = append(updates, AttrRepresentatives.ValueSet(wf.st.Representatives))
	}
	if upsert(ctx, updates) {
		wf.published = &cur
	}
}

// publish updates the search attributes of a company's onboarding.
func (wf *resaleImpl) publish(ctx workflow.Context) {
	updates := []temporal.SearchAttributeUpdate{AttrBrand.ValueSet(wf.st.Brand), AttrResaleStatus.ValueSet(wf.st.Status),
		AttrApprovalOverdue.ValueSet(wf.st.Status == resale.Analysis && wf.st.Reminders > 0)}
	if wf.st.CNPJ != "" {
		updates = append(updates, AttrResaleCnpj.ValueSet(wf.st.CNPJ))
	}
	upsert(ctx, updates)
}

// upsert writes search attributes; a failure is logged (they only help operators).
func upsert(ctx workflow.Context, updates []temporal.SearchAttributeUpdate) bool {
	if err := workflow.UpsertTypedSearchAttributes(ctx, updates...); err != nil {
		workflow.GetLogger(ctx).Warn("search attributes not updated", "err", err)
		return false
	}
	return true
}
