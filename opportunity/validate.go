package opportunity

import (
	"strings"
	"time"
	"unicode/utf8"

	"oportuna/internal/calendar"
)

// Messages of spec §5.
const (
	MsgRequired       = "*Campo Obrigatório"
	MsgVisitDate      = "Data de visita deve ser uma data passada ou a atual!"
	MsgConclusionDate = "Data de conclusão deve ser uma data futura"
)

// FieldError is one field that failed, with the form's pt-BR label.
type FieldError struct {
	Field   string `json:"field"`
	Label   string `json:"label"`
	Message string `json:"message"`
}

// ParseDate reads dd/mm/yy, dd-mm-yy, dd/mm/yyyy or yyyy-mm-dd; it rejects zero
// days or months and dates that do not exist (31/02).
func ParseDate(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	for _, layout := range []string{"02/01/06", "02-01-06", "02/01/2006", "2006-01-02"} {
		if len(s) != len(layout) {
			continue
		}
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// MaxNextStep caps the renewal dialog's 'Próximo passo'.
const MaxNextStep = 2000

// CheckRenewal applies spec §5 "Renewal modal" at the instant now: the last
// visit is a day of Brasília's calendar up to today.
func CheckRenewal(r RenewalRequest, now time.Time) []FieldError {
	var errs []FieldError
	if strings.TrimSpace(r.Reason) == "" {
		errs = append(errs, FieldError{"reason", "Motivo", MsgRequired})
	}
	if _, ok := Probabilities[r.ProbabilityClosing]; !ok {
		errs = append(errs, FieldError{"probabilityClosing", "Probabilidade de fechamento", MsgRequired})
	}
	if r.ProjectStillInScope != "Sim" && r.ProjectStillInScope != "Não" {
		errs = append(errs, FieldError{"projectStillInScope", "Projeto continua em pauta", MsgRequired})
	}
	for _, a := range []struct{ field, label, v string }{
		{"proposalSent", "A proposta foi enviada?", r.ProposalSent},
		{"productHomologated", "O produto foi homologado?", r.ProductHomologated},
	} {
		if a.v != "" && a.v != "Sim" && a.v != "Não" {
			errs = append(errs, FieldError{a.field, a.label, "Responda Sim ou Não."})
		}
	}
	if utf8.RuneCountInString(r.NextStep) > MaxNextStep {
		errs = append(errs, FieldError{"nextStep", "Próximo passo", "O próximo passo deve ter no máximo 2000 caracteres."})
	}
	if strings.TrimSpace(r.LastVisitDate) == "" {
		errs = append(errs, FieldError{"lastVisitDate", "Data da última visita", MsgRequired})
	} else if d, ok := ParseDate(r.LastVisitDate); !ok || d.After(calendar.Date(now)) {
		errs = append(errs, FieldError{"lastVisitDate", "Data da última visita", MsgVisitDate})
	}
	return errs
}
