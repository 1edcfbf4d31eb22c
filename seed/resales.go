package seed

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"oportuna/brand"
	"oportuna/cnpj"
	"oportuna/opportunity"
	"oportuna/resale"
	"oportuna/store"
	"oportuna/workflows"
)

// demoSignUps are the companies every brand has waiting in analysis, signed up
// through their onboarding workflow (so a representative can approve one in the demo).
var demoSignUps = []struct{ corporate, fantasy, contact, local, street, cep, city, state string }{
	{"Distribuidora Alfa Automação Ltda", "Alfa Automação", "Paula Ribeiro", "paula", "Rua das Indústrias, 500", "80010000", "Curitiba", "PR"},
	{"Beta Etiquetas e Coletores Ltda", "", "Fábio Nunes", "fabio", "Avenida Sete de Setembro, 700", "40060001", "Salvador", "BA"},
}

// SignUpCNPJ is the CNPJ of the i-th brand's n-th demo sign-up (valid check digits).
func SignUpCNPJ(i, n int) string {
	base := fmt.Sprintf("%08d0001", 55666700+i*13+n)
	d, _ := cnpj.CheckDigits(base)
	return base + d
}

// SignUpEmail is the contact e-mail of a brand's demo sign-up.
func SignUpEmail(local, slug string) string { return local + "@cadastro-" + slug + ".demo" }

// Resales signs up each brand's demo companies through the onboarding workflow;
// they stay in analysis. A worker must poll the task queue. Companies already
// there are left alone.
func Resales(ctx context.Context, db *pgxpool.Pool, c client.Client, brands *brand.Registry) (int, error) {
	created := 0
	for i, b := range brands.All() {
		for n, s := range demoSignUps {
			id := opportunity.DerivedID(fmt.Sprintf("oportuna-demo-resale/%s/%d", b.Slug, n))
			have, err := store.New(db).ResaleExists(ctx, id)
			if err != nil {
				return created, err
			}
			if have {
				continue
			}
			fantasy := s.fantasy
			if fantasy == "" {
				fantasy = "N/C"
			}
			reg := resale.Registration{Email: SignUpEmail(s.local, b.Slug), Phone: fmt.Sprintf("4199876%04d", i*10+n),
				ContactName: s.contact, CNPJ: SignUpCNPJ(i, n), FantasyName: fantasy, CorporateName: s.corporate,
				Street: s.street, State: s.state, CEP: s.cep, City: s.city, Country: "Brasil"}
			start := workflows.ResaleStart(id, b.Slug)
			start.WorkflowIDConflictPolicy = enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING
			op := c.NewWithStartWorkflowOperation(start, workflows.Resale, workflows.ResaleInput{ID: id, Brand: b.Slug})
			h, err := c.UpdateWithStartWorkflow(ctx, client.UpdateWithStartWorkflowOptions{StartWorkflowOperation: op,
				UpdateOptions: client.UpdateWorkflowOptions{UpdateID: "register", UpdateName: workflows.UpdateRegister,
					Args: []any{workflows.ResaleRegisterRequest{Registration: reg}}, WaitForStage: client.WorkflowUpdateStageCompleted}})
			if err == nil {
				err = h.Get(ctx, nil)
			}
			if err != nil {
				return created, fmt.Errorf("seed: sign-up %s #%d: %w", b.Slug, n, err)
			}
			created++
		}
	}
	return created, nil
}
