package opportunity

import (
	"strings"
	"testing"
	"time"

	"oportuna/internal/calendar"
)

// lateEvening is 23:30 on 30/11/2026 in Brasília: 02:30 on 01/12 in UTC, 16:30 on
// 01/12 in Kiritimati (UTC+14, the zone make test runs the Go tests in). The
// same instant is given in each zone: the rules must read Brasília's calendar.
var lateEvening = time.Date(2026, 11, 30, 23, 30, 0, 0, calendar.Location)

func lateEvenings() map[string]time.Time {
	return map[string]time.Time{
		"Brasília": lateEvening, "UTC": lateEvening.UTC(), "machine zone": lateEvening.Local(),
		"UTC+14": lateEvening.In(time.FixedZone("LINT", 14*3600)),
	}
}

func TestVisitDateIsUpToBrasiliasTodayAtHalfPastElevenAtNight(t *testing.T) {
	for zone, now := range lateEvenings() {
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
	for zone, now := range lateEvenings() {
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
	for zone, now := range lateEvenings() {
		rec, errs := payload(t, func(m map[string]any) { project(m)["conclusionDate"] = "15/12/26" }).Check("nordata", now)
		if len(errs) != 0 {
			t.Fatalf("%s: %v", zone, errs)
		}
		if !strings.HasSuffix(rec.Name, " - 30/11/2026") {
			t.Errorf("%s: name %q, want today's date 30/11/2026", zone, rec.Name)
		}
	}
}
