package api

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/jackc/pgx/v5"

	"oportuna/auth"
	"oportuna/brand"
	"oportuna/internal/respond"
	"oportuna/mailer"
	"oportuna/opportunity"
	"oportuna/resale"
	"oportuna/store"
)

// Messages of the seller calls (spec §5 "Seller record", §8 "Seller creation", "Seller/user detail").
const (
	MsgSellerCreated     = "Vendedor cadastrado com sucesso"
	MsgSellerInvalid     = "Dados do usuário inválidos"
	MsgSellerEmailUsed   = "O email fornecido já foi utilizado por outro usuário! Por favor, digite outro email!"
	MsgUserDeleted       = "Usuário deletado com sucesso"
	MsgUserNotFound      = "Usuário não encontrado."
	MsgNoCompany         = "Seu usuário não está vinculado a uma revenda."
	MsgSelfDeactivation  = "Você não pode excluir o seu próprio usuário."
	MsgStatusParam       = "Parâmetro status inválido: use true, false ou all."
	MsgMailNotConfigured = "O envio de e-mails não está configurado."
)

// sellerRow is a seller as its reseller's list shows it (spec §3 "Seller").
type sellerRow struct {
	ID     string  `json:"id"`
	Name   string  `json:"name"`
	Email  string  `json:"email"`
	Phone  *string `json:"phone"`
	Active bool    `json:"active"`
}

// partnerUserRow is a partner user as staff see it: with its roles at the
// brand and its company's name.
type partnerUserRow struct {
	ID     string   `json:"id"`
	Name   string   `json:"name"`
	Email  string   `json:"email"`
	Phone  *string  `json:"phone"`
	Active bool     `json:"active"`
	Roles  []string `json:"roles"`
	Resale string   `json:"resale"`
}

// activeParam reads status=true|false|all (default true: deactivated users are
// "deleted" for the screens). nil means both.
func activeParam(r *http.Request) (*bool, bool) {
	switch strings.ToLower(strings.TrimSpace(r.URL.Query().Get("status"))) {
	case "", "true":
		v := true
		return &v, true
	case "false":
		v := false
		return &v, true
	case "all":
		return nil, true
	}
	return nil, false
}

// sellersOf lists the company's sellers at the brand (SELLER role), by name.
func sellersOf(resaleID, brandSlug string) *store.UserFilter {
	return &store.UserFilter{Brand: brandSlug, ResaleID: resaleID}
}

// partnersOf lists the brand's partner users: those holding RESALE or SELLER at it.
func partnersOf(brandSlug string) *store.UserFilter {
	return &store.UserFilter{Brand: brandSlug}
}

// userFilters reads a user list's status (activeParam) and, with byName, its
// name; it answers 400 for an invalid status.
func userFilters(w http.ResponseWriter, r *http.Request, f *store.UserFilter, byName bool) bool {
	active, ok := activeParam(r)
	if !ok {
		respond.Error(w, http.StatusBadRequest, MsgStatusParam)
		return false
	}
	f.Active = active
	if name := strings.TrimSpace(r.URL.Query().Get("name")); byName && name != "" {
		f.Name = name
	}
	return true
}

// listUsers runs a user list: the total and one page, ordered by name.
func (s *Server) listUsers(w http.ResponseWriter, r *http.Request, f *store.UserFilter, staffView bool) (any, int, bool) {
	amount, page, msg := pageParams(r)
	if msg != "" {
		respond.Error(w, http.StatusBadRequest, msg)
		return nil, 0, false
	}
	q := store.New(s.DB)
	total, err := q.CountUsers(r.Context(), *f)
	if err != nil {
		respond.Internal(w, r, err)
		return nil, 0, false
	}
	rows, err := q.UserPage(r.Context(), *f, amount, (page-1)*amount, staffView)
	if err != nil {
		respond.Internal(w, r, err)
		return nil, 0, false
	}
	if !staffView {
		list := make([]sellerRow, len(rows))
		for i, u := range rows {
			list[i] = sellerRow{ID: u.ID, Name: u.Name, Email: u.Email, Phone: u.Phone, Active: u.Active}
		}
		return list, total, true
	}
	list := make([]partnerUserRow, len(rows))
	for i, u := range rows {
		list[i] = partnerUserRow{ID: u.ID, Name: u.Name, Email: u.Email, Phone: u.Phone, Active: u.Active, Roles: u.Roles, Resale: u.Resale}
	}
	return list, total, true
}

