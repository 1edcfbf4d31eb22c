package opportunity

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"oportuna/cnpj"
	"oportuna/store"
)

// Conflicts (docs/deal-desk.md, "Conflicts"): another open registration of
// the same customer at the brand, found by the same CNPJ, the same CNPJ root
// (head office and branches) or the same company name once normalised.

// ConflictKind says why two registrations are of the same customer.
type ConflictKind string

// The kinds, strongest first (a registration is listed under the first that holds).
const (
	ConflictCNPJ ConflictKind = "cnpj"
	ConflictRoot ConflictKind = "cnpj_root"
	ConflictName ConflictKind = "name"
)

// ConflictProduct is a product line as the conflicts panel shows it.
type ConflictProduct struct {
	PartNumber  string `json:"partNumber"`
	Description string `json:"description"`
	Amount      int64  `json:"amount"`
}

// Conflict is another open registration of the same customer, as the
// representative and support see it (GET /opportunity/id/{id}).
type Conflict struct {
	ID            string            `json:"id"`
	Kind          ConflictKind      `json:"kind"`
	CNPJ          string            `json:"cnpj"`
	CorporateName string            `json:"corporateName"`
	Resale        string            `json:"resale"`
	Status        Status            `json:"status"`
	CreatedAt     time.Time         `json:"createdAt"`
	ApproveDate   *time.Time        `json:"approveDate"`
	Estimated     Money             `json:"estimated"`
	Products      []ConflictProduct `json:"products"`
}

// CNPJRoot is the root of a CNPJ (masked or not): the first 8 characters of
// its normalised form, the company's, shared by its head office and branches
// (11.444.777/0001-61 and 11.444.777/0002-42: 11444777; alphanumeric roots
// too: 12.ABC.345/01DE-35: 12ABC345). Empty when there are fewer than 8.
func CNPJRoot(doc string) string {
	n := cnpj.Normalize(doc)
	if len(n) < 8 {
		return ""
	}
	return n[:8]
}

// Accented Latin letters and the letter each stands for (conflict_name_key in
// migrations/0018_conflict_keys.sql translates the same two lists).
const (
	accented   = "ÁÀÂÃÄÅáàâãäåÇçÉÈÊËéèêëÍÌÎÏíìîïÑñÓÒÔÕÖóòôõöÚÙÛÜúùûüÝýÿ"
	unaccented = "AAAAAAaaaaaaCcEEEEeeeeIIIIiiiiNnOOOOOoooooUUUUuuuuYyy"
)

var unaccent = func() map[rune]rune {
	m := map[rune]rune{}
	to := []rune(unaccented)
	for i, r := range []rune(accented) {
		m[r] = to[i]
	}
	return m
}()

// legalSuffixes are the company-type words dropped from the end of a name
// ("s a" is S.A. and S/A once punctuation became spaces).
var legalSuffixes = map[string]bool{"ltda": true, "limitada": true, "sa": true, "me": true, "mei": true, "epp": true, "eireli": true}

// NameKey normalises a company name for the conflict check: combining marks
// dropped, accented letters to their base letter, every run of anything but an
// ASCII letter or digit to one space, lower case, and the legal suffixes at
// the end dropped (Ltda, S.A., S/A, ME, MEI, EPP, EIRELI; never the first
// word). "Atacado Boa Compra Ltda. - ME" and "ATACADO BOA COMPRA S/A" are both
// "atacado boa compra". It is the Go twin of the migration's conflict_name_key.
func NameKey(name string) string {
	var b strings.Builder
	for _, r := range name {
		if r >= 0x300 && r <= 0x36f {
			continue // a combining mark (a decomposed accent)
		}
		if u, ok := unaccent[r]; ok {
			r = u
		}
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case r >= 'A' && r <= 'Z':
			b.WriteRune(r - 'A' + 'a')
		default:
			b.WriteByte(' ')
		}
	}
	words := strings.Fields(b.String())
	for len(words) > 1 {
		n := len(words)
		switch {
		case legalSuffixes[words[n-1]]:
			words = words[:n-1]
		case n > 2 && words[n-2] == "s" && words[n-1] == "a":
			words = words[:n-2]
		default:
			return strings.Join(words, " ")
		}
	}
	return strings.Join(words, " ")
}

// LoadConflicts reads the other open registrations of the opportunity's
// customer at its brand (store.OpportunityConflicts), oldest first.
func LoadConflicts(ctx context.Context, q *store.Queries, id string) ([]Conflict, error) {
	rows, err := q.OpportunityConflicts(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("conflicts of %s: %w", id, err)
	}
	out := make([]Conflict, len(rows))
	for i, r := range rows {
		c := Conflict{ID: r.ID, Kind: ConflictKind(r.Kind), CNPJ: r.Cnpj, CorporateName: r.CorporateName,
			Resale: store.Deref(r.Resale), Status: Status(r.Status), CreatedAt: r.CreatedAt, ApproveDate: r.ApproveDate,
			Products: []ConflictProduct{}}
		if c.Estimated, err = ParseMoney(r.Estimated); err != nil {
			return nil, err
		}
		var products []Product
		if err := json.Unmarshal(r.Products, &products); err != nil {
			return nil, err
		}
		for _, p := range products {
			c.Products = append(c.Products, ConflictProduct{PartNumber: p.PartNumber, Description: p.Description, Amount: p.Amount})
		}
		out[i] = c
	}
	return out, nil
}
