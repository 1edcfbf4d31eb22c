package crm

// Types of the Temporal application errors a CRM write travels as, from the
// activity that writes (activities.SyncCRM) through the workflow to the API,
// which answers the spec's messages.
const (
	ErrTypeCustomerNotFound = "CRMCustomerNotFound" // 422 CUSTOMER_NOT_FOUND
	ErrTypeLocked           = "CRMLocked"           // 423
	ErrTypeUnavailable      = "CRMUnavailable"      // 502 CRM_COMMUNICATION_ERROR
	ErrTypeMultipleMatches  = "CRMMultipleMatches"  // several CRM records for one customer or opportunity
	// ErrTypePaused: a background sync left the CRM alone while the org's
	// API usage is near its limit (retried after the pause).
	ErrTypePaused = "CRMPaused"
)
