package seed_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"oportuna/activities"
	"oportuna/auth"
	"oportuna/brand"
	"oportuna/cnpj"
	"oportuna/geo"
	"oportuna/internal/calendar"
	"oportuna/internal/dev/localcrm"
	"oportuna/internal/dev/mailbox"
	"oportuna/internal/testenv"
	"oportuna/opportunity"
	"oportuna/seed"
	"oportuna/worker"
	"oportuna/workflows"
)

func TestSeedCreatesEveryBrandsDemoUsersAndIsIdempotent(t *testing.T) {
	db, ctx := testenv.DBContext(t)
	brands := brand.MustLoad()
	res, err := seed.Run(ctx, db, brands, "Oportuna@2026")
	if err != nil {
		t.Fatal(err)
	}
	if res.Resales != 11 || res.Users != 77 {
		t.Fatalf("first run created %+v, want 11 resales and 77 users", res)
	}
	// Routing's demo coverage (docs/deal-desk.md): the Southeast and South, the other 20 UFs, none.
	for local, want := range map[string]string{"representante": "ES,MG,PR,RJ,RS,SC,SP", "representante2": "AC,AL,AM,AP,BA,CE,DF,GO,MA,MS,MT,PA,PB,PE,PI,RN,RO,RR,SE,TO", "multi": ""} {
		var got string
		if err := db.QueryRow(ctx, `SELECT COALESCE((SELECT array_to_string(c.states, ',') FROM coverage c JOIN users u ON u.id = c.user_id
			WHERE u.email = $1 AND c.brand = 'yep'), '')`, seed.Email(local, "yep")).Scan(&got); err != nil || got != want {
			t.Errorf("coverage of %s@yep: %q (%v), want %q", local, got, err, want)
		}
	}
	snapshot := func() string {
		var s string
		err := db.QueryRow(ctx, `SELECT md5(string_agg(u.id::text || u.email || u.password_hash || u.updated_at::text || coalesce(u.resale_id::text, ''), ',' ORDER BY u.email))
			|| (SELECT md5(string_agg(id::text || cnpj || updated_at::text, ',' ORDER BY id)) FROM resales)
			|| (SELECT count(*)::text FROM user_roles)
			|| (SELECT md5(string_agg(user_id::text || brand || states::text || updated_at::text, ',' ORDER BY brand, user_id)) FROM coverage) FROM users u`).Scan(&s)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	before := snapshot()
	res, err = seed.Run(ctx, db, brands, "Oportuna@2026")
	if err != nil || res != (seed.Result{}) {
		t.Fatalf("second run created %+v (err %v), want nothing", res, err)
	}
	if after := snapshot(); after != before {
		t.Error("second run changed the data")
	}

	// Every brand has the six logins with the spec's roles, sellers tied to the reseller.
	rows, err := db.Query(ctx, `SELECT u.email, r.role, r.brand, u.resale_id IS NOT NULL, u.password_hash FROM users u JOIN user_roles r ON r.user_id = u.id`)
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for rows.Next() {
		var email, role, b, hash string
		var inResale bool
		if err := rows.Scan(&email, &role, &b, &inResale, &hash); err != nil {
			t.Fatal(err)
		}
		count[b+"/"+role]++
		if (role == "RESALE" || role == "SELLER") != inResale {
			t.Errorf("%s (%s): in resale = %v", email, role, inResale)
		}
		if !auth.VerifyPassword(hash, "Oportuna@2026") {
			t.Errorf("%s: demo password does not verify", email)
		}
	}
	for _, b := range brands.All() {
		for role, want := range map[string]int{"REPRESENTATIVE": 3, "SUPPORT": 2, "RESALE": 1, "SELLER": 2} {
			if got := count[b.Slug+"/"+role]; got != want {
				t.Errorf("%s: %d users with %s, want %d", b.Slug, got, role, want)
			}
		}
	}
	for i := range brands.All() {
		if !cnpj.Valid(seed.ResaleCNPJ(i)) {
			t.Errorf("demo CNPJ %s is not valid", seed.ResaleCNPJ(i))
		}
	}
}

// TestDemoOpportunitiesLiveTheirPlanWithTheProgrammesDurations: the demo is
// spread over the last twelve months in Brasília's calendar, each record
// coherent (registration, approval, validity, history rows, address), each
// adopted by a workflow that goes on with the programme's durations: the
// renewal approved in the demo is valid for OPPORTUNITY_VALIDITY (it once
// expired five seconds later, the seed's short demo durations carried on), and
// one approval is already past APPROVAL_SLA (its reminder sent).
func TestDemoOpportunitiesLiveTheirPlanWithTheProgrammesDurations(t *testing.T) {
	db, ctx := testenv.DBContext(t)
	c := testenv.TemporalClient(t)
	brands, _ := brand.Parse([]byte(`[{"slug":"codexa","name":"Codexa"}]`))
	if _, err := seed.Run(ctx, db, brands, "Oportuna@2026"); err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	durations := activities.Durations{Validity: 2160 * time.Hour, RenewalWindow: 360 * time.Hour, ApprovalSLA: 48 * time.Hour, ExpiredRetention: 4320 * time.Hour}
	acts := &activities.Activities{DB: db, Brands: brands, CRM: localcrm.CRM{DB: db}, Mailer: mailbox.Log{}, Durations: durations}
	go func() { done <- worker.Run(wctx, c, "default", acts) }()
	defer func() { cancel(); <-done }()

	began := time.Now()
	n, err := seed.Opportunities(ctx, acts, c, brands)
	if err != nil || n != 14 {
		t.Fatalf("created %d, err %v", n, err)
	}
	type row struct {
		id, status, cep, city, state string
		created                      time.Time
		approved, validUntil         *time.Time
		requested                    *time.Time
	}
	rows, _ := db.Query(ctx, `SELECT id::text, status, cep, city, state, created_at, approve_date, valid_until, request_renovation_at
		FROM opportunities ORDER BY created_at`)
	var all []row
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.id, &r.status, &r.cep, &r.city, &r.state, &r.created, &r.approved, &r.validUntil, &r.requested); err != nil {
			t.Fatal(err)
		}
		all = append(all, r)
	}
	count := map[string]int{}
	months := map[string]bool{}
	for _, r := range all {
		count[r.status]++
		months[calendar.In(r.created).Format("2006-01")] = true
		if r.created.After(began) || r.created.Before(began.AddDate(-1, 0, 0)) {
			t.Errorf("%s (%s) registered %s: not in the twelve months before the seed ran", r.id, r.status, r.created)
		}
		if st, ok := geo.StateOfCEP(r.cep); !ok || st.Sigla != r.state {
			t.Errorf("%s: CEP %s is not in %s", r.id, r.cep, r.state)
		}
		if _, ok := geo.CityByName(r.state, r.city); !ok {
			t.Errorf("%s: no city %s in %s", r.id, r.city, r.state)
		}
		switch opportunity.Status(r.status) {
		case opportunity.Approved, opportunity.Renovation, opportunity.AwaitingRenovation:
			if r.approved == nil || r.validUntil == nil || !r.approved.After(r.created) || !r.validUntil.Equal(r.approved.Add(durations.Validity)) {
				t.Errorf("%s (%s): registered %s, approved %v, valid until %v", r.id, r.status, r.created, r.approved, r.validUntil)
			}
		case opportunity.Expired:
			if calendar.ISO(r.created) == calendar.ISO(began) {
				t.Errorf("%s expired, registered today", r.id)
			}
			end := r.created.Add(durations.Validity) // expired in analysis
			if r.approved != nil {
				end = *r.validUntil
			}
			if !end.Before(began) {
				t.Errorf("%s expired before its end %s", r.id, end)
			}
		}
		switch opportunity.Status(r.status) {
		case opportunity.Approved:
			if !began.Before(r.validUntil.Add(-durations.RenewalWindow)) {
				t.Errorf("%s approved, but its renewal window opened at %s", r.id, r.validUntil.Add(-durations.RenewalWindow))
			}
		case opportunity.Renovation:
			if w := r.validUntil.Add(-durations.RenewalWindow); !w.Before(began) || !began.Before(*r.validUntil) {
				t.Errorf("%s in renewal outside its window %s–%s", r.id, w, r.validUntil)
			}
		case opportunity.AwaitingRenovation:
			if r.requested == nil || !r.requested.After(*r.validUntil) {
				t.Errorf("%s awaiting renewal: requested %v, valid until %v", r.id, r.requested, r.validUntil)
			}
		}
	}
	want := map[string]int{"analysis": 2, "approved": 2, "disapproved": 5, "renovation": 1, "expired": 3, "awaiting_renovation": 1}
	if fmt.Sprint(count) != fmt.Sprint(want) {
		t.Errorf("statuses %v, want %v", count, want)
	}
	if len(months) < 6 {
		t.Errorf("registrations in %d months (%v): the demo is not spread over the year", len(months), months)
	}
	// History rows are the events' own times: the creation at the registration,
	// none before it or in the future, the last one at the row's last change.
	var badHistory int
	if err := db.QueryRow(ctx, `SELECT count(*) FROM opportunities o WHERE
		(SELECT min(created_at) FROM history h WHERE h.type_id = o.id) IS DISTINCT FROM o.created_at
		OR (SELECT max(created_at) FROM history h WHERE h.type_id = o.id) IS DISTINCT FROM o.updated_at
		OR (SELECT max(created_at) FROM history h WHERE h.type_id = o.id) > now()
		OR NOT EXISTS (SELECT 1 FROM history h WHERE h.type_id = o.id AND h.action_type = 'create' AND h.created_at = o.created_at)
		OR (o.approve_date IS NOT NULL AND NOT EXISTS (SELECT 1 FROM history h WHERE h.type_id = o.id AND h.created_at = o.approve_date))`).Scan(&badHistory); err != nil || badHistory != 0 {
		t.Errorf("%d opportunities whose history rows disagree with their dates (%v)", badHistory, err)
	}

	// Every record has its workflow, which adopted the stored state.
	state := func(id string) workflows.OpportunityState {
		t.Helper()
		v, err := c.QueryWorkflow(ctx, workflows.OpportunityWorkflowID(id), "", workflows.QueryState)
		var st workflows.OpportunityState
		if err == nil {
			err = v.Get(&st)
		}
		if err != nil {
			t.Fatalf("state of %s: %v", id, err)
		}
		return st
	}
	deadline := time.Now().Add(30 * time.Second)
	for _, r := range all {
		for {
			d, err := c.DescribeWorkflowExecution(ctx, workflows.OpportunityWorkflowID(r.id), "")
			if err == nil && r.status == "disapproved" && d.GetWorkflowExecutionInfo().GetStatus() == enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED {
				break
			}
			if err == nil && d.GetWorkflowExecutionInfo().GetStatus() == enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING && state(r.id).Status == opportunity.Status(r.status) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the workflow of %s (%s) did not adopt it: %v", r.id, r.status, err)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}

	// The approval waiting longer than APPROVAL_SLA had its reminder; the other has none yet.
	for _, r := range all {
		if r.status != "analysis" {
			continue
		}
		overdue := began.Sub(r.created) > durations.ApprovalSLA
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			got := state(r.id).Reminders
			if (overdue && got == 1) || (!overdue && got == 0) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s in analysis since %s: %d reminders", r.id, r.created, got)
			}
		}
	}
	var overdueRows int
	_ = db.QueryRow(ctx, `SELECT count(*) FROM opportunities WHERE status = 'analysis' AND created_at < now() - interval '48 hours'`).Scan(&overdueRows)
	if overdueRows != 1 {
		t.Errorf("%d demo approvals past the SLA, want 1", overdueRows)
	}

	// A representative approves the renewal: valid for OPPORTUNITY_VALIDITY,
	// and the next run carries the programme's durations.
	var awaiting string
	_ = db.QueryRow(ctx, `SELECT id::text FROM opportunities WHERE status = 'awaiting_renovation'`).Scan(&awaiting)
	rep := opportunity.Actor{Roles: []auth.Role{auth.Representative}}
	_ = db.QueryRow(ctx, `SELECT id::text, name FROM users WHERE email = 'representante@codexa.demo'`).Scan(&rep.UserID, &rep.Name)
	approvedAt := time.Now()
	h, err := c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{WorkflowID: workflows.OpportunityWorkflowID(awaiting),
		UpdateName: workflows.UpdateDecideRenewal, WaitForStage: client.WorkflowUpdateStageCompleted,
		Args: []any{workflows.RenewalDecision{Actor: rep, Approve: true, Deadline: approvedAt.Add(workflows.DecisionWait)}}})
	var after workflows.OpportunityState
	if err == nil {
		err = h.Get(ctx, &after)
	}
	if err != nil {
		t.Fatalf("renewal approval: %v", err)
	}
	if after.Status != opportunity.Approved || after.ValidUntil.Sub(approvedAt) < durations.Validity-time.Minute {
		t.Fatalf("after the renewal approval: %s, valid until %s (%s from now), want %s", after.Status, after.ValidUntil,
			after.ValidUntil.Sub(approvedAt).Round(time.Second), durations.Validity)
	}
	var next workflows.OpportunityInput
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		it := c.GetWorkflowHistory(ctx, workflows.OpportunityWorkflowID(awaiting), "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		if it.HasNext() {
			ev, err := it.Next()
			if err == nil && ev.GetWorkflowExecutionStartedEventAttributes().GetContinuedExecutionRunId() != "" {
				if err := testenv.DataConverter().FromPayloads(ev.GetWorkflowExecutionStartedEventAttributes().GetInput(), &next); err != nil {
					t.Fatal(err)
				}
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("the renewal did not continue as new")
		}
	}
	if next.Durations != durations {
		t.Errorf("the renewed cycle runs with %+v, want the programme's %+v", next.Durations, durations)
	}
	if st := state(awaiting); st.Status != opportunity.Approved || !st.ValidUntil.Equal(after.ValidUntil) {
		t.Errorf("the renewed cycle: %s until %s", st.Status, st.ValidUntil)
	}

	if n, err := seed.Opportunities(ctx, acts, c, brands); err != nil || n != 0 {
		t.Errorf("second run created %d (%v)", n, err)
	}
	var conflicts int
	_ = db.QueryRow(ctx, `SELECT count(*) FROM opportunities WHERE cardinality(conflicts) > 0`).Scan(&conflicts)
	if conflicts == 0 {
		t.Error("the demo shows no conflicting registrations")
	}
}
