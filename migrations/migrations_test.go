package migrations_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"oportuna/internal/testenv"
	"oportuna/migrations"
)

func TestApplyIsIdempotentAndRecordsEveryFile(t *testing.T) {
	db, ctx := testenv.DBContext(t) // already migrated from the template
	ran, err := migrations.Apply(ctx, db)
	if err != nil || len(ran) != 0 {
		t.Fatalf("re-apply ran %v, err %v", ran, err)
	}
	names, _ := migrations.Names()
	var n int
	if err := db.QueryRow(ctx, `SELECT count(*) FROM schema_migrations`).Scan(&n); err != nil || n != len(names) || n == 0 {
		t.Fatalf("recorded %d of %d migrations (err %v)", n, len(names), err)
	}
	// The schema rejects malformed values at the source.
	if _, err := db.Exec(ctx, `INSERT INTO resales (brand, corporate_name, cnpj, email) VALUES ('yep', 'X', '12.345', 'a@b.c')`); err == nil {
		t.Error("a masked CNPJ was stored")
	}
	if _, err := db.Exec(ctx, `INSERT INTO users (name, email) VALUES ('A', 'Dup@x.com'), ('B', 'dup@X.com')`); err == nil {
		t.Error("e-mails differing only in case were both stored")
	}
}

// TestMigrationsLeaveTheStandInSchemaAlone: the product's migrations create no
// schema of the Salesforce stand-in (internal/dev/crmsim creates its own when it
// starts), and 0004, which once did, is still recorded as applied.
func TestMigrationsLeaveTheStandInSchemaAlone(t *testing.T) {
	db, ctx := testenv.DBContext(t) // migrated from the template, as a fresh database
	var schemas, tables int
	if err := db.QueryRow(ctx, `SELECT (SELECT count(*) FROM pg_namespace WHERE nspname = 'crm_sim'),
		(SELECT count(*) FROM pg_tables WHERE schemaname = 'crm_sim')`).Scan(&schemas, &tables); err != nil {
		t.Fatal(err)
	}
	if schemas != 0 || tables != 0 {
		t.Errorf("the migrations created the stand-in's schema (%d) and %d of its tables", schemas, tables)
	}
	var recorded bool
	if err := db.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE name = '0004_crm_sim.sql')`).Scan(&recorded); err != nil || !recorded {
		t.Errorf("0004 not recorded (%v): a database that applied it and one that did not must agree", err)
	}
}

// TestOldNoticeLinksKeepTheCompanysIDOnly: 0012 rewrites the in-app notices
// stored with a company's data in their link's query string to the id alone;
// other links are left as they are.
func TestOldNoticeLinksKeepTheCompanysIDOnly(t *testing.T) {
	db, ctx := testenv.DBContext(t)
	const id = "0b7c2f4e-9d1a-4c3b-8e5f-6a7b8c9d0e1f"
	old := "/Painel/Resales/details?cep=80010000&city=Curitiba&docNum=55666700000140&email=paula%40cadastro.demo&id=" + id +
		"&name=Paula+Ribeiro&phone=41998760000&status=analysis"
	var user string
	if err := db.QueryRow(ctx, `INSERT INTO users (name, email) VALUES ('Rep', 'rep@links.demo') RETURNING id::text`).Scan(&user); err != nil {
		t.Fatal(err)
	}
	for i, link := range []string{old, "/Painel/Opportunities/" + id + "?renovation=true", "/Painel/Resales/details?id=" + id} {
		if _, err := db.Exec(ctx, `INSERT INTO notifications (notice_key, user_id, brand, kind, title, link) VALUES ($1, $2, 'yep', 'k', 't', $3)`,
			"key-"+strconv.Itoa(i), user, link); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec(ctx, `DELETE FROM schema_migrations WHERE name = '0013_notice_links_id_only.sql'`); err != nil {
		t.Fatal(err)
	}
	if ran, err := migrations.Apply(ctx, db); err != nil || len(ran) != 1 {
		t.Fatalf("ran %v, %v", ran, err)
	}
	rows, _ := db.Query(ctx, `SELECT link FROM notifications ORDER BY notice_key`)
	links, err := pgx.CollectRows(rows, pgx.RowTo[string])
	want := []string{"/Painel/Resales/details?id=" + id, "/Painel/Opportunities/" + id + "?renovation=true", "/Painel/Resales/details?id=" + id}
	if err != nil || strings.Join(links, " ") != strings.Join(want, " ") {
		t.Fatalf("links %v (%v), want %v", links, err, want)
	}
}
