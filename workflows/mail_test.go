package workflows_test

import (
	"context"
	"errors"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	sdkworker "go.temporal.io/sdk/worker"

	"oportuna/activities"
	"oportuna/brand"
	"oportuna/internal/dev/localcrm"
	"oportuna/internal/testenv"
	"oportuna/mailer"
	"oportuna/mailer/mailtest"
	"oportuna/opportunity"
	"oportuna/seed"
	"oportuna/workflows"
)

const mailFrom = "nao-responda@oportuna.example"

type mailEnv struct {
	t     *testing.T
	c     client.Client
	db    *pgxpool.Pool
	smtp  *mailtest.Server
	queue string
	disp  *workflows.MailDispatcher
}

func newMailEnv(t *testing.T, configure ...func(*mailtest.Server)) *mailEnv {
	c, _ := testenv.ParallelTemporalClient(t)
	e := &mailEnv{t: t, c: c, db: testenv.DB(t), smtp: mailtest.Start(t, configure...),
		queue: "mail-test-" + strings.ReplaceAll(t.Name(), "/", "-")}
	e.disp = &workflows.MailDispatcher{Client: e.c, Mailer: e.mailer(10 * time.Second), TaskQueue: e.queue, ResetTTL: time.Hour}
	return e
}

func (e *mailEnv) mailer(timeout time.Duration) *mailer.Mailer {
	cfg := e.smtp.Config(mailFrom)
	cfg.Timeout = timeout
	return &mailer.Mailer{DB: e.db, Brands: brand.MustLoad(), Config: cfg}
}

// startWorker runs a worker of the SendEmail workflow whose activities deliver
// with m; stop stops it like a crash would (running activities get one second).
func (e *mailEnv) startWorker(m *mailer.Mailer) (stop func()) {
	w := sdkworker.New(e.c, e.queue, sdkworker.Options{WorkerStopTimeout: time.Second})
	w.RegisterWorkflow(workflows.SendEmail)
	// SendMail runs on the workflow queue's mail queue.
	mw := sdkworker.New(e.c, e.queue+workflows.MailQueueSuffix, sdkworker.Options{WorkerStopTimeout: time.Second})
	mw.RegisterActivity(&activities.Activities{DB: e.db, Brands: m.Brands, CRM: localcrm.CRM{DB: e.db}, Mailer: m})
	for _, w := range []sdkworker.Worker{w, mw} {
		if err := w.Start(); err != nil {
			e.t.Fatal(err)
		}
	}
	stopped := false
	stop = func() {
		if !stopped {
			stopped = true
			w.Stop()
			mw.Stop()
		}
	}
	e.t.Cleanup(stop)
	return stop
}

func (e *mailEnv) keyFor(to string) string {
	e.t.Helper()
	var key string
	if err := e.db.QueryRow(context.Background(), `SELECT key FROM mail_outbox WHERE $1 = ANY(recipients) ORDER BY id DESC LIMIT 1`, to).Scan(&key); err != nil {
		e.t.Fatalf("no e-mail to %s in the outbox: %v", to, err)
	}
	return key
}

func (e *mailEnv) waitWorkflow(key string, within time.Duration) error {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	return e.c.GetWorkflow(ctx, workflows.MailWorkflowID(key), "").Get(ctx, nil)
}

func (e *mailEnv) outbox(key string) (status string, attempts int) {
	e.t.Helper()
	if err := e.db.QueryRow(context.Background(), `SELECT status, attempts FROM mail_outbox WHERE key = $1`, key).Scan(&status, &attempts); err != nil {
		e.t.Fatal(err)
	}
	return status, attempts
}

