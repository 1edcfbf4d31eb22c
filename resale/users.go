package resale

import (
	"context"
	"time"

	"oportuna/auth"
	"oportuna/opportunity"
	"oportuna/store"
)

// User is a new user of a reseller company: its RESALE user or a SELLER.
type User struct {
	Name     string
	Email    string
	Phone    string
	ResaleID string
	Role     auth.Role
	Brand    string
}

// CreateUser adds the user in q's transaction, without a password (an
// invitation sets it), with its role at the brand and the history row of its
// creation (once per historyKey; empty: no key). It answers ErrEmailTaken when
// a user or another company has the e-mail.
func CreateUser(ctx context.Context, q *store.Queries, u User, historyKey string, by *opportunity.Actor, at time.Time) (string, error) {
	email := auth.NormalizeEmail(u.Email)
	if err := q.LockEmail(ctx, email); err != nil {
		return "", err
	}
	own := "" // a company's RESALE user takes the company's own e-mail
	if u.Role == auth.Resale {
		own = u.ResaleID
	}
	taken, err := q.EmailTaken(ctx, store.EmailTakenParams{Email: email, ExceptResale: own})
	if err != nil {
		return "", err
	}
	if taken {
		return "", ErrEmailTaken
	}
	id, err := q.CreateUser(ctx, store.CreateUserParams{Name: u.Name, Email: email, Phone: u.Phone,
		ResaleID: store.NilIfEmpty(u.ResaleID), CreatedAt: at})
	if store.IsUniqueViolation(err) {
		return "", ErrEmailTaken
	}
	if err != nil {
		return "", err
	}
	if err := q.GrantRole(ctx, store.GrantRoleParams{UserID: id, Role: string(u.Role), Brand: u.Brand}); err != nil {
		return "", err
	}
	changes := []opportunity.Change{{Attribute: "name", NewValue: u.Name}, {Attribute: "email", NewValue: email}}
	if u.Phone != "" {
		changes = append(changes, opportunity.Change{Attribute: "phone", NewValue: u.Phone})
	}
	changes = append(changes, opportunity.Change{Attribute: "role", NewValue: string(u.Role)},
		opportunity.Change{Attribute: "active", NewValue: "true"})
	return id, opportunity.History{Key: historyKey, Type: "user", TypeID: id, Brand: u.Brand, Actor: by,
		Action: "create", Changes: changes, At: at}.Record(ctx, q)
}
