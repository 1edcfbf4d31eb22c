package opportunity

import "testing"

// EventAfter compares a workflow event's key (id/cycle/seq) with a workflow's
// position, the cycle first; keys of other shapes name no workflow event.
func TestEventAfterComparesCycleThenSeq(t *testing.T) {
	const id = "5237f4d7-d382-4eaf-8cdd-36920fef6a4c"
	for _, c := range []struct {
		key        string
		cycle, seq int
		want       bool
	}{
		{id + "/0/3", 0, 2, true},
		{id + "/0/3", 0, 3, false},
		{id + "/0/3", 0, 4, false},
		{id + "/1/1", 0, 9, true},
		{id + "/0/9", 1, 1, false},
		{id + "/0/10", 0, 9, true}, // numbers, not text
		{id + "/repair/reconcile/2026-11-27T18:31:52Z/read_model", 0, 0, false},
		{id + "/0/3 (lost; " + id + "/repair/x)", 0, 0, false},
		{"", 0, 0, false},
	} {
		if got := EventAfter(c.key, c.cycle, c.seq); got != c.want {
			t.Errorf("EventAfter(%q, %d, %d) = %v, want %v", c.key, c.cycle, c.seq, got, c.want)
		}
	}
}