// handleSellerList is GET /seller/all (RESALE): the caller's company's sellers.
func (s *Server) handleSellerList(w http.ResponseWriter, r *http.Request) {
	p, ok := s.partnerOf(w, r)
	if !ok {
		return
	}
	if p.ResaleID == "" {
		respond.Error(w, http.StatusForbidden, MsgNoCompany)
		return
	}
	q := sellersOf(p.ResaleID, p.Brand)
	if !userFilters(w, r, q, false) {
		return
	}
	if list, total, ok := s.listUsers(w, r, q, false); ok {
		respond.JSON(w, http.StatusOK, map[string]any{"result": list, "total": total})
	}
}

// handlePartnerUserList is GET /representative/all (REPRESENTATIVE, SUPPORT):
// the partner users (RESALE and SELLER) of the token's brand.
func (s *Server) handlePartnerUserList(w http.ResponseWriter, r *http.Request) {
	c := auth.FromContext(r.Context())
	if !sameBrandParam(w, r, c) {
		return
	}
	if _, ok := s.partnerOf(w, r); !ok {
		return
	}
	q := partnersOf(c.Brand)
	if !userFilters(w, r, q, false) {
		return
	}
	if list, total, ok := s.listUsers(w, r, q, true); ok {
		respond.JSON(w, http.StatusOK, map[string]any{"result": list, "total": total})
	}
}

// handleSellerByName is GET /seller/name: the list of the caller's role
// (RESALE: its sellers; REPRESENTATIVE, SUPPORT: the brand's partner users)
// whose name contains the text, in any case.
func (s *Server) handleSellerByName(w http.ResponseWriter, r *http.Request) {
	p, ok := s.partnerOf(w, r)
	if !ok || !sameBrandParam(w, r, p.Claims) {
		return
	}
	var q *store.UserFilter
	staff := false
	switch {
	case p.Has(auth.Resale):
		if p.ResaleID == "" {
			respond.Error(w, http.StatusForbidden, MsgNoCompany)
			return
		}
		q = sellersOf(p.ResaleID, p.Brand)
	default:
		q, staff = partnersOf(p.Brand), true
	}
	if !userFilters(w, r, q, true) {
		return
	}
	if list, total, ok := s.listUsers(w, r, q, staff); ok {
		respond.JSON(w, http.StatusOK, map[string]any{"total": total, "data": list})
	}
}

// sellerBody is POST /seller (spec §3 "Seller creation").
type sellerBody struct {
	Email string `json:"email"`
	Name  string `json:"name"`
	Phone text   `json:"phone"`
	Host  string `json:"host"`
}

// check validates the seller with the messages of spec §5 "Seller record".
func (b sellerBody) check() (name, email, phone string, errs []string) {
	name = strings.Join(strings.Fields(b.Name), " ")
	email = auth.NormalizeEmail(b.Email)
	phone = resale.Digits(string(b.Phone))
	if name == "" || utf8.RuneCountInString(name) > 120 {
		errs = append(errs, resale.MsgCheckName)
	}
	if !resale.ValidEmail(email) {
		errs = append(errs, resale.MsgCheckEmail)
	}
	if !resale.ValidMobile(phone) {
		errs = append(errs, resale.MsgCheckPhone)
	}
	return name, email, phone, errs
}

