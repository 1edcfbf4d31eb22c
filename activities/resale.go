package activities

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"go.temporal.io/sdk/temporal"

	"oportuna/auth"
	"oportuna/cnpj"
	"oportuna/mailer"
	"oportuna/opportunity"
	"oportuna/resale"
	"oportuna/store"
)

// RegisterResaleInput is a sign-up to persist under the workflow's id.
type RegisterResaleInput struct {
	ID           string              `json:"id"`
	Brand        string              `json:"brand"`
	Registration resale.Registration `json:"registration"`
	At           time.Time           `json:"at"`
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

// duplicateResale refuses a sign-up: msg is resale.MsgCNPJTaken or resale.MsgEmailTaken.
func duplicateResale(msg string) error {
	return temporal.NewNonRetryableApplicationError(msg, resale.ErrTypeDuplicate, nil)
}

// RegisterResale stores a company's sign-up in analysis with the history row of
// its creation, once per id. A company whose e-mail a user or another company
// has, or whose CNPJ is already registered at the brand, is refused
// (ErrTypeDuplicate, not retried).
func (a *Activities) RegisterResale(ctx context.Context, in RegisterResaleInput) (ResaleFacts, error) {
	r := in.Registration
	email := auth.NormalizeEmail(r.Email)
	err := store.Tx(ctx, a.DB, func(q *store.Queries) error {
		exists, err := q.ResaleExists(ctx, in.ID)
		if err != nil {
			return err
		}
		if exists {
			return nil // a retry: already registered
		}
		if err := q.LockEmail(ctx, email); err != nil {
			return err
		}
		// The CNPJ first: a company already registered is told so whatever
		// e-mail it tries.
		cnpjTaken, err := q.ResaleCNPJTaken(ctx, store.ResaleCNPJTakenParams{Brand: in.Brand, Cnpj: r.CNPJ})
		if err != nil {
			return err
		}
		if cnpjTaken {
			return duplicateResale(resale.MsgCNPJTaken)
		}
		emailTaken, err := q.EmailTaken(ctx, store.EmailTakenParams{Email: email})
		if err != nil {
			return err
		}
		if emailTaken {
			return duplicateResale(resale.MsgEmailTaken)
		}
		err = q.CreateResale(ctx, store.CreateResaleParams{ID: in.ID, Brand: in.Brand, CorporateName: r.CorporateName,
			FantasyName: r.FantasyName, Cnpj: r.CNPJ, Phone: r.Phone, ContactName: r.ContactName, Email: email,
			Cep: r.CEP, Street: r.Street, City: r.City, State: r.State, Country: r.Country, CreatedAt: in.At})
		if store.IsUniqueViolation(err) {
			// A sign-up of the same company or e-mail committed meanwhile.
			if strings.Contains(store.ConstraintOf(err), "cnpj") {
				return duplicateResale(resale.MsgCNPJTaken)
			}
			return duplicateResale(resale.MsgEmailTaken)
		}
		if err != nil {
			return err
		}
		var changes []opportunity.Change
		for _, f := range []struct{ attr, v string }{
			{"corporateName", r.CorporateName}, {"fantasyName", r.FantasyName}, {"cnpj", r.CNPJ},
			{"contactName", r.ContactName}, {"email", email}, {"phone", r.Phone},
			{"cep", r.CEP}, {"street", r.Street}, {"city", r.City}, {"state", r.State}, {"status", resale.Analysis},
		} {
			if f.v != "" {
				changes = append(changes, opportunity.Change{Attribute: f.attr, NewValue: f.v})
			}
		}
		return opportunity.History{Key: "resale/" + in.ID + "/create", Type: "resale", TypeID: in.ID,
			Brand: in.Brand, Username: r.ContactName, Action: "create", Changes: changes, At: in.At}.Record(ctx, q)
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
	r, err := store.New(a.DB).ResaleFacts(ctx, id)
	f := ResaleFacts{ID: r.ID, Brand: r.Brand, Status: r.Status, CNPJ: r.Cnpj, CreatedAt: r.CreatedAt}
	if errors.Is(err, pgx.ErrNoRows) {
		return f, temporal.NewNonRetryableApplicationError("resale not found: "+id, "NotFound", nil)
	}
	return f, err
}

// ResaleDecisionInput approves or refuses a company in analysis.
type ResaleDecisionInput struct {
	ResaleID string            `json:"resaleId"`
	Brand    string            `json:"brand"`
	Actor    opportunity.Actor `json:"actor"`
	Approve  bool              `json:"approve"`
	Reason   string            `json:"reason,omitempty"`
	At       time.Time         `json:"at"`
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
	out := ResaleDecided{Status: resale.Disapproved}
	if in.Approve {
		out.Status = resale.Approved
	}
	err := store.Tx(ctx, a.DB, func(q *store.Queries) error {
		r, err := q.LockResaleContact(ctx, store.LockResaleContactParams{ID: in.ResaleID, Brand: in.Brand})
		if errors.Is(err, pgx.ErrNoRows) {
			return temporal.NewNonRetryableApplicationError("resale not found: "+in.ResaleID, "NotFound", nil)
		}
		if err != nil {
			return err
		}
		done, err := q.HistoryRecorded(ctx, in.key())
		if err != nil {
			return err
		}
		if done { // a retry: report what was done
			if in.Approve {
				out.UserID, err = q.CompanyResaleUser(ctx, store.CompanyResaleUserParams{ResaleID: in.ResaleID, Brand: in.Brand})
			}
			return err
		}
		if r.Status != resale.Analysis {
			return temporal.NewNonRetryableApplicationError("Ação não permitida: a revenda está "+resale.StatusLabel(r.Status)+".",
				resale.ErrTypeState, nil)
		}
		reason := strings.TrimSpace(in.Reason)
		if in.Approve {
			reason = ""
		}
		if err := q.DecideResale(ctx, store.DecideResaleParams{ID: in.ResaleID, Status: out.Status, Reason: reason,
			DecidedAt: in.At, DecidedBy: store.NilIfEmpty(in.Actor.UserID)}); err != nil {
			return err
		}
		changes := []opportunity.Change{{Attribute: "status", OldValue: r.Status, NewValue: out.Status}}
		if reason != "" {
			changes = append(changes, opportunity.Change{Attribute: "reason", NewValue: reason})
		}
		if err := (opportunity.History{Key: in.key(), Type: "resale", TypeID: in.ResaleID, Brand: in.Brand,
			Actor: &in.Actor, Action: "update", Changes: changes, At: in.At}).Record(ctx, q); err != nil {
			return err
		}
		if err := readNoticesOf(ctx, q, resaleNoticePrefix(in.ResaleID), in.At); err != nil { // notices_read.go
			return err
		}
		if !in.Approve {
			return nil
		}
		out.UserID, err = resale.CreateUser(ctx, q, resale.User{Name: r.ContactName, Email: r.Email, Phone: r.Phone,
			ResaleID: in.ResaleID, Role: auth.Resale, Brand: in.Brand}, in.key()+"/user", &in.Actor, in.At)
		if errors.Is(err, resale.ErrEmailTaken) {
			return temporal.NewNonRetryableApplicationError(resale.MsgEmailUsed, resale.ErrTypeDuplicate, nil)
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
	q := store.New(a.DB)
	recorded, err := q.MailRecorded(ctx, key)
	if err != nil {
		return err
	}
	if recorded {
		return a.SendMail(ctx, mailer.Message{Key: key, Brand: b.Slug})
	}
	r, err := q.ResaleMail(ctx, in.ResaleID)
	if err != nil {
		return err
	}
	corporate, contact, email, reason := r.CorporateName, r.ContactName, r.Email, r.Reason
	t := mailer.Templates{Brand: b, Portal: a.Mailer.Portal(b)}
	var c mailer.Content
	if in.Approved {
		userID, err := q.CompanyUserByEmail(ctx, store.CompanyUserByEmailParams{ResaleID: in.ResaleID, Brand: b.Slug, Email: email})
		if err != nil {
			return fmt.Errorf("resale user of %s: %w", in.ResaleID, err)
		}
		ttl := in.InviteTTL
		if ttl <= 0 {
			ttl = auth.DefaultInviteTTL
		}
		token, err := auth.CreateInvite(ctx, q, userID, b.Slug, ttl, time.Now())
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
	r, err := store.New(a.DB).GetResale(ctx, store.GetResaleParams{ID: n.ResaleID, Brand: n.Brand})
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
	q := store.New(a.DB)
	if n.Kind == NoticeResaleApproved {
		return q.NotifyCompanyUsers(ctx, store.NotifyCompanyUsersParams{NoticeKey: n.Key, Brand: n.Brand, Kind: n.Kind,
			Title: title, ResaleID: n.ResaleID})
	}
	if err := q.NotifyRepresentatives(ctx, store.NotifyRepresentativesParams{NoticeKey: n.Key, Brand: n.Brand, Kind: n.Kind,
		Title: title + ": " + r.CorporateName, Link: link}); err != nil {
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
				CNPJ: cnpj.Format(r.Cnpj), Link: abs}, Resale: true, Since: n.Since, Reminder: n.Reminder})
		}
		return t.NewResale(mailer.NewResale{Recipient: p.Name, CorporateName: r.CorporateName, FantasyName: r.FantasyName,
			CNPJ: cnpj.Format(r.Cnpj), ContactName: r.ContactName, Email: r.Email, Phone: opportunity.FormatPhone(r.Phone),
			City: r.City, State: r.State, Link: abs})
	})
}
