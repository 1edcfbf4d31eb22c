package workflows

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"oportuna/brand"
	"oportuna/mailer"
)

// SendEmail delivers one e-mail durably: it runs the SendMail activity until
// the SMTP server takes the message, with exponential backoff for up to
// MailRetryBudget, and gives up at once on a message that can never be sent.
// The mailer's outbox makes every retry idempotent. The input is usually a
// key-only message (MailDispatcher records the e-mail first).
func SendEmail(ctx workflow.Context, m mailer.Message) error {
	ctx = workflow.WithActivityOptions(ctx, mailOptions(ctx))
	return workflow.ExecuteActivity(ctx, a.SendMail, m).Get(ctx, nil)
}

// MailDispatcher sends the e-mails the API originates (password reset, contact,
// seller invitation): it records each in the outbox, then starts its SendEmail
// workflow with the key alone, so addresses and links stay out of Temporal's
// history and a failing SMTP server only delays the e-mail.
type MailDispatcher struct {
	Client client.Client
	Mailer *mailer.Mailer
	// TaskQueue of the SendEmail workflows (default TaskQueue).
	TaskQueue string
	// ResetTTL is how long a password-reset link lasts, said in its e-mail (RESET_TOKEN_TTL).
	ResetTTL time.Duration
}

// Enqueue records the e-mail and starts its delivery; enqueuing a key again
// changes nothing (the workflow id is mail/<key>). A key-only message starts
// the delivery of what is already recorded under the key.
func (d *MailDispatcher) Enqueue(ctx context.Context, m mailer.Message) error {
	if !m.KeyOnly() {
		if err := d.Mailer.Record(ctx, m); err != nil {
			return err
		}
	}
	queue := d.TaskQueue
	if queue == "" {
		queue = TaskQueue
	}
	_, err := d.Client.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID: MailWorkflowID(m.Key), TaskQueue: queue,
		// A delivered e-mail is never started again; one whose budget ran out may be.
		WorkflowIDReusePolicy: enums.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE_FAILED_ONLY,
	}, SendEmail, mailer.Message{Key: m.Key, Brand: m.Brand})
	if err != nil && !temporal.IsWorkflowExecutionAlreadyStartedError(err) {
		return fmt.Errorf("mail: start delivery of %s: %w", m.Key, err)
	}
	return nil
}

// hashKey makes a short, stable key part from values that must not appear in
// ids (links carry tokens).
func hashKey(parts ...string) string {
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(sum[:16])
}

// SendPasswordReset e-mails the reset link (it satisfies auth.ResetMailer).
// Each link is its own e-mail: a repeated call with the same link sends it once.
func (d *MailDispatcher) SendPasswordReset(ctx context.Context, b *brand.Brand, to, name, link string) error {
	c, err := d.Mailer.Templates(b).PasswordReset(mailer.PasswordReset{Name: name, Link: link, ValidFor: d.ResetTTL})
	if err != nil {
		return err
	}
	return d.Enqueue(ctx, c.Message("password-reset/"+hashKey(to, link), b.Slug, to))
}

// SendContact e-mails a contact request (spec §7 Contact) to the brand's
// administrator (its contact address when it has none), answerable to the
// requester. key identifies the request (e.g. the API's request id, so a
// retried call sends once); empty makes a new one.
func (d *MailDispatcher) SendContact(ctx context.Context, b *brand.Brand, key string, req mailer.ContactRequest) error {
	to := b.Admin.Email
	if to == "" {
		to = b.Contact.Email
	}
	c, err := d.Mailer.Templates(b).ContactRequest(req)
	if err != nil {
		return err
	}
	if key == "" {
		key = hashKey(fmt.Sprint(time.Now().UnixNano()), req.Email, req.Title)
	}
	m := c.Message("contact/"+key, b.Slug, to)
	if a, err := mailer.ParseAddress(req.Email); err == nil {
		m.ReplyTo = a
	}
	return d.Enqueue(ctx, m)
}

// SendSellerInvitation e-mails a new seller the link that sets the password.
func (d *MailDispatcher) SendSellerInvitation(ctx context.Context, b *brand.Brand, inv mailer.SellerInvitation) error {
	c, err := d.Mailer.Templates(b).SellerInvitation(inv)
	if err != nil {
		return err
	}
	return d.Enqueue(ctx, c.Message("seller-invitation/"+hashKey(inv.Email, inv.Link), b.Slug, inv.Email))
}
