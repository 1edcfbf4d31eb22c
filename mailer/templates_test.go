package mailer_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"oportuna/brand"
	"oportuna/mailer"
)

const (
	evil       = `<i onclick="x()">Injetado</i>`
	evilHTML   = `&lt;i onclick=&#34;x()&#34;&gt;Injetado&lt;/i&gt;`
	link       = "https://parceiros.exemplo.com.br/Painel/Opportunities/42?renovation=true&x=1"
	linkInAttr = "https://parceiros.exemplo.com.br/Painel/Opportunities/42?renovation=true&amp;x=1"
)

// every kind, with user input in a field and a link.
var kinds = map[string]func(mailer.Templates) (mailer.Content, error){
	"contact request": func(t mailer.Templates) (mailer.Content, error) {
		return t.ContactRequest(mailer.ContactRequest{FullName: "Ana", Email: "ana@x.com.br", Title: "Dúvida", Description: evil})
	},
	"password reset": func(t mailer.Templates) (mailer.Content, error) {
		return t.PasswordReset(mailer.PasswordReset{Name: evil, Link: link, ValidFor: time.Hour})
	},
	"new resale": func(t mailer.Templates) (mailer.Content, error) {
		return t.NewResale(mailer.NewResale{Recipient: "Rita", CorporateName: evil, CNPJ: "11.222.333/0001-81", Link: link})
	},
	"resale approved": func(t mailer.Templates) (mailer.Content, error) {
		return t.ResaleApproved(mailer.ResaleApproved{ContactName: "Caio", CorporateName: evil, Email: "caio@x.com.br", Link: link, ValidFor: 72 * time.Hour})
	},
	"resale rejected": func(t mailer.Templates) (mailer.Content, error) {
		return t.ResaleRejected(mailer.ResaleRejected{ContactName: "Caio", CorporateName: "Revenda X", Reason: evil})
	},
	"seller invitation": func(t mailer.Templates) (mailer.Content, error) {
		return t.SellerInvitation(mailer.SellerInvitation{Name: evil, Email: "v@x.com.br", ResaleName: "Revenda X", Link: link})
	},
	"opportunity registered": func(t mailer.Templates) (mailer.Content, error) {
		return t.OpportunityRegistered(mailer.OpportunityRegistered{Opportunity: opp()})
	},
	"opportunity approved": func(t mailer.Templates) (mailer.Content, error) {
		return t.OpportunityApproved(mailer.OpportunityApproved{Opportunity: opp(), ValidUntil: time.Date(2026, 3, 1, 2, 0, 0, 0, time.UTC)})
	},
	"opportunity disapproved": func(t mailer.Templates) (mailer.Content, error) {
		return t.OpportunityDisapproved(mailer.OpportunityDisapproved{Opportunity: opp(), Reason: "Cliente já atendido"})
	},
	"sla reminder": func(t mailer.Templates) (mailer.Content, error) {
		return t.SLAReminder(mailer.SLAReminder{Opportunity: opp(), Since: time.Now().Add(-72 * time.Hour), Reminder: 2})
	},
	"sla reminder resale": func(t mailer.Templates) (mailer.Content, error) {
		return t.SLAReminder(mailer.SLAReminder{Opportunity: mailer.Opportunity{Name: evil, Link: link}, Resale: true})
	},
	"renewal open": func(t mailer.Templates) (mailer.Content, error) {
		return t.RenewalOpen(mailer.RenewalOpen{Opportunity: opp(), ValidUntil: time.Now().Add(360 * time.Hour)})
	},
	"expired": func(t mailer.Templates) (mailer.Content, error) {
		return t.OpportunityExpired(mailer.OpportunityExpired{Opportunity: opp(), RenewableUntil: time.Now().Add(4320 * time.Hour)})
	},
	"renewal requested": func(t mailer.Templates) (mailer.Content, error) {
		return t.RenewalRequested(mailer.RenewalRequested{Opportunity: opp(), Reason: "Projeto adiado", ProjectStillInScope: "Sim", LastVisitDate: "10/02/2026"})
	},
	"renewal approved": func(t mailer.Templates) (mailer.Content, error) {
		return t.RenewalDecided(mailer.RenewalDecided{Opportunity: opp(), Approved: true, ValidUntil: time.Now().Add(2160 * time.Hour)})
	},
	"renewal refused": func(t mailer.Templates) (mailer.Content, error) {
		return t.RenewalDecided(mailer.RenewalDecided{Opportunity: opp(), Reason: "Fora do prazo"})
	},
	"generic notice": func(t mailer.Templates) (mailer.Content, error) {
		return t.Notice(mailer.Notice{Recipient: "Rita", Title: "Algo aconteceu", Detail: evil, Link: link})
	},
}

