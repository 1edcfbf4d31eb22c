package opportunity

import (
	"strings"
	"testing"
	"time"
)

func TestParseDate(t *testing.T) {
	for in, want := range map[string]string{"05/03/26": "2026-03-05", "05-03-26": "2026-03-05", "2026-03-05": "2026-03-05", "29/02/24": "2024-02-29"} {
		got, ok := ParseDate(in)
		if !ok || got.Format("2006-01-02") != want {
			t.Errorf("ParseDate(%q) = %v %v, want %s", in, got, ok, want)
		}
	}
	for _, bad := range []string{"", "00/03/26", "05/00/26", "31/02/26", "29/02/25", "5/3/26", "2026-13-01", "abc"} {
		if _, ok := ParseDate(bad); ok {
			t.Errorf("ParseDate(%q) accepted", bad)
		}
	}
}

func TestCheckRenewal(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	ok := RenewalRequest{Reason: "Cliente pediu prazo", ProbabilityClosing: 50, ProjectStillInScope: "Sim", LastVisitDate: "22/11/26"}
	if errs := CheckRenewal(ok, now); len(errs) != 0 {
		t.Fatalf("valid request refused: %v", errs)
	}
	future := ok
	future.LastVisitDate = "23/11/26"
	if errs := CheckRenewal(future, now); len(errs) != 1 || errs[0].Message != MsgVisitDate {
		t.Errorf("future visit: %v", errs)
	}
	empty := CheckRenewal(RenewalRequest{}, now)
	if len(empty) != 4 {
		t.Fatalf("empty request: %v", empty)
	}
	for _, e := range empty {
		if e.Message != MsgRequired {
			t.Errorf("%s: %q", e.Field, e.Message)
		}
	}
	bad := ok
	bad.ProbabilityClosing, bad.ProjectStillInScope = 30, "Talvez"
	if errs := CheckRenewal(bad, now); len(errs) != 2 {
		t.Errorf("bad band and scope: %v", errs)
	}
	answered := ok
	answered.ProposalSent, answered.ProductHomologated, answered.NextStep = "Sim", "Não", "Visita técnica na próxima semana"
	if errs := CheckRenewal(answered, now); len(errs) != 0 {
		t.Errorf("the dialog's other answers refused: %v", errs)
	}
	answered.ProposalSent, answered.ProductHomologated, answered.NextStep = "talvez", "1", strings.Repeat("x", MaxNextStep+1)
	if errs := CheckRenewal(answered, now); len(errs) != 3 {
		t.Errorf("bad answers: %v", errs)
	}
}
