package coverage

import (
	"slices"
	"testing"
)

var rules = []Rule{
	{UserID: "b-rep2", States: []string{"BA", "PE"}},
	{UserID: "a-rep1", States: []string{"SP", "RJ"}, ResaleIDs: []string{"resale-x"}},
	{UserID: "c-rep3", States: []string{"SP"}},
	{UserID: "d-multi"},
}

func TestResponsibleReadsTheResellerAccountBeforeTheUF(t *testing.T) {
	// resale-x is named by rep1 only: rep3, who covers SP too, is not responsible.
	if got := Responsible(rules, "SP", "resale-x"); !slices.Equal(got, []string{"a-rep1"}) {
		t.Fatalf("named account: %v", got)
	}
	// The account overrides the UF: a customer in BA registered by resale-x still goes to rep1.
	if got := Responsible(rules, "BA", "resale-x"); !slices.Equal(got, []string{"a-rep1"}) {
		t.Fatalf("account over UF: %v", got)
	}
}

func TestResponsibleByUFSortedAndOnce(t *testing.T) {
	if got := Responsible(rules, " sp ", "resale-y"); !slices.Equal(got, []string{"a-rep1", "c-rep3"}) {
		t.Fatalf("UF SP: %v", got)
	}
	if got := Responsible(rules, "PE", ""); !slices.Equal(got, []string{"b-rep2"}) {
		t.Fatalf("UF PE: %v", got)
	}
}

func TestResponsibleFallsBackToEveryRepresentative(t *testing.T) {
	want := []string{"a-rep1", "b-rep2", "c-rep3", "d-multi"}
	for _, uf := range []string{"AM", ""} {
		if got := Responsible(rules, uf, ""); !slices.Equal(got, want) {
			t.Fatalf("uncovered UF %q: %v", uf, got)
		}
	}
	if got := Responsible(nil, "SP", "x"); len(got) != 0 {
		t.Fatalf("no representatives: %v", got)
	}
}

func TestNormalizeRefusesAnUnknownUF(t *testing.T) {
	got, bad := Normalize([]string{"sp", "RJ", "SP"})
	if bad != "" || !slices.Equal(got, []string{"RJ", "SP"}) {
		t.Fatalf("normalize: %v %q", got, bad)
	}
	if _, bad := Normalize([]string{"SP", "XX"}); bad != "XX" {
		t.Fatalf("unknown UF accepted: %q", bad)
	}
	if len(UFs) != 27 {
		t.Fatalf("%d UFs", len(UFs))
	}
}

func TestEscalatedFromTheThirdReminder(t *testing.T) {
	if Escalated(2) || !Escalated(3) || !Escalated(4) {
		t.Fatal("escalation threshold")
	}
}
