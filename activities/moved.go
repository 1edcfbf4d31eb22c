package activities

import (
	"oportuna/crm"
	"oportuna/opportunity"
	"oportuna/resale"
)

// Names of types and constants that moved to their domain packages, kept
// until workflows/ names the new ones.
type (
	Actor              = opportunity.Actor
	Change             = opportunity.Change
	Event              = opportunity.Event
	IdempotencyKey     = opportunity.IdempotencyKey
	ResaleRegistration = resale.Registration
)

const (
	ResaleAnalysis     = resale.Analysis
	ResaleApproved     = resale.Approved
	ResaleDisapproved  = resale.Disapproved
	MsgDuplicateResale = resale.MsgDuplicate
	ErrTypeDuplicate   = resale.ErrTypeDuplicate
)

// ResaleStatusLabel is resale.StatusLabel.
func ResaleStatusLabel(s string) string { return resale.StatusLabel(s) }

// ErrTypeResaleState is resale.ErrTypeState.
const ErrTypeResaleState = resale.ErrTypeState

// Error types of SyncCRM, now crm.ErrType*.
const (
	ErrTypeCRMNotFound        = crm.ErrTypeCustomerNotFound
	ErrTypeCRMLocked          = crm.ErrTypeLocked
	ErrTypeCRMUnavailable     = crm.ErrTypeUnavailable
	ErrTypeCRMMultipleMatches = crm.ErrTypeMultipleMatches
	ErrTypeCRMPaused          = crm.ErrTypePaused
)
