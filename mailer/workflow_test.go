package mailer_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/temporal"
	sdkworker "go.temporal.io/sdk/worker"

	"oportuna/activities"
	"oportuna/internal/postfix"
	"oportuna/internal/testenv"
	"oportuna/mailer"
	"oportuna/workflows"
)

// TestTheSendEmailWorkflowRetriesA4xxAndGivesUpA5xx: the API's e-mails
// (MailDispatcher → SendEmail workflow → SendMail activity on the mail queue)
// delivered to Postfix. A recipient the server defers twice (451) gets the
// e-mail once, on Temporal's third attempt, with the key's Message-ID; a
// mailbox that does not exist (550 5.1.1) fails the workflow at once
// (MailInvalid, not retried), the outbox row failed with the server's answer.
// Neither address reaches Temporal's history.
func TestTheSendEmailWorkflowRetriesA4xxAndGivesUpA5xx(t *testing.T) {
	pf := testenv.Postfix(t)
	c := testenv.TemporalClient(t)
	m := newMailer(t, postfixConfig(pf))
	queue := "mail-test-" + strings.ReplaceAll(t.Name(), "/", "-")
	w := sdkworker.New(c, queue, sdkworker.Options{WorkerStopTimeout: time.Second})
	w.RegisterWorkflow(workflows.SendEmail)
	mw := sdkworker.New(c, queue+workflows.MailQueueSuffix, sdkworker.Options{WorkerStopTimeout: time.Second})
	mw.RegisterActivity(&activities.Activities{DB: m.DB, Brands: m.Brands, Mailer: m})
	testenv.StartWorkers(t, w, mw)
	disp := &workflows.MailDispatcher{Client: c, Mailer: m, TaskQueue: queue}
	ctx, cancel := context.WithTimeout(testenv.Context(t), 2*time.Minute)
	defer cancel()

	mb := pf.NewMailbox(t.Name())
	mb.DeferNext(2)
	unknown := postfix.Unknown(t.Name())
	for key, to := range map[string]string{"wf/temporary": mb.Address, "wf/permanent": unknown} {
		if err := disp.Enqueue(ctx, mailer.Message{Key: key, Brand: "yep", To: []string{to}, Subject: "Teste", Text: "x"}); err != nil {
			t.Fatal(err)
		}
	}

	if err := c.GetWorkflow(ctx, workflows.MailWorkflowID("wf/temporary"), "").Get(ctx, nil); err != nil {
		t.Fatalf("the deferred e-mail: %v", err)
	}
	if r := outbox(t, m, "wf/temporary"); r.Status != mailer.StatusSent || r.Attempts != 3 {
		t.Errorf("deferred twice: outbox %+v, want sent on the third attempt", r)
	}
	if got := delivered(t, pf, mb); len(got) != 1 || got[0].MessageID != mailer.MessageID("wf/temporary", from) {
		t.Errorf("%d e-mails delivered, want 1 with the key's Message-ID", len(got))
	}

	err := c.GetWorkflow(ctx, workflows.MailWorkflowID("wf/permanent"), "").Get(ctx, nil)
	var appErr *temporal.ApplicationError
	if !errors.As(err, &appErr) || appErr.Type() != activities.ErrTypeMailInvalid || !appErr.NonRetryable() ||
		!strings.Contains(appErr.Error(), "RCPT TO: 550 5.1.1 <…>: Recipient address rejected: User unknown") {
		t.Fatalf("the refused e-mail: %v, want a non-retryable %s with the server's answer", err, activities.ErrTypeMailInvalid)
	}
	if r := outbox(t, m, "wf/permanent"); r.Status != mailer.StatusFailed || r.Attempts != 1 ||
		!strings.HasPrefix(r.LastError, "permanent: smtp send: RCPT TO: 550 5.1.1") {
		t.Errorf("refused: outbox %+v, want failed after one attempt", r)
	}

	for _, key := range []string{"wf/temporary", "wf/permanent"} {
		hist := c.GetWorkflowHistory(ctx, workflows.MailWorkflowID(key), "", false, 0)
		for hist.HasNext() {
			ev, err := hist.Next()
			if err != nil {
				t.Fatal(err)
			}
			if s := ev.String(); strings.Contains(s, mb.Address) || strings.Contains(s, unknown) {
				t.Fatalf("an address in the history of %s: %s", key, s)
			}
		}
	}
}
