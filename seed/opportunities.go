package seed

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"oportuna/activities"
	"oportuna/auth"
	"oportuna/brand"
	"oportuna/cnpj"
	"oportuna/internal/calendar"
	"oportuna/opportunity"
	"oportuna/store"
	"oportuna/workflows"
)

// demoCustomer is an end customer of the demo: its address is a real one
// (the CEP is of the city, geo/ checks it).
type demoCustomer struct{ corporate, fantasy, street, cep, city, state, contact string }

var demoCustomers = []demoCustomer{
	{"Supermercados Boa Compra Ltda", "Boa Compra", "Avenida Francisco Glicério, 1000", "13012100", "Campinas", "SP", "Carla Nogueira"},
	{"Transportes Rota Sul S.A.", "Rota Sul", "Avenida Borges de Medeiros, 500", "90020020", "Porto Alegre", "RS", "Paulo Henrique"},
	{"Hospital Santa Clara", "Santa Clara", "Avenida Afonso Pena, 1500", "30130005", "Belo Horizonte", "MG", "Dra. Helena Prado"},
	{"Farmácias Vida Plena Ltda", "Vida Plena", "Avenida Guararapes, 250", "50010000", "Recife", "PE", "Marcos Vinícius"},
	{"Atacadão Central do Norte Ltda", "Central do Norte", "Avenida Eduardo Ribeiro, 600", "69010001", "Manaus", "AM", "Joana Lima"},
	{"Prefeitura Municipal de Itajubá", "", "Avenida Doutor Jerson Dias, 500", "37500279", "Itajubá", "MG", "Roberto Dias"},
}

// demoTimes place a demo opportunity's life before now: its registration and,
// when it was decided, the decision; a renewal request's time.
type demoTimes struct{ created, decided, requested time.Time }

// demoOpportunity is one seeded registration, where it ends up and when its
// life happened, for the lifecycle durations d (the programme's: a demo record
// reaches its status as a real one would have, and goes on from there with the
// same durations).
type demoOpportunity struct {
	n        int
	by       string // local part of the registering user's e-mail
	customer int    // index into demoCustomers
	status   opportunity.Status
	product  opportunity.Product
	when     func(now time.Time, d activities.Durations) demoTimes
}

// daysAgo is the Brasília day n days before now's, at hh:mm Brasília time.
func daysAgo(now time.Time, n, hh, mm int) time.Time {
	return calendar.Start(calendar.Date(now).AddDate(0, 0, -n)).Add(time.Duration(hh)*time.Hour + time.Duration(mm)*time.Minute)
}

// days is d in whole days (at least 1).
func days(d time.Duration) int { return max(int(d/(24*time.Hour)), 1) }

var (
	ct40  = opportunity.Product{PartNumber: "CT-40", Description: "Coletor de dados CT-40", Amount: 12, Price: 489000}
	zl420 = opportunity.Product{PartNumber: "ZL-420", Description: "Impressora de etiquetas ZL-420", Amount: 4, Price: 315050}
	ct60  = opportunity.Product{PartNumber: "CT-60", Description: "Coletor robusto CT-60", Amount: 30, Price: 612000}
	mp2   = opportunity.Product{PartNumber: "MP-2", Description: "Impressora móvel MP-2", Amount: 8, Price: 189990}
	tagR  = opportunity.Product{PartNumber: "TAG-R", Description: "Leitor RFID TAG-R", Amount: 3, Price: 954000}
)

