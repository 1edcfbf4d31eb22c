package crm

// Overlapping is UpsertOpportunity's reading of a DUPLICATE_VALUE.
var Overlapping = overlapping
