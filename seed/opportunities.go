package seed

import (
	"context"
	"fmt"
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
	"oportuna/workflows"
)

// demoOpportunity is one seeded registration and where it ends up.
type demoOpportunity struct {
	n        int
	by       string // local part of the registering user's e-mail
	customer int    // index into demoCustomers
	status   opportunity.Status
	product  opportunity.Product
}

var demoCustomers = []struct{ corporate, fantasy, city, state, contact string }{
	{"Supermercados Boa Compra Ltda", "Boa Compra", "Campinas", "SP", "Carla Nogueira"},
	{"Transportes Rota Sul S.A.", "Rota Sul", "Porto Alegre", "RS", "Paulo Henrique"},
	{"Hospital Santa Clara", "Santa Clara", "Belo Horizonte", "MG", "Dra. Helena Prado"},
	{"Farmácias Vida Plena Ltda", "Vida Plena", "Recife", "PE", "Marcos Vinícius"},
	{"Atacadão Central do Norte Ltda", "Central do Norte", "Manaus", "AM", "Joana Lima"},
	{"Prefeitura Municipal de Itajubá", "", "Itajubá", "MG", "Roberto Dias"},
}

var demoPlan = []demoOpportunity{
	{1, "vendedor1", 0, opportunity.Analysis, opportunity.Product{PartNumber: "CT-40", Description: "Coletor de dados CT-40", Amount: 12, Price: 489000}},
	{2, "vendedor2", 1, opportunity.Analysis, opportunity.Product{PartNumber: "ZL-420", Description: "Impressora de etiquetas ZL-420", Amount: 4, Price: 315050}},
	{3, "vendedor1", 2, opportunity.Approved, opportunity.Product{PartNumber: "CT-60", Description: "Coletor robusto CT-60", Amount: 30, Price: 612000}},
	{4, "revenda", 3, opportunity.Approved, opportunity.Product{PartNumber: "MP-2", Description: "Impressora móvel MP-2", Amount: 8, Price: 189990}},
	{5, "vendedor2", 4, opportunity.Disapproved, opportunity.Product{PartNumber: "CT-40", Description: "Coletor de dados CT-40", Amount: 5, Price: 489000}},
	{6, "vendedor1", 5, opportunity.Renovation, opportunity.Product{PartNumber: "TAG-R", Description: "Leitor RFID TAG-R", Amount: 3, Price: 954000}},
	{7, "vendedor2", 0, opportunity.Expired, opportunity.Product{PartNumber: "ZL-420", Description: "Impressora de etiquetas ZL-420", Amount: 2, Price: 315050}},
	{8, "vendedor1", 1, opportunity.AwaitingRenovation, opportunity.Product{PartNumber: "CT-60", Description: "Coletor robusto CT-60", Amount: 10, Price: 612000}},
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

func actorByEmail(ctx context.Context, db *pgxpool.Pool, email string, roles ...auth.Role) (activities.Actor, error) {
	a := activities.Actor{Roles: roles}
	var resale *string
	err := db.QueryRow(ctx, `SELECT id::text, name, resale_id::text FROM users WHERE lower(email) = $1`, email).Scan(&a.UserID, &a.Name, &resale)
	if resale != nil {
		a.ResaleID = *resale
	}
	return a, err
}

// Opportunities registers each brand's demo opportunities through the workflow
// (so each has its execution) and drives them to their planned status. A worker
// must poll the task queue. Brands that already have them are left alone.
func Opportunities(ctx context.Context, db *pgxpool.Pool, c client.Client, brands *brand.Registry) (int, error) {
	created := 0
	type pending struct{ id, slug string }
	var waitExpiry []pending // renewal requests wait for the short validity to run out
	for i, b := range brands.All() {
		var have bool
		if err := db.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM opportunities WHERE id = $1)`, demoID(b.Slug, 1)).Scan(&have); err != nil {
			return created, err
		}
		if have {
			continue
		}
		rep, err := actorByEmail(ctx, db, Email("representante", b.Slug), auth.Representative)
		if err != nil {
			return created, fmt.Errorf("seed: %s has no demo users: %w", b.Slug, err)
		}
		var resaleCNPJ string
		_ = db.QueryRow(ctx, `SELECT cnpj FROM resales WHERE brand = $1 AND cnpj = $2`, b.Slug, ResaleCNPJ(i)).Scan(&resaleCNPJ)
		for _, p := range demoPlan {
			roles := []auth.Role{auth.Seller}
			if p.by == "revenda" {
				roles = []auth.Role{auth.Resale}
			}
			actor, err := actorByEmail(ctx, db, Email(p.by, b.Slug), roles...)
			if err != nil {
				return created, err
			}
			id := demoID(b.Slug, p.n)
			cust := demoCustomers[p.customer]
			fantasy := cust.fantasy
			if fantasy == "" {
				fantasy = "N/C"
			}
			rec := opportunity.Record{
				Name: "Oportunidade " + cust.corporate, CNPJ: customerCNPJ(p.customer), Contact: cust.contact,
				Phone: "11987650000", Email: "compras@cliente" + fmt.Sprint(p.customer) + ".com.br", Network: "Não",
				FantasyName: fantasy, CorporateName: cust.corporate, Street: "Avenida Central, 100", State: cust.state,
				City: cust.city, CEP: "01310100", Country: "Brasil", ProbabilityClosing: 50, Seller: actor.Name,
				AcceptedTerm: true, Products: []opportunity.Product{p.product},
				Projects: []opportunity.Project{{Aplication: "Controle de estoque", Specification: "Leitura de código de barras 1D/2D",
					Homologated: ptr(true), HaveCollector: ptr(false), Partner: ptr(false), OpportunityType: "private",
					ConclusionDate: conclusionDate(time.Now()), OpportunityOrigin: "Partner"}},
			}
			rec.Estimated = opportunity.Estimated(rec.Products)
			// Short lives for the demo states that only time reaches.
			in := workflows.OpportunityInput{ID: id, Brand: b.Slug}
			switch p.status {
			case opportunity.Renovation:
				in.Durations = activities.Durations{Validity: 90 * 24 * time.Hour, RenewalWindow: 90*24*time.Hour - 5*time.Second, ApprovalSLA: 48 * time.Hour, ExpiredRetention: 180 * 24 * time.Hour}
			case opportunity.Expired, opportunity.AwaitingRenovation:
				in.Durations = activities.Durations{Validity: 5 * time.Second, RenewalWindow: 2 * time.Second, ApprovalSLA: 48 * time.Hour, ExpiredRetention: 180 * 24 * time.Hour}
			}
			start := workflows.OpportunityStart(id, b.Slug)
			start.WorkflowIDConflictPolicy = enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING
			op := c.NewWithStartWorkflowOperation(start, workflows.Opportunity, in)
			h, err := c.UpdateWithStartWorkflow(ctx, client.UpdateWithStartWorkflowOptions{StartWorkflowOperation: op,
				UpdateOptions: client.UpdateWorkflowOptions{UpdateID: "register", UpdateName: workflows.UpdateRegister,
					Args: []any{workflows.RegisterRequest{Actor: actor, ResaleCNPJ: resaleCNPJ, Record: rec}}, WaitForStage: client.WorkflowUpdateStageCompleted}})
			if err == nil {
				err = h.Get(ctx, nil)
			}
			if err != nil {
				return created, fmt.Errorf("seed: register %s #%d: %w", b.Slug, p.n, err)
			}
			created++
			update := func(name string, arg any) error {
				h, err := c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{WorkflowID: workflows.OpportunityWorkflowID(id),
					UpdateName: name, Args: []any{arg}, WaitForStage: client.WorkflowUpdateStageCompleted})
				if err == nil {
					err = h.Get(ctx, nil)
				}
				if err != nil {
					return fmt.Errorf("seed: %s on %s #%d: %w", name, b.Slug, p.n, err)
				}
				return nil
			}
			switch p.status {
			case opportunity.Approved, opportunity.Renovation, opportunity.Expired, opportunity.AwaitingRenovation:
				if err := update(workflows.UpdateApprove, workflows.ApproveRequest{Actor: rep, Name: rec.Name, Probability: 75}); err != nil {
					return created, err
				}
				if p.status == opportunity.AwaitingRenovation {
					waitExpiry = append(waitExpiry, pending{id, b.Slug})
				}
			case opportunity.Disapproved:
				if err := update(workflows.UpdateDisapprove, workflows.DisapproveRequest{Actor: rep, Reason: "Cliente já atendido por outra revenda."}); err != nil {
					return created, err
				}
			}
		}
	}
	for _, p := range waitExpiry {
		if err := waitStatus(ctx, db, p.id, opportunity.Expired, 30*time.Second); err != nil {
			return created, err
		}
		seller, err := actorByEmail(ctx, db, Email("vendedor1", p.slug), auth.Seller)
		if err != nil {
			return created, err
		}
		h, err := c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{WorkflowID: workflows.OpportunityWorkflowID(p.id),
			UpdateName: workflows.UpdateRequestRenewal, WaitForStage: client.WorkflowUpdateStageCompleted,
			Args: []any{workflows.RenewalRequest{Actor: seller, Renewal: opportunity.RenewalRequest{
				Reason: "O cliente retomou o projeto após a auditoria de estoque.", ProbabilityClosing: 75,
				ProjectStillInScope: "Sim", LastVisitDate: visitDate(time.Now()), ProposalSent: "Sim", ProductHomologated: "Sim",
				NextStep: "Apresentar a proposta revisada ao comprador na próxima visita."}}}})
		if err == nil {
			err = h.Get(ctx, nil)
		}
		if err != nil {
			return created, fmt.Errorf("seed: renewal request on %s: %w", p.slug, err)
		}
	}
	return created, nil
}

// conclusionDate is the demo projects' conclusion at the instant now: three
// months after today in Brasília, the calendar the server checks it against.
func conclusionDate(now time.Time) string {
	return calendar.Date(now).AddDate(0, 3, 0).Format(time.DateOnly)
}

// visitDate is the demo renewal's last visit at the instant now: today in
// Brasília, whatever the zone of the machine that seeds.
func visitDate(now time.Time) string { return calendar.ISO(now) }

func waitStatus(ctx context.Context, db *pgxpool.Pool, id string, want opportunity.Status, within time.Duration) error {
	deadline := time.Now().Add(within)
	for {
		var got string
		if err := db.QueryRow(ctx, `SELECT status FROM opportunities WHERE id = $1`, id).Scan(&got); err == nil && got == string(want) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("seed: opportunity %s did not reach %s in %v", id, want, within)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

func ptr[T any](v T) *T { return &v }
