// Package mailbox holds the mailers of tests and tools that look at no
// e-mail: they write each message to the log instead of sending it. Never
// part of the production binary (cmd/oportuna's build test keeps it so); the
// portal's own dev mailbox, the page at /mailbox over the outbox, is
// mailer.Handler.Mailbox.
package mailbox

import (
	"context"
	"log/slog"

	"oportuna/brand"
	"oportuna/mailer"
)

// Log is an activities.Mailer that logs e-mails instead of sending them.
type Log struct{}

// Send logs the message.
func (Log) Send(ctx context.Context, m mailer.Message) error {
	slog.InfoContext(ctx, "e-mail", "key", m.Key, "brand", m.Brand, "to", m.To, "subject", m.Subject)
	return nil
}

// Portal is the default portal address (mailer.DefaultPortalURL).
func (Log) Portal(b *brand.Brand) string { return mailer.Config{}.Portal(b) }

// ResetLog is an auth.ResetMailer that logs the password-reset link instead of
// sending it.
type ResetLog struct{}

// SendPasswordReset logs the link.
func (ResetLog) SendPasswordReset(ctx context.Context, b *brand.Brand, to, name, link string) error {
	slog.InfoContext(ctx, "password reset link", "brand", b.Slug, "to", to, "link", link)
	return nil
}
