package main

import (
	"context"
	"fmt"
	"net/smtp"
	"strings"

	"oportuna/mailer"
	"oportuna/workflows"
)

// planted is a fault -inject planted and the check that must report it.
type planted struct {
	check check
	id    string // the finding's id: an opportunity, or the row named
	what  string
}

// inject plants, after the run settled, one fault of each kind the checks
// look for, each on its own approved opportunity, so that a run with
// -inject proves every check reports what it should (and exits 0 only
// then). It needs at least 10 approved ones (stories approve and edit).
func (h *harness) inject(ctx context.Context, ops []*op) ([]planted, error) {
	var r1 []*op
	for _, o := range ops {
		if o.approvedOK() {
			r1 = append(r1, o)
		}
	}
	if len(r1) < 10 {
		return nil, fmt.Errorf("-inject needs 10 approved opportunities (stories approve and edit), got %d: give -opportunities 14 or more", len(r1))
	}
	var out []planted
	exec := func(c check, o *op, what, sql string, args ...any) error {
		tag, err := h.db.Exec(ctx, sql, args...)
		if err == nil && tag.RowsAffected() == 0 {
			err = fmt.Errorf("no row changed")
		}
		if err != nil {
			return fmt.Errorf("inject %s: %w", what, err)
		}
		out = append(out, planted{c, o.id, what})
		return nil
	}
	// 0: a second CRM record with the same external id.
	if err := h.sim.DuplicateOpportunity(ctx, r1[0].id); err != nil {
		return nil, err
	}
	out = append(out, planted{chkDupCRM, r1[0].id, "a second CRM record"})
	// 1: a second approval history row.
	if err := exec(chkDupHistory, r1[1], "a second approval history row", `INSERT INTO history (event_key, type, type_id, brand, user_id, username, action_type, modifications, created_at)
		SELECT event_key || '/injected', type, type_id, brand, user_id, username, action_type, modifications, created_at FROM history
		WHERE type_id = $1 AND modifications @> '[{"attribute":"status","newValue":"approved"}]'::jsonb`, r1[1].id); err != nil {
		return nil, err
	}
	// 2: an outbox row back to pending.
	var key string
	if err := h.db.QueryRow(ctx, `UPDATE mail_outbox SET status = 'pending' WHERE id = (SELECT min(id) FROM mail_outbox WHERE key LIKE $1)
		RETURNING key`, "notice/"+r1[2].id+"/%").Scan(&key); err != nil {
		return nil, fmt.Errorf("inject a pending outbox row: %w", err)
	}
	out = append(out, planted{chkOutbox, r1[2].id, "outbox " + key + " pending"})
	// 3: the read model's name changed behind the workflow's back.
	if err := exec(chkDiverged, r1[3], "another name in the read model",
		`UPDATE opportunities SET name = name || ' (alterado)' WHERE id = $1`, r1[3].id); err != nil {
		return nil, err
	}
	// 4: the CRM record gone.
	if err := exec(chkNoCRM, r1[4], "the CRM record deleted", `WITH l AS (DELETE FROM crm_sim.line_items WHERE opportunity_id IN
			(SELECT id FROM crm_sim.opportunities WHERE external_id = $1))
		DELETE FROM crm_sim.opportunities WHERE external_id = $1`, r1[4].id); err != nil {
		return nil, err
	}
	// 5: the read model back in analysis (the API reads it too).
	if err := exec(chkNotApprovedRM, r1[5], "the read model back in analysis",
		`UPDATE opportunities SET status = 'analysis' WHERE id = $1`, r1[5].id); err != nil {
		return nil, err
	}
	out = append(out, planted{chkNotApprovedAPI, r1[5].id, "the read model back in analysis, as the API shows it"})
	// 6: a second approval notice to the seller, under another key.
	if err := exec(chkDupNotice, r1[6], "a second approval notification", `INSERT INTO notifications (notice_key, user_id, brand, kind, title, link, emailed_at)
		SELECT notice_key || '/injected', user_id, brand, kind, title, link, emailed_at FROM notifications
		WHERE link = $1 AND kind = 'approved'`, "/Painel/Opportunities/"+r1[6].id); err != nil {
		return nil, err
	}
	// 7: an e-mail delivered a second time (same Message-ID).
	if err := h.db.QueryRow(ctx, `SELECT min(key) FROM mail_outbox WHERE key LIKE $1`, "notice/"+r1[7].id+"/%").Scan(&key); err != nil {
		return nil, err
	}
	msg := "Message-ID: <" + mailer.MessageID(key, mailFrom) + ">\r\nSubject: injected\r\n\r\nsecond copy\r\n"
	if err := smtp.SendMail(fmt.Sprintf("%s:%d", h.smtp.Host, h.smtp.Port), nil, mailFrom, []string{"x@oportuna.localhost"}, []byte(msg)); err != nil {
		return nil, fmt.Errorf("inject a second delivery: %w", err)
	}
	out = append(out, planted{chkDupMail, r1[7].id, "outbox " + key + " delivered again"})
	// 8: a registration stored twice (another id for the same seller).
	extra := strings.Replace(r1[8].id, r1[8].id[:8], "00000000", 1)
	if err := exec(chkDupRows, &op{id: extra}, "a second row of a registration", `INSERT INTO opportunities (id, brand, status, name, cnpj, user_id, resale_id, created_at)
		SELECT $2::uuid, brand, status, name, cnpj, user_id, resale_id, created_at FROM opportunities WHERE id = $1`, r1[8].id, extra); err != nil {
		return nil, err
	}
	// 9: the workflow terminated (an operator, or a failed run).
	if err := h.tc.TerminateWorkflow(ctx, workflows.OpportunityWorkflowID(r1[9].id), "", "chaos -inject"); err != nil {
		return nil, fmt.Errorf("inject a terminated workflow: %w", err)
	}
	out = append(out, planted{chkWorkflowEnded, r1[9].id, "the workflow terminated"})
	return out, nil
}

// verifyInjected answers the planted faults no finding reported.
func verifyInjected(rep *chaosReport, faults []planted) []planted {
	var missed []planted
	for _, p := range faults {
		found := false
		for _, f := range rep.Findings {
			if f.Check == p.check && f.ID == p.id {
				found = true
				break
			}
		}
		if !found {
			missed = append(missed, p)
		}
	}
	return missed
}
