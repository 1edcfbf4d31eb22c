package activities

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"go.temporal.io/sdk/temporal"

	"oportuna/auth"
	"oportuna/cnpj"
	"oportuna/mailer"
	"oportuna/opportunity"
)

// Statuses of a reseller company (spec §4 "Resale status").
const (
	ResaleAnalysis    = "analysis"
	ResaleApproved    = "approved"
	ResaleDisapproved = "disapproved"
)

// ValidResaleStatus reports whether s is a reseller status.
func ValidResaleStatus(s string) bool {
	return s == ResaleAnalysis || s == ResaleApproved || s == ResaleDisapproved
}

// ResaleStatusLabel is the status as a sentence says it ("a revenda está aprovada").
func ResaleStatusLabel(s string) string {
	switch s {
	case ResaleAnalysis:
		return "em análise"
	case ResaleApproved:
		return "aprovada"
	case ResaleDisapproved:
		return "reprovada"
	}
	return "fora de análise"
}

// Error types of the partner activities.
const (
	// ErrTypeDuplicate is an e-mail or CNPJ already registered (the API answers 400 or 409).
	ErrTypeDuplicate = "Duplicate"
	// ErrTypeResaleState is a decision on a company that is no longer in analysis
	// (409): the same type as workflows.ErrTypeTransition, which this package cannot import.
	ErrTypeResaleState = "InvalidTransition"
)

// Messages of the partner activities (pt-BR, shown to users).
const (
	MsgDuplicateResale = "Email ou Doc já existente"
	MsgResaleEmailUsed = "O email da revenda já pertence a outro usuário."
	// MsgResaleEmailTaken refuses a sign-up whose e-mail a user or a company
	// has (the spec's server message; the screen goes back to the e-mail's step).
	MsgResaleEmailTaken = "Email já está sendo utilizado"
	// MsgResaleCNPJTaken refuses a sign-up whose CNPJ is already registered at
	// the brand (the screen stays on the CNPJ's step).
	MsgResaleCNPJTaken = "Já existe uma revenda registrada com este CNPJ."
)

// ErrEmailTaken is an e-mail some user or company already has.
var ErrEmailTaken = errors.New("e-mail already in use")

// ResaleRegistration is a company's sign-up (spec §3 "Reseller registration
// payload"), already validated and normalised by the API: CNPJ, phone and CEP
// as characters without a mask, e-mail in lower case.
type ResaleRegistration struct {
	Email         string `json:"email"`
	Phone         string `json:"phone"`
	ContactName   string `json:"contactName"`
	CNPJ          string `json:"cnpj"`
	FantasyName   string `json:"fantasyName"`
	CorporateName string `json:"corporateName"`
	Street        string `json:"street"`
	State         string `json:"state"`
	CEP           string `json:"cep"`
	City          string `json:"city"`
	Country       string `json:"country"`
}

// RegisterResaleInput is a sign-up to persist under the workflow's id.
type RegisterResaleInput struct {
	ID           string             `json:"id"`
	Brand        string             `json:"brand"`
	Registration ResaleRegistration `json:"registration"`
	At           time.Time          `json:"at"`
}

// ResaleFacts is what the onboarding workflow keeps of a company: ids and state,
// no personal data.
type ResaleFacts struct {
	ID        string    `json:"id"`
	Brand     string    `json:"brand"`
	Status    string    `json:"status"`
	CNPJ      string    `json:"cnpj"`
	CreatedAt time.Time `json:"createdAt"`
}

// HistoryEntry is one row of a record's change history.
type HistoryEntry struct {
	Key    string // idempotency key (history.event_key); empty: none
	Type   string // opportunity, resale or user
	TypeID string
	Brand  string
	Actor  *Actor // nil: Username alone (e.g. the contact of a sign-up), or the system
	// Username names who acted when there is no Actor ("Sistema" when empty).
	Username string
	Action   string // create or update
	Changes  []Change
	At       time.Time
}

