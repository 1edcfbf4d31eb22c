package activities

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"oportuna/brand"
	"oportuna/cnpj"
	"oportuna/internal/periodic"
	"oportuna/mailer"
	"oportuna/opportunity"
	"oportuna/store"
)

// Mailer delivers e-mails, once per message key, and knows the address of each
// brand's portal for their links: *mailer.Mailer (outbox + SMTP); tests use
// internal/dev/mailbox.Log.
type Mailer interface {
	Send(ctx context.Context, m mailer.Message) error
	Portal(b *brand.Brand) string
}

// ErrTypeMailInvalid is an e-mail that can never be sent (bad address, unknown
// key): retrying it is pointless.
const ErrTypeMailInvalid = "MailInvalid"

// SendMail delivers one e-mail through the mailer, once per key: a retry after
// a delivery sends nothing. A message with only a key delivers the e-mail
// recorded under it (workflows.MailDispatcher records first, so addresses and
// links stay out of the workflow's history). It heartbeats while the SMTP
// conversation lasts, so a crashed worker's attempt is retried elsewhere.
func (a *Activities) SendMail(ctx context.Context, m mailer.Message) error {
	defer heartbeat(ctx)()
	err := a.Mailer.Send(ctx, m)
	if errors.Is(err, mailer.ErrInvalid) || errors.Is(err, mailer.ErrNotRecorded) {
		return temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeMailInvalid, err)
	}
	return err
}

// heartbeat records heartbeats of the running activity (when it has a heartbeat
// timeout) until the returned function is called.
func heartbeat(ctx context.Context) func() {
	if !activity.IsActivity(ctx) || activity.GetInfo(ctx).HeartbeatTimeout <= 0 {
		return func() {}
	}
	every := max(activity.GetInfo(ctx).HeartbeatTimeout/3, 100*time.Millisecond)
	return periodic.Every(ctx, every, func(ctx context.Context) bool {
		activity.RecordHeartbeat(ctx)
		return true
	})
}

// noticeTitles are the in-app texts of each kind of notice.
var noticeTitles = map[string]string{
	"registered":          "Nova oportunidade aguardando análise",
	"approval-reminder":   "Oportunidade aguardando análise há mais tempo que o previsto",
	"approved":            "Oportunidade aprovada",
	"disapproved":         "Oportunidade reprovada",
	"renewal-open":        "Renovação disponível: a validade da oportunidade está terminando",
	"expired":             "Oportunidade expirada",
	"expired-in-analysis": "Oportunidade expirada sem decisão",
	"renewal-requested":   "Renovação solicitada",
	"renewal-approved":    "Renovação aprovada",
	"renewal-refused":     "Renovação reprovada",
	"reassigned":          "Oportunidade redistribuída para você",
}

// noticeRecipient is a user a notice is e-mailed to.
type noticeRecipient = store.NoticeRecipientsToEmailRow

// Notify stores the in-app notification of every recipient (once per notice
// key) and e-mails each recipient once: one e-mail per person, so nobody sees
// another's address, keyed notice/<notice key>/<user id> in the outbox. A retry
// after a failed delivery e-mails only those not e-mailed yet. A notice of an
// opportunity that does not exist stores nothing and fails without a retry.
func (a *Activities) Notify(ctx context.Context, n Notice) error {
	defer heartbeat(ctx)()
	title := noticeTitles[n.Kind]
	if title == "" {
		title = n.Kind
	}
	// One round trip: the opportunity (its current name titles the notice), the
	// in-app notices, and who still has to be e-mailed.
	var rec opportunity.Record
	var pending []noticeRecipient
	var batch store.Batch
	opportunity.QueueLoad(ctx, &batch, n.OpportunityID, &rec)
	store.Exec(&batch, func(q *store.Queries) error {
		return q.NotifyOpportunity(ctx, store.NotifyOpportunityParams{NoticeKey: n.Key, Brand: n.Brand, Kind: n.Kind, Title: title,
			OpportunityID: n.OpportunityID, Link: "/Painel/Opportunities/" + n.OpportunityID,
			ToRepresentatives: n.ToRepresentatives, ToOwner: n.ToOwner, RepresentativeIds: n.Representatives})
	})
	store.Rows(&batch, &pending, func(q *store.Queries) ([]noticeRecipient, error) { return q.NoticeRecipientsToEmail(ctx, n.Key) })
	if err := batch.Send(ctx, a.DB); errors.Is(err, pgx.ErrNoRows) {
		return temporal.NewNonRetryableApplicationError("opportunity not found: "+n.OpportunityID, "NotFound", nil)
	} else if err != nil {
		return err
	}
	if rec.Name != "" {
		title += ": " + rec.Name
	}
	if len(pending) == 0 {
		return nil
	}
	b, ok := a.Brands.BySlug(n.Brand)
	if !ok {
		return temporal.NewNonRetryableApplicationError("unknown brand "+n.Brand, "NotFound", nil)
	}
	tpl := mailer.Templates{Brand: b, Portal: a.Mailer.Portal(b)}
	return a.emailNotice(ctx, b, n.Key, pending, func(r noticeRecipient) (mailer.Content, error) {
		return a.noticeMail(tpl, n, rec, title, r.Name)
	})
}

