package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/converter"

	"oportuna/crm"
	"oportuna/internal/testenv"
	"oportuna/mailer"
	"oportuna/opportunity"
	"oportuna/workflows"
)

// Categories of a check: any finding in them makes the run fail.
const (
	catLost       = "lost"
	catDuplicated = "duplicated"
	catStuck      = "stuck"
	catDiverged   = "diverged"
	catAnswer     = "wrong answer"
)

// check is one line of the table.
type check struct {
	Category string `json:"category"`
	Name     string `json:"name"`
}

// The checks, in the order of the table.
var (
	chkNotRegistered   = check{catLost, "registration not confirmed to the client (create answer)"}
	chkNotApprovedAPI  = check{catLost, "not in its story's status in the API (GET /api/opportunity/id)"}
	chkNotApprovedRM   = check{catLost, "not in its story's status in the read model (opportunities)"}
	chkNotApprovedWF   = check{catLost, "not in its story's status in its workflow (state query)"}
	chkWorkflowEnded   = check{catLost, "workflow not running, completed or cancelled as its story says"}
	chkNoCRM           = check{catLost, "no CRM record (or not at the approved stage)"}
	chkNoHistory       = check{catLost, "history: a creation or decision row missing"}
	chkNoNotice        = check{catLost, "notices: the registration's or the decision's missing"}
	chkMailLost        = check{catLost, "e-mails marked sent that the SMTP server never got"}
	chkDupRows         = check{catDuplicated, "opportunities registered twice (rows beyond the expected ids)"}
	chkDupCRM          = check{catDuplicated, "CRM records per opportunity > 1 (or one never approved)"}
	chkDupHistory      = check{catDuplicated, "decision history rows beyond the story's"}
	chkDupDecision     = check{catDuplicated, "other history rows (a retry run as an edit)"}
	chkDupNotice       = check{catDuplicated, "notifications of one kind and cycle to one user > 1"}
	chkNoticeCancelled = check{catDuplicated, "notifications stored after the operator's cancel"}
	chkDupMail         = check{catDuplicated, "e-mails delivered more than once (same Message-ID)"}
	chkDiverged        = check{catDiverged, "other values (status, name, probability, CRM id, validity) in the read model, workflow or CRM"}
	chkWrongAnswer     = check{catAnswer, "a step answered otherwise to its client (409, a timeout…)"}
	chkRepeatAnswer    = check{catAnswer, "a call sent again with its key answered otherwise than the first time"}
	chkPendingActivity = check{catStuck, "activities still pending (retrying) after the settle time"}
	chkPendingTask     = check{catStuck, "workflow tasks still pending after the settle time"}
	chkOutbox          = check{catStuck, "outbox rows not sent (pending, sending, failed)"}
	chkNotEmailed      = check{catStuck, "notifications whose e-mail never went out (emailed_at empty)"}

	allChecks = []check{chkNotRegistered, chkNotApprovedAPI, chkNotApprovedRM, chkNotApprovedWF, chkWorkflowEnded, chkNoCRM,
		chkNoHistory, chkNoNotice, chkMailLost, chkDupRows, chkDupCRM, chkDupHistory, chkDupDecision, chkDupNotice, chkNoticeCancelled,
		chkDupMail, chkDiverged, chkWrongAnswer, chkRepeatAnswer, chkPendingActivity, chkPendingTask, chkOutbox, chkNotEmailed}
)

// expected is what a story leaves behind.
type expected struct {
	statuses    []opportunity.Status            // the final status, any of these
	run         enumspb.WorkflowExecutionStatus // the workflow's run
	crm         int                             // CRM records (0 or 1)
	approved    bool                            // the CRM record at the approved stage, its values the approval's
	transitions map[string]int                  // history rows per new status set by a person
	other       int                             // history rows that change no status (an edit, the cancel)
	notice      string                          // the decision's notice to the seller ("" none)
}

