package localcrm_test

import (
	"context"
	"strings"
	"testing"

	"oportuna/internal/dev/localcrm"
	"oportuna/internal/testenv"
	"oportuna/store"
)

// TestLocalReadsByTheUUIDIndex: CRM looks the read model up by primary key
// (the plan uses opportunities_pkey, not a scan of every row cast to text),
// answers ids given in any case, and takes ids that are not UUIDs as not held
// rather than failing the query.
func TestLocalReadsByTheUUIDIndex(t *testing.T) {
	db, ctx := testenv.DBContext(t)
	var user string
	if err := db.QueryRow(ctx, `INSERT INTO users (name, email) VALUES ('Vendedor', 'v@x.com') RETURNING id::text`).Scan(&user); err != nil {
		t.Fatal(err)
	}
	const id = "0f5b7a52-abcd-4000-8000-00000000000a"
	if _, err := db.Exec(ctx, `INSERT INTO opportunities (id, brand, status, name, cnpj, user_id, created_at, register, probability_closing)
		VALUES ($1, 'yep', 'approved', 'Projeto', '11222333000181', $2, now(), 'LOCAL-0F5B7A52ABCD', 50)`, id, user); err != nil {
		t.Fatal(err)
	}
	l := localcrm.CRM{DB: db}
	upper := strings.ToUpper(id)
	got, err := l.GetOpportunities(ctx, []string{"not-a-uuid", "", "0f5b7a52-abcd-4000-8000-00000000000z", upper, "0f5b7a52-abcd-4000-8000-00000000000b"})
	if err != nil {
		t.Fatalf("invalid ids: %v", err)
	}
	if r, ok := got[upper]; len(got) != 1 || !ok || r.CRMID != "LOCAL-0F5B7A52ABCD" || r.Probability != 50 || !r.Shows("approved") {
		t.Errorf("records %+v", got)
	}
	if r, err := l.GetOpportunity(ctx, id); err != nil || r.Name != "Projeto" {
		t.Errorf("GetOpportunity = %+v, %v", r, err)
	}
	if none, err := l.GetOpportunities(ctx, []string{"x"}); err != nil || len(none) != 0 {
		t.Errorf("only invalid ids: %v %v", none, err)
	}

	conn, err := db.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SET enable_seqscan = off`); err != nil {
		t.Fatal(err)
	}
	rows, _ := conn.Query(ctx, "EXPLAIN "+lookupSQL, []string{id})
	var plan []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, line)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if p := strings.Join(plan, "\n"); !strings.Contains(p, "opportunities_pkey") {
		t.Errorf("the lookup does not use the primary key:\n%s", p)
	}
}

// lookupSQL is CRM.GetOpportunities' query, for its plan.
var lookupSQL, _ = store.Statement(func(q *store.Queries) error {
	_, err := q.HeldInCRM(context.Background(), nil)
	return err
})