// handleCreateSeller is POST /seller (RESALE): adds a seller to the caller's
// company and e-mails the invitation with a link that sets the password.
func (s *Server) handleCreateSeller(w http.ResponseWriter, r *http.Request) {
	p, ok := s.partnerOf(w, r)
	if !ok {
		return
	}
	var body sellerBody
	if !respond.DecodeBody(w, r, &body) {
		return
	}
	name, email, phone, errs := body.check()
	if len(errs) > 0 {
		respond.JSON(w, http.StatusBadRequest, respond.Message{Message: MsgSellerInvalid, Errors: errs})
		return
	}
	if p.ResaleID == "" {
		respond.Error(w, http.StatusForbidden, MsgNoCompany)
		return
	}
	b, _ := s.Brands.BySlug(p.Brand)
	if b == nil || s.Partners.Mail == nil {
		slog.ErrorContext(r.Context(), "seller invitation: partner mail not configured")
		respond.Error(w, http.StatusInternalServerError, MsgMailNotConfigured)
		return
	}
	actor := opportunity.Actor{UserID: p.Subject, Name: p.Name, Roles: p.Roles, ResaleID: p.ResaleID}
	now := time.Now()
	var id string
	var inv mailer.SellerInvitation
	// The user, its role, its history row and its invitation token commit
	// together; the e-mail goes out only after the commit, so no invitation ever
	// links to a user that does not exist.
	err := store.Tx(r.Context(), s.DB, func(q *store.Queries) error {
		company, err := q.ResaleName(r.Context(), p.ResaleID)
		if err != nil {
			return err
		}
		id, err = resale.CreateUser(r.Context(), q, resale.User{Name: name, Email: email, Phone: phone,
			ResaleID: p.ResaleID, Role: auth.Seller, Brand: p.Brand}, "", &actor, now)
		if err != nil {
			return err
		}
		token, err := auth.CreateInvite(r.Context(), q, id, p.Brand, s.inviteTTL(), now)
		if err != nil {
			return err
		}
		inv = mailer.SellerInvitation{Name: name, Email: email, ResaleName: company,
			Link: auth.SetPasswordLink(s.portalFor(r, p.Brand, body.Host), token), ValidFor: s.inviteTTL()}
		return nil
	})
	switch {
	case errors.Is(err, resale.ErrEmailTaken):
		respond.Error(w, http.StatusConflict, MsgSellerEmailUsed)
		return
	case err != nil:
		respond.Internal(w, r, err)
		return
	}
	s.sendSellerInvitation(r, b, id, inv)
	respond.JSON(w, http.StatusCreated, map[string]any{"message": MsgSellerCreated, "id": id})
}

// invitationTimeout bounds the dispatch of a committed seller's invitation.
const invitationTimeout = 15 * time.Second

// sendSellerInvitation dispatches the committed seller's invitation. Its
// outbox key is derived from the invitation (the new user's single token), so
// the second attempt after a failure records and starts the same e-mail, never
// a second one. The seller exists either way: when both attempts fail the
// failure is logged with the user's id and the seller sets the password with
// 'Esqueci minha senha' (docs/partners.md).
func (s *Server) sendSellerInvitation(r *http.Request, b *brand.Brand, userID string, inv mailer.SellerInvitation) {
	// The user is committed: a client that hangs up now does not cancel its e-mail.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), invitationTimeout)
	defer cancel()
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		if err = s.Partners.Mail.SendSellerInvitation(ctx, b, inv); err == nil {
			return
		}
	}
	slog.ErrorContext(r.Context(), "seller invitation not sent", "request_id", middleware.GetReqID(r.Context()),
		"user_id", userID, "brand", b.Slug, "err", err)
}

// SellerUndoWindow is how long after 'Excluir usuário' its reseller may undo it
// (PATCH /seller/restore/{id}): the web app offers 'Desfazer' for a few
// seconds; the server allows more, for a slow network.
const SellerUndoWindow = 10 * time.Minute

// Messages of the undo of a seller's deletion.
const (
	MsgUserRestored   = "Exclusão desfeita: o usuário voltou a ter acesso."
	MsgUndoExpired    = "Não é mais possível desfazer esta exclusão."
	MsgUserNotDeleted = "Este usuário não está excluído."
)

// lockCompanySeller reads and locks user id for a change by reseller p: 404
// for an unknown id or a user of another brand, 403 for another company's
// user or one that is not a seller; 0 when p may change it.
func lockCompanySeller(r *http.Request, q *store.Queries, p partner, id string) (store.LockBrandUserRow, int, error) {
	u, err := q.LockBrandUser(r.Context(), store.LockBrandUserParams{ID: id, Brand: p.Brand})
	if errors.Is(err, pgx.ErrNoRows) {
		return u, http.StatusNotFound, nil // unknown, or a user of another brand
	}
	if err != nil {
		return u, 0, err
	}
	if u.ResaleID == nil || p.ResaleID == "" || *u.ResaleID != p.ResaleID || !u.Seller {
		return u, http.StatusForbidden, nil // another company's user, or not a seller
	}
	return u, 0, nil
}

