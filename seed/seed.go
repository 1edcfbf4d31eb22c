// Package seed creates the demo data of `make run`: for every brand a reseller
// company and six users with the demo password. Running it again changes nothing.
package seed

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"oportuna/auth"
	"oportuna/brand"
	"oportuna/cnpj"
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
	err := pgx.BeginFunc(ctx, db, func(tx pgx.Tx) error {
		for i, b := range brands.All() {
			doc := ResaleCNPJ(i)
			tag, err := tx.Exec(ctx, `INSERT INTO resales (brand, status, corporate_name, fantasy_name, cnpj, phone,
					contact_name, email, cep, street, city, state)
				VALUES ($1, 'approved', $2, $3, $4, '1140002000', 'Ricardo Menezes', $5, '01310100',
					'Avenida Paulista, 1000', 'São Paulo', 'SP')
				ON CONFLICT (brand, cnpj) DO NOTHING`,
				b.Slug, "Revenda Modelo "+b.Name+" Ltda", "Modelo "+b.Name, doc, Email("revenda", b.Slug))
			if err != nil {
				return fmt.Errorf("seed: resale of %s: %w", b.Slug, err)
			}
			res.Resales += int(tag.RowsAffected())
			var resaleID string
			if err := tx.QueryRow(ctx, `SELECT id::text FROM resales WHERE brand = $1 AND cnpj = $2`, b.Slug, doc).Scan(&resaleID); err != nil {
				return err
			}
			for _, u := range DemoUsers {
				var resale *string
				if u.InResale {
					resale = &resaleID
				}
				var exists bool
				if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM users WHERE lower(email) = $1)`,
					Email(u.Local, b.Slug)).Scan(&exists); err != nil {
					return err
				}
				if exists {
					continue // already there: leave it as it is
				}
				hash, err := auth.HashPassword(password)
				if err != nil {
					return err
				}
				var id string
				err = tx.QueryRow(ctx, `INSERT INTO users (name, email, phone, password_hash, resale_id)
					VALUES ($1, $2, $3, $4, $5::uuid) RETURNING id::text`,
					u.Name, Email(u.Local, b.Slug), u.Phone, hash, resale).Scan(&id)
				if err != nil {
					return fmt.Errorf("seed: user %s: %w", Email(u.Local, b.Slug), err)
				}
				res.Users++
				for _, r := range u.Roles {
					if _, err := tx.Exec(ctx, `INSERT INTO user_roles (user_id, role, brand) VALUES ($1, $2, $3)
						ON CONFLICT DO NOTHING`, id, r, b.Slug); err != nil {
						return err
					}
				}
			}
		}
		return nil
	})
	return res, err
}
