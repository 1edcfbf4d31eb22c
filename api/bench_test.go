package api

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"oportuna/auth"
	"oportuna/brand"
	"oportuna/internal/calendar"
	"oportuna/internal/testenv"
	"oportuna/migrations"
	"oportuna/seed"
	"oportuna/store"
)

// The benchmarks read a database of OPORTUNA_BENCH_ROWS opportunities (default
// 1,000,000) spread over the eleven brands, built once and kept between runs
// (database oportuna_bench on the test server). `make bench` runs them. A
// call's benchmark reports, beside its time, the time its SQL statements took
// in the same run (sql-ns/op) and its own time over that (x-sql: 1.0 would be
// a call that costs no more than its statements).

var benchDB struct {
	pool *pgxpool.Pool
	id   string
}

// benchSQL sums the time the bench pool's statements take: a query from its
// sending until its rows are closed, a batch from its sending until it is
// closed (pgx's tracer interfaces).
var benchSQL sqlTimer

type sqlTimer struct{ ns atomic.Int64 }

type sqlStartKey struct{}

func (t *sqlTimer) start(ctx context.Context) context.Context {
	return context.WithValue(ctx, sqlStartKey{}, time.Now())
}

func (t *sqlTimer) end(ctx context.Context) {
	if at, ok := ctx.Value(sqlStartKey{}).(time.Time); ok {
		t.ns.Add(int64(time.Since(at)))
	}
}

func (t *sqlTimer) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	return t.start(ctx)
}
func (t *sqlTimer) TraceQueryEnd(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryEndData) {
	t.end(ctx)
}
func (t *sqlTimer) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	return t.start(ctx)
}
func (t *sqlTimer) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {}
func (t *sqlTimer) TraceBatchEnd(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchEndData) {
	t.end(ctx)
}

// reportSQL reports the SQL time of the ops iterations run since the timer
// read before, and the call's time over it.
func reportSQL(b *testing.B, before int64, ops int) {
	sql := benchSQL.ns.Load() - before
	if ops == 0 || sql <= 0 {
		return
	}
	b.ReportMetric(float64(sql)/float64(ops), "sql-ns/op")
	b.ReportMetric(float64(b.Elapsed())/float64(sql), "x-sql")
}

func benchRows() int {
	if n, err := strconv.Atoi(os.Getenv("OPORTUNA_BENCH_ROWS")); err == nil && n > 0 {
		return n
	}
	return 1_000_000
}