func TestSendEmailWorkflowDeliversTheAPIsEmailsOnce(t *testing.T) {
	e := newMailEnv(t)
	e.startWorker(e.disp.Mailer)
	ctx := testenv.Context(t)
	yep, _ := e.disp.Mailer.Brands.BySlug("yep")
	link := "http://yep.localhost:8080/reset-password?token=abc&x=1"
	for i := 0; i < 2; i++ { // a repeated call with the same link: one e-mail
		if err := e.disp.SendPasswordReset(ctx, yep, "revenda@yep.demo", "Revenda Yep", link); err != nil {
			t.Fatal(err)
		}
	}
	key := e.keyFor("revenda@yep.demo")
	if err := e.waitWorkflow(key, 30*time.Second); err != nil {
		t.Fatal(err)
	}
	got := e.smtp.Wait(t, 1, 10*time.Second)[0]
	if got.To[0] != "revenda@yep.demo" || got.Subject != "Redefinição de senha | Yep Labels" ||
		!strings.Contains(got.HTML, `href="http://yep.localhost:8080/reset-password?token=abc&amp;x=1"`) ||
		!strings.Contains(got.Text, "Redefinir senha: "+link) || !strings.Contains(got.Text, "O link vale por 1 hora") {
		t.Errorf("reset e-mail: to %v subject %q\n%s", got.To, got.Subject, got.Text)
	}
	// The workflow's history holds the key only: no address, no token.
	hist := e.c.GetWorkflowHistory(ctx, workflows.MailWorkflowID(key), "", false, 0)
	for hist.HasNext() {
		ev, err := hist.Next()
		if err != nil {
			t.Fatal(err)
		}
		if s := ev.String(); strings.Contains(s, "token=abc") || strings.Contains(s, "revenda@yep.demo") {
			t.Fatalf("personal data in the workflow history: %s", s)
		}
	}

	if err := e.disp.SendContact(ctx, yep, "req-1", mailer.ContactRequest{FullName: "Ana", Email: "Ana@Cliente.com.br",
		Title: "Quero revender", Description: "<script>x</script>"}); err != nil {
		t.Fatal(err)
	}
	if err := e.disp.SendSellerInvitation(ctx, yep, mailer.SellerInvitation{Name: "Novo Vendedor", Email: "novo@yep.demo",
		ResaleName: "Revenda Yep", Link: "http://yep.localhost:8080/reset-password?token=inv"}); err != nil {
		t.Fatal(err)
	}
	mails := e.smtp.Wait(t, 3, 30*time.Second)
	contact, invite := mails[1], mails[2]
	if contact.Subject == "Convite para o Portal de Oportunidades Yep Labels" {
		contact, invite = invite, contact
	}
	if contact.To[0] != "admin@yep.example" || !strings.Contains(contact.Header.Get("Reply-To"), "ana@cliente.com.br") ||
		!strings.Contains(contact.HTML, "&lt;script&gt;x&lt;/script&gt;") {
		t.Errorf("contact e-mail: to %v reply-to %q", contact.To, contact.Header.Get("Reply-To"))
	}
	if invite.To[0] != "novo@yep.demo" || !strings.Contains(invite.Text, "Criar minha senha: http://yep.localhost:8080/reset-password?token=inv") {
		t.Errorf("invitation: to %v\n%s", invite.To, invite.Text)
	}
	// Enqueuing a delivered key again starts nothing and sends nothing.
	if err := e.disp.Enqueue(ctx, mailer.Message{Key: key, Brand: "yep"}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	if n := len(e.smtp.Mails()); n != 3 {
		t.Errorf("%d e-mails delivered, want 3", n)
	}
	if st, n := e.outbox(key); st != mailer.StatusSent || n != 1 {
		t.Errorf("outbox: %s after %d attempts", st, n)
	}
}

// TestACrashedWorkerDuringSendingDeliversOnceTheWorkerIsBack: the first
// worker's SMTP delivery hangs and the worker dies; the e-mail is not lost, it
// is delivered once by the next worker.
func TestACrashedWorkerDuringSendingDeliversOnceTheWorkerIsBack(t *testing.T) {
	held := make(chan struct{}, 1)
	e := newMailEnv(t, func(s *mailtest.Server) {
		s.OnData = func(ctx context.Context, n int) error {
			if n > 1 {
				return nil
			}
			held <- struct{}{}
			<-ctx.Done() // the first delivery never completes
			return errors.New("server closed")
		}
	})
	stop := e.startWorker(e.mailer(time.Minute))
	ctx := testenv.Context(t)
	yep, _ := e.disp.Mailer.Brands.BySlug("yep")
	if err := e.disp.SendPasswordReset(ctx, yep, "revenda@yep.demo", "Revenda Yep", "http://yep.localhost:8080/reset-password?token=crash"); err != nil {
		t.Fatal(err)
	}
	select {
	case <-held:
	case <-time.After(30 * time.Second):
		t.Fatal("the first worker never reached the SMTP server")
	}
	stop() // the worker dies in the middle of the SMTP conversation
	key := e.keyFor("revenda@yep.demo")
	if st, _ := e.outbox(key); st == mailer.StatusSent {
		t.Fatal("sent before any worker delivered it")
	}
	time.Sleep(2 * time.Second)
	if n := len(e.smtp.Mails()); n != 0 {
		t.Fatalf("%d e-mails delivered with no worker running", n)
	}

	e.startWorker(e.mailer(10 * time.Second)) // the worker is back
	if err := e.waitWorkflow(key, 90*time.Second); err != nil {
		t.Fatalf("SendEmail after the restart: %v", err)
	}
	time.Sleep(300 * time.Millisecond)
	mails := e.smtp.Mails()
	if len(mails) != 1 || mails[0].To[0] != "revenda@yep.demo" || !strings.Contains(mails[0].Text, "token=crash") {
		t.Fatalf("delivered %d e-mails, want exactly 1", len(mails))
	}
	if n := e.smtp.DataCommands(); n != 2 {
		t.Errorf("%d DATA commands, want 2 (the cut one and the delivery)", n)
	}
	if st, n := e.outbox(key); st != mailer.StatusSent || n < 2 {
		t.Errorf("outbox: %s after %d attempts", st, n)
	}
}

func TestSendEmailGivesUpAtOnceOnAnEmailThatCanNeverBeSent(t *testing.T) {
	e := newMailEnv(t)
	e.startWorker(e.disp.Mailer)
	ctx := testenv.Context(t)
	run, err := e.c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: workflows.MailWorkflowID("never/recorded"), TaskQueue: e.queue},
		workflows.SendEmail, mailer.Message{Key: "never/recorded", Brand: "yep"})
	if err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	err = run.Get(wctx, nil)
	var appErr *temporal.ApplicationError
	if !errors.As(err, &appErr) || appErr.Type() != activities.ErrTypeMailInvalid {
		t.Fatalf("err = %v, want a %s failure", err, activities.ErrTypeMailInvalid)
	}
	if err := e.disp.Enqueue(ctx, mailer.Message{Key: "bad", Brand: "yep", To: []string{"não é e-mail"}, Subject: "x", Text: "x"}); !errors.Is(err, mailer.ErrInvalid) {
		t.Errorf("enqueue of an invalid e-mail: %v", err)
	}
}

