package crm

import (
	"context"

	"oportuna/store"
)

// LocalLookupSQL is Local.GetOpportunities' query, for its plan.
var LocalLookupSQL, _ = store.Statement(func(q *store.Queries) error {
	_, err := q.HeldInCRM(context.Background(), nil)
	return err
})

// Overlapping is UpsertOpportunity's reading of a DUPLICATE_VALUE.
var Overlapping = overlapping