func (o *op) expected() expected {
	running, completed := enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING, enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED
	live := []opportunity.Status{opportunity.Approved, opportunity.Renovation} // the renewal window opens a few seconds after
	switch o.story {
	case storyRefuse:
		return expected{[]opportunity.Status{opportunity.Disapproved}, completed, 0, false, map[string]int{"disapproved": 1}, 0, "disapproved"}
	case storyEdit:
		return expected{live, running, 1, true, map[string]int{"approved": 1}, 1, "approved"}
	case storyRenewApprove:
		return expected{live, running, 1, true, map[string]int{"approved": 2, "awaiting_renovation": 1}, 0, "renewal-approved"}
	case storyRenewRefuse:
		return expected{[]opportunity.Status{opportunity.Disapproved}, completed, 1, false,
			map[string]int{"approved": 1, "awaiting_renovation": 1, "disapproved": 1}, 0, "renewal-refused"}
	case storyCancel:
		return expected{[]opportunity.Status{opportunity.Analysis}, enumspb.WORKFLOW_EXECUTION_STATUS_CANCELED, 0, false, map[string]int{}, 1, ""}
	}
	return expected{live, running, 1, true, map[string]int{"approved": 1}, 0, "approved"}
}

// finding is one failed check of one opportunity (or outbox row).
type finding struct {
	Check check    `json:"check"`
	Round int      `json:"round"`
	ID    string   `json:"id"`
	Seen  string   `json:"seen"`
	Logs  []string `json:"logs,omitempty"`
}

type chaosReport struct {
	Seed       uint64           `json:"seed"`
	Settled    bool             `json:"settled"`
	SettleTime time.Duration    `json:"settleTimeNs"`
	Findings   []finding        `json:"findings"`
	Events     []event          `json:"events"`
	Counts     map[string]int64 `json:"counts"`
}

func (r *chaosReport) add(c check, o *op, id, format string, args ...any) {
	f := finding{Check: c, ID: id, Seen: fmt.Sprintf(format, args...)}
	if o != nil {
		f.Round, f.ID = o.round, o.id
	}
	r.Findings = append(r.Findings, f)
}

// describe reads a workflow's execution description.
func (h *harness) describe(ctx context.Context, id string) (*workflowservice.DescribeWorkflowExecutionResponse, error) {
	dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return h.tc.DescribeWorkflowExecution(dctx, workflows.OpportunityWorkflowID(id), "")
}

// quiet reports whether a workflow has nothing left to do: no activity and no
// workflow task pending.
func quiet(d *workflowservice.DescribeWorkflowExecutionResponse) bool {
	if d.WorkflowExecutionInfo.GetStatus() != enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING {
		return true // a closed run: what it left pending is abandoned
	}
	return len(d.PendingActivities) == 0 && d.PendingWorkflowTask == nil
}

// quietClosed reports whether a run's pending activities count: only a
// running run's do.
func quietClosed(d *workflowservice.DescribeWorkflowExecutionResponse) bool {
	return d.WorkflowExecutionInfo.GetStatus() == enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING
}

// settle waits until every workflow of ops is quiet and the outbox holds only
// sent e-mails, or the settle timeout; it answers how long that took after the
// chaos ended. It first waits until every renewal window has opened
// (timersDue): a workflow quiet before its window's timer fires moves to
// renovation a moment later, and a check reading the read model before it and
// the workflow after it would see the two differ.
func (h *harness) settle(ctx context.Context, ops []*op, chaosEnd time.Time) (bool, time.Duration) {
	if wait := time.Until(timersDue(ops)); wait > 0 {
		h.event("settling: waiting %s for the last renewal window to open", wait.Round(100*time.Millisecond))
		sleep(ctx, wait)
	}
	waiting := map[string]bool{}
	for _, o := range ops {
		waiting[o.id] = true
	}
	deadline := chaosEnd.Add(h.o.settle)
	last := -1
	for {
		pending := map[string]int{}
		for id := range waiting {
			d, err := h.describe(ctx, id)
			if err == nil && quiet(d) {
				delete(waiting, id)
				continue
			}
			if d != nil {
				for _, pa := range d.PendingActivities {
					pending[fmt.Sprintf("%s (attempt %d)", pa.GetActivityType().GetName(), pa.GetAttempt())]++
				}
				if d.PendingWorkflowTask != nil {
					pending["workflow task"]++
				}
			}
		}
		if len(waiting) != last {
			h.event("settling: %d workflows busy, pending %v", len(waiting), pending)
			last = len(waiting)
		}
		// A notice an operator's cancel interrupted is abandoned with its
		// opportunity (deleted): its e-mail is not owed.
		var open int
		_ = h.db.QueryRow(ctx, `SELECT count(*) FROM mail_outbox m WHERE status <> 'sent'
			AND NOT EXISTS (SELECT 1 FROM opportunities o WHERE o.is_deleted AND m.key LIKE 'notice/' || o.id || '/%')`).Scan(&open)
		var unmailed int
		_ = h.db.QueryRow(ctx, `SELECT count(*) FROM notifications n WHERE emailed_at IS NULL
			AND NOT EXISTS (SELECT 1 FROM opportunities o WHERE o.is_deleted AND n.link = '/Painel/Opportunities/' || o.id)`).Scan(&unmailed)
		if len(waiting) == 0 && open == 0 && unmailed == 0 {
			return true, time.Since(chaosEnd)
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return false, time.Since(chaosEnd)
		}
		sleep(ctx, time.Second)
	}
}