func openBenchDB(b *testing.B) (*pgxpool.Pool, string) {
	b.Helper()
	if benchDB.pool != nil {
		return benchDB.pool, benchDB.id
	}
	ctx := context.Background()
	admin := testenv.DatabaseURL(b)
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		b.Fatal(err)
	}
	var exists bool
	_ = conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = 'oportuna_bench')`).Scan(&exists)
	if !exists {
		if _, err := conn.Exec(ctx, `CREATE DATABASE oportuna_bench`); err != nil {
			b.Fatal(err)
		}
	}
	conn.Close(ctx)
	cfg, err := pgxpool.ParseConfig(admin)
	if err != nil {
		b.Fatal(err)
	}
	cfg.ConnConfig.Database = "oportuna_bench"
	cfg.ConnConfig.RuntimeParams["max_parallel_workers_per_gather"] = "0"
	cfg.ConnConfig.Tracer = &benchSQL
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := migrations.Apply(ctx, pool); err != nil {
		b.Fatal(err)
	}
	if _, err := seed.Run(ctx, pool, brand.MustLoad(), "Oportuna@2026"); err != nil {
		b.Fatal(err)
	}
	want := benchRows()
	var have int
	_ = pool.QueryRow(ctx, `SELECT count(*) FROM opportunities`).Scan(&have)
	if have < want {
		start := time.Now()
		// Sellers round-robin over the brands; statuses, dates over 18 months, customers and values vary.
		_, err := pool.Exec(ctx, `
			WITH sellers AS (
				SELECT row_number() OVER (ORDER BY u.email) - 1 AS k, u.id, u.resale_id, r.brand
				FROM users u JOIN user_roles r ON r.user_id = u.id WHERE r.role = 'SELLER'),
			n AS (SELECT count(*) AS c FROM sellers)
			INSERT INTO opportunities (id, brand, status, name, cnpj, contact, email, fantasy_name, corporate_name,
				state, city, probability_closing, estimated, register, user_id, resale_id, approve_date, valid_until, created_at)
			SELECT gen_random_uuid(), s.brand,
				(ARRAY['analysis','approved','disapproved','renovation','awaiting_renovation','expired'])[1 + g % 6],
				'Oportunidade ' || md5(g::text), lpad((g % 99999999)::text, 8, '0') || '000199',
				'Contato ' || g, 'compras' || g || '@cliente.com.br', 'Cliente ' || (g % 50000),
				'Cliente ' || (g % 50000) || ' Ltda', (ARRAY['SP','MG','RJ','PR','RS','SC','BA','PE'])[1 + g % 8],
				'Cidade ' || (g % 300), (ARRAY[25,50,75,100])[1 + g % 4], (g % 100000) * 10.5, '',
				s.id, s.resale_id,
				CASE WHEN g % 6 IN (1, 3, 4) THEN now() - (g % 540) * interval '1 day' END,
				CASE WHEN g % 6 IN (1, 3, 4) THEN now() + interval '90 days' - (g % 540) * interval '1 day' END,
				now() - (g % 540) * interval '1 day' - (g % 86400) * interval '1 second'
			FROM generate_series($1::bigint, $2::bigint) AS g CROSS JOIN n
			JOIN sellers s ON s.k = g % n.c`, have+1, want)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = pool.Exec(ctx, `VACUUM ANALYZE opportunities`)
		b.Logf("inserted %d opportunities in %v", want-have, time.Since(start))
	}
	var id string
	_ = pool.QueryRow(ctx, `SELECT id::text FROM opportunities WHERE brand = 'nordata' ORDER BY created_at DESC LIMIT 1`).Scan(&id)
	benchDB.pool, benchDB.id = pool, id
	return pool, id
}

func benchServer(b *testing.B) (http.Handler, string, string) {
	pool, id := openBenchDB(b)
	brands := brand.MustLoad()
	signer := &auth.Signer{Secret: []byte("0123456789abcdef0123456789abcdef"), TTL: time.Hour}
	s := &Server{Brands: brands, DB: pool,
		Auth: &auth.Service{DB: pool, Brands: brands, Signer: signer},
		Web:  fstest.MapFS{"index.html": {Data: []byte(`<html><head><title>x</title></head></html>`)}}}
	h, err := s.Handler()
	if err != nil {
		b.Fatal(err)
	}
	var repID string
	if err := pool.QueryRow(context.Background(), `SELECT id::text FROM users WHERE email = 'representante@nordata.demo'`).Scan(&repID); err != nil {
		b.Fatal(err)
	}
	tok, _, err := signer.Issue(repID, "Renata", "nordata", []auth.Role{auth.Representative})
	if err != nil {
		b.Fatal(err)
	}
	return h, tok, id
}

func benchGet(b *testing.B, h http.Handler, tok, path string) {
	b.Helper()
	b.ReportAllocs()
	before, ops := benchSQL.ns.Load(), 0
	defer func() { reportSQL(b, before, ops) }()
	for b.Loop() {
		ops++
		req := httptest.NewRequest("GET", path, nil)
		req.Header.Set("Authorization", "Bearer "+tok)
		req.Header.Set("company", "nordata")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != 200 {
			b.Fatalf("%s: %d %s", path, rec.Code, rec.Body.String())
		}
	}
}

func BenchmarkOpportunityList(b *testing.B) {
	h, tok, _ := benchServer(b)
	for name, q := range map[string]string{
		"page10":          "amount=10&page=1",
		"page100":         "amount=100&page=1",
		"page10-offset1k": "amount=10&page=100",
		"status":          "amount=10&status=approved",
		"name":            "amount=10&name=abc",
		"cnpj":            "amount=10&cnpj=00012",
		"estimated-asc":   "amount=10&estimated=asc",
		"date":            "amount=10&date=" + calendar.Date(time.Now()).AddDate(0, 0, -3).Format("02/01/2006"),
	} {
		b.Run(name, func(b *testing.B) { benchGet(b, h, tok, "/api/opportunity/all?"+q) })
	}
}

func BenchmarkOpportunityDetail(b *testing.B) {
	h, tok, id := benchServer(b)
	benchGet(b, h, tok, "/api/opportunity/id/"+id)
}

func BenchmarkDashboard(b *testing.B) {
	h, tok, _ := benchServer(b)
	benchGet(b, h, tok, "/api/dashboard/status?brand=nordata")
}

// BenchmarkExport writes one brand's opportunities (about 91,000 of the data
// set's 1,000,000: what a representative exports) to an .xlsx and reports the
// peak heap growth while doing it (the stream writer must keep it flat). Its
// query streams the rows while the sheet is written, so no SQL share is told
// apart.
func BenchmarkExport(b *testing.B) {
	pool, _ := openBenchDB(b)
	s := &Server{DB: pool}
	filter := store.OpportunityFilter{Brand: "nordata"}
	var peak uint64
	b.ReportAllocs()
	for b.Loop() {
		runtime.GC()
		var base runtime.MemStats
		runtime.ReadMemStats(&base)
		stop := make(chan struct{})
		sampled := make(chan uint64)
		go func() {
			var max uint64
			var m runtime.MemStats
			for {
				runtime.ReadMemStats(&m)
				if m.HeapInuse > max {
					max = m.HeapInuse
				}
				select {
				case <-stop:
					sampled <- max
					return
				case <-time.After(20 * time.Millisecond):
				}
			}
		}()
		var size countingWriter
		if err := s.writeExport(context.Background(), &size, filter); err != nil {
			b.Fatal(err)
		}
		close(stop)
		if max := <-sampled; max > base.HeapInuse && max-base.HeapInuse > peak {
			peak = max - base.HeapInuse
		}
		b.ReportMetric(float64(size), "xlsx-bytes")
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
}

type countingWriter int64

func (c *countingWriter) Write(p []byte) (int, error) {
	*c += countingWriter(len(p))
	return len(p), nil
}

// The benchmarks' SQL timer counts a query until its rows are closed and a
// batch until it is closed.
func TestTheBenchmarksSQLTimerCountsQueriesAndBatches(t *testing.T) {
	ctx := t.Context()
	cfg, err := pgx.ParseConfig(testenv.DatabaseURL(t))
	if err != nil {
		t.Fatal(err)
	}
	var timer sqlTimer
	cfg.Tracer = &timer
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	const nap = 50 * time.Millisecond
	rows, err := conn.Query(ctx, `SELECT pg_sleep(0.05)`)
	if err != nil {
		t.Fatal(err)
	}
	rows.Close()
	if got := time.Duration(timer.ns.Load()); got < nap {
		t.Errorf("a query of %v counted %v", nap, got)
	}
	before := timer.ns.Load()
	var batch pgx.Batch
	batch.Queue(`SELECT pg_sleep(0.05)`)
	batch.Queue(`SELECT 1`)
	if err := conn.SendBatch(ctx, &batch).Close(); err != nil {
		t.Fatal(err)
	}
	if got := time.Duration(timer.ns.Load() - before); got < nap {
		t.Errorf("a batch of %v counted %v", nap, got)
	}
}
