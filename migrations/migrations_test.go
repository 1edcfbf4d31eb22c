package migrations_test

import (
	"testing"

	"oportuna/internal/testenv"
	"oportuna/migrations"
)

func TestMain(m *testing.M) { testenv.Main(m) }

func TestApplyIsIdempotentAndRecordsEveryFile(t *testing.T) {
	db := testenv.DB(t) // already migrated from the template
	ctx := testenv.Context(t)
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
