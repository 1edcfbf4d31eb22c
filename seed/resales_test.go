package seed_test

import (
	"testing"
	"time"

	"oportuna/activities"
	"oportuna/brand"
	"oportuna/cnpj"
	"oportuna/internal/dev/mailbox"
	"oportuna/internal/testenv"
	"oportuna/seed"
	"oportuna/worker"
	"oportuna/workflows"
)

func TestSeedSignsUpCompaniesInAnalysisThroughTheirWorkflow(t *testing.T) {
	db, ctx := testenv.DBContext(t)
	tc := testenv.TemporalClient(t)
	brands, _ := brand.Parse([]byte(`[{"slug":"nordata","name":"Nordata"},{"slug":"yep","name":"Yep"}]`))
	if _, err := seed.Run(ctx, db, brands, "Oportuna@2026"); err != nil {
		t.Fatal(err)
	}
	if _, err := worker.EnsureSearchAttributes(ctx, tc, "default"); err != nil {
		t.Fatal(err)
	}
	acts := &activities.Activities{DB: db, Brands: brands, Mailer: mailbox.Log{},
		Durations: activities.Durations{ApprovalSLA: 48 * time.Hour}}
	// The workflow queue's worker and its CRM and mail queues' (the notices).
	testenv.StartWorkers(t, worker.New(tc, workflows.TaskQueue, acts, worker.Settings{}, nil)...)
	n, err := seed.Resales(ctx, db, tc, brands)
	if err != nil || n != 4 {
		t.Fatalf("created %d, %v; want 4", n, err)
	}
	if n, err := seed.Resales(ctx, db, tc, brands); err != nil || n != 0 {
		t.Fatalf("second run created %d, %v", n, err)
	}
	var inAnalysis, history int
	if err := db.QueryRow(ctx, `SELECT count(*) FILTER (WHERE status = 'analysis'),
		(SELECT count(*) FROM history WHERE type = 'resale') FROM resales`).Scan(&inAnalysis, &history); err != nil {
		t.Fatal(err)
	}
	if inAnalysis != 4 || history != 4 {
		t.Errorf("in analysis %d, history rows %d", inAnalysis, history)
	}
	for i := range brands.All() {
		for n := 0; n < 2; n++ {
			if !cnpj.Valid(seed.SignUpCNPJ(i, n)) {
				t.Errorf("CNPJ %s", seed.SignUpCNPJ(i, n))
			}
		}
	}
}
