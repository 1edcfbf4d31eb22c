package seed_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"oportuna/activities"
	"oportuna/auth"
	"oportuna/brand"
	"oportuna/cnpj"
	"oportuna/crm"
	"oportuna/internal/testenv"
	"oportuna/seed"
	"oportuna/worker"
)

func TestMain(m *testing.M) { testenv.Main(m) }

func TestSeedCreatesEveryBrandsDemoUsersAndIsIdempotent(t *testing.T) {
	db := testenv.DB(t)
	ctx := testenv.Context(t)
	brands := brand.MustLoad()
	res, err := seed.Run(ctx, db, brands, "Oportuna@2026")
	if err != nil {
		t.Fatal(err)
	}
	if res.Resales != 11 || res.Users != 66 {
		t.Fatalf("first run created %+v, want 11 resales and 66 users", res)
	}
	snapshot := func() string {
		var s string
		err := db.QueryRow(ctx, `SELECT md5(string_agg(u.id::text || u.email || u.password_hash || u.updated_at::text || coalesce(u.resale_id::text, ''), ',' ORDER BY u.email))
			|| (SELECT md5(string_agg(id::text || cnpj || updated_at::text, ',' ORDER BY id)) FROM resales)
			|| (SELECT count(*)::text FROM user_roles) FROM users u`).Scan(&s)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	before := snapshot()
	res, err = seed.Run(ctx, db, brands, "Oportuna@2026")
	if err != nil || res != (seed.Result{}) {
		t.Fatalf("second run created %+v (err %v), want nothing", res, err)
	}
	if after := snapshot(); after != before {
		t.Error("second run changed the data")
	}

	// Every brand has the six logins with the spec's roles, sellers tied to the reseller.
	rows, err := db.Query(ctx, `SELECT u.email, r.role, r.brand, u.resale_id IS NOT NULL, u.password_hash FROM users u JOIN user_roles r ON r.user_id = u.id`)
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for rows.Next() {
		var email, role, b, hash string
		var inResale bool
		if err := rows.Scan(&email, &role, &b, &inResale, &hash); err != nil {
			t.Fatal(err)
		}
		count[b+"/"+role]++
		if (role == "RESALE" || role == "SELLER") != inResale {
			t.Errorf("%s (%s): in resale = %v", email, role, inResale)
		}
		if !auth.VerifyPassword(hash, "Oportuna@2026") {
			t.Errorf("%s: demo password does not verify", email)
		}
	}
	for _, b := range brands.All() {
		for role, want := range map[string]int{"REPRESENTATIVE": 2, "SUPPORT": 2, "RESALE": 1, "SELLER": 2} {
			if got := count[b.Slug+"/"+role]; got != want {
				t.Errorf("%s: %d users with %s, want %d", b.Slug, got, role, want)
			}
		}
	}
	for i := range brands.All() {
		if !cnpj.Valid(seed.ResaleCNPJ(i)) {
			t.Errorf("demo CNPJ %s is not valid", seed.ResaleCNPJ(i))
		}
	}
}

func TestDemoOpportunitiesReachEveryStatusThroughTheirWorkflows(t *testing.T) {
	db := testenv.DB(t)
	ctx := testenv.Context(t)
	c := testenv.TemporalClient(t)
	brands, _ := brand.Parse([]byte(`[{"slug":"codexa","name":"Codexa"}]`))
	if _, err := seed.Run(ctx, db, brands, "Oportuna@2026"); err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	acts := &activities.Activities{DB: db, Brands: brands, CRM: crm.Local{DB: db}, Mailer: activities.LogMailer{},
		Durations: activities.Durations{Validity: 2160 * time.Hour, RenewalWindow: 360 * time.Hour, ApprovalSLA: 48 * time.Hour, ExpiredRetention: 4320 * time.Hour}}
	go func() { done <- worker.Run(wctx, c, "default", acts) }()
	defer func() { cancel(); <-done }()

	n, err := seed.Opportunities(ctx, db, c, brands)
	if err != nil || n != 8 {
		t.Fatalf("created %d, err %v", n, err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		rows, _ := db.Query(ctx, `SELECT status, count(*) FROM opportunities GROUP BY 1`)
		got := map[string]int{}
		for rows.Next() {
			var s string
			var k int
			_ = rows.Scan(&s, &k)
			got[s] = k
		}
		want := map[string]int{"analysis": 2, "approved": 2, "disapproved": 1, "renovation": 1, "expired": 1, "awaiting_renovation": 1}
		if fmt.Sprint(got) == fmt.Sprint(want) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("statuses %v, want %v", got, want)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if n, err := seed.Opportunities(ctx, db, c, brands); err != nil || n != 0 {
		t.Errorf("second run created %d (%v)", n, err)
	}
	var conflicts int
	_ = db.QueryRow(ctx, `SELECT count(*) FROM opportunities WHERE cardinality(conflicts) > 0`).Scan(&conflicts)
	if conflicts == 0 {
		t.Error("the demo shows no conflicting registrations")
	}
}
