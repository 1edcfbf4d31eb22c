package api

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"oportuna/internal/calendar"
	"oportuna/store"
)

// openReportBenchDB is the benchmarks' data set (openBenchDB) with the history
// and the products the reports read, added once: a creation row for every
// opportunity, a decision by the brand's representative for the decided ones
// (approved, in or awaiting renewal: approved; disapproved: disapproved) some
// hours after the registration, the timer's expiry for the expired ones; three
// product lines for each of nordata's (the brand the benchmarks read; updating
// all 1,000,000 rows rewrites every index for nothing). About 1.8 history rows
// per opportunity. The triggers of migrations/0019 write the reports' facts
// (decisions, product lines) as these rows go in.
func openReportBenchDB(b *testing.B) *pgxpool.Pool {
	b.Helper()
	pool, _ := openBenchDB(b)
	ctx := context.Background()
	var have bool
	_ = pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM history WHERE event_key = 'bench/reports')`).Scan(&have)
	if have {
		return pool
	}
	start := time.Now()
	for _, q := range []string{
		`UPDATE opportunities SET products = jsonb_build_array(
				jsonb_build_object('partNumber', 'PN-' || (abs(hashtext(id::text)) % 40), 'description', 'Produto ' || (abs(hashtext(id::text)) % 40),
					'amount', 1 + abs(hashtext(id::text)) % 5, 'price', estimated, 'accessory', false, 'competition', false),
				jsonb_build_object('partNumber', 'AC-' || (abs(hashtext(id::text)) % 7), 'description', 'Acessório',
					'amount', 2, 'price', 35.5, 'accessory', true, 'competition', false),
				jsonb_build_object('partNumber', 'RIV-1', 'description', 'Concorrente', 'amount', 1, 'price', 10, 'accessory', false, 'competition', true))
			WHERE brand = 'nordata' AND products = '[]'`,
		`INSERT INTO history (type, type_id, brand, user_id, username, action_type, modifications, created_at)
			SELECT 'opportunity', o.id, o.brand, o.user_id, 'Vendedor', 'create',
				'[{"attribute":"name","oldValue":"","newValue":"x"},{"attribute":"status","oldValue":"","newValue":"analysis"}]', o.created_at
			FROM opportunities o`,
		`INSERT INTO history (type, type_id, brand, user_id, username, action_type, modifications, created_at)
			SELECT 'opportunity', o.id, o.brand, rep.user_id, 'Representante', 'update',
				CASE WHEN o.approve_date IS NOT NULL
					THEN '[{"attribute":"status","oldValue":"analysis","newValue":"approved"},{"attribute":"probabilityClosing","oldValue":"25","newValue":"50"}]'
					ELSE '[{"attribute":"status","oldValue":"analysis","newValue":"disapproved"},{"attribute":"reason","oldValue":"","newValue":"x"}]' END::jsonb,
				o.created_at + (1 + abs(hashtext(o.id::text)) % 120) * interval '1 hour'
			FROM opportunities o
			JOIN LATERAL (SELECT r.user_id FROM user_roles r WHERE r.brand = o.brand AND r.role = 'REPRESENTATIVE' ORDER BY r.user_id LIMIT 1) rep ON true
			WHERE o.status IN ('approved', 'renovation', 'awaiting_renovation', 'disapproved')`,
		`INSERT INTO history (type, type_id, brand, username, action_type, modifications, created_at)
			SELECT 'opportunity', o.id, o.brand, 'Sistema', 'update', '[{"attribute":"status","oldValue":"analysis","newValue":"expired"}]',
				o.created_at + interval '30 days'
			FROM opportunities o WHERE o.status = 'expired'`,
		`INSERT INTO history (event_key, type, type_id, brand, username, action_type) VALUES ('bench/reports', 'user', gen_random_uuid(), 'bench', 'bench', 'create')`,
	} {
		if _, err := pool.Exec(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
	for _, q := range []string{`VACUUM ANALYZE opportunities`, `VACUUM ANALYZE history`} {
		if _, err := pool.Exec(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
	var n int
	_ = pool.QueryRow(ctx, `SELECT count(*) FROM history`).Scan(&n)
	b.Logf("reports: history and products added in %v (%d history rows)", time.Since(start).Round(time.Second), n)
	return pool
}

// benchPeriod is the last days of the data set's calendar, to today in Brasília.
func benchPeriod(days int) reportPeriod {
	to := calendar.Date(time.Now())
	from := to.AddDate(0, 0, -(days - 1))
	return reportPeriod{From: from, To: to, Since: calendar.Start(from), Until: calendar.Start(to.AddDate(0, 0, 1))}
}

// reportStatements are the report's queries for nordata's period, as the store sends them.
func reportStatements(p reportPeriod) map[string]func(*store.Queries) error {
	ctx, brand := context.Background(), "nordata"
	return map[string]func(*store.Queries) error{
		"decisions": func(q *store.Queries) error {
			_, err := q.ReportDecisions(ctx, store.ReportDecisionsParams{Brand: brand, Since: p.Since, Until: p.Until, SlaHours: 48})
			return err
		},
		"by-resale": func(q *store.Queries) error {
			_, err := q.ReportByResale(ctx, store.ReportByResaleParams{Brand: brand, Since: p.Since, Until: p.Until})
			return err
		},
		"pipeline": func(q *store.Queries) error {
			_, err := q.ReportPipeline(ctx, store.ReportPipelineParams{Brand: brand, Since: p.Since, Until: p.Until})
			return err
		},
		"by-product": func(q *store.Queries) error {
			_, err := q.ReportPipelineByProduct(ctx, store.ReportPipelineByProductParams{Brand: brand, Since: p.Since, Until: p.Until, MaxRows: maxProducts})
			return err
		},
		"expiring": func(q *store.Queries) error {
			now := time.Now()
			_, err := q.ReportExpiring(ctx, store.ReportExpiringParams{Brand: brand, Since: now, Until: now.Add(expiringDays * 24 * time.Hour), MaxRows: maxExpiring})
			return err
		},
	}
}

// BenchmarkReportQueries times each query of the report on nordata's last 90
// and 366 days (about 91,000 of the 1,000,000 opportunities are nordata's) and
// logs its plan (EXPLAIN ANALYZE) once.
func BenchmarkReportQueries(b *testing.B) {
	pool := openReportBenchDB(b)
	for _, days := range []int{90, 366} {
		for name, call := range reportStatements(benchPeriod(days)) {
			b.Run(name+"-"+map[int]string{90: "90d", 366: "366d"}[days], func(b *testing.B) {
				sql, args := store.Statement(call)
				var plan []string
				err := pgx.BeginFunc(context.Background(), pool, func(tx pgx.Tx) error {
					for _, s := range store.ReportSettings {
						if _, err := tx.Exec(context.Background(), s); err != nil {
							return err
						}
					}
					rows, _ := tx.Query(context.Background(), "EXPLAIN (ANALYZE, BUFFERS) "+sql, args...)
					var err error
					plan, err = pgx.CollectRows(rows, pgx.RowTo[string])
					return err
				})
				if err != nil {
					b.Fatal(err)
				}
				// The whole plan in a file (a benchmark's log keeps ten lines).
				file := filepath.Join(os.TempDir(), "oportuna-report-plans", b.Name()+".txt")
				_ = os.MkdirAll(filepath.Dir(file), 0o755)
				_ = os.WriteFile(file, []byte(strings.Join(plan, "\n")+"\n"), 0o644)
				b.Logf("plan (%s):\n%s", file, strings.Join(plan, "\n"))
				for b.Loop() {
					if err := store.ReportTx(context.Background(), pool, call); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkReports is the whole call, GET /api/reports, on nordata's last 90 days.
func BenchmarkReports(b *testing.B) {
	openReportBenchDB(b)
	h, tok, _ := benchServer(b)
	p := benchPeriod(90)
	benchGet(b, h, tok, "/api/reports?from="+p.From.Format(time.DateOnly)+"&to="+p.To.Format(time.DateOnly))
}