// demoPlan spreads every brand's demo over the last twelve months (with the
// default durations): the dashboard's chart has approvals and refusals in
// several months, the lists show every status with coherent dates.
var demoPlan = []demoOpportunity{
	// In analysis, within the SLA.
	{1, "vendedor1", 2, opportunity.Analysis, ct40, func(now time.Time, d activities.Durations) demoTimes {
		return demoTimes{created: now.Add(-d.ApprovalSLA / 4)}
	}},
	// In analysis past the SLA: its first reminder is due, ApprovalOverdue in the Temporal UI.
	{2, "vendedor2", 1, opportunity.Analysis, zl420, func(now time.Time, d activities.Durations) demoTimes {
		return demoTimes{created: now.Add(-d.ApprovalSLA * 5 / 4)}
	}},
	// Approved: before the renewal window.
	{3, "vendedor1", 2, opportunity.Approved, ct60, func(now time.Time, d activities.Durations) demoTimes {
		a := days(d.Validity-d.RenewalWindow) / 2
		return demoTimes{created: daysAgo(now, a+3, 9, 40), decided: daysAgo(now, a, 15, 10)}
	}},
	{4, "revenda", 3, opportunity.Approved, mp2, func(now time.Time, d activities.Durations) demoTimes {
		a := days(d.Validity-d.RenewalWindow) / 4
		return demoTimes{created: daysAgo(now, a+2, 10, 25), decided: daysAgo(now, a, 11, 5)}
	}},
	// Refused, this month and in earlier ones.
	{5, "vendedor2", 4, opportunity.Disapproved, ct40, func(now time.Time, _ activities.Durations) demoTimes {
		return demoTimes{created: daysAgo(now, 70, 14, 0), decided: daysAgo(now, 66, 16, 30)}
	}},
	// In its renewal window: approved Validity − RenewalWindow/2 ago.
	{6, "vendedor1", 5, opportunity.Renovation, tagR, func(now time.Time, d activities.Durations) demoTimes {
		a := days(d.Validity - d.RenewalWindow/2)
		return demoTimes{created: daysAgo(now, a+4, 8, 50), decided: daysAgo(now, a, 17, 20)}
	}},
	// Expired: its validity ended a fifth of the retention ago.
	{7, "vendedor2", 0, opportunity.Expired, zl420, func(now time.Time, d activities.Durations) demoTimes {
		a := days(d.Validity + d.ExpiredRetention/5)
		return demoTimes{created: daysAgo(now, a+4, 13, 15), decided: daysAgo(now, a, 10, 45)}
	}},
	// Awaiting renewal: approved, expired, and the seller asked for a renewal, within the SLA.
	{8, "vendedor1", 1, opportunity.AwaitingRenovation, ct60, func(now time.Time, d activities.Durations) demoTimes {
		a := days(d.Validity + d.ExpiredRetention/12)
		return demoTimes{created: daysAgo(now, a+5, 11, 30), decided: daysAgo(now, a, 9, 55), requested: now.Add(-d.ApprovalSLA / 4)}
	}},
	{9, "vendedor2", 3, opportunity.Disapproved, mp2, func(now time.Time, _ activities.Durations) demoTimes {
		return demoTimes{created: daysAgo(now, 300, 10, 0), decided: daysAgo(now, 298, 15, 40)}
	}},
	{10, "revenda", 4, opportunity.Disapproved, tagR, func(now time.Time, _ activities.Durations) demoTimes {
		return demoTimes{created: daysAgo(now, 200, 9, 20), decided: daysAgo(now, 196, 14, 10)}
	}},
	// Expired long ago: still within the retention in which a renewal may be asked for.
	{11, "vendedor1", 5, opportunity.Expired, ct40, func(now time.Time, d activities.Durations) demoTimes {
		a := days(d.Validity + d.ExpiredRetention*6/7)
		return demoTimes{created: daysAgo(now, a+5, 16, 5), decided: daysAgo(now, a, 10, 30)}
	}},
	{12, "vendedor2", 0, opportunity.Disapproved, ct60, func(now time.Time, _ activities.Durations) demoTimes {
		return demoTimes{created: daysAgo(now, 150, 8, 45), decided: daysAgo(now, 145, 17, 0)}
	}},
	// Expired in analysis: no representative decided within the validity (no approval date).
	{13, "revenda", 2, opportunity.Expired, zl420, func(now time.Time, d activities.Durations) demoTimes {
		return demoTimes{created: daysAgo(now, days(d.Validity+d.ExpiredRetention/6), 10, 10)}
	}},
	{14, "vendedor1", 3, opportunity.Disapproved, mp2, func(now time.Time, _ activities.Durations) demoTimes {
		return demoTimes{created: daysAgo(now, 12, 9, 5), decided: daysAgo(now, 9, 11, 40)}
	}},
}