// pendingRecipients are the active users a notice was stored for and not e-mailed yet.
func (a *Activities) pendingRecipients(ctx context.Context, key string) ([]noticeRecipient, error) {
	return store.New(a.DB).NoticeRecipientsToEmail(ctx, key)
}

// emailNotice e-mails each pending recipient of a notice once (outbox key
// notice/<notice key>/<user id>) and marks it e-mailed, so a retry after a
// failed delivery e-mails only those still missing. An address no server would
// take is given up: the in-app notification stays.
func (a *Activities) emailNotice(ctx context.Context, b *brand.Brand, key string, pending []noticeRecipient,
	render func(noticeRecipient) (mailer.Content, error)) error {
	var errs []error
	for _, r := range pending {
		c, err := render(r)
		if err != nil {
			return err
		}
		err = a.Mailer.Send(ctx, c.Message("notice/"+key+"/"+r.UserID, b.Slug, r.Email))
		if errors.Is(err, mailer.ErrInvalid) {
			slog.WarnContext(ctx, "notice e-mail not sendable", "notice", key, "user", r.UserID, "err", err)
		} else if err != nil {
			errs = append(errs, err)
			continue
		}
		if err := store.New(a.DB).NoticeEmailed(ctx, store.NoticeEmailedParams{NoticeKey: key, UserID: r.UserID}); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// noticeMail renders the e-mail of a notice kind for one recipient.
func (a *Activities) noticeMail(t mailer.Templates, n Notice, r opportunity.Record, title, recipient string) (mailer.Content, error) {
	o := mailer.Opportunity{Recipient: recipient, Name: r.Name, Customer: r.FantasyName, CNPJ: cnpj.Format(r.CNPJ),
		Resale: r.Resale, Owner: r.UserName, Estimated: r.Estimated.BRL(),
		Link: strings.TrimRight(t.Portal, "/") + "/Painel/Opportunities/" + r.ID}
	if strings.TrimSpace(o.Customer) == "" {
		o.Customer = r.CorporateName
	}
	var validUntil time.Time
	if r.ValidUntil != nil {
		validUntil = *r.ValidUntil
	}
	reason := n.Detail
	if reason == "" {
		reason = r.Reason
	}
	switch n.Kind {
	case "registered":
		return t.OpportunityRegistered(mailer.OpportunityRegistered{Opportunity: o})
	case "approval-reminder":
		count, _ := strconv.Atoi(n.Detail)
		return t.SLAReminder(mailer.SLAReminder{Opportunity: o, Since: r.CreatedAt, Reminder: count, Escalated: n.Escalated})
	case "renewal-reminder":
		if n.Escalated {
			return t.Notice(mailer.Notice{Recipient: recipient, Title: title, Detail: mailer.MsgEscalated, Link: o.Link})
		}
	case "approved":
		return t.OpportunityApproved(mailer.OpportunityApproved{Opportunity: o, ValidUntil: validUntil})
	case "disapproved":
		return t.OpportunityDisapproved(mailer.OpportunityDisapproved{Opportunity: o, Reason: reason})
	case "renewal-open":
		o.Link += "?renovation=true" // opens the renewal dialog (spec §3, opportunity details)
		return t.RenewalOpen(mailer.RenewalOpen{Opportunity: o, ValidUntil: validUntil})
	case "expired":
		var renewable time.Time
		if !validUntil.IsZero() && a.Durations.ExpiredRetention > 0 {
			renewable = validUntil.Add(a.Durations.ExpiredRetention)
		}
		return t.OpportunityExpired(mailer.OpportunityExpired{Opportunity: o, RenewableUntil: renewable})
	case "expired-in-analysis":
		return t.OpportunityExpired(mailer.OpportunityExpired{Opportunity: o, InAnalysis: true})
	case "renewal-requested":
		visit := r.LastVisitDate
		if d, ok := opportunity.ParseDate(visit); ok {
			visit = d.Format("02/01/2006") // a calendar day, no time zone
		}
		return t.RenewalRequested(mailer.RenewalRequested{Opportunity: o, Reason: reason,
			ProjectStillInScope: r.ProjectStillInScope, LastVisitDate: visit})
	case "renewal-approved":
		return t.RenewalDecided(mailer.RenewalDecided{Opportunity: o, Approved: true, ValidUntil: validUntil})
	case "renewal-refused":
		return t.RenewalDecided(mailer.RenewalDecided{Opportunity: o, Reason: reason})
	}
	return t.Notice(mailer.Notice{Recipient: recipient, Title: title, Detail: n.Detail, Link: o.Link})
}
