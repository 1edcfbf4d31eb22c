package seed_test

import (
	"testing"

	"oportuna/auth"
	"oportuna/brand"
	"oportuna/cnpj"
	"oportuna/internal/testenv"
	"oportuna/seed"
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
