package crm

// LocalLookupSQL is Local.GetOpportunities' query, for its plan.
const LocalLookupSQL = localLookupSQL
