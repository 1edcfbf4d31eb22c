// Package opportunity is the deal-registration domain: statuses, the record and
// its validation, shared by the workflow, the activities and the API.
package opportunity

// Status is where an opportunity stands (spec §4 "Opportunity status").
type Status string

// The statuses, with their wire values.
const (
	Analysis           Status = "analysis"
	Approved           Status = "approved"
	Disapproved        Status = "disapproved"
	Renovation         Status = "renovation"
	AwaitingRenovation Status = "awaiting_renovation"
	Expired            Status = "expired"
)

// Statuses lists every status in the order the screens show them.
var Statuses = []Status{Analysis, Approved, Disapproved, Renovation, AwaitingRenovation, Expired}

// Label is the status as the screens name it.
func (s Status) Label() string {
	switch s {
	case Analysis:
		return "Em Análise"
	case Approved:
		return "Aprovado"
	case Disapproved:
		return "Reprovado"
	case Renovation:
		return "Renovação"
	case AwaitingRenovation:
		return "Aguardando Renovação"
	case Expired:
		return "Expirado"
	}
	return string(s)
}

// Valid reports whether s is one of the statuses.
func (s Status) Valid() bool {
	for _, v := range Statuses {
		if v == s {
			return true
		}
	}
	return false
}

// Open reports whether the status still protects the registration (the conflict
// check counts these).
func (s Status) Open() bool {
	return s == Analysis || s == Approved || s == Renovation || s == AwaitingRenovation
}