// RecordHistory writes a history row in tx, once per key.
func RecordHistory(ctx context.Context, tx pgx.Tx, e HistoryEntry) error {
	changes := e.Changes
	if changes == nil {
		changes = []Change{}
	}
	mods, _ := json.Marshal(changes)
	var userID *string
	username := e.Username
	if e.Actor != nil {
		userID, username = &e.Actor.UserID, e.Actor.Name
	}
	if username == "" {
		username = "Sistema"
	}
	var key *string
	if e.Key != "" {
		key = &e.Key
	}
	_, err := tx.Exec(ctx, `INSERT INTO history (event_key, type, type_id, brand, user_id, username, action_type, modifications, created_at)
		VALUES ($1, $2, $3, $4, $5::uuid, $6, $7, $8, $9) ON CONFLICT (event_key) DO NOTHING`,
		key, e.Type, e.TypeID, e.Brand, userID, username, e.Action, mods, e.At)
	return err
}

// LockEmail serialises, until tx ends, every transaction that checks and then
// claims the e-mail (sign-ups, sellers, approved companies' users).
func LockEmail(ctx context.Context, tx pgx.Tx, email string) error {
	_, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('email:' || $1, 0))`, auth.NormalizeEmail(email))
	return err
}

// EmailTaken reports whether a user, or a company other than exceptResale, has
// the e-mail. Call it after LockEmail.
func EmailTaken(ctx context.Context, tx pgx.Tx, email, exceptResale string) (bool, error) {
	var taken bool
	err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM users WHERE lower(email) = $1)
		OR EXISTS (SELECT 1 FROM resales WHERE lower(email) = $1 AND id::text <> $2)`,
		auth.NormalizeEmail(email), exceptResale).Scan(&taken)
	return taken, err
}

// PartnerUser is a new user of a reseller company: its RESALE user or a SELLER.
type PartnerUser struct {
	Name     string
	Email    string
	Phone    string
	ResaleID string
	Role     auth.Role
	Brand    string
}

// CreatePartnerUser adds the user, without a password (an invitation sets it),
// with its role at the brand, and the history row of its creation. It answers
// ErrEmailTaken when a user or another company has the e-mail.
func CreatePartnerUser(ctx context.Context, tx pgx.Tx, u PartnerUser, historyKey string, by *Actor, at time.Time) (string, error) {
	if err := LockEmail(ctx, tx, u.Email); err != nil {
		return "", err
	}
	own := "" // a company's RESALE user takes the company's own e-mail
	if u.Role == auth.Resale {
		own = u.ResaleID
	}
	taken, err := EmailTaken(ctx, tx, u.Email, own)
	if err != nil {
		return "", err
	}
	if taken {
		return "", ErrEmailTaken
	}
	var id string
	err = tx.QueryRow(ctx, `INSERT INTO users (name, email, phone, resale_id, created_at, updated_at)
		VALUES ($1, $2, $3, $4::uuid, $5, $5) RETURNING id::text`,
		u.Name, auth.NormalizeEmail(u.Email), u.Phone, u.ResaleID, at).Scan(&id)
	if isUniqueViolation(err) {
		return "", ErrEmailTaken
	}
	if err != nil {
		return "", err
	}
	if _, err := tx.Exec(ctx, `INSERT INTO user_roles (user_id, role, brand) VALUES ($1, $2, $3)`, id, u.Role, u.Brand); err != nil {
		return "", err
	}
	changes := []Change{{Attribute: "name", NewValue: u.Name}, {Attribute: "email", NewValue: auth.NormalizeEmail(u.Email)}}
	if u.Phone != "" {
		changes = append(changes, Change{Attribute: "phone", NewValue: u.Phone})
	}
	changes = append(changes, Change{Attribute: "role", NewValue: string(u.Role)}, Change{Attribute: "active", NewValue: "true"})
	return id, RecordHistory(ctx, tx, HistoryEntry{Key: historyKey, Type: "user", TypeID: id, Brand: u.Brand, Actor: by,
		Action: "create", Changes: changes, At: at})
}

func isUniqueViolation(err error) bool {
	var pg *pgconn.PgError
	return errors.As(err, &pg) && pg.Code == "23505"
}

// duplicateResale refuses a sign-up: msg is MsgResaleCNPJTaken or MsgResaleEmailTaken.
func duplicateResale(msg string) error {
	return temporal.NewNonRetryableApplicationError(msg, ErrTypeDuplicate, nil)
}

