package main

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// check looks in the database for what the calls' answers do not show: an
// opportunity registered twice (a row of the load test's sellers that no
// answered registration names), one approved more than once or not at all in
// the read model and its history, and a CRM record missing or duplicated in
// the Salesforce stand-in. Approvals answer after the read model and the CRM
// are written, so the checks are read again for a short while only in case a
// later step (a projection, a retry) is still on its way.
func (lt *loadtest) check(ctx context.Context) ([]string, error) {
	db, err := pgxpool.New(ctx, lt.t.databaseURL)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	deadline := time.Now().Add(30 * time.Second)
	for {
		findings, err := lt.checkOnce(ctx, db)
		if err != nil || len(findings) == 0 || time.Now().After(deadline) || ctx.Err() != nil {
			return findings, err
		}
		slog.Info("checks: not yet consistent, reading again", "findings", len(findings))
		time.Sleep(2 * time.Second)
	}
}

func (lt *loadtest) checkOnce(ctx context.Context, db *pgxpool.Pool) ([]string, error) {
	lt.mu.Lock()
	opps := append([]*opp(nil), lt.opps...)
	approved := map[string]bool{}
	for _, o := range opps {
		approved[o.id] = o.approved
	}
	lt.mu.Unlock()
	ids := make([]string, len(opps))
	for i, o := range opps {
		ids[i] = o.id
	}
	var out []string
	add := func(format string, args ...any) {
		if len(out) < 50 {
			out = append(out, fmt.Sprintf(format, args...))
		}
	}

	status := map[string]string{}
	rows, _ := db.Query(ctx, `SELECT id::text, status FROM opportunities WHERE id = ANY($1::uuid[]) AND NOT is_deleted`, ids)
	for rows.Next() {
		var id, st string
		if err := rows.Scan(&id, &st); err != nil {
			return nil, err
		}
		status[id] = st
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read model: %w", err)
	}
	var extra []string
	rows, _ = db.Query(ctx, `SELECT o.id::text FROM opportunities o JOIN users u ON u.id = o.user_id
		WHERE u.email = ANY($1) AND o.created_at >= $2 AND o.id <> ALL($3::uuid[])`, lt.o.sellers, lt.started.Add(-time.Second), ids)
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		extra = append(extra, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read model: %w", err)
	}
	for _, id := range extra {
		add("opportunity %s of a load-test seller, registered during the run, is none the answers named (registered twice?)", id)
	}

	approvals := map[string]int{}
	rows, _ = db.Query(ctx, `SELECT type_id::text, count(*) FROM history
		WHERE type = 'opportunity' AND type_id = ANY($1::uuid[]) AND modifications @> '[{"attribute":"status","newValue":"approved"}]'::jsonb
		GROUP BY 1`, ids)
	for rows.Next() {
		var id string
		var n int
		if err := rows.Scan(&id, &n); err != nil {
			return nil, err
		}
		approvals[id] = n
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}

	var standIn bool
	if err := db.QueryRow(ctx, `SELECT to_regclass('crm_sim.opportunities') IS NOT NULL`).Scan(&standIn); err != nil {
		return nil, err
	}
	crmRecords := map[string]int{}
	if standIn {
		rows, _ = db.Query(ctx, `SELECT external_id, count(*) FROM crm_sim.opportunities WHERE external_id = ANY($1) GROUP BY 1`, ids)
		for rows.Next() {
			var id string
			var n int
			if err := rows.Scan(&id, &n); err != nil {
				return nil, err
			}
			crmRecords[id] = n
		}
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("crm stand-in: %w", err)
		}
	}

	for _, id := range ids {
		st, ok := status[id]
		switch {
		case !ok:
			add("opportunity %s: answered as registered, not in the read model", id)
			continue
		case approved[id] && st != "approved":
			add("opportunity %s: answered as approved, status %q in the read model", id, st)
		}
		if approved[id] && approvals[id] != 1 {
			add("opportunity %s: %d approvals in its history, want 1", id, approvals[id])
		}
		if !approved[id] && approvals[id] != 0 {
			add("opportunity %s: not approved by the load test, %d approvals in its history", id, approvals[id])
		}
		if standIn && approved[id] && crmRecords[id] != 1 {
			add("opportunity %s: %d CRM records, want 1", id, crmRecords[id])
		}
		if standIn && crmRecords[id] > 1 {
			add("opportunity %s: %d CRM records (duplicated)", id, crmRecords[id])
		}
	}
	if !standIn {
		slog.Warn("checks: no Salesforce stand-in tables in this database (crm_sim.opportunities): CRM records not checked")
	}
	return out, nil
}