func opp() mailer.Opportunity {
	return mailer.Opportunity{Recipient: "Rita", Name: "Coletores CD Sul", Customer: evil, CNPJ: "11.222.333/0001-81",
		Resale: "Revenda X", Owner: "Vendedor Um", Estimated: "R$ 1.234,56", Link: link}
}

func TestEveryKindRendersInTheBrandColoursWithEscapedInput(t *testing.T) {
	reg := brand.MustLoad()
	nordata, _ := reg.BySlug("nordata")
	yep, _ := reg.BySlug("yep")
	for _, pair := range [][2]*brand.Brand{{nordata, yep}, {yep, nordata}} {
		b, other := pair[0], pair[1]
		tpl := mailer.Templates{Brand: b, Portal: "https://parceiros." + b.Slug + ".example/"}
		for name, render := range kinds {
			c, err := render(tpl)
			if err != nil {
				t.Fatalf("%s/%s: %v", b.Slug, name, err)
			}
			fail := func(format string, args ...any) { t.Errorf(b.Slug+"/"+name+": "+format, args...) }
			if c.Subject == "" || strings.ContainsAny(c.Subject, "\r\n") {
				fail("subject %q", c.Subject)
			}
			if !strings.HasPrefix(c.HTML, "<!DOCTYPE html>") || !strings.Contains(c.HTML, `<html lang="pt-BR">`) {
				fail("not a pt-BR HTML document")
			}
			if !strings.Contains(c.HTML, b.Colors.Primary) || !strings.Contains(c.HTML, b.Colors.Secondary) ||
				strings.Contains(c.HTML, other.Colors.Primary) {
				fail("HTML not in the brand's colours")
			}
			// The logo is a PNG (Gmail and Outlook show no SVG), content-addressed, with its size.
			w, h := b.LogoPNGSize()
			png := `src="https://parceiros.` + b.Slug + `.example` + brand.AssetURL(b.Slug, "logo.png", b.LogoPNG()) + `"`
			if !strings.Contains(c.HTML, png) || h != 40 || !strings.Contains(c.HTML, fmt.Sprintf(`width="%d" height="%d"`, w, h)) {
				fail("no sized PNG logo from the portal")
			}
			if strings.Contains(c.HTML, ".svg") {
				fail("an SVG image in the e-mail")
			}
			if !strings.Contains(c.HTML, b.Name) || !strings.Contains(c.Text, b.Name) {
				fail("brand name missing")
			}
			if strings.Contains(c.HTML, "<i ") || strings.Contains(c.Subject+c.HTML+c.Text, "\x00") {
				fail("user input reached the HTML unescaped")
			}
			if strings.Contains(c.HTML+c.Text+c.Subject, "Injetado") && !strings.Contains(c.HTML, evilHTML) {
				fail("user input not escaped as text:\n%s", c.HTML)
			}
			if strings.Contains(c.HTML, "<a href=\"https://parceiros.exemplo") && !strings.Contains(c.HTML, `href="`+linkInAttr+`"`) {
				fail("link altered in the HTML")
			}
			if name != "contact request" && name != "resale rejected" {
				if !strings.Contains(c.HTML, `href="`+linkInAttr+`"`) || !strings.Contains(c.Text, link) {
					fail("action link missing:\n%s", c.Text)
				}
			}
			if strings.Contains(c.Text, "<table") || strings.Contains(c.Text, "&lt;") || strings.Contains(c.Text, "&#") {
				fail("text part has HTML:\n%s", c.Text)
			}
		}
	}
}

