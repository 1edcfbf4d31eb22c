// Package seed creates the demo data of `make run`: for every brand a reseller
// company and seven users with the demo password. Running it again changes nothing.
package seed

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"oportuna/auth"
	"oportuna/brand"
	"oportuna/cnpj"
	"oportuna/store"
)

// DemoUser is one seeded login.
type DemoUser struct {
	Local string // e-mail before "@<slug>.demo"
	Name  string
	Roles []auth.Role
	// InResale ties the user to the brand's demo reseller company.
	InResale bool
	Phone    string
}

// DemoUsers are created for every brand.
var DemoUsers = []DemoUser{
	{Local: "representante", Name: "Renata Almeida", Roles: []auth.Role{auth.Representative}, Phone: "11987650001"},
	{Local: "suporte", Name: "Sérgio Costa", Roles: []auth.Role{auth.Support}, Phone: "11987650002"},
	{Local: "revenda", Name: "Ricardo Menezes", Roles: []auth.Role{auth.Resale}, InResale: true, Phone: "11987650003"},
	{Local: "vendedor1", Name: "Vanessa Lima", Roles: []auth.Role{auth.Seller}, InResale: true, Phone: "11987650004"},
	{Local: "vendedor2", Name: "Victor Souza", Roles: []auth.Role{auth.Seller}, InResale: true, Phone: "11987650005"},
	{Local: "multi", Name: "Mariana Torres", Roles: []auth.Role{auth.Representative, auth.Support}, Phone: "11987650006"},
	{Local: "representante2", Name: "Rodrigo Prates", Roles: []auth.Role{auth.Representative}, Phone: "11987650007"},
}

// DemoCoverage is the UFs each demo representative covers (docs/deal-desk.md,
// "Routing"): representante@ the Southeast and South, representante2@ the
// other UFs; multi@ covers none.
var DemoCoverage = map[string][]string{
	"representante":  {"ES", "MG", "PR", "RJ", "RS", "SC", "SP"},
	"representante2": {"AC", "AL", "AM", "AP", "BA", "CE", "DF", "GO", "MA", "MS", "MT", "PA", "PB", "PE", "PI", "RN", "RO", "RR", "SE", "TO"},
}

// Email is a demo user's login at a brand.
func Email(local, slug string) string { return local + "@" + slug + ".demo" }

// ResaleCNPJ is the demo reseller's CNPJ at the i-th brand (valid check digits).
func ResaleCNPJ(i int) string {
	base := fmt.Sprintf("%08d0001", 11222300+i*7)
	d, _ := cnpj.CheckDigits(base)
	return base + d
}

// Result counts what a run created.
type Result struct{ Resales, Users int }

// Run creates what is missing. The demo password is hashed only for new users.
func Run(ctx context.Context, db *pgxpool.Pool, brands *brand.Registry, password string) (Result, error) {
	var res Result
	err := store.Tx(ctx, db, func(q *store.Queries) error {
		for i, b := range brands.All() {
			doc := ResaleCNPJ(i)
			n, err := q.SeedResale(ctx, store.SeedResaleParams{Brand: b.Slug, CorporateName: "Revenda Modelo " + b.Name + " Ltda",
				FantasyName: "Modelo " + b.Name, Cnpj: doc, Phone: "1140002000", ContactName: "Ricardo Menezes",
				Email: Email("revenda", b.Slug), Cep: "01310100", Street: "Avenida Paulista, 1000", City: "São Paulo", State: "SP"})
			if err != nil {
				return fmt.Errorf("seed: resale of %s: %w", b.Slug, err)
			}
			res.Resales += int(n)
			resaleID, err := q.ResaleByCNPJ(ctx, store.ResaleByCNPJParams{Brand: b.Slug, Cnpj: doc})
			if err != nil {
				return err
			}
			for _, u := range DemoUsers {
				var resale *string
				if u.InResale {
					resale = &resaleID
				}
				exists, err := q.EmailExists(ctx, Email(u.Local, b.Slug))
				if err != nil {
					return err
				}
				if exists {
					if err := seedCoverage(ctx, q, b.Slug, u.Local); err != nil {
						return err
					}
					continue // already there: leave it as it is
				}
				hash, err := auth.HashPassword(password)
				if err != nil {
					return err
				}
				id, err := q.CreateUser(ctx, store.CreateUserParams{Name: u.Name, Email: Email(u.Local, b.Slug), Phone: u.Phone,
					PasswordHash: hash, ResaleID: resale, CreatedAt: time.Now()})
				if err != nil {
					return fmt.Errorf("seed: user %s: %w", Email(u.Local, b.Slug), err)
				}
				res.Users++
				for _, r := range u.Roles {
					if err := q.GrantRole(ctx, store.GrantRoleParams{UserID: id, Role: string(r), Brand: b.Slug}); err != nil {
						return err
					}
				}
				if err := seedCoverage(ctx, q, b.Slug, u.Local); err != nil {
					return err
				}
			}
		}
		return nil
	})
	return res, err
}

// seedCoverage gives a demo representative its DemoCoverage at the brand,
// unless it has a coverage there (one edited on the 'Cobertura' screen stays).
func seedCoverage(ctx context.Context, q *store.Queries, slug, local string) error {
	states, ok := DemoCoverage[local]
	if !ok {
		return nil
	}
	row, err := q.ActorByEmail(ctx, Email(local, slug))
	if err != nil {
		return fmt.Errorf("seed: coverage of %s: %w", Email(local, slug), err)
	}
	return q.SeedCoverage(ctx, store.SeedCoverageParams{Brand: slug, UserID: row.ID, States: states})
}