// timersDue is when the renewal windows of ops' approvals have all opened: an
// approval's (or a renewal's) window opens renewalOpens after it, and each
// was answered before its story ended; 3 s of margin for a busy server's
// timer queue to fire the timer and schedule its workflow task.
func timersDue(ops []*op) time.Time {
	var last time.Time
	for _, o := range ops {
		if o.end.After(last) {
			last = o.end
		}
	}
	if last.IsZero() {
		return last
	}
	return last.Add(renewalOpens + 3*time.Second)
}

// check compares every opportunity in the API, the read model, its workflow,
// the CRM stand-in, the history, the notifications, the outbox and the SMTP
// server's deliveries.
func (h *harness) check(ctx context.Context, ops []*op, users map[string]string, calls []*call) *chaosReport {
	rep := &chaosReport{Counts: map[string]int64{}}
	ids := make([]string, len(ops))
	byID := map[string]*op{}
	for i, o := range ops {
		ids[i] = o.id
		byID[o.id] = o
	}
	approvedStage := crm.DefaultStages()[opportunity.Approved]

	// Read model.
	type rmRow struct {
		status, name, register string
		prob                   int
		validUntil             *time.Time
		deleted                bool
	}
	readModel := map[string]rmRow{}
	rows, _ := h.db.Query(ctx, `SELECT id::text, status, name, probability_closing, register, valid_until, is_deleted FROM opportunities
		WHERE id = ANY($1::uuid[])`, ids)
	for rows.Next() {
		var id string
		var r rmRow
		if err := rows.Scan(&id, &r.status, &r.name, &r.prob, &r.register, &r.validUntil, &r.deleted); err == nil {
			readModel[id] = r
		}
	}
	rows.Close()
	var extra int
	var extraIDs []string
	rows, _ = h.db.Query(ctx, `SELECT id::text FROM opportunities WHERE user_id = ANY($1::uuid[]) AND id <> ALL($2::uuid[])`,
		[]string{users["vendedor1@nordata.demo"], users["vendedor2@nordata.demo"]}, ids)
	for rows.Next() {
		var id string
		if rows.Scan(&id) == nil {
			extra++
			extraIDs = append(extraIDs, id)
		}
	}
	rows.Close()
	if !h.o.demo {
		for _, id := range extraIDs {
			rep.add(chkDupRows, nil, id, "an opportunity of the chaos sellers that no client registered")
		}
	}

	// CRM stand-in.
	type crmRow struct {
		n                  int
		stages, ids, names []string
		probs              []*int
	}
	crmRecs := map[string]crmRow{}
	rows, _ = h.db.Query(ctx, `SELECT external_id, count(*), array_agg(stage_name ORDER BY created_at), array_agg(id ORDER BY created_at),
			array_agg(name ORDER BY created_at), array_agg(probability ORDER BY created_at)
		FROM crm_sim.opportunities WHERE external_id = ANY($1) GROUP BY external_id`, ids)
	for rows.Next() {
		var id string
		var c crmRow
		if err := rows.Scan(&id, &c.n, &c.stages, &c.ids, &c.names, &c.probs); err == nil {
			crmRecs[id] = c
		} else {
			slog.Warn("crm records", "err", err)
		}
	}
	rows.Close()

	// History: per opportunity, its creation rows, the rows of each status a
	// person set (the timer's renovation and expiry aside), and the others.
	type hist struct {
		creates     int
		transitions map[string]int
		other       []string
		deletedAt   time.Time // the operator's cancel recorded
	}
	histories := map[string]*hist{}
	rows, _ = h.db.Query(ctx, `SELECT type_id::text, action_type, COALESCE(event_key, ''),
			COALESCE((SELECT m->>'newValue' FROM jsonb_array_elements(modifications) m WHERE m->>'attribute' = 'status' LIMIT 1), ''),
			modifications @> '[{"attribute":"isDeleted","newValue":"true"}]'::jsonb, created_at
		FROM history WHERE type = 'opportunity' AND type_id = ANY($1::uuid[]) ORDER BY id`, ids)
	for rows.Next() {
		var id, action, key, status string
		var deleted bool
		var at time.Time
		if err := rows.Scan(&id, &action, &key, &status, &deleted, &at); err != nil {
			slog.Warn("history", "err", err)
			continue
		}
		hh := histories[id]
		if hh == nil {
			hh = &hist{transitions: map[string]int{}}
			histories[id] = hh
		}
		switch {
		case action == "create":
			hh.creates++
		case status == string(opportunity.Renovation) || status == string(opportunity.Expired):
		case status != "":
			hh.transitions[status]++
		default:
			hh.other = append(hh.other, key)
			if deleted {
				hh.deletedAt = at
			}
		}
	}
	rows.Close()

	// Notifications: per opportunity, kind/cycle → user → count (a notice's
	// key is id/cycle/seq/kind), and the latest stored.
	var reps int
	_ = h.db.QueryRow(ctx, `SELECT count(DISTINCT u.id) FROM users u JOIN user_roles r ON r.user_id = u.id
		WHERE u.active AND r.role = 'REPRESENTATIVE' AND r.brand IN ($1, 'all')`, brandSlug).Scan(&reps)
	// The registration's notice goes to its responsible representatives (routing,
	// docs/deal-desk.md); none assigned: to every representative of the brand.
	responsible := map[string]int{}
	rows, _ = h.db.Query(ctx, `SELECT id::text, cardinality(representative_ids) FROM opportunities WHERE id::text = ANY($1)`, ids)
	for rows.Next() {
		var id string
		var n int
		if rows.Scan(&id, &n) == nil && n > 0 {
			responsible[id] = n
		}
	}
	rows.Close()
	notices := map[string]map[string]map[string]int{}
	lastNotice := map[string]time.Time{}
	rows, _ = h.db.Query(ctx, `SELECT substr(link, length('/Painel/Opportunities/') + 1), notice_key, kind, user_id::text, created_at
		FROM notifications WHERE link = ANY($1)`, links(ids))
	for rows.Next() {
		var id, key, kind, user string
		var at time.Time
		if rows.Scan(&id, &key, &kind, &user, &at) != nil {
			continue
		}
		cycle := ""
		if parts := strings.Split(key, "/"); len(parts) > 1 {
			cycle = parts[1]
		}
		k := kind + "/" + cycle
		if notices[id] == nil {
			notices[id] = map[string]map[string]int{}
		}
		if notices[id][k] == nil {
			notices[id][k] = map[string]int{}
		}
		notices[id][k][user]++
		if at.After(lastNotice[id]) {
			lastNotice[id] = at
		}
	}
	rows.Close()
	rep.Counts["notifications stored"] = 0
	for _, ns := range notices {
		for _, us := range ns {
			for _, n := range us {
				rep.Counts["notifications stored"] += int64(n)
			}
		}
	}

	// Outbox and deliveries.
	type outRow struct {
		key, status, lastErr string
		attempts             int
	}
	var outbox []outRow
	rows, _ = h.db.Query(ctx, `SELECT key, status, attempts, last_error FROM mail_outbox ORDER BY id`)
	for rows.Next() {
		var r outRow
		if rows.Scan(&r.key, &r.status, &r.attempts, &r.lastErr) == nil {
			outbox = append(outbox, r)
		}
	}
	rows.Close()
	rep.Counts["outbox rows"] = int64(len(outbox))
	rep.Counts["e-mails received by SMTP"] = int64(h.smtp.Total())
	for _, r := range outbox {
		o := byID[opportunityOfKey(r.key)]
		id := r.key
		if r.status != mailer.StatusSent && !(o != nil && o.story == storyCancel) {
			rep.add(chkOutbox, o, id, "outbox %s: %s after %d attempts, last error %q", r.key, r.status, r.attempts, r.lastErr)
		}
		mid := mailer.MessageID(r.key, mailFrom)
		n := h.smtp.Deliveries(mid)
		switch {
		case n > 1 && r.status == mailer.StatusSent && h.keptByKill(r.key, n):
			rep.Counts["e-mails sent again, a worker killed after the 250 (RFC 1047)"]++
		case n > 1:
			var at []string
			for _, t := range h.smtp.Times(mid) {
				at = append(at, t.UTC().Format("15:04:05.000"))
			}
			rep.add(chkDupMail, o, id, "outbox %s (%d attempts) delivered %d times, accepted at %s UTC", r.key, r.attempts, n, strings.Join(at, ", "))
		case n == 0 && r.status == mailer.StatusSent:
			rep.add(chkMailLost, o, id, "outbox %s is sent, the SMTP server got nothing", r.key)
		}
	}
	rows, _ = h.db.Query(ctx, `SELECT notice_key, user_id::text, kind, link FROM notifications WHERE emailed_at IS NULL ORDER BY id`)
	for rows.Next() {
		var key, user, kind, link string
		if rows.Scan(&key, &user, &kind, &link) == nil {
			o := byID[strings.TrimPrefix(link, "/Painel/Opportunities/")]
			if o != nil && o.story == storyCancel {
				continue // abandoned with the cancelled opportunity
			}
			rep.add(chkNotEmailed, o, key, "notification %s (%s) to user %s: no e-mail recorded as sent", key, kind, user)
		}
	}
	rows.Close()

	// Calls sent again with their keys.
	for _, c := range calls {
		c.mu.Lock()
		rep.Counts["calls sent again with their key"] += int64(c.repeats)
		for _, a := range c.repeatsAnswers {
			rep.add(chkRepeatAnswer, c.o, "", "%s", a)
		}
		c.mu.Unlock()
	}
	rep.Counts["calls answered 2xx"] = int64(len(calls))

	for _, o := range ops {
		wid := workflows.OpportunityWorkflowID(o.id)
		want := o.expected()
		rep.Counts["stories "+string(o.story)]++
		if !o.createdOK() {
			rep.add(chkNotRegistered, o, "", "after %d tries: %s", o.createTry, o.created)
		}
		if o.createdOK() && !o.done || len(o.answers) > 0 {
			rep.add(chkWrongAnswer, o, "", "%s: %d requests (%d decisions after CRM refusals); unexpected: %s",
				o.story, o.approveTry, o.decisions, strings.Join(o.answers, "; "))
		}
		rm, inRM := readModel[o.id]
		// API, as the representative sees it (a cancelled one is hidden).
		if o.story != storyCancel {
			a := h.portal.call(ctx, http.MethodGet, "/api/opportunity/id/"+o.id, h.repToken, "", nil)
			if st := apiStatus(a); !slices.Contains(want.statuses, opportunity.Status(st)) || st != rm.status {
				rep.add(chkNotApprovedAPI, o, "", "%s: GET answered %s, read model %q, want %v", o.story, a, rm.status, want.statuses)
			}
		}
		if !slices.Contains(want.statuses, opportunity.Status(rm.status)) || rm.deleted != (o.story == storyCancel) {
			rep.add(chkNotApprovedRM, o, "", "%s: read model status %q, deleted %v, want %v", o.story, rm.status, rm.deleted, want.statuses)
		}
		// Workflow.
		d, err := h.describe(ctx, o.id)
		switch {
		case err != nil:
			rep.add(chkWorkflowEnded, o, "", "describe %s: %v", wid, err)
		default:
			if s := d.WorkflowExecutionInfo.GetStatus(); s != want.run {
				rep.add(chkWorkflowEnded, o, "", "%s: %s is %s, want %s", o.story, wid, s, want.run)
			}
			for _, pa := range d.PendingActivities {
				if !quietClosed(d) {
					break
				}
				last := ""
				if f := pa.GetLastFailure(); f != nil { // encoded: read through the codec
					last = testenv.FailureConverter().FailureToError(f).Error()
				}
				rep.add(chkPendingActivity, o, "", "%s: %s (id %s) %s, attempt %d, last failure %q", wid, pa.GetActivityType().GetName(),
					pa.GetActivityId(), pa.GetState(), pa.GetAttempt(), last)
			}
			if t := d.PendingWorkflowTask; t != nil {
				rep.add(chkPendingTask, o, "", "%s: workflow task %s, attempt %d", wid, t.GetState(), t.GetAttempt())
			}
		}
		var st workflows.OpportunityState
		if o.story != storyCancel {
			// A query waits for a worker's workflow task; one routed to the sticky
			// queue of a worker that was killed waits out its timeout first. Ask
			// again before calling the workflow unanswering.
			for try := 0; try < 3; try++ {
				qctx, cancel := context.WithTimeout(ctx, 10*time.Second)
				var v converter.EncodedValue
				v, err = h.tc.QueryWorkflow(qctx, wid, "", workflows.QueryState)
				if err == nil {
					err = v.Get(&st)
				}
				cancel()
				if err == nil {
					break
				}
			}
			if err != nil || !slices.Contains(want.statuses, st.Status) || string(st.Status) != rm.status {
				rep.add(chkNotApprovedWF, o, "", "%s: state query: status %q (read model %q), err %v", o.story, st.Status, rm.status, err)
			}
		}
		// CRM.
		c := crmRecs[o.id]
		switch {
		case c.n < want.crm:
			rep.add(chkNoCRM, o, "", "%s: no record with this external id", o.story)
		case c.n > want.crm:
			rep.add(chkDupCRM, o, "", "%s: %d records, stages %v, want %d", o.story, c.n, c.stages, want.crm)
		}
		if want.approved && c.n >= 1 && c.stages[len(c.stages)-1] != approvedStage {
			rep.add(chkNoCRM, o, "", "stages %v, want %s", c.stages, approvedStage)
		}
		// The approval's values, the same everywhere.
		if want.approved && inRM && rm.status == string(st.Status) && c.n == 1 {
			var diffs []string
			if rm.name != o.name || st.Name != o.name || c.names[0] != o.name {
				diffs = append(diffs, fmt.Sprintf("name: asked %q, read model %q, workflow %q, CRM %q", o.name, rm.name, st.Name, c.names[0]))
			}
			crmProb := -1
			if c.probs[0] != nil {
				crmProb = *c.probs[0]
			}
			if rm.prob != approvalProbability || st.Probability != approvalProbability || crmProb != approvalProbability {
				diffs = append(diffs, fmt.Sprintf("probability: asked %d, read model %d, workflow %d, CRM %d", approvalProbability, rm.prob, st.Probability, crmProb))
			}
			if rm.register != c.ids[0] || st.Register != c.ids[0] {
				diffs = append(diffs, fmt.Sprintf("CRM id: CRM %s, read model %q, workflow %q", c.ids[0], rm.register, st.Register))
			}
			if rm.validUntil == nil || !rm.validUntil.Truncate(time.Millisecond).Equal(st.ValidUntil.Truncate(time.Millisecond)) {
				diffs = append(diffs, fmt.Sprintf("valid until: read model %v, workflow %v", rm.validUntil, st.ValidUntil))
			}
			if len(diffs) > 0 {
				rep.add(chkDiverged, o, "", "%s", strings.Join(diffs, "; "))
			}
		}
		// History.
		hh := histories[o.id]
		if hh == nil {
			hh = &hist{transitions: map[string]int{}}
		}
		var missing, extraRows []string
		for status, n := range want.transitions {
			if hh.transitions[status] < n {
				missing = append(missing, fmt.Sprintf("%s %d of %d", status, hh.transitions[status], n))
			}
		}
		for status, n := range hh.transitions {
			if n > want.transitions[status] {
				extraRows = append(extraRows, fmt.Sprintf("%s %d, want %d", status, n, want.transitions[status]))
			}
		}
		if hh.creates != 1 || len(missing) > 0 || len(hh.other) < want.other {
			rep.add(chkNoHistory, o, "", "%s: %d creation rows; status rows missing: %v; %d other rows, want %d", o.story, hh.creates, missing, len(hh.other), want.other)
		}
		if len(extraRows) > 0 {
			rep.add(chkDupHistory, o, "", "%s: status rows %v", o.story, extraRows)
		}
		if len(hh.other) > want.other {
			rep.add(chkDupDecision, o, "", "%s: %d rows that change no status, want %d: %v", o.story, len(hh.other), want.other, hh.other)
		}
		// Notifications: the registration to its responsible representatives, the decision to the seller.
		ns := notices[o.id]
		regs := ns["registered/0"]
		dec := 0
		for k, us := range ns {
			if strings.HasPrefix(k, want.notice+"/") {
				dec += us[users[o.seller]]
			}
		}
		// A cancel may come before the registration's notices: they are not
		// owed, but none may be stored after the cancel was recorded.
		owed := reps
		if n, ok := responsible[o.id]; ok {
			owed = n
		}
		if (len(regs) != owed && o.story != storyCancel) || (want.notice != "" && dec == 0) {
			rep.add(chkNoNotice, o, "", "%s: registered notices to %d of %d representatives; %q notices to the seller: %d", o.story, len(regs), owed, want.notice, dec)
		}
		for kind, us := range ns {
			for user, n := range us {
				if n > 1 {
					rep.add(chkDupNotice, o, "", "%d %q notifications to user %s", n, kind, user)
				}
			}
		}
		// o.cancelled is when the client saw the row deleted (committed): a
		// notification stored by a transaction that began later came after it.
		if o.story == storyCancel && !o.cancelled.IsZero() && lastNotice[o.id].After(o.cancelled) {
			rep.add(chkNoticeCancelled, o, "", "the cancel seen recorded at %s (history %s), a notification stored at %s", o.cancelled.UTC().Format("15:04:05.000"),
				hh.deletedAt.UTC().Format("15:04:05.000"), lastNotice[o.id].UTC().Format("15:04:05.000"))
		}
	}
	h.attachLogs(rep)
	rep.Counts["worker kills (SIGKILL)"] = h.workerKills.Load()
	rep.Counts["api kills (SIGKILL)"] = h.apiKills.Load()
	rep.Counts["CRM down (s)"] = int64(h.crmDown / time.Second)
	rep.Counts["SMTP server down (s)"] = int64(h.mailDown / time.Second)
	rep.Counts["temporal and postgres faults"] = int64(len(h.infra))
	rep.Counts["requests"] = h.stats.requests.Load()
	rep.Counts["network errors (retried, same key)"] = h.stats.netErrors.Load()
	rep.Counts["answers 5xx other than 502 CRM and 504 (retried, same key)"] = h.stats.status5xx.Load()
	rep.Counts["answers 504 (retried, same key)"] = h.stats.status504.Load()
	rep.Counts["answers 429 (retried, same key)"] = h.stats.status429.Load()
	rep.Counts["answers 502 CRM_COMMUNICATION_ERROR (decided again, new key)"] = h.stats.status502CRM.Load()
	rep.Counts["opportunities of the chaos sellers beyond the expected"] = int64(extra)
	h.evMu.Lock()
	rep.Events = append([]event(nil), h.events...)
	h.evMu.Unlock()
	return rep
}

