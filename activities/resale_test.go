package activities_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/temporal"

	"oportuna/activities"
	"oportuna/auth"
	"oportuna/brand"
	"oportuna/internal/testenv"
	"oportuna/mailer"
	"oportuna/opportunity"
	"oportuna/resale"
	"oportuna/seed"
)

// partnerSetup is the activities on a seeded database with the real mailer
// (no SMTP server: e-mails are stored in the outbox).
func partnerSetup(t *testing.T) (*activities.Activities, opportunity.Actor) {
	t.Helper()
	db, ctx := testenv.DBContext(t)
	brands, _ := brand.Parse([]byte(`[{"slug":"yep","name":"Yep"},{"slug":"codexa","name":"Codexa"}]`))
	if _, err := seed.Run(ctx, db, brands, "Oportuna@2026"); err != nil {
		t.Fatal(err)
	}
	cfg := mailer.Config{PortalURL: "https://{brand}.portal.example"}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	a := &activities.Activities{DB: db, Brands: brands, Mailer: &mailer.Mailer{DB: db, Brands: brands, Config: cfg}}
	rep := opportunity.Actor{Name: "Renata Almeida", Roles: []auth.Role{auth.Representative}}
	if err := db.QueryRow(ctx, `SELECT id::text FROM users WHERE email = 'representante@yep.demo'`).Scan(&rep.UserID); err != nil {
		t.Fatal(err)
	}
	return a, rep
}

var registration = resale.Registration{Email: "contato@nova.com.br", Phone: "11987654321", ContactName: "Carla Dias",
	CNPJ: "11444777000161", FantasyName: "N/C", CorporateName: "Nova Revenda Ltda", City: "Campinas", State: "SP", Country: "Brasil"}

const resaleID = "aaaaaaaa-0000-4000-8000-000000000001"

func errType(err error) string {
	var app *temporal.ApplicationError
	if errors.As(err, &app) {
		return app.Type()
	}
	return ""
}