// TestNotifyEmailsEachRecipientOnceThroughTheOutbox: the opportunity's notices
// reach every recipient in an e-mail of their own, over SMTP, once, even when a
// delivery fails in the middle and the activity is retried.
func TestNotifyEmailsEachRecipientOnceThroughTheOutbox(t *testing.T) {
	e := newMailEnv(t, func(s *mailtest.Server) {
		s.OnData = func(_ context.Context, n int) error {
			if n == 2 {
				return errors.New("falha temporária")
			}
			return nil
		}
	})
	ctx := testenv.Context(t)
	m := e.mailer(10 * time.Second)
	if _, err := seed.Run(ctx, e.db, m.Brands, "Oportuna@2026"); err != nil {
		t.Fatal(err)
	}
	a := &activities.Activities{DB: e.db, Brands: m.Brands, CRM: localcrm.CRM{DB: e.db}, Mailer: m,
		Durations: activities.Durations{ExpiredRetention: 24 * time.Hour}}
	seller := actor(t, e.db, "vendedor1@yep.demo")
	id := "5b0c8f1e-0000-4000-8000-000000000009"
	if _, err := a.Register(ctx, activities.RegisterInput{ID: id, Brand: "yep", Actor: seller, At: time.Now(),
		Record: opportunity.Record{Name: "Projeto <Sul>", CNPJ: "11222333000181", FantasyName: "Mercado Sul", ProbabilityClosing: 25,
			Country: "Brasil", Products: []opportunity.Product{{PartNumber: "A", Amount: 2, Price: 123456}}}}); err != nil {
		t.Fatal(err)
	}
	n := activities.Notice{Key: id + "/0/1/registered", Brand: "yep", OpportunityID: id, Kind: "registered", ToRepresentatives: true, ToOwner: true}
	if err := a.Notify(ctx, n); err == nil {
		t.Fatal("a failed delivery did not fail the activity")
	}
	for i := 0; i < 2; i++ { // the retry, then a duplicate
		if err := a.Notify(ctx, n); err != nil {
			t.Fatal(err)
		}
	}
	mails := e.smtp.Mails()
	var to []string
	for _, got := range mails {
		if len(got.To) != 1 || got.Header.Get("To") != "<"+got.To[0]+">" {
			t.Errorf("an e-mail to %v (header %q): one recipient each", got.To, got.Header.Get("To"))
		}
		to = append(to, got.To...)
		if got.Subject != "Nova oportunidade aguardando análise: Projeto <Sul>" ||
			!strings.Contains(got.HTML, `href="http://yep.localhost:8080/Painel/Opportunities/`+id+`"`) ||
			!strings.Contains(got.HTML, "Projeto &lt;Sul&gt;") || !strings.Contains(got.Text, "Valor estimado: R$ 2.469,12") ||
			!strings.Contains(got.Text, "CNPJ: 11.222.333/0001-81") {
			t.Errorf("e-mail to %v: %q\n%s", got.To, got.Subject, got.Text)
		}
	}
	sort.Strings(to)
	if strings.Join(to, ",") != "multi@yep.demo,representante2@yep.demo,representante@yep.demo,vendedor1@yep.demo" {
		t.Errorf("recipients %v, want each of yep's representatives and the owner once", to)
	}
	var notes, emailed int
	_ = e.db.QueryRow(ctx, `SELECT count(*), count(emailed_at) FROM notifications WHERE notice_key = $1`, n.Key).Scan(&notes, &emailed)
	if notes != 4 || emailed != 4 {
		t.Errorf("notifications %d, e-mailed %d; want 4 and 4", notes, emailed)
	}

	// The renewal notice links to the renewal dialog.
	if err := a.Notify(ctx, activities.Notice{Key: id + "/0/5/renewal-open", Brand: "yep", OpportunityID: id, Kind: "renewal-open", ToOwner: true}); err != nil {
		t.Fatal(err)
	}
	got := e.smtp.Wait(t, 5, 10*time.Second)[4]
	if got.To[0] != "vendedor1@yep.demo" || !strings.Contains(got.Text, "Solicitar renovação: http://yep.localhost:8080/Painel/Opportunities/"+id+"?renovation=true") {
		t.Errorf("renewal-open e-mail to %v:\n%s", got.To, got.Text)
	}
}