func links(ids []string) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = "/Painel/Opportunities/" + id
	}
	return out
}

// opportunityOfKey is the opportunity id of an outbox key notice/<id>/<cycle>/<seq>/<kind>/<user>.
func opportunityOfKey(key string) string {
	parts := strings.Split(key, "/")
	if len(parts) > 1 && parts[0] == "notice" {
		return parts[1]
	}
	return ""
}

func apiStatus(a answer) string {
	list, _ := a.body["data"].([]any)
	if a.status != http.StatusOK || len(list) != 1 {
		return ""
	}
	rec, _ := list[0].(map[string]any)
	s, _ := rec["status"].(string)
	return s
}

// attachLogs adds to each finding the api and worker log lines at WARN or
// ERROR that name its opportunity (at most 6).
func (h *harness) attachLogs(rep *chaosReport) {
	want := map[string]bool{}
	for _, f := range rep.Findings {
		if f.ID != "" {
			want[f.ID] = true
		}
	}
	if len(want) == 0 {
		return
	}
	found := map[string][]string{}
	scan := func(paths []string, keep func(line string) bool) {
		eachLogLine(paths, func(path, line string) {
			if !keep(line) {
				return
			}
			for id := range want {
				if strings.Contains(line, id) && len(found[id]) < 10 {
					if len(line) > 600 {
						line = line[:600] + "…"
					}
					found[id] = append(found[id], filepath.Base(path)+": "+line)
				}
			}
		})
	}
	problem := func(line string) bool {
		return strings.Contains(line, `"level":"ERROR"`) || strings.Contains(line, `"level":"WARN"`)
	}
	// The API's request lines say what each call answered; the worker's, what failed.
	scan(h.api.LogFiles(), func(line string) bool { return strings.Contains(line, `"msg":"http"`) || problem(line) })
	scan(h.worker.LogFiles(), problem)
	for i := range rep.Findings {
		rep.Findings[i].Logs = found[rep.Findings[i].ID]
	}
}