// RegisterResale stores a company's sign-up in analysis with the history row of
// its creation, once per id. A company whose e-mail a user or another company
// has, or whose CNPJ is already registered at the brand, is refused
// (ErrTypeDuplicate, not retried).
func (a *Activities) RegisterResale(ctx context.Context, in RegisterResaleInput) (ResaleFacts, error) {
	r := in.Registration
	err := pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		var exists bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM resales WHERE id = $1)`, in.ID).Scan(&exists); err != nil {
			return err
		}
		if exists {
			return nil // a retry: already registered
		}
		if err := LockEmail(ctx, tx, r.Email); err != nil {
			return err
		}
		// The CNPJ first: a company already registered is told so whatever
		// e-mail it tries.
		var cnpjTaken bool
		err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM resales WHERE brand = $1 AND cnpj = $2)`, in.Brand, r.CNPJ).Scan(&cnpjTaken)
		if err != nil {
			return err
		}
		if cnpjTaken {
			return duplicateResale(MsgResaleCNPJTaken)
		}
		emailTaken, err := EmailTaken(ctx, tx, r.Email, "")
		if err != nil {
			return err
		}
		if emailTaken {
			return duplicateResale(MsgResaleEmailTaken)
		}
		_, err = tx.Exec(ctx, `INSERT INTO resales (id, brand, status, corporate_name, fantasy_name, cnpj, phone, contact_name,
				email, cep, street, city, state, country, created_at, updated_at)
			VALUES ($1, $2, 'analysis', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14)`,
			in.ID, in.Brand, r.CorporateName, r.FantasyName, r.CNPJ, r.Phone, r.ContactName, auth.NormalizeEmail(r.Email),
			r.CEP, r.Street, r.City, r.State, r.Country, in.At)
		if isUniqueViolation(err) {
			// A sign-up of the same company or e-mail committed meanwhile.
			var pg *pgconn.PgError
			if errors.As(err, &pg) && strings.Contains(pg.ConstraintName, "cnpj") {
				return duplicateResale(MsgResaleCNPJTaken)
			}
			return duplicateResale(MsgResaleEmailTaken)
		}
		if err != nil {
			return err
		}
		var changes []Change
		for _, f := range []struct{ attr, v string }{
			{"corporateName", r.CorporateName}, {"fantasyName", r.FantasyName}, {"cnpj", r.CNPJ},
			{"contactName", r.ContactName}, {"email", auth.NormalizeEmail(r.Email)}, {"phone", r.Phone},
			{"cep", r.CEP}, {"street", r.Street}, {"city", r.City}, {"state", r.State}, {"status", ResaleAnalysis},
		} {
			if f.v != "" {
				changes = append(changes, Change{Attribute: f.attr, NewValue: f.v})
			}
		}
		return RecordHistory(ctx, tx, HistoryEntry{Key: "resale/" + in.ID + "/create", Type: "resale", TypeID: in.ID,
			Brand: in.Brand, Username: r.ContactName, Action: "create", Changes: changes, At: in.At})
	})
	if err != nil {
		var app *temporal.ApplicationError
		if errors.As(err, &app) {
			return ResaleFacts{}, err
		}
		return ResaleFacts{}, fmt.Errorf("register resale: %w", err)
	}
	return a.ResaleFacts(ctx, in.ID)
}

// ResaleFacts reads a company's state (a workflow adopting a company calls it).
// An unknown id is a non-retryable NotFound.
func (a *Activities) ResaleFacts(ctx context.Context, id string) (ResaleFacts, error) {
	var f ResaleFacts
	err := a.DB.QueryRow(ctx, `SELECT id::text, brand, status, cnpj, created_at FROM resales WHERE id = $1`, id).
		Scan(&f.ID, &f.Brand, &f.Status, &f.CNPJ, &f.CreatedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return f, temporal.NewNonRetryableApplicationError("resale not found: "+id, "NotFound", nil)
	}
	return f, err
}

// ResaleDecisionInput approves or refuses a company in analysis.
type ResaleDecisionInput struct {
	ResaleID string    `json:"resaleId"`
	Brand    string    `json:"brand"`
	Actor    Actor     `json:"actor"`
	Approve  bool      `json:"approve"`
	Reason   string    `json:"reason,omitempty"`
	At       time.Time `json:"at"`
}

