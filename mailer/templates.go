package mailer

import (
	"bytes"
	"embed"
	htmltemplate "html/template"
	"strings"
	texttemplate "text/template"
	"time"
	"unicode"

	"oportuna/brand"
	"oportuna/internal/calendar"
)

//go:embed templates/layout.html templates/layout.txt
var templateFiles embed.FS

var funcs = map[string]any{"lines": func(s string) []string { return strings.Split(s, "\n") }}

var (
	htmlLayout = htmltemplate.Must(htmltemplate.New("layout.html").Funcs(funcs).ParseFS(templateFiles, "templates/layout.html"))
	textLayout = texttemplate.Must(texttemplate.New("layout.txt").Funcs(funcs).ParseFS(templateFiles, "templates/layout.txt"))
)

// Content is a rendered e-mail.
type Content struct {
	Subject string
	HTML    string
	Text    string
}

// Message addresses the content: key is the idempotency key.
func (c Content) Message(key, brandSlug string, to ...string) Message {
	return Message{Key: key, Brand: brandSlug, To: to, Subject: c.Subject, HTML: c.HTML, Text: c.Text}
}

// Templates renders the e-mails of one brand. Portal is the base URL of the
// brand's portal (Config.Portal): the logo and the footer link point there.
// Every value is escaped by html/template; links must be absolute URLs.
type Templates struct {
	Brand  *brand.Brand
	Portal string
}

// Fact is one line of an e-mail's table of details.
type Fact struct{ Label, Value string }

// Quote is a highlighted text written by a person (a reason, a message).
type Quote struct{ Label, Text string }

// Action is the e-mail's button.
type Action struct{ Label, URL string }

// view is what the layout shows; every kind fills one.
type view struct {
	Brand      *brand.Brand
	Portal     string
	LogoURL    string // the PNG (no mail client shows an SVG); empty: the brand's name instead
	LogoWidth  int
	LogoHeight int
	Subject    string
	Preheader  string
	Heading    string
	Greeting   string
	Paragraphs []string
	Facts      []Fact
	Quote      *Quote
	Action     *Action
	After      []string
	Footer     string
}

func (t Templates) render(v view) (Content, error) {
	v.Brand, v.Portal = t.Brand, strings.TrimRight(t.Portal, "/")
	if png := t.Brand.LogoPNG(); png != nil {
		v.LogoURL = v.Portal + brand.AssetURL(t.Brand.Slug, "logo.png", png)
		v.LogoWidth, v.LogoHeight = t.Brand.LogoPNGSize()
	}
	v.Subject = oneLine(v.Subject, MaxSubject)
	if v.Footer == "" {
		v.Footer = "Este é um e-mail automático do Portal de Oportunidades " + t.Brand.Name + "; não é preciso respondê-lo."
	}
	facts := v.Facts[:0:0]
	for _, f := range v.Facts {
		if strings.TrimSpace(f.Value) != "" {
			facts = append(facts, f)
		}
	}
	v.Facts = facts
	var h, x bytes.Buffer
	if err := htmlLayout.Execute(&h, v); err != nil {
		return Content{}, err
	}
	if err := textLayout.Execute(&x, v); err != nil {
		return Content{}, err
	}
	return Content{Subject: v.Subject, HTML: h.String(), Text: x.String()}, nil
}

// oneLine makes user input safe for a subject: whitespace runs become one
// space, control characters go, and it is cut at max characters.
func oneLine(s string, max int) string {
	s = strings.Join(strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }), " ")
	if r := []rune(s); len(r) > max {
		s = strings.TrimSpace(string(r[:max-1])) + "…"
	}
	return s
}

func greeting(name string) string {
	if name = oneLine(name, 120); name == "" {
		return "Olá,"
	}
	return "Olá, " + name + ","
}

// Date writes the day of t as dd/mm/aaaa in Brasília's calendar, whatever
// the host's zone (internal/calendar).
func Date(t time.Time) string { return calendar.Format(t) }

