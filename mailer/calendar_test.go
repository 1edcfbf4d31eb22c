package mailer_test

import (
	"strings"
	"testing"

	"oportuna/brand"
	"oportuna/internal/testenv"
	"oportuna/mailer"
)

// TestExpiryDatesAreBrasiliasDayAtHalfPastElevenAtNight: an expiry that falls
// at 23:30 in Brasília (02:30 the next day in UTC, the afternoon of the next
// day in UTC+14) is written as Brasília's day in every e-mail that shows it,
// whatever zone the instant carries and whatever the host's zone.
func TestExpiryDatesAreBrasiliasDayAtHalfPastElevenAtNight(t *testing.T) {
	yep, _ := brand.MustLoad().BySlug("yep")
	tpl := mailer.Templates{Brand: yep, Portal: "http://yep.localhost:8080"}
	o := mailer.Opportunity{Name: "Projeto", Customer: "Mercado Sul", Link: "http://yep.localhost:8080/Painel/Opportunities/1"}
	for zone, at := range testenv.LateEvenings() {
		if got := mailer.Date(at); got != "30/11/2026" {
			t.Errorf("%s: Date = %s, want 30/11/2026", zone, got)
		}
		for name, render := range map[string]func() (mailer.Content, error){
			"approved": func() (mailer.Content, error) {
				return tpl.OpportunityApproved(mailer.OpportunityApproved{Opportunity: o, ValidUntil: at})
			},
			"renewal open": func() (mailer.Content, error) {
				return tpl.RenewalOpen(mailer.RenewalOpen{Opportunity: o, ValidUntil: at})
			},
			"expired": func() (mailer.Content, error) {
				return tpl.OpportunityExpired(mailer.OpportunityExpired{Opportunity: o, RenewableUntil: at})
			},
			"renewal granted": func() (mailer.Content, error) {
				return tpl.RenewalDecided(mailer.RenewalDecided{Opportunity: o, Approved: true, ValidUntil: at})
			},
			"sla reminder": func() (mailer.Content, error) {
				return tpl.SLAReminder(mailer.SLAReminder{Opportunity: o, Since: at, Reminder: 2})
			},
		} {
			c, err := render()
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(c.Text, "30/11/2026") || strings.Contains(c.Text, "01/12/2026") ||
				!strings.Contains(c.HTML, "30/11/2026") || strings.Contains(c.HTML, "01/12/2026") {
				t.Errorf("%s, %s: the e-mail does not say 30/11/2026:\n%s", zone, name, c.Text)
			}
		}
	}
}