// ResaleDecided is the outcome of a decision: on approval, the company's RESALE user.
type ResaleDecided struct {
	Status string `json:"status"`
	UserID string `json:"userId,omitempty"`
}

func (in ResaleDecisionInput) key() string {
	if in.Approve {
		return "resale/" + in.ResaleID + "/approved"
	}
	return "resale/" + in.ResaleID + "/disapproved"
}

// DecideResale records the decision with its history row, once. Approval also
// creates the company's RESALE user for the brand: the contact's name, e-mail
// and phone, tied to the company, without a password (MailResaleDecision sends
// the link that sets it). A company no longer in analysis, or whose e-mail
// another user took meanwhile, is refused without retries.
func (a *Activities) DecideResale(ctx context.Context, in ResaleDecisionInput) (ResaleDecided, error) {
	out := ResaleDecided{Status: ResaleDisapproved}
	if in.Approve {
		out.Status = ResaleApproved
	}
	err := pgx.BeginFunc(ctx, a.DB, func(tx pgx.Tx) error {
		var r ResaleRegistration
		var status string
		err := tx.QueryRow(ctx, `SELECT status, contact_name, email, phone FROM resales WHERE id = $1 AND brand = $2 FOR UPDATE`,
			in.ResaleID, in.Brand).Scan(&status, &r.ContactName, &r.Email, &r.Phone)
		if errors.Is(err, pgx.ErrNoRows) {
			return temporal.NewNonRetryableApplicationError("resale not found: "+in.ResaleID, "NotFound", nil)
		}
		if err != nil {
			return err
		}
		var done bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM history WHERE event_key = $1)`, in.key()).Scan(&done); err != nil {
			return err
		}
		if done { // a retry: report what was done
			if in.Approve {
				return tx.QueryRow(ctx, `SELECT u.id::text FROM users u JOIN user_roles r ON r.user_id = u.id
					WHERE u.resale_id = $1 AND r.role = 'RESALE' AND r.brand = $2 ORDER BY u.created_at LIMIT 1`,
					in.ResaleID, in.Brand).Scan(&out.UserID)
			}
			return nil
		}
		if status != ResaleAnalysis {
			return temporal.NewNonRetryableApplicationError("Ação não permitida: a revenda está "+ResaleStatusLabel(status)+".",
				ErrTypeResaleState, nil)
		}
		reason := strings.TrimSpace(in.Reason)
		if in.Approve {
			reason = ""
		}
		if _, err := tx.Exec(ctx, `UPDATE resales SET status = $2, reason = $3, decided_at = $4, decided_by = $5::uuid, updated_at = $4
			WHERE id = $1`, in.ResaleID, out.Status, reason, in.At, nilIfEmpty(in.Actor.UserID)); err != nil {
			return err
		}
		changes := []Change{{Attribute: "status", OldValue: status, NewValue: out.Status}}
		if reason != "" {
			changes = append(changes, Change{Attribute: "reason", NewValue: reason})
		}
		if err := RecordHistory(ctx, tx, HistoryEntry{Key: in.key(), Type: "resale", TypeID: in.ResaleID, Brand: in.Brand,
			Actor: &in.Actor, Action: "update", Changes: changes, At: in.At}); err != nil {
			return err
		}
		if err := readNoticesOf(ctx, tx, resaleNoticePrefix(in.ResaleID), in.At); err != nil { // notices_read.go
			return err
		}
		if !in.Approve {
			return nil
		}
		out.UserID, err = CreatePartnerUser(ctx, tx, PartnerUser{Name: r.ContactName, Email: r.Email, Phone: r.Phone,
			ResaleID: in.ResaleID, Role: auth.Resale, Brand: in.Brand}, in.key()+"/user", &in.Actor, in.At)
		if errors.Is(err, ErrEmailTaken) {
			return temporal.NewNonRetryableApplicationError(MsgResaleEmailUsed, ErrTypeDuplicate, nil)
		}
		return err
	})
	if err != nil {
		var app *temporal.ApplicationError
		if errors.As(err, &app) {
			return out, err
		}
		return out, fmt.Errorf("decide resale %s: %w", in.ResaleID, err)
	}
	return out, nil
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// ResaleMailInput e-mails the decision to the company's contact.
type ResaleMailInput struct {
	ResaleID string `json:"resaleId"`
	Brand    string `json:"brand"`
	Approved bool   `json:"approved"`
	// Portal is the base URL of the set-password link (empty: the mailer's PORTAL_URL).
	Portal    string        `json:"portal,omitempty"`
	InviteTTL time.Duration `json:"inviteTtl,omitempty"`
}

// MailResaleDecision e-mails the contact, once per company: on approval the
// welcome with a link that sets the RESALE user's password (a new single-use
// token, created only while no e-mail was recorded, so a retry sends the same
// link), on refusal the reason.
func (a *Activities) MailResaleDecision(ctx context.Context, in ResaleMailInput) error {
	b, ok := a.Brands.BySlug(in.Brand)
	if !ok {
		return temporal.NewNonRetryableApplicationError("unknown brand "+in.Brand, ErrTypeMailInvalid, nil)
	}
	key := "resale/" + in.ResaleID + "/disapproved-mail"
	if in.Approved {
		key = "resale/" + in.ResaleID + "/approved-mail"
	}
	var recorded bool
	if err := a.DB.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM mail_outbox WHERE key = $1)`, key).Scan(&recorded); err != nil {
		return err
	}
	if recorded {
		return a.SendMail(ctx, mailer.Message{Key: key, Brand: b.Slug})
	}
	var corporate, contact, email, reason string
	if err := a.DB.QueryRow(ctx, `SELECT corporate_name, contact_name, email, reason FROM resales WHERE id = $1`, in.ResaleID).
		Scan(&corporate, &contact, &email, &reason); err != nil {
		return err
	}
	t := mailer.Templates{Brand: b, Portal: a.Mailer.Portal(b)}
	var c mailer.Content
	var err error
	if in.Approved {
		var userID string
		if err := a.DB.QueryRow(ctx, `SELECT u.id::text FROM users u JOIN user_roles r ON r.user_id = u.id
			WHERE u.resale_id = $1 AND r.role = 'RESALE' AND r.brand = $2 AND lower(u.email) = lower($3)`,
			in.ResaleID, b.Slug, email).Scan(&userID); err != nil {
			return fmt.Errorf("resale user of %s: %w", in.ResaleID, err)
		}
		ttl := in.InviteTTL
		if ttl <= 0 {
			ttl = auth.DefaultInviteTTL
		}
		token, err := auth.CreateInvite(ctx, a.DB, userID, b.Slug, ttl, time.Now())
		if err != nil {
			return err
		}
		portal := in.Portal
		if portal == "" {
			portal = t.Portal
		}
		c, err = t.ResaleApproved(mailer.ResaleApproved{ContactName: contact, CorporateName: corporate, Email: email,
			Link: auth.SetPasswordLink(portal, token), ValidFor: ttl})
		if err != nil {
			return err
		}
	} else {
		c, err = t.ResaleRejected(mailer.ResaleRejected{ContactName: contact, CorporateName: corporate, Reason: reason})
		if err != nil {
			return err
		}
	}
	return a.SendMail(ctx, c.Message(key, b.Slug, email))
}