// sellerChange runs change on a seller of the caller's company (the checks of
// lockCompanySeller, then change's own status and message) in one transaction.
func (s *Server) sellerChange(w http.ResponseWriter, r *http.Request,
	change func(q *store.Queries, p partner, id string, u store.LockBrandUserRow, actor opportunity.Actor) (int, string, error)) {
	p, ok := s.partnerOf(w, r)
	if !ok {
		return
	}
	id := chi.URLParam(r, "id")
	if !opportunity.ValidID(id) {
		respond.Error(w, http.StatusNotFound, MsgUserNotFound)
		return
	}
	if strings.EqualFold(id, p.Subject) {
		respond.Error(w, http.StatusForbidden, MsgSelfDeactivation)
		return
	}
	actor := opportunity.Actor{UserID: p.Subject, Name: p.Name, Roles: p.Roles, ResaleID: p.ResaleID}
	var status int
	var msg string
	err := store.Tx(r.Context(), s.DB, func(q *store.Queries) error {
		u, refused, err := lockCompanySeller(r, q, p, id)
		if err != nil || refused != 0 {
			status = refused
			return err
		}
		status, msg, err = change(q, p, id, u, actor)
		return err
	})
	switch {
	case err != nil:
		respond.Internal(w, r, err)
	case status == http.StatusNotFound:
		respond.Error(w, status, MsgUserNotFound)
	case status == http.StatusForbidden:
		respond.Error(w, status, auth.MsgForbidden)
	case status >= 400:
		respond.Error(w, status, msg)
	default:
		respond.JSON(w, status, respond.Message{Message: msg})
	}
}

// handleDeactivateSeller is PATCH /seller/inative/{id} (RESALE): deactivates a
// seller of the caller's company. The user keeps its history and records but can
// no longer sign in: its sessions and pending links end. Within
// SellerUndoWindow the reseller may undo it (handleRestoreSeller).
func (s *Server) handleDeactivateSeller(w http.ResponseWriter, r *http.Request) {
	s.sellerChange(w, r, func(q *store.Queries, p partner, id string, u store.LockBrandUserRow, actor opportunity.Actor) (int, string, error) {
		if !u.Active {
			return http.StatusOK, MsgUserDeleted, nil // already deactivated: nothing changes
		}
		now := s.now()
		if err := q.DeactivateUser(r.Context(), store.DeactivateUserParams{ID: id, At: now}); err != nil {
			return 0, "", err
		}
		if err := q.RevokeUserTokens(r.Context(), store.RevokeUserTokensParams{UserID: id, At: &now}); err != nil {
			return 0, "", err
		}
		if err := q.VoidPasswordLinks(r.Context(), store.VoidPasswordLinksParams{UserID: id, At: &now}); err != nil {
			return 0, "", err
		}
		return http.StatusOK, MsgUserDeleted, opportunity.History{Type: "user", TypeID: id, Brand: p.Brand, Actor: &actor,
			Action: "update", Changes: []opportunity.Change{{Attribute: "active", OldValue: "true", NewValue: "false"}}, At: now}.Record(r.Context(), q)
	})
}

// handleRestoreSeller is PATCH /seller/restore/{id} (RESALE): undoes the
// deactivation of a seller of the caller's company within SellerUndoWindow
// ('Desfazer'). The user signs in again with its password; the sessions and
// links the deletion ended stay ended. 409 when the user is not deleted or the
// window has passed.
func (s *Server) handleRestoreSeller(w http.ResponseWriter, r *http.Request) {
	s.sellerChange(w, r, func(q *store.Queries, p partner, id string, u store.LockBrandUserRow, actor opportunity.Actor) (int, string, error) {
		now := s.now()
		switch {
		case u.Active:
			return http.StatusConflict, MsgUserNotDeleted, nil
		case u.DeactivatedAt == nil || now.Sub(*u.DeactivatedAt) > SellerUndoWindow:
			return http.StatusConflict, MsgUndoExpired, nil
		}
		if err := q.RestoreUser(r.Context(), store.RestoreUserParams{ID: id, At: now}); err != nil {
			return 0, "", err
		}
		return http.StatusOK, MsgUserRestored, opportunity.History{Type: "user", TypeID: id, Brand: p.Brand, Actor: &actor,
			Action: "update", Changes: []opportunity.Change{{Attribute: "active", OldValue: "false", NewValue: "true"}}, At: now}.Record(r.Context(), q)
	})
}
