package opportunity

import (
	"strings"
	"testing"

	"oportuna/internal/testenv"
)

func TestVisitDateIsUpToBrasiliasTodayAtHalfPastElevenAtNight(t *testing.T) {
	for zone, now := range testenv.LateEvenings() {
		req := RenewalRequest{Reason: "Cliente pediu prazo", ProbabilityClosing: 50, ProjectStillInScope: "Sim", LastVisitDate: "30/11/26"}
		if errs := CheckRenewal(req, now); len(errs) != 0 {
			t.Errorf("%s: a visit today (30/11) refused: %v", zone, errs)
		}
		req.LastVisitDate = "2026-12-01"
		if errs := CheckRenewal(req, now); len(errs) != 1 || errs[0].Message != MsgVisitDate {
			t.Errorf("%s: a visit tomorrow (01/12) accepted: %v", zone, errs)
		}
	}
}

func TestConclusionDateIsAfterBrasiliasTodayAtHalfPastElevenAtNight(t *testing.T) {
	conclusion := func(d string) CreatePayload {
		return payload(t, func(m map[string]any) { project(m)["conclusionDate"] = d })
	}
	for zone, now := range testenv.LateEvenings() {
		if _, errs := conclusion("30/11/26").Check("nordata", now); len(errs) != 1 || errs[0].Message != MsgConclusionDate {
			t.Errorf("%s: a conclusion today (30/11) accepted: %v", zone, errs)
		}
		rec, errs := conclusion("01/12/26").Check("nordata", now)
		if len(errs) != 0 {
			t.Errorf("%s: a conclusion tomorrow (01/12) refused: %v", zone, errs)
		} else if rec.Projects[0].ConclusionDate != "2026-12-01" {
			t.Errorf("%s: conclusion stored as %s", zone, rec.Projects[0].ConclusionDate)
		}
	}
}

func TestDefaultNameCarriesBrasiliasDateAtHalfPastElevenAtNight(t *testing.T) {
	for zone, now := range testenv.LateEvenings() {
		rec, errs := payload(t, func(m map[string]any) { project(m)["conclusionDate"] = "15/12/26" }).Check("nordata", now)
		if len(errs) != 0 {
			t.Fatalf("%s: %v", zone, errs)
		}
		if !strings.HasSuffix(rec.Name, " - 30/11/2026") {
			t.Errorf("%s: name %q, want today's date 30/11/2026", zone, rec.Name)
		}
	}
}
