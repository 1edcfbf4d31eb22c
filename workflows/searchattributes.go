// Package workflows holds the project's durable Temporal workflows.
package workflows

import (
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
)

// TaskQueue is the one task queue the portal's worker polls.
const TaskQueue = "oportuna"

// Search attributes let operators filter workflows in the Temporal UI. They hold
// no personal data (names, e-mails, phones): only ids, brand and state.
var (
	AttrBrand             = temporal.NewSearchAttributeKeyKeyword("Brand")
	AttrOpportunityStatus = temporal.NewSearchAttributeKeyKeyword("OpportunityStatus")
	AttrResaleStatus      = temporal.NewSearchAttributeKeyKeyword("ResaleStatus")
	AttrResaleCnpj        = temporal.NewSearchAttributeKeyKeyword("ResaleCnpj")
	AttrValidUntil        = temporal.NewSearchAttributeKeyTime("ValidUntil")
	AttrApprovalOverdue   = temporal.NewSearchAttributeKeyBool("ApprovalOverdue")
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
	}
}