func TestTemplatesSayWhatEachKindNeeds(t *testing.T) {
	yep, _ := brand.MustLoad().BySlug("yep")
	tpl := mailer.Templates{Brand: yep, Portal: "http://yep.localhost:8080"}
	check := func(name string, c mailer.Content, err error, subject string, texts ...string) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		if c.Subject != subject {
			t.Errorf("%s: subject %q, want %q", name, c.Subject, subject)
		}
		for _, s := range texts {
			if !strings.Contains(c.Text, s) {
				t.Errorf("%s: text lacks %q:\n%s", name, s, c.Text)
			}
		}
	}
	c, err := tpl.PasswordReset(mailer.PasswordReset{Name: "Ana", Link: "http://yep.localhost:8080/reset-password?token=abc", ValidFor: time.Hour})
	check("reset", c, err, "Redefinição de senha | Yep Labels", "Olá, Ana,", "Redefinir senha: http://yep.localhost:8080/reset-password?token=abc", "O link vale por 1 hora")
	// 02:00 UTC on March 1st is still February 28th in Brasília.
	o := mailer.Opportunity{Name: "Projeto", Customer: "Mercado Sul", Link: "http://yep.localhost:8080/Painel/Opportunities/1"}
	c, err = tpl.OpportunityApproved(mailer.OpportunityApproved{Opportunity: o, ValidUntil: time.Date(2026, 3, 1, 2, 0, 0, 0, time.UTC)})
	check("approved", c, err, "Oportunidade aprovada: Projeto", "A oportunidade do cliente Mercado Sul foi aprovada.", "válido até 28/02/2026")
	c, err = tpl.ResaleRejected(mailer.ResaleRejected{CorporateName: "Revenda X", Reason: "  "})
	check("resale rejected", c, err, "Cadastro de revenda reprovado | Yep Labels", "Razão da reprovação:\nSem Justificativa", "Fale conosco: http://yep.localhost:8080/Contact")
	c, err = tpl.OpportunityExpired(mailer.OpportunityExpired{Opportunity: mailer.Opportunity{Customer: "Mercado Sul"}, InAnalysis: true})
	check("expired in analysis", c, err, "Oportunidade expirada: Mercado Sul", "expirou sem decisão")
	c, err = tpl.RenewalDecided(mailer.RenewalDecided{Opportunity: o, Reason: "Sem visita recente"})
	check("renewal refused", c, err, "Renovação reprovada: Projeto", "Motivo da reprovação:\nSem visita recente")
	c, err = tpl.SLAReminder(mailer.SLAReminder{Opportunity: o, Since: time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC), Reminder: 3})
	check("sla", c, err, "Lembrete: oportunidade aguardando análise: Projeto", "desde 05/01/2026", "3º lembrete")
	c, err = tpl.NewResale(mailer.NewResale{CorporateName: "Revenda X", City: "Curitiba", State: "PR"})
	check("new resale", c, err, "Nova revenda aguardando análise: Revenda X", "Nome fantasia: N/C", "Cidade: Curitiba - PR")
	c, err = tpl.ContactRequest(mailer.ContactRequest{FullName: "Ana", Email: "ana@x.com.br", Title: "Linha 1\r\nBcc: x@y.com", Description: "Oi"})
	check("contact", c, err, "Contato pelo portal: Linha 1 Bcc: x@y.com", "Mensagem:\nOi")
}
