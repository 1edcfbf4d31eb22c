package activities_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"go.temporal.io/sdk/temporal"

	"oportuna/activities"
	"oportuna/auth"
	"oportuna/brand"
	"oportuna/internal/dev/localcrm"
	"oportuna/internal/testenv"
	"oportuna/mailer"
	"oportuna/opportunity"
	"oportuna/seed"
)

type mailbox struct {
	mu   sync.Mutex
	sent [][]string
}

func (m *mailbox) Send(_ context.Context, msg mailer.Message) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sent = append(m.sent, msg.To)
	return nil
}

func (m *mailbox) Portal(b *brand.Brand) string { return "http://" + b.Slug + ".localhost:8080" }

// setup is the activities on a seeded database (brands yep and codexa) with a
// local CRM and a mailbox that keeps the recipients, the seller vendedor1@yep
// who registers, and the test's context.
func setup(t *testing.T) (*activities.Activities, *mailbox, opportunity.Actor, context.Context) {
	db, ctx := testenv.DBContext(t)
	brands, _ := brand.Parse([]byte(`[{"slug":"yep","name":"Yep"},{"slug":"codexa","name":"Codexa"}]`))
	if _, err := seed.Run(ctx, db, brands, "Oportuna@2026"); err != nil {
		t.Fatal(err)
	}
	mb := &mailbox{}
	a := &activities.Activities{DB: db, Brands: brands, CRM: localcrm.CRM{DB: db}, Mailer: mb}
	var seller opportunity.Actor
	if err := db.QueryRow(ctx, `SELECT id::text, name, resale_id::text FROM users WHERE email = 'vendedor1@yep.demo'`).Scan(&seller.UserID, &seller.Name, &seller.ResaleID); err != nil {
		t.Fatal(err)
	}
	seller.Roles = []auth.Role{auth.Seller}
	return a, mb, seller, ctx
}