// report prints the table and the findings, writes report.json, and answers
// the exit code: 1 when any count is not 0.
func (h *harness) report(rep *chaosReport, ops []*op) int {
	per := map[check][3]int{}
	affected := map[string]map[string]bool{}
	for _, f := range rep.Findings {
		c := per[f.Check]
		if f.Round >= 1 && f.Round <= 2 {
			c[f.Round-1]++
		}
		c[2]++
		per[f.Check] = c
		if affected[f.Check.Category] == nil {
			affected[f.Check.Category] = map[string]bool{}
		}
		affected[f.Check.Category][f.ID] = true
	}
	var r1, r2 int
	for _, o := range ops {
		if o.round == 1 {
			r1++
		} else {
			r2++
		}
	}
	w := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "\nCHAOS\tround 1\tround 2\ttotal")
	fmt.Fprintf(w, "stories (opportunities registered, then approved, refused, edited, renewed or cancelled)\t%d\t%d\t%d\n", r1, r2, r1+r2)
	last := ""
	for _, c := range allChecks {
		if c.Category != last {
			fmt.Fprintf(w, "%s\t%d\t\t(opportunities or rows)\n", strings.ToUpper(c.Category), len(affected[c.Category]))
			last = c.Category
		}
		n := per[c]
		fmt.Fprintf(w, "  %s\t%d\t%d\t%d\n", c.Name, n[0], n[1], n[2])
	}
	settle := fmt.Sprintf("%.1f s", rep.SettleTime.Seconds())
	if !rep.Settled {
		settle = fmt.Sprintf("not settled after %.0f s", rep.SettleTime.Seconds())
	}
	fmt.Fprintf(w, "time to settle\t\t\t%s\n", settle)
	w.Flush()
	keys := make([]string, 0, len(rep.Counts))
	for k := range rep.Counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Println()
	for _, k := range keys {
		fmt.Printf("  %-64s %d\n", k, rep.Counts[k])
	}
	if len(rep.Findings) > 0 {
		fmt.Println("\nFINDINGS")
		for _, f := range rep.Findings {
			fmt.Printf("- [%s] %s · round %d · %s\n    %s\n", f.Check.Category, f.Check.Name, f.Round, f.ID, f.Seen)
			for _, l := range f.Logs {
				fmt.Printf("    log %s\n", l)
			}
		}
	}
	b, _ := json.MarshalIndent(rep, "", "  ")
	path := filepath.Join(h.o.dir, "report.json")
	_ = os.WriteFile(path, b, 0o644)
	fmt.Printf("\nseed %d · logs and report.json in %s\n", rep.Seed, h.o.dir)
	failed := 0
	for _, cat := range []string{catLost, catDuplicated, catDiverged, catStuck, catAnswer} {
		failed += len(affected[cat])
	}
	if failed > 0 || !rep.Settled {
		fmt.Printf("chaos: FAILED (lost %d, duplicated %d, diverged %d, stuck %d, wrong answers %d)\n",
			len(affected[catLost]), len(affected[catDuplicated]), len(affected[catDiverged]), len(affected[catStuck]), len(affected[catAnswer]))
		return 1
	}
	fmt.Println("chaos: 0 lost, 0 duplicated, 0 diverged, 0 stuck, 0 wrong answers")
	return 0
}
