package crmsim_test

import (
	"context"
	"sync"
	"testing"

	"oportuna/brand"
	"oportuna/internal/dev/crmsim"
	"oportuna/internal/testenv"
)

// TestTheStandInCreatesItsSchema: on a fresh database (migrated: no crm_sim),
// stand-ins starting at once create the schema once, without error; a later
// start on a database holding the stand-in's data (as one that applied the
// old migration 0004) keeps it.
func TestTheStandInCreatesItsSchema(t *testing.T) {
	db, ctx := testenv.DBContext(t)
	brands, err := brand.Parse([]byte(`[{"slug":"yep","name":"Yep"}]`))
	if err != nil {
		t.Fatal(err)
	}
	var before bool
	if err := db.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = 'crm_sim')`).Scan(&before); err != nil || before {
		t.Fatalf("crm_sim before the stand-in started: %v (%v)", before, err)
	}
	const starts = 6
	var wg sync.WaitGroup
	errs := make(chan error, starts)
	for i := 0; i < starts; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- crmsim.New(db, crmsim.Options{Brands: brands}).Seed(ctx)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("concurrent start: %v", err)
		}
	}
	var tables, users int
	if err := db.QueryRow(ctx, `SELECT (SELECT count(*) FROM pg_tables WHERE schemaname = 'crm_sim'), (SELECT count(*) FROM crm_sim.users)`).Scan(&tables, &users); err != nil {
		t.Fatal(err)
	}
	if tables != 8 || users != 4 {
		t.Errorf("crm_sim holds %d tables and %d users, want 8 and 4 (3 active sellers and 1 inactive)", tables, users)
	}
	sim := crmsim.New(db, crmsim.Options{Brands: brands})
	if err := sim.Seed(ctx); err != nil {
		t.Fatal(err)
	}
	if err := sim.Lock(ctx, "0f5b7a52-0000-4000-8000-000000000001"); err != nil {
		t.Fatal(err)
	}
	if err := crmsim.New(db, crmsim.Options{Brands: brands}).Seed(context.WithoutCancel(ctx)); err != nil {
		t.Fatal(err)
	}
	st, err := sim.State(ctx)
	if err != nil || len(st.Locked) != 1 {
		t.Errorf("data after a restart: %+v (%v)", st, err)
	}
}