// demoID is the stable id of a brand's n-th demo opportunity.
func demoID(slug string, n int) string {
	return opportunity.DerivedID(fmt.Sprintf("oportuna-demo/%s/%d", slug, n))
}

func customerCNPJ(i int) string {
	base := fmt.Sprintf("%08d0001", 33444500+i*11)
	d, _ := cnpj.CheckDigits(base)
	return base + d
}

func actorByEmail(ctx context.Context, db *pgxpool.Pool, email string, roles ...auth.Role) (opportunity.Actor, error) {
	u, err := store.New(db).ActorByEmail(ctx, email)
	return opportunity.Actor{UserID: u.ID, Name: u.Name, ResaleID: store.Deref(u.ResaleID), Roles: roles}, err
}

// demoStep is one thing that happened to a demo opportunity, at its time.
type demoStep struct {
	at time.Time
	do func(ctx context.Context) error
}

// Opportunities writes each brand's demo opportunities as their workflows
// would have, at the times of their plan (registration, decision, renewal
// window, expiry, renewal request: the read model, the history rows, the CRM),
// all brands' steps in time order so that each registration's conflicts are
// the ones open then; then it starts, for each, a run that adopts it
// (workflows.OpportunityInput.Adopt), which goes on with the programme's
// durations like any other. Nothing is e-mailed: past notices are not sent.
// A worker must poll the task queue for the runs to proceed; acts carries the
// database, the CRM and the durations. Opportunities already there are left alone.
func Opportunities(ctx context.Context, acts *activities.Activities, c client.Client, brands *brand.Registry) (int, error) {
	db := acts.DB
	d := acts.Durations
	if d.Validity <= 0 || d.ApprovalSLA <= 0 || d.RenewalWindow < 0 || d.RenewalWindow >= d.Validity {
		d = workflows.DefaultDurations
	}
	now := time.Now()
	var steps []demoStep
	type adopt struct{ id, slug string }
	var adopts []adopt
	created := 0
	for _, b := range brands.All() {
		rep, err := actorByEmail(ctx, db, Email("representante", b.Slug), auth.Representative)
		if err != nil {
			return created, fmt.Errorf("seed: %s has no demo users: %w", b.Slug, err)
		}
		for _, p := range demoPlan {
			id := demoID(b.Slug, p.n)
			adopts = append(adopts, adopt{id, b.Slug})
			have, err := store.New(db).OpportunityExists(ctx, id)
			if err != nil {
				return created, err
			}
			if have {
				continue
			}
			roles := []auth.Role{auth.Seller}
			if p.by == "revenda" {
				roles = []auth.Role{auth.Resale}
			}
			owner, err := actorByEmail(ctx, db, Email(p.by, b.Slug), roles...)
			if err != nil {
				return created, err
			}
			its, err := demoSteps(acts, d, now, b.Slug, id, p, owner, rep)
			if err != nil {
				return created, err
			}
			created++
			steps = append(steps, its...)
		}
	}
	sort.SliceStable(steps, func(i, j int) bool { return steps[i].at.Before(steps[j].at) })
	for _, s := range steps {
		if err := s.do(ctx); err != nil {
			return created, err
		}
	}
	for _, a := range adopts {
		start := workflows.OpportunityStart(a.id, a.slug)
		start.WorkflowIDConflictPolicy = enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING
		start.WorkflowIDReusePolicy = enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE_FAILED_ONLY
		if _, err := c.ExecuteWorkflow(ctx, start, workflows.Opportunity, workflows.OpportunityInput{ID: a.id, Brand: a.slug, Adopt: true}); err != nil {
			return created, fmt.Errorf("seed: start the workflow of %s: %w", a.id, err)
		}
	}
	return created, nil
}