func register(t *testing.T, a *activities.Activities, actor opportunity.Actor, id, brandSlug, doc string) activities.Registered {
	t.Helper()
	out, err := a.Register(context.Background(), activities.RegisterInput{ID: id, Brand: brandSlug, Actor: actor, At: time.Now(),
		Record: opportunity.Record{Name: "Op " + id[:4], CNPJ: doc, ProbabilityClosing: 25, Country: "Brasil",
			Products: []opportunity.Product{{PartNumber: "A", Amount: 2, Price: 1999}, {PartNumber: "B", Amount: 1, Price: 50000, Competition: true}}}})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestRegisterIsIdempotentAndRecordsConflicts(t *testing.T) {
	a, _, seller, ctx := setup(t)
	first := register(t, a, seller, "11111111-1111-4111-8111-111111111111", "yep", "11222333000181")
	if first.Record.Estimated != 3998 || first.Record.Status != opportunity.Analysis || len(first.Conflicts) != 0 || first.Record.Resale == "" {
		t.Fatalf("first = %+v", first)
	}
	again := register(t, a, seller, "11111111-1111-4111-8111-111111111111", "yep", "11222333000181")
	if again.Record.CreatedAt != first.Record.CreatedAt {
		t.Error("a retried registration changed the record")
	}
	// Same customer again: the first is an open conflict. Another brand's registration is not.
	second := register(t, a, seller, "22222222-2222-4222-8222-222222222222", "yep", "11222333000181")
	if len(second.Conflicts) != 1 || second.Conflicts[0] != first.Record.ID {
		t.Errorf("conflicts = %v", second.Conflicts)
	}
	other := register(t, a, seller, "33333333-3333-4333-8333-333333333333", "codexa", "11222333000181")
	if len(other.Conflicts) != 0 {
		t.Errorf("another brand's registration conflicts: %v", other.Conflicts)
	}
	var rows int
	if err := a.DB.QueryRow(ctx, `SELECT count(*) FROM history WHERE type_id = $1`, first.Record.ID).Scan(&rows); err != nil || rows != 1 {
		t.Errorf("history rows of the first = %d (%v), want 1", rows, err)
	}
}

func TestApplyAndNotifyHappenOncePerKey(t *testing.T) {
	a, mb, seller, ctx := setup(t)
	id := register(t, a, seller, "44444444-4444-4444-8444-444444444444", "yep", "11222333000181").Record.ID
	name, prob := "Projeto", 50
	ev := opportunity.Event{Key: id + "/0/2", OpportunityID: id, Brand: "yep", Status: opportunity.Approved, Name: &name, Probability: &prob,
		Changes: []opportunity.Change{{Attribute: "status", OldValue: "analysis", NewValue: "approved"}}, At: time.Now()}
	for i := 0; i < 2; i++ {
		if _, err := a.Apply(ctx, ev); err != nil {
			t.Fatal(err)
		}
	}
	rec, _ := a.Load(ctx, id)
	if rec.Status != opportunity.Approved || rec.Name != "Projeto" || rec.ProbabilityClosing != 50 {
		t.Errorf("record %+v", rec)
	}
	var rows int
	_ = a.DB.QueryRow(ctx, `SELECT count(*) FROM history WHERE type_id = $1`, id).Scan(&rows)
	if rows != 2 {
		t.Errorf("history rows = %d, want create + one update", rows)
	}
	n := activities.Notice{Key: id + "/0/2/approved", Brand: "yep", OpportunityID: id, Kind: "registered", ToRepresentatives: true, ToOwner: true}
	for i := 0; i < 2; i++ {
		if err := a.Notify(ctx, n); err != nil {
			t.Fatal(err)
		}
	}
	// yep's representatives (representante, representante2, multi: a notice with no
	// responsible ones named goes to all) and the owner, once each, one e-mail each.
	var notes int
	_ = a.DB.QueryRow(ctx, `SELECT count(*) FROM notifications WHERE notice_key = $1`, n.Key).Scan(&notes)
	if notes != 4 || len(mb.sent) != 4 || len(mb.sent[0]) != 1 || len(mb.sent[1]) != 1 || len(mb.sent[2]) != 1 || len(mb.sent[3]) != 1 {
		t.Errorf("notifications = %d, e-mails = %v", notes, mb.sent)
	}
	// The in-app title names the opportunity as it is now (its approved name).
	trows, _ := a.DB.Query(ctx, `SELECT DISTINCT title FROM notifications WHERE notice_key = $1`, n.Key)
	titles, _ := pgx.CollectRows(trows, pgx.RowTo[string])
	if len(titles) != 1 || titles[0] != "Nova oportunidade aguardando análise: Projeto" {
		t.Errorf("notification titles %q", titles)
	}
	if _, err := a.Apply(ctx, opportunity.Event{Key: "x/0/9", OpportunityID: "55555555-5555-4555-8555-555555555555", Brand: "yep", Status: opportunity.Expired, At: time.Now()}); err == nil {
		t.Error("an event for an unknown opportunity was accepted")
	}
}

// TestAnEventKeyRecordedWithOtherChangesFailsLoudly: a key names one event
// forever. Applying it again with the same changes is a retry (nothing
// written); with other changes it is a bug (a reused key) and fails with a
// non-retryable EventKeyReused, leaving the record as the first event left it.
func TestAnEventKeyRecordedWithOtherChangesFailsLoudly(t *testing.T) {
	a, _, seller, ctx := setup(t)
	id := register(t, a, seller, "66666666-6666-4666-8666-666666666666", "yep", "11222333000181").Record.ID
	name := "Projeto"
	ev := opportunity.Event{Key: id + "/0/2", OpportunityID: id, Brand: "yep", Status: opportunity.Analysis, Name: &name,
		Changes: []opportunity.Change{{Attribute: "name", OldValue: "Op 6666", NewValue: "Projeto"}}, At: time.Now()}
	if _, err := a.Apply(ctx, ev); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Apply(ctx, ev); err != nil {
		t.Fatalf("a retry of the same event: %v", err)
	}
	other := "Outro"
	reused := ev
	reused.Name = &other
	reused.Changes = []opportunity.Change{{Attribute: "name", OldValue: "Projeto", NewValue: "Outro"}}
	_, err := a.Apply(ctx, reused)
	var app *temporal.ApplicationError
	if !errors.As(err, &app) || app.Type() != activities.ErrTypeEventKeyReused || !app.NonRetryable() {
		t.Fatalf("a reused key with other changes: %v, want a non-retryable %s", err, activities.ErrTypeEventKeyReused)
	}
	if rec, _ := a.Load(ctx, id); rec.Name != "Projeto" {
		t.Errorf("the reused key changed the record: %q", rec.Name)
	}
}

// TestANoticeOfAnOpportunityThatDoesNotExistStoresNothing: Notify of an
// opportunity with no row (a workflow whose row is gone, or another
// database's) stores no in-app notice, e-mails nobody and fails without a
// retry, as NotifyResale does for a resale.
func TestANoticeOfAnOpportunityThatDoesNotExistStoresNothing(t *testing.T) {
	a, mb, _, ctx := setup(t)
	n := activities.Notice{Key: "77777777-7777-4777-8777-777777777777/0/1/registered", Brand: "yep",
		OpportunityID: "77777777-7777-4777-8777-777777777777", Kind: "registered", ToRepresentatives: true, ToOwner: true}
	err := a.Notify(ctx, n)
	var app *temporal.ApplicationError
	if !errors.As(err, &app) || !app.NonRetryable() {
		t.Errorf("Notify of a missing opportunity: %v, want a non-retryable error", err)
	}
	nothingNoticed(t, a, mb, "", `SELECT count(*) FROM notifications`)
}

// nothingNoticed: the query counts no stored notice, and no e-mail went out;
// what names the notices counted.
func nothingNoticed(t *testing.T, a *activities.Activities, mb *mailbox, what, query string, args ...any) {
	t.Helper()
	var notes int
	if err := a.DB.QueryRow(context.Background(), query, args...).Scan(&notes); err != nil || notes != 0 {
		t.Errorf("%d notices stored%s (%v), want none", notes, what, err)
	}
	if len(mb.sent) != 0 {
		t.Errorf("e-mails sent: %v", mb.sent)
	}
}

// TestANoticeOfACancelledOpportunityStoresNothing: a notice still running
// when an operator cancelled the opportunity's workflow (the row marked
// deleted, hidden from every list) stores no in-app notice and e-mails nobody.
func TestANoticeOfACancelledOpportunityStoresNothing(t *testing.T) {
	a, mb, seller, ctx := setup(t)
	id := register(t, a, seller, "99999999-9999-4999-8999-999999999999", "yep", "11222333000181").Record.ID
	deleted := true
	if _, err := a.Apply(ctx, opportunity.Event{Key: id + "/0/2", OpportunityID: id, Brand: "yep", Status: opportunity.Analysis, Deleted: &deleted,
		System: activities.OperatorName, Changes: []opportunity.Change{{Attribute: "isDeleted", OldValue: "false", NewValue: "true"}}, At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	n := activities.Notice{Key: id + "/0/1/registered", Brand: "yep", OpportunityID: id, Kind: "registered", ToRepresentatives: true, ToOwner: true}
	if err := a.Notify(ctx, n); err != nil {
		t.Fatalf("Notify of a cancelled opportunity: %v", err)
	}
	nothingNoticed(t, a, mb, " for a cancelled opportunity", `SELECT count(*) FROM notifications WHERE link LIKE '%' || $1`, id)
}

// TestAnIdempotencyKeyActsOnce: a decision's Idempotency-Key is recorded with
// its event, in the same statement; another event carrying the same key (the
// call repeated into a later run) changes nothing and fails without a retry
// (IdempotencyKeyUsed), while a retry of the same event is still a retry.
func TestAnIdempotencyKeyActsOnce(t *testing.T) {
	a, _, seller, ctx := setup(t)
	id := register(t, a, seller, "88888888-8888-4888-8888-888888888888", "yep", "11222333000181").Record.ID
	key := &opportunity.IdempotencyKey{UserID: seller.UserID, Key: opportunity.DerivedID("k"), Action: "edit", Status: 200, Message: "ok"}
	name := "Projeto"
	ev := opportunity.Event{Key: id + "/0/2", OpportunityID: id, Brand: "yep", Status: opportunity.Analysis, Name: &name,
		Changes: []opportunity.Change{{Attribute: "name", OldValue: "Op 8888", NewValue: "Projeto"}}, At: time.Now(), Idem: key}
	for i := 0; i < 2; i++ {
		if _, err := a.Apply(ctx, ev); err != nil {
			t.Fatalf("apply %d: %v", i, err)
		}
	}
	var opp, action, msg string
	var status int
	if err := a.DB.QueryRow(ctx, `SELECT opportunity_id::text, action, status, message FROM idempotency_keys WHERE user_id = $1 AND key = $2`,
		key.UserID, key.Key).Scan(&opp, &action, &status, &msg); err != nil || opp != id || action != "edit" || status != 200 || msg != "ok" {
		t.Fatalf("recorded key: %s %s %d %s (%v)", opp, action, status, msg, err)
	}
	again := "Outro"
	repeat := ev
	repeat.Key, repeat.Name = id+"/1/5", &again
	repeat.Changes = []opportunity.Change{{Attribute: "name", OldValue: "Projeto", NewValue: "Outro"}}
	_, err := a.Apply(ctx, repeat)
	var app *temporal.ApplicationError
	if !errors.As(err, &app) || app.Type() != activities.ErrTypeKeyUsed || !app.NonRetryable() {
		t.Fatalf("the key in another event: %v, want a non-retryable %s", err, activities.ErrTypeKeyUsed)
	}
	var rows int
	_ = a.DB.QueryRow(ctx, `SELECT count(*) FROM history WHERE type_id = $1`, id).Scan(&rows)
	if rec, _ := a.Load(ctx, id); rec.Name != "Projeto" || rows != 2 {
		t.Errorf("the repeated key acted: name %q, %d history rows (want Projeto, 2)", rec.Name, rows)
	}
}

// TestARetriedApprovalAnswersTheRecordedValidity: Apply of an approval whose
// key was recorded (its workflow task was lost after the write and the
// decision ran again, later) changes nothing and answers the approval time
// and validity the read model holds, for the workflow to take.
func TestARetriedApprovalAnswersTheRecordedValidity(t *testing.T) {
	a, _, seller, ctx := setup(t)
	id := register(t, a, seller, "aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa", "yep", "11222333000181").Record.ID
	name := "Projeto"
	first := time.Now().Truncate(time.Microsecond)
	valid := first.Add(90 * 24 * time.Hour)
	ev := opportunity.Event{Key: id + "/0/2", OpportunityID: id, Brand: "yep", Status: opportunity.Approved, Name: &name,
		ApprovedAt: &first, ValidUntil: &valid, At: first,
		Changes: []opportunity.Change{{Attribute: "status", OldValue: "analysis", NewValue: "approved"}}}
	if got, err := a.Apply(ctx, ev); err != nil || got.ValidUntil != nil {
		t.Fatalf("first Apply: %+v, %v; want nothing recorded before", got, err)
	}
	later, laterValid := first.Add(40*time.Second), valid.Add(40*time.Second)
	ev.ApprovedAt, ev.ValidUntil, ev.At = &later, &laterValid, later
	got, err := a.Apply(ctx, ev)
	if err != nil {
		t.Fatal(err)
	}
	if got.ValidUntil == nil || !got.ValidUntil.Equal(valid) || got.ApprovedAt == nil || !got.ApprovedAt.Equal(first) {
		t.Errorf("retried Apply answered %+v, want the recorded approval %v valid until %v", got, first, valid)
	}
	if rec, _ := a.Load(ctx, id); rec.ValidUntil == nil || !rec.ValidUntil.Equal(valid) {
		t.Errorf("the retry changed the read model's validity: %v", rec.ValidUntil)
	}
}
