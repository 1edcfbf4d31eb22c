package opportunity

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"oportuna/internal/testenv"
	"oportuna/store"
)

// TestNameKeyAgreesWithTheMigrationsSQL: the registration writes the key
// opportunity.NameKey computes, and migration 0018 filled the stored rows with
// conflict_name_key: both must give the same key, or a registration stored
// before the migration would not meet its conflicts. Checked on the table's
// names and on random strings of accented letters, marks, punctuation and
// suffixes.
func TestNameKeyAgreesWithTheMigrationsSQL(t *testing.T) {
	q := store.New(testenv.DB(t))
	ctx := context.Background()
	inputs := []string{}
	for in := range nameKeyCases {
		inputs = append(inputs, in)
	}
	alphabet := []string{"a", "Z", "ç", "Ã", "é", "ÿ", "Ñ", "9", " ", ".", "/", "-", "&", "\u0301", "\u0303", "ß", "ø", "K", "İ", "😀",
		" ltda", " S.A.", " S/A", " ME", " epp", " EIRELI", " s", " a", "\t", "ª"}
	rng := rand.New(rand.NewPCG(22, 18))
	for i := 0; i < 400; i++ {
		var b strings.Builder
		for j := rng.IntN(12); j >= 0; j-- {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		inputs = append(inputs, b.String())
	}
	for _, in := range inputs {
		db, err := q.ConflictNameKey(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		if got := NameKey(in); got != db {
			t.Errorf("NameKey(%q) = %q, the database's conflict_name_key = %q", in, got, db)
		}
	}
}