// demoSteps are the steps of one demo opportunity: what the workflow's
// handlers and timers write (activities.Register, activities.Apply with the
// same event keys and changes, the CRM sync), at the plan's times.
func demoSteps(acts *activities.Activities, d activities.Durations, now time.Time, slug, id string, p demoOpportunity,
	owner, rep opportunity.Actor) ([]demoStep, error) {
	t := p.when(now, d)
	cust := demoCustomers[p.customer]
	fantasy := cust.fantasy
	if fantasy == "" {
		fantasy = "N/C"
	}
	rec := opportunity.Record{
		ID: id, Brand: slug, Status: opportunity.Analysis, CreatedAt: t.created, UserID: owner.UserID, ResaleID: owner.ResaleID,
		Name: "Oportunidade " + cust.corporate, CNPJ: customerCNPJ(p.customer), Contact: cust.contact,
		Phone: fmt.Sprintf("119876500%02d", p.n), Email: "compras@cliente" + fmt.Sprint(p.customer) + ".com.br", Network: "Não",
		FantasyName: fantasy, CorporateName: cust.corporate, Street: cust.street, State: cust.state,
		City: cust.city, CEP: cust.cep, Country: "Brasil", ProbabilityClosing: 50, Seller: owner.Name,
		AcceptedTerm: true, Products: []opportunity.Product{p.product},
		Projects: []opportunity.Project{{Aplication: "Controle de estoque", Specification: "Leitura de código de barras 1D/2D",
			Homologated: ptr(true), HaveCollector: ptr(false), Partner: ptr(false), OpportunityType: "private",
			ConclusionDate: conclusionDate(t.created), OpportunityOrigin: "Partner"}},
	}
	rec.Estimated = opportunity.Estimated(rec.Products)
	seq := 1 // the registration's; each later event takes the next (the workflow's event keys)
	var steps []demoStep
	add := func(at time.Time, do func(ctx context.Context) error) {
		steps = append(steps, demoStep{at: at, do: do}) // equal times keep this order (a stable sort)
	}
	apply := func(ctx context.Context, ev opportunity.Event) error {
		seq++
		ev.Key, ev.OpportunityID, ev.Brand = fmt.Sprintf("%s/0/%d", id, seq), id, slug
		_, err := acts.Apply(ctx, ev)
		return err
	}
	fail := func(what string, err error) error {
		if err == nil {
			return nil
		}
		return fmt.Errorf("seed: %s of %s #%d: %w", what, slug, p.n, err)
	}
	add(t.created, func(ctx context.Context) error {
		_, err := acts.Register(ctx, activities.RegisterInput{ID: id, Brand: slug, Actor: owner, Record: rec, At: t.created})
		return fail("registration", err)
	})
	status := opportunity.Analysis
	transition := func(at time.Time, to opportunity.Status) {
		add(at, func(ctx context.Context) error {
			from := status
			status = to
			return fail("status "+string(to), apply(ctx, opportunity.Event{Status: to, At: at,
				Changes: []opportunity.Change{{Attribute: "status", OldValue: string(from), NewValue: string(to)}}}))
		})
	}
	switch p.status {
	case opportunity.Disapproved:
		reason := "Cliente já atendido por outra revenda."
		add(t.decided, func(ctx context.Context) error {
			status = opportunity.Disapproved
			return fail("refusal", apply(ctx, opportunity.Event{Actor: &rep, Status: opportunity.Disapproved, Reason: &reason, At: t.decided,
				Changes: []opportunity.Change{{Attribute: "status", OldValue: string(opportunity.Analysis), NewValue: string(opportunity.Disapproved)},
					{Attribute: "reason", NewValue: reason}}}))
		})
	case opportunity.Expired:
		if t.decided.IsZero() { // expired in analysis
			transition(t.created.Add(d.Validity), opportunity.Expired)
			break
		}
		fallthrough
	case opportunity.Approved, opportunity.Renovation, opportunity.AwaitingRenovation:
		valid := t.decided.Add(d.Validity)
		name, prob := rec.Name, 75
		add(t.decided, func(ctx context.Context) error {
			register, err := acts.SyncCRM(ctx, activities.CRMSyncInput{CRMInput: activities.CRMInput{OpportunityID: id, Brand: slug,
				Name: name, Probability: prob}, Status: opportunity.Approved})
			if err != nil {
				return fail("CRM sync", err)
			}
			status = opportunity.Approved
			return fail("approval", apply(ctx, opportunity.Event{Actor: &rep, Status: opportunity.Approved, Name: &name, Probability: &prob,
				ApprovedAt: &t.decided, ValidUntil: &valid, Register: &register, At: t.decided,
				Changes: []opportunity.Change{{Attribute: "status", OldValue: string(opportunity.Analysis), NewValue: string(opportunity.Approved)},
					{Attribute: "probabilityClosing", OldValue: "50", NewValue: "75"}}}))
		})
		if p.status == opportunity.Approved {
			break
		}
		transition(valid.Add(-d.RenewalWindow), opportunity.Renovation)
		if p.status == opportunity.Renovation {
			break
		}
		transition(valid, opportunity.Expired)
		add(valid, func(ctx context.Context) error { // the background sync of the expiry
			_, err := acts.SyncCRM(ctx, activities.CRMSyncInput{CRMInput: activities.CRMInput{OpportunityID: id, Brand: slug,
				Name: name, Probability: prob}, Status: opportunity.Expired})
			return fail("CRM sync of the expiry", err)
		})
		if p.status != opportunity.AwaitingRenovation {
			break
		}
		add(t.requested, func(ctx context.Context) error {
			r := opportunity.RenewalRequest{Reason: "O cliente retomou o projeto após a auditoria de estoque.", ProbabilityClosing: 75,
				ProjectStillInScope: "Sim", LastVisitDate: visitDate(t.requested), ProposalSent: "Sim", ProductHomologated: "Sim",
				NextStep: "Apresentar a proposta revisada ao comprador na próxima visita."}
			if errs := opportunity.CheckRenewal(r, t.requested); len(errs) > 0 {
				return fail("renewal request", fmt.Errorf("%s", errs[0].Message))
			}
			changes := []opportunity.Change{{Attribute: "status", OldValue: string(status), NewValue: string(opportunity.AwaitingRenovation)},
				{Attribute: "reason", NewValue: r.Reason},
				{Attribute: "projectStillInScope", NewValue: r.ProjectStillInScope}, {Attribute: "lastVisitDate", NewValue: r.LastVisitDate},
				{Attribute: "proposalSent", NewValue: r.ProposalSent}, {Attribute: "productHomologated", NewValue: r.ProductHomologated},
				{Attribute: "nextStep", NewValue: r.NextStep}}
			status = opportunity.AwaitingRenovation
			return fail("renewal request", apply(ctx, opportunity.Event{Actor: &owner, Status: opportunity.AwaitingRenovation,
				Reason: &r.Reason, Probability: &r.ProbabilityClosing, Renewal: &r, Changes: changes, At: t.requested}))
		})
	}
	for _, s := range steps {
		if s.at.After(now) {
			return nil, fmt.Errorf("seed: demo #%d (%s) of %s would have a step in the future (%s) with the durations %+v",
				p.n, strings.ToLower(p.status.Label()), slug, s.at.Format(time.RFC3339), d)
		}
	}
	return steps, nil
}

// conclusionDate is a demo project's conclusion for a registration at the
// instant at: three months after that day in Brasília, the calendar the server
// checks it against.
func conclusionDate(at time.Time) string {
	return calendar.Date(at).AddDate(0, 3, 0).Format(time.DateOnly)
}

// visitDate is a demo renewal's last visit for a request at the instant at:
// that day in Brasília, whatever the zone of the machine that seeds.
func visitDate(at time.Time) string { return calendar.ISO(at) }

func ptr[T any](v T) *T { return &v }