// ResaleNotice is an in-app notification about a company, with its e-mail.
type ResaleNotice struct {
	Key      string `json:"key"`
	Brand    string `json:"brand"`
	ResaleID string `json:"resaleId"`
	// Kind: resale-registered and resale-reminder go to the brand's
	// representatives (in-app and e-mail); resale-approved to the company's new
	// RESALE user (in-app only: the welcome e-mail carries the link).
	Kind     string    `json:"kind"`
	Reminder int       `json:"reminder,omitempty"`
	Since    time.Time `json:"since,omitempty"`
}

// Kinds of reseller notices.
const (
	NoticeResaleRegistered = "resale-registered"
	NoticeResaleReminder   = "resale-reminder"
	NoticeResaleApproved   = "resale-approved"
)

var resaleNoticeTitles = map[string]string{
	NoticeResaleRegistered: "Nova revenda aguardando análise",
	NoticeResaleReminder:   "Revenda aguardando análise há mais tempo que o previsto",
	NoticeResaleApproved:   "Sua revenda foi aprovada: bem-vindo ao portal",
}

type resaleView struct {
	ID, Status, CorporateName, FantasyName, CNPJ, Phone, ContactName, Email, CEP, City, Street, State, Reason string
}

// ResaleDetailsLink is the details screen of a company, by its id only: the
// screen reads the company from GET /resale/{id}. The spec's screen reads
// every value from the query string (§2 "Resale details"); here the contact's
// e-mail, phone, CNPJ and address would end up in browser history, proxies'
// and servers' logs (LGPD), so links never carry them (docs/partners.md).
func ResaleDetailsLink(id string) string {
	return "/Painel/Resales/details?" + url.Values{"id": {id}}.Encode()
}

