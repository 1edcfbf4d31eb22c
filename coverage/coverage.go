// Package coverage holds the routing rules of a brand (docs/deal-desk.md,
// "Routing"): each representative covers a set of UFs and, optionally, named
// reseller accounts that override the UF. Responsible picks a registration's
// representatives from them; it reads nothing and writes nothing.
package coverage

import (
	"slices"
	"sort"
	"strings"
)

// UFs are Brazil's 27 federative units, in the order the screen lists them.
var UFs = []string{"AC", "AL", "AP", "AM", "BA", "CE", "DF", "ES", "GO", "MA", "MT", "MS", "MG", "PA", "PB",
	"PR", "PE", "PI", "RJ", "RN", "RS", "RO", "RR", "SC", "SP", "SE", "TO"}

// ValidUF reports whether uf is one of the 27 (upper case).
func ValidUF(uf string) bool { return slices.Contains(UFs, uf) }

// Rule is one representative's coverage at a brand.
type Rule struct {
	UserID    string   `json:"userId"`
	States    []string `json:"states"`
	ResaleIDs []string `json:"resaleIds"`
}

// Responsible is who answers for a registration of a customer in uf made by
// the reseller account resaleID (empty: none), among the brand's
// representatives (rules; one per representative, a representative with no
// coverage has empty lists):
//
//  1. the representatives who name the reseller account;
//  2. else those who cover the customer's UF;
//  3. else every representative of the brand (nobody covers it).
//
// The ids come sorted, each once; none when the brand has no representative.
func Responsible(rules []Rule, uf, resaleID string) []string {
	uf = strings.ToUpper(strings.TrimSpace(uf))
	pick := func(match func(Rule) bool) []string {
		var ids []string
		for _, r := range rules {
			if match(r) {
				ids = append(ids, r.UserID)
			}
		}
		sort.Strings(ids)
		return slices.Compact(ids)
	}
	if resaleID != "" {
		if ids := pick(func(r Rule) bool { return slices.Contains(r.ResaleIDs, resaleID) }); len(ids) > 0 {
			return ids
		}
	}
	if uf != "" {
		if ids := pick(func(r Rule) bool { return slices.Contains(r.States, uf) }); len(ids) > 0 {
			return ids
		}
	}
	return pick(func(Rule) bool { return true })
}

// Normalize checks a coverage's UFs and sorts them, each once; bad is the
// first value that is not a UF ("" when all are).
func Normalize(states []string) (out []string, bad string) {
	out = []string{}
	for _, s := range states {
		uf := strings.ToUpper(strings.TrimSpace(s))
		if !ValidUF(uf) {
			return nil, s
		}
		out = append(out, uf)
	}
	sort.Strings(out)
	return slices.Compact(out), ""
}

// EscalateFrom is the reminder from which an SLA reminder goes to every
// representative of the brand, not only the responsible ones.
const EscalateFrom = 3

// Escalated reports whether the reminder-th reminder escalates.
func Escalated(reminder int) bool { return reminder >= EscalateFrom }