// validity writes how long a link lasts ("1 hora", "48 horas", "7 dias").
func validity(d time.Duration) string {
	switch {
	case d <= 0:
		return ""
	case d%(24*time.Hour) == 0 && d >= 72*time.Hour:
		return plural(int(d/(24*time.Hour)), "dia", "dias")
	case d%time.Hour == 0:
		return plural(int(d/time.Hour), "hora", "horas")
	default:
		return plural(int((d+time.Minute-1)/time.Minute), "minuto", "minutos")
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return itoa(n) + " " + many
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

func orNC(s string) string {
	if strings.TrimSpace(s) == "" {
		return "N/C"
	}
	return s
}

func join(sep string, parts ...string) string {
	var out []string
	for _, p := range parts {
		if strings.TrimSpace(p) != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, sep)
}

// --- contact and accounts -----------------------------------------------------

// ContactRequest is the contact form (spec §3 "Contact request"), sent to the
// brand's administrator with the requester as Reply-To.
type ContactRequest struct {
	FullName    string
	Email       string
	Title       string
	Description string
}

// ContactRequest renders the contact e-mail to the brand's administrator.
func (t Templates) ContactRequest(d ContactRequest) (Content, error) {
	return t.render(view{
		Subject:   "Contato pelo portal: " + d.Title,
		Preheader: d.FullName + " enviou uma solicitação de contato.",
		Heading:   "Nova solicitação de contato",
		Greeting:  greeting("equipe " + t.Brand.Name),
		Paragraphs: []string{oneLine(d.FullName, 200) + " enviou uma solicitação de contato pelo Portal de Oportunidades " +
			t.Brand.Name + "."},
		Facts:  []Fact{{"Nome", d.FullName}, {"E-mail", d.Email}, {"Assunto", d.Title}},
		Quote:  &Quote{"Mensagem", d.Description},
		After:  []string{"Para responder, use a opção Responder do seu programa de e-mail: a resposta vai para " + d.Email + "."},
		Footer: "Enviado pelo formulário de contato do Portal de Oportunidades " + t.Brand.Name + ".",
	})
}

// PasswordReset is the link that sets a new password (auth.ResetMailer).
type PasswordReset struct {
	Name     string
	Link     string
	ValidFor time.Duration // how long the link lasts; zero omits the sentence
}

// PasswordReset renders the password-recovery e-mail.
func (t Templates) PasswordReset(d PasswordReset) (Content, error) {
	after := []string{"Se você não pediu a redefinição, ignore este e-mail: a sua senha continua a mesma."}
	if v := validity(d.ValidFor); v != "" {
		after = append([]string{"O link vale por " + v + " e pode ser usado uma única vez."}, after...)
	}
	return t.render(view{
		Subject:    "Redefinição de senha | " + t.Brand.Name,
		Preheader:  "Crie uma nova senha para o Portal de Oportunidades " + t.Brand.Name + ".",
		Heading:    "Redefinição de senha",
		Greeting:   greeting(d.Name),
		Paragraphs: []string{"Recebemos um pedido para redefinir a senha da sua conta no Portal de Oportunidades " + t.Brand.Name + "."},
		Action:     &Action{"Redefinir senha", d.Link},
		After:      after,
	})
}

// NewResale tells the brand's representatives that a company signed up.
type NewResale struct {
	Recipient     string
	CorporateName string
	FantasyName   string
	CNPJ          string // formatted
	ContactName   string
	Email         string
	Phone         string // formatted
	City          string
	State         string
	Link          string // the reseller's details screen
}

// NewResale renders the sign-up notice for representatives.
func (t Templates) NewResale(d NewResale) (Content, error) {
	return t.render(view{
		Subject:    "Nova revenda aguardando análise: " + d.CorporateName,
		Heading:    "Nova revenda cadastrada",
		Greeting:   greeting(d.Recipient),
		Paragraphs: []string{"A revenda " + d.CorporateName + " se cadastrou no Portal de Oportunidades " + t.Brand.Name + " e aguarda a sua análise."},
		Facts: []Fact{{"Razão social", d.CorporateName}, {"Nome fantasia", orNC(d.FantasyName)}, {"CNPJ", d.CNPJ},
			{"Contato", d.ContactName}, {"E-mail", d.Email}, {"Telefone", d.Phone}, {"Cidade", join(" - ", d.City, d.State)}},
		Action: &Action{"Analisar revenda", d.Link},
	})
}

// ResaleApproved welcomes an approved reseller with the link that sets its password.
type ResaleApproved struct {
	ContactName   string
	CorporateName string
	Email         string // the login
	Link          string // sets the password
	ValidFor      time.Duration
}

// ResaleApproved renders the approval e-mail.
func (t Templates) ResaleApproved(d ResaleApproved) (Content, error) {
	return t.invitation(view{
		Subject:  "Revenda aprovada | " + t.Brand.Name,
		Heading:  "Sua revenda foi aprovada",
		Greeting: greeting(d.ContactName),
		Paragraphs: []string{"O cadastro da revenda " + d.CorporateName + " no Portal de Oportunidades " + t.Brand.Name + " foi aprovado.",
			"O seu usuário é " + d.Email + ". Crie a sua senha para entrar e começar a registrar oportunidades."},
	}, d.Link, d.ValidFor)
}

// invitation renders an e-mail whose action creates the recipient's password
// with link, followed by how long the link lasts (none for a zero validFor).
func (t Templates) invitation(v view, link string, validFor time.Duration) (Content, error) {
	v.Action = &Action{"Criar minha senha", link}
	if d := validity(validFor); d != "" {
		v.After = []string{"O link vale por " + d + ". Depois disso, use a opção Esqueci minha senha na tela de entrada."}
	}
	return t.render(v)
}

// ResaleRejected tells a company its sign-up was refused, and why.
type ResaleRejected struct {
	ContactName   string
	CorporateName string
	Reason        string
}

// ResaleRejected renders the refusal e-mail.
func (t Templates) ResaleRejected(d ResaleRejected) (Content, error) {
	reason := d.Reason
	if strings.TrimSpace(reason) == "" {
		reason = "Sem Justificativa"
	}
	return t.render(view{
		Subject:    "Cadastro de revenda reprovado | " + t.Brand.Name,
		Heading:    "Cadastro de revenda reprovado",
		Greeting:   greeting(d.ContactName),
		Paragraphs: []string{"O cadastro da revenda " + d.CorporateName + " no Portal de Oportunidades " + t.Brand.Name + " não foi aprovado."},
		Quote:      &Quote{"Razão da reprovação", reason},
		Action:     &Action{"Fale conosco", strings.TrimRight(t.Portal, "/") + "/Contact"},
	})
}

// SellerInvitation invites a seller added by a reseller to set a password.
type SellerInvitation struct {
	Name       string
	Email      string // the login
	ResaleName string
	Link       string // sets the password
	ValidFor   time.Duration
}

// SellerInvitation renders the invitation.
func (t Templates) SellerInvitation(d SellerInvitation) (Content, error) {
	return t.invitation(view{
		Subject:  "Convite para o Portal de Oportunidades " + t.Brand.Name,
		Heading:  "Você foi convidado para o Portal de Oportunidades",
		Greeting: greeting(d.Name),
		Paragraphs: []string{join(" ", d.ResaleName, "cadastrou você como vendedor no Portal de Oportunidades "+t.Brand.Name+"."),
			"O seu usuário é " + d.Email + ". Crie a sua senha para entrar e registrar as suas oportunidades."},
	}, d.Link, d.ValidFor)
}

// Notice is a notification of a kind with no template of its own.
type Notice struct {
	Recipient string
	Title     string
	Detail    string
	Link      string
}

// Notice renders a generic notification.
func (t Templates) Notice(d Notice) (Content, error) {
	v := view{Subject: d.Title, Heading: d.Title, Greeting: greeting(d.Recipient), Action: &Action{"Abrir no portal", d.Link}}
	if d.Detail != "" {
		v.Paragraphs = []string{d.Detail}
	}
	return t.render(v)
}

// --- opportunities ------------------------------------------------------------

// Opportunity is what every opportunity e-mail shows; values already formatted.
type Opportunity struct {
	Recipient string // greeting
	Name      string // the opportunity's name (may be empty before approval)
	Customer  string // trade name or corporate name
	CNPJ      string
	Resale    string
	Owner     string // who registered it
	Estimated string // "R$ 1.234,56"
	Link      string // the opportunity's screen
}

func (o Opportunity) label() string {
	if strings.TrimSpace(o.Name) != "" {
		return o.Name
	}
	return o.Customer
}

// what names the opportunity in a sentence, without its article.
func (o Opportunity) what() string {
	if strings.TrimSpace(o.Customer) == "" {
		return "oportunidade"
	}
	return "oportunidade do cliente " + o.Customer
}

// view is the frame of an e-mail about the opportunity: title, then its label,
// as subject, title as heading, the recipient's greeting, the paragraphs, the
// opportunity's facts and the action that opens its link.
func (o Opportunity) view(title string, paragraphs []string, action string) view {
	return view{Subject: title + ": " + o.label(), Heading: title, Greeting: greeting(o.Recipient),
		Paragraphs: paragraphs, Facts: o.facts(), Action: &Action{action, o.Link}}
}

func (o Opportunity) facts() []Fact {
	return []Fact{{"Oportunidade", o.Name}, {"Cliente", o.Customer}, {"CNPJ", o.CNPJ}, {"Revenda", o.Resale},
		{"Registrada por", o.Owner}, {"Valor estimado", o.Estimated}}
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

// OpportunityRegistered tells representatives a registration awaits analysis.
type OpportunityRegistered struct{ Opportunity }

// OpportunityRegistered renders the new-registration notice.
func (t Templates) OpportunityRegistered(d OpportunityRegistered) (Content, error) {
	who := join(" ", d.Owner, parens(d.Resale))
	if who == "" {
		who = "Uma revenda"
	}
	return t.render(d.view("Nova oportunidade aguardando análise",
		[]string{who + " registrou a " + d.what() + " no Portal de Oportunidades " + t.Brand.Name + ". Ela aguarda a sua análise."},
		"Analisar oportunidade"))
}

func parens(s string) string {
	if strings.TrimSpace(s) == "" {
		return ""
	}
	return "(" + s + ")"
}

// OpportunityApproved tells the owner the registration was approved.
type OpportunityApproved struct {
	Opportunity
	ValidUntil time.Time
}

// OpportunityApproved renders the approval e-mail.
func (t Templates) OpportunityApproved(d OpportunityApproved) (Content, error) {
	ps := []string{"A " + d.what() + " foi aprovada."}
	if !d.ValidUntil.IsZero() {
		ps = append(ps, "O registro é válido até "+Date(d.ValidUntil)+". Perto do fim da validade você poderá solicitar a renovação.")
	}
	return t.render(d.view("Oportunidade aprovada", ps, "Ver oportunidade"))
}

// OpportunityDisapproved tells the owner the registration was refused, and why.
type OpportunityDisapproved struct {
	Opportunity
	Reason string
}

// OpportunityDisapproved renders the refusal e-mail.
func (t Templates) OpportunityDisapproved(d OpportunityDisapproved) (Content, error) {
	v := d.view("Oportunidade reprovada", []string{"A " + d.what() + " foi reprovada."}, "Ver oportunidade")
	v.Quote = &Quote{"Motivo da reprovação", d.Reason}
	return t.render(v)
}

// SLAReminder reminds representatives that a decision is overdue: an
// opportunity, or with Resale a reseller sign-up (Opportunity.Name then holds
// the company's name).
type SLAReminder struct {
	Opportunity
	Resale   bool
	Since    time.Time // waiting since
	Reminder int       // 1 for the first reminder
	// Escalated: the reminder went to every representative of the brand, not
	// only the responsible ones (docs/deal-desk.md, "Routing").
	Escalated bool
}

// MsgEscalated is the sentence of an escalated reminder.
const MsgEscalated = "Sem decisão dos representantes responsáveis, este lembrete foi enviado a todos os representantes da marca."

// SLAReminder renders the overdue-approval reminder.
func (t Templates) SLAReminder(d SLAReminder) (Content, error) {
	what, action := "oportunidade", "Analisar oportunidade"
	facts := d.facts()
	if d.Resale {
		what, action, facts = "revenda", "Analisar revenda", []Fact{{"Revenda", d.Name}, {"CNPJ", d.CNPJ}}
	}
	p := "A " + what + " " + d.label() + " aguarda análise há mais tempo que o previsto"
	if !d.Since.IsZero() {
		p += " (desde " + Date(d.Since) + ")"
	}
	ps := []string{p + "."}
	if d.Reminder > 1 {
		ps = append(ps, "Este é o "+itoa(d.Reminder)+"º lembrete.")
	}
	if d.Escalated {
		ps = append(ps, MsgEscalated)
	}
	return t.render(view{
		Subject: "Lembrete: " + what + " aguardando análise: " + d.label(), Heading: capitalize(what) + " aguardando análise",
		Greeting: greeting(d.Recipient), Paragraphs: ps, Facts: facts, Action: &Action{action, d.Link},
	})
}

// RenewalOpen tells the owner the validity is ending and renewal may be requested.
type RenewalOpen struct {
	Opportunity
	ValidUntil time.Time
}

// RenewalOpen renders the renewal-window notice; Link should open the renewal
// dialog (the opportunity screen with ?renovation=true).
func (t Templates) RenewalOpen(d RenewalOpen) (Content, error) {
	p := "A validade da " + d.what() + " está terminando"
	if !d.ValidUntil.IsZero() {
		p = "A validade da " + d.what() + " termina em " + Date(d.ValidUntil)
	}
	return t.render(d.view("Renovação disponível", []string{p + ". Solicite a renovação para manter o registro."}, "Solicitar renovação"))
}

// OpportunityExpired tells the owner (and, when it expired in analysis, the
// representatives) that the registration expired.
type OpportunityExpired struct {
	Opportunity
	InAnalysis     bool      // expired without a decision
	RenewableUntil time.Time // renewal may still be requested until then; zero: not at all
}

// OpportunityExpired renders the expiry e-mail.
func (t Templates) OpportunityExpired(d OpportunityExpired) (Content, error) {
	ps := []string{"A " + d.what() + " expirou: a validade do registro terminou."}
	if d.InAnalysis {
		ps = []string{"A " + d.what() + " expirou sem decisão: o prazo de análise terminou."}
	}
	if !d.RenewableUntil.IsZero() {
		ps = append(ps, "Ainda é possível solicitar a renovação até "+Date(d.RenewableUntil)+".")
	}
	return t.render(d.view("Oportunidade expirada", ps, "Ver oportunidade"))
}

// RenewalRequested tells representatives a renewal awaits their decision.
type RenewalRequested struct {
	Opportunity
	Reason              string
	ProjectStillInScope string // "Sim" or "Não"
	LastVisitDate       string // dd/mm/aaaa
}

// RenewalRequested renders the renewal-request notice.
func (t Templates) RenewalRequested(d RenewalRequested) (Content, error) {
	who := d.Owner
	if who == "" {
		who = "O responsável"
	}
	v := d.view("Renovação solicitada", []string{who + " solicitou a renovação da " + d.what() + ". Ela aguarda a sua análise."}, "Analisar renovação")
	v.Facts = append(v.Facts, Fact{"Projeto ainda no escopo", d.ProjectStillInScope}, Fact{"Data da última visita", d.LastVisitDate})
	v.Quote = &Quote{"Motivo da solicitação de renovação", d.Reason}
	return t.render(v)
}

// RenewalDecided tells the owner the renewal was approved or refused.
type RenewalDecided struct {
	Opportunity
	Approved   bool
	Reason     string    // when refused
	ValidUntil time.Time // when approved: the new validity
}

// RenewalDecided renders the renewal decision.
func (t Templates) RenewalDecided(d RenewalDecided) (Content, error) {
	if d.Approved {
		p := "A renovação da " + d.what() + " foi aprovada."
		if !d.ValidUntil.IsZero() {
			p += " A nova validade vai até " + Date(d.ValidUntil) + "."
		}
		return t.render(d.view("Renovação aprovada", []string{p}, "Ver oportunidade"))
	}
	v := d.view("Renovação reprovada", []string{"A renovação da " + d.what() + " foi reprovada."}, "Ver oportunidade")
	v.Quote = &Quote{"Motivo da reprovação", d.Reason}
	return t.render(v)
}
