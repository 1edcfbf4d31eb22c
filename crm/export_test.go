package crm

// LocalLookupSQL is Local.GetOpportunities' query, for its plan.
const LocalLookupSQL = localLookupSQL

// Overlapping is UpsertOpportunity's reading of a DUPLICATE_VALUE.
var Overlapping = overlapping