func rows(t *testing.T, a *activities.Activities, query string, args ...any) int {
	t.Helper()
	var n int
	if err := a.DB.QueryRow(context.Background(), query, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestRegisterResaleIsIdempotentAndRefusesDuplicates(t *testing.T) {
	a, _ := partnerSetup(t)
	ctx := context.Background()
	at := time.Now().Truncate(time.Microsecond)
	in := activities.RegisterResaleInput{ID: resaleID, Brand: "yep", Registration: registration, At: at}
	f, err := a.RegisterResale(ctx, in)
	if err != nil || f.Status != resale.Analysis || f.CNPJ != registration.CNPJ || !f.CreatedAt.Equal(at) {
		t.Fatalf("register: %+v %v", f, err)
	}
	if _, err := a.RegisterResale(ctx, in); err != nil {
		t.Fatalf("a retry: %v", err)
	}
	if n := rows(t, a, `SELECT count(*) FROM history WHERE type_id = $1 AND type = 'resale'`, resaleID); n != 1 {
		t.Errorf("history rows after a retry: %d", n)
	}
	// Which one is taken is told apart: the screen sends the user to the e-mail's
	// step or keeps it on the CNPJ's.
	for name, c := range map[string]struct {
		in  activities.RegisterResaleInput
		msg string
	}{
		"same e-mail, other brand": {activities.RegisterResaleInput{ID: "aaaaaaaa-0000-4000-8000-000000000002", Brand: "codexa", Registration: registration, At: at}, resale.MsgEmailTaken},
		"a user's e-mail":          {activities.RegisterResaleInput{ID: "aaaaaaaa-0000-4000-8000-000000000003", Brand: "codexa", At: at, Registration: with(registration, "revenda@yep.demo", "11444777000242")}, resale.MsgEmailTaken},
		"same CNPJ, same brand":    {activities.RegisterResaleInput{ID: "aaaaaaaa-0000-4000-8000-000000000004", Brand: "yep", At: at, Registration: with(registration, "outro@nova.com.br", registration.CNPJ)}, resale.MsgCNPJTaken},
		"same CNPJ and e-mail":     {activities.RegisterResaleInput{ID: "aaaaaaaa-0000-4000-8000-000000000006", Brand: "yep", At: at, Registration: registration}, resale.MsgCNPJTaken},
	} {
		_, err := a.RegisterResale(ctx, c.in)
		var app *temporal.ApplicationError
		if errType(err) != resale.ErrTypeDuplicate || !errors.As(err, &app) || app.Message() != c.msg {
			t.Errorf("%s: %v, want a duplicate %q", name, err, c.msg)
		}
	}
	if _, err := a.RegisterResale(ctx, activities.RegisterResaleInput{ID: "aaaaaaaa-0000-4000-8000-000000000005", Brand: "codexa", At: at,
		Registration: with(registration, "outro@nova.com.br", registration.CNPJ)}); err != nil {
		t.Errorf("same CNPJ at another brand: %v", err)
	}
}

func with(r resale.Registration, email, doc string) resale.Registration {
	r.Email, r.CNPJ = email, doc
	return r
}

func TestDecideResaleCreatesOneUserAndMailsOneLink(t *testing.T) {
	a, rep := partnerSetup(t)
	ctx := context.Background()
	if _, err := a.RegisterResale(ctx, activities.RegisterResaleInput{ID: resaleID, Brand: "yep", Registration: registration, At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	in := activities.ResaleDecisionInput{ResaleID: resaleID, Brand: "yep", Actor: rep, Approve: true, At: time.Now()}
	first, err := a.DecideResale(ctx, in)
	if err != nil || first.Status != resale.Approved || first.UserID == "" {
		t.Fatalf("approve: %+v %v", first, err)
	}
	again, err := a.DecideResale(ctx, in)
	if err != nil || again.UserID != first.UserID {
		t.Errorf("a retry: %+v %v", again, err)
	}
	if n := rows(t, a, `SELECT count(*) FROM users WHERE resale_id = $1`, resaleID); n != 1 {
		t.Errorf("users: %d", n)
	}
	if n := rows(t, a, `SELECT count(*) FROM history WHERE type_id = $1 AND action_type = 'update'`, resaleID); n != 1 {
		t.Errorf("decision history rows: %d", n)
	}
	if _, err := a.DecideResale(ctx, activities.ResaleDecisionInput{ResaleID: resaleID, Brand: "yep", Actor: rep, Reason: "x", At: time.Now()}); errType(err) != resale.ErrTypeState {
		t.Errorf("refuse an approved company: %v", err)
	}
	if _, err := a.DecideResale(ctx, activities.ResaleDecisionInput{ResaleID: resaleID, Brand: "codexa", Actor: rep, Approve: true, At: time.Now()}); err == nil {
		t.Error("another brand's decision went through")
	}
	// The welcome e-mail: one token, one message, whatever the retries.
	mail := activities.ResaleMailInput{ResaleID: resaleID, Brand: "yep", Approved: true}
	for i := 0; i < 2; i++ {
		if err := a.MailResaleDecision(ctx, mail); err != nil {
			t.Fatalf("mail %d: %v", i, err)
		}
	}
	if n := rows(t, a, `SELECT count(*) FROM password_resets WHERE user_id = $1 AND purpose = 'invite'`, first.UserID); n != 1 {
		t.Errorf("invitation tokens: %d", n)
	}
	list, err := mailer.List(ctx, a.DB, registration.Email, 10)
	if err != nil || len(list) != 1 || !strings.Contains(strings.Join(list[0].Links, " "), "https://yep.portal.example/reset-password?token=") {
		t.Fatalf("welcome e-mails %+v %v", list, err)
	}
	if !strings.Contains(list[0].Text, "Nova Revenda Ltda") || !strings.Contains(list[0].Text, "7 dias") {
		t.Errorf("welcome text: %s", list[0].Text)
	}
}

func TestApprovalRefusesAnEmailTakenMeanwhile(t *testing.T) {
	a, rep := partnerSetup(t)
	ctx := context.Background()
	if _, err := a.RegisterResale(ctx, activities.RegisterResaleInput{ID: resaleID, Brand: "yep", Registration: registration, At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	// A user with the company's e-mail appeared after the sign-up (data fixed by hand, say).
	if _, err := a.DB.Exec(ctx, `INSERT INTO users (name, email) VALUES ('Outro', $1)`, strings.ToUpper(registration.Email)); err != nil {
		t.Fatal(err)
	}
	_, err := a.DecideResale(ctx, activities.ResaleDecisionInput{ResaleID: resaleID, Brand: "yep", Actor: rep, Approve: true, At: time.Now()})
	if errType(err) != resale.ErrTypeDuplicate {
		t.Fatalf("approve: %v", err)
	}
	var status string
	_ = a.DB.QueryRow(ctx, `SELECT status FROM resales WHERE id = $1`, resaleID).Scan(&status)
	if status != resale.Analysis {
		t.Errorf("status after a failed approval: %s", status)
	}
}

func TestNotifyResaleReachesTheBrandRepresentativesOnce(t *testing.T) {
	a, _ := partnerSetup(t)
	ctx := context.Background()
	if _, err := a.RegisterResale(ctx, activities.RegisterResaleInput{ID: resaleID, Brand: "yep", Registration: registration, At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	n := activities.ResaleNotice{Key: "resale/" + resaleID + "/registered", Brand: "yep", ResaleID: resaleID, Kind: activities.NoticeResaleRegistered}
	for i := 0; i < 2; i++ {
		if err := a.NotifyResale(ctx, n); err != nil {
			t.Fatal(err)
		}
	}
	if got := rows(t, a, `SELECT count(*) FROM notifications WHERE notice_key = $1 AND emailed_at IS NOT NULL`, n.Key); got != 3 {
		t.Errorf("notified representatives: %d, want 3 (representante, representante2 and multi)", got)
	}
	if got := rows(t, a, `SELECT count(*) FROM mail_outbox WHERE key LIKE 'notice/'||$1||'/%'`, n.Key); got != 3 {
		t.Errorf("e-mails: %d", got)
	}
	if got := rows(t, a, `SELECT count(*) FROM notifications n JOIN users u ON u.id = n.user_id WHERE u.email LIKE '%codexa%'`); got != 0 {
		t.Errorf("another brand's users notified: %d", got)
	}
	list, _ := mailer.List(ctx, a.DB, "representante@yep.demo", 10)
	if len(list) != 1 || !strings.Contains(list[0].Text, "11.444.777/0001-61") || !strings.Contains(list[0].Text, "(11) 98765-4321") ||
		!strings.Contains(strings.Join(list[0].Links, " "), "/Painel/Resales/details?id="+resaleID) {
		t.Errorf("new-reseller e-mail %+v", list)
	}
	// Links carry the id only: the company's data stays out of URLs (browser
	// history, proxies' logs), in the e-mail as in the bell.
	var links []string
	for _, l := range list[0].Links {
		if strings.Contains(l, "/Painel/Resales/details") {
			links = append(links, l)
		}
	}
	var inApp string
	_ = a.DB.QueryRow(ctx, `SELECT link FROM notifications WHERE notice_key = $1 LIMIT 1`, n.Key).Scan(&inApp)
	for _, l := range append(links, inApp) {
		if !strings.HasSuffix(l, "/Painel/Resales/details?id="+resaleID) {
			t.Errorf("link %q carries more than the company's id", l)
		}
	}
	rem := activities.ResaleNotice{Key: "resale/" + resaleID + "/reminder/1", Brand: "yep", ResaleID: resaleID, Kind: activities.NoticeResaleReminder,
		Reminder: 1, Since: time.Now().Add(-49 * time.Hour)}
	if err := a.NotifyResale(ctx, rem); err != nil {
		t.Fatal(err)
	}
	list, _ = mailer.List(ctx, a.DB, "multi@yep.demo", 10)
	if len(list) != 2 || !strings.HasPrefix(list[0].Subject, "Lembrete: revenda aguardando análise") {
		t.Errorf("reminder e-mails %+v", list)
	}
	if err := a.NotifyResale(ctx, activities.ResaleNotice{Key: "k", Brand: "yep", ResaleID: resaleID, Kind: "bogus"}); errType(err) != "Invalid" {
		t.Errorf("unknown kind: %v", err)
	}
}