// NotifyResale stores the in-app notification of every recipient (once per
// key) and e-mails, once each, the representatives not e-mailed yet.
func (a *Activities) NotifyResale(ctx context.Context, n ResaleNotice) error {
	defer heartbeat(ctx)()
	var r resaleView
	err := a.DB.QueryRow(ctx, `SELECT id::text, status, corporate_name, fantasy_name, cnpj, phone, contact_name, email, cep,
			city, street, state, reason FROM resales WHERE id = $1`, n.ResaleID).
		Scan(&r.ID, &r.Status, &r.CorporateName, &r.FantasyName, &r.CNPJ, &r.Phone, &r.ContactName, &r.Email, &r.CEP,
			&r.City, &r.Street, &r.State, &r.Reason)
	if errors.Is(err, pgx.ErrNoRows) {
		return temporal.NewNonRetryableApplicationError("resale not found: "+n.ResaleID, "NotFound", nil)
	}
	if err != nil {
		return err
	}
	title, ok := resaleNoticeTitles[n.Kind]
	if !ok {
		return temporal.NewNonRetryableApplicationError("unknown notice kind "+n.Kind, "Invalid", nil)
	}
	link := ResaleDetailsLink(r.ID)
	if n.Kind == NoticeResaleApproved {
		_, err = a.DB.Exec(ctx, `INSERT INTO notifications (notice_key, user_id, brand, kind, title, link, emailed_at)
			SELECT $1, u.id, $2, $3, $4, '/Painel/Opportunities', now() FROM users u JOIN user_roles ur ON ur.user_id = u.id
			WHERE u.resale_id = $5 AND u.active AND ur.role = 'RESALE' AND ur.brand = $2
			ON CONFLICT (notice_key, user_id) DO NOTHING`, n.Key, n.Brand, n.Kind, title, n.ResaleID)
		return err
	}
	if _, err := a.DB.Exec(ctx, `INSERT INTO notifications (notice_key, user_id, brand, kind, title, link)
		SELECT DISTINCT $1::text, u.id, $2::text, $3::text, $4::text, $5::text FROM users u JOIN user_roles ur ON ur.user_id = u.id
		WHERE u.active AND ur.role = 'REPRESENTATIVE' AND ur.brand IN ($2, 'all')
		ON CONFLICT (notice_key, user_id) DO NOTHING`, n.Key, n.Brand, n.Kind, title+": "+r.CorporateName, link); err != nil {
		return err
	}
	pending, err := a.pendingRecipients(ctx, n.Key)
	if err != nil || len(pending) == 0 {
		return err
	}
	b, ok := a.Brands.BySlug(n.Brand)
	if !ok {
		return temporal.NewNonRetryableApplicationError("unknown brand "+n.Brand, "NotFound", nil)
	}
	t := mailer.Templates{Brand: b, Portal: a.Mailer.Portal(b)}
	abs := strings.TrimRight(t.Portal, "/") + link
	return a.emailNotice(ctx, b, n.Key, pending, func(p noticeRecipient) (mailer.Content, error) {
		if n.Kind == NoticeResaleReminder {
			return t.SLAReminder(mailer.SLAReminder{Opportunity: mailer.Opportunity{Recipient: p.Name, Name: r.CorporateName,
				CNPJ: cnpj.Format(r.CNPJ), Link: abs}, Resale: true, Since: n.Since, Reminder: n.Reminder})
		}
		return t.NewResale(mailer.NewResale{Recipient: p.Name, CorporateName: r.CorporateName, FantasyName: r.FantasyName,
			CNPJ: cnpj.Format(r.CNPJ), ContactName: r.ContactName, Email: r.Email, Phone: opportunity.FormatPhone(r.Phone),
			City: r.City, State: r.State, Link: abs})
	})
}
