package cnpj_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"oportuna/cnpj"
	"oportuna/internal/dev/cnpjsim"
	"oportuna/internal/testenv"
	"oportuna/internal/testenv/cnpjtest"
)

// newClock is the tests' clock, at 09:00 UTC on 2 March 2026.
func newClock() *testenv.Clock { return testenv.NewClock(time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)) }

// cacheEnv is what a caching lookup runs on: a fresh database, the stand-in
// (and its URL) and a test clock.
func cacheEnv(t *testing.T) (context.Context, *pgxpool.Pool, *cnpjsim.Server, string, *testenv.Clock) {
	t.Helper()
	db, ctx := testenv.DBContext(t)
	sim, url := simServer(t)
	return ctx, db, sim, url, newClock()
}

// cachingLookup asks the stand-in at url through the BrasilAPI client and
// caches in db, a company for a day and a not-found for an hour, at clk.
func cachingLookup(db *pgxpool.Pool, url string, clk *testenv.Clock) *cnpj.Lookup {
	return &cnpj.Lookup{DB: db, Provider: &cnpj.BrasilAPI{BaseURL: url, HTTP: client}, TTL: 24 * time.Hour, NotFoundTTL: time.Hour, Now: clk.Now}
}

func TestLookupCachesACompanyForTheTTL(t *testing.T) {
	ctx, db, sim, url, clk := cacheEnv(t)
	l := cachingLookup(db, url, clk)

	first, err := l.Find(ctx, "11.222.333/0001-81")
	if err != nil || first.RazaoSocial == "" {
		t.Fatalf("first lookup: %+v %v", first, err)
	}
	if sim.Requests() != 1 {
		t.Fatalf("%d provider calls", sim.Requests())
	}
	// A cache hit needs no provider: even an outage does not show.
	sim.Fail(http.StatusServiceUnavailable)
	clk.Add(24*time.Hour - time.Second)
	again, err := l.Find(ctx, "11222333000181")
	if err != nil || again != first || sim.Requests() != 1 {
		t.Fatalf("cached lookup: %+v %v, %d provider calls", again, err, sim.Requests())
	}
	var provider string
	var found bool
	if err := db.QueryRow(ctx, `SELECT provider, found FROM cnpj_cache WHERE cnpj = '11222333000181'`).Scan(&provider, &found); err != nil || provider != "brasilapi" || !found {
		t.Errorf("cache row: %s %v %v", provider, found, err)
	}
	// At the TTL the entry is stale: the provider is asked again.
	clk.Add(time.Second)
	if _, err := l.Find(ctx, "11222333000181"); !errors.Is(err, cnpj.ErrUnavailable) || sim.Requests() != 2 {
		t.Fatalf("after the TTL: %v, %d provider calls", err, sim.Requests())
	}
	sim.Fail(0)
	if c, err := l.Find(ctx, "11222333000181"); err != nil || c != first || sim.Requests() != 3 {
		t.Fatalf("refresh: %+v %v, %d calls", c, err, sim.Requests())
	}
	if c, err := l.Find(ctx, "11222333000181"); err != nil || c != first || sim.Requests() != 3 {
		t.Fatalf("refreshed entry not reused: %v, %d calls", err, sim.Requests())
	}

	// Another process (replica) shares the cache.
	other := &cnpj.Lookup{DB: db, Provider: &cnpj.BrasilAPI{BaseURL: url, HTTP: client}, TTL: 24 * time.Hour, Now: clk.Now}
	if c, err := other.Find(ctx, "11222333000181"); err != nil || c != first || sim.Requests() != 3 {
		t.Fatalf("replica: %v, %d calls", err, sim.Requests())
	}
}

func TestExpiredEntriesAreSweptAfterAWrite(t *testing.T) {
	ctx, db, _, url, clk := cacheEnv(t)
	l := cachingLookup(db, url, clk)
	rows := func() []string {
		t.Helper()
		r, err := db.Query(ctx, `SELECT cnpj FROM cnpj_cache ORDER BY cnpj`)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for r.Next() {
			var c string
			_ = r.Scan(&c)
			out = append(out, c)
		}
		return out
	}
	if _, err := l.Find(ctx, "11222333000181"); err != nil {
		t.Fatal(err)
	}
	// Within SweepEvery a write sweeps nothing, even with an expired entry there.
	clk.Add(cnpj.SweepEvery / 2)
	if _, err := db.Exec(ctx, `UPDATE cnpj_cache SET expires_at = $1`, clk.Now().Add(-time.Minute)); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Find(ctx, "04252011000110"); err != nil {
		t.Fatal(err)
	}
	if got := rows(); len(got) != 2 {
		t.Fatalf("rows before the sweep is due: %v", got)
	}
	// A write after SweepEvery deletes what expired and keeps the rest.
	clk.Add(cnpj.SweepEvery)
	if _, err := l.Find(ctx, "33000167000101"); err != nil {
		t.Fatal(err)
	}
	if got := rows(); strings.Join(got, ",") != "04252011000110,33000167000101" {
		t.Fatalf("rows after the sweep: %v", got)
	}
	// Sweep by hand answers how many went: both, 25 hours later.
	clk.Add(25 * time.Hour)
	if n, err := l.Sweep(ctx); err != nil || n != 2 || len(rows()) != 0 {
		t.Fatalf("sweep: %d %v, left %v", n, err, rows())
	}
}

func TestLookupCachesNotFoundBriefly(t *testing.T) {
	ctx, db, sim, url, clk := cacheEnv(t)
	l := cachingLookup(db, url, clk)
	reserved := cnpjtest.Complete("999888770001")
	for i := 0; i < 2; i++ {
		if _, err := l.Find(ctx, reserved); !errors.Is(err, cnpj.ErrNotFound) {
			t.Fatalf("lookup %d: %v", i, err)
		}
	}
	if sim.Requests() != 1 {
		t.Fatalf("not-found not cached: %d calls", sim.Requests())
	}
	clk.Add(time.Hour)
	if _, err := l.Find(ctx, reserved); !errors.Is(err, cnpj.ErrNotFound) || sim.Requests() != 2 {
		t.Fatalf("after the not-found TTL: %v, %d calls", err, sim.Requests())
	}

	// NotFoundTTL 0: never cached.
	l.NotFoundTTL = 0
	other := cnpjtest.Complete("999777660001")
	for i := 0; i < 2; i++ {
		_, _ = l.Find(ctx, other)
	}
	if sim.Requests() != 4 {
		t.Errorf("with NotFoundTTL 0: %d calls, want 4", sim.Requests())
	}
}

func TestLookupNeverCachesOutagesOrRateLimits(t *testing.T) {
	db, ctx := testenv.DBContext(t)
	sim, url := simServer(t)
	l := &cnpj.Lookup{DB: db, Provider: &cnpj.BrasilAPI{BaseURL: url, HTTP: client}, TTL: time.Hour, NotFoundTTL: time.Hour}
	for _, status := range []int{http.StatusBadGateway, http.StatusTooManyRequests} {
		sim.Fail(status)
		if _, err := l.Find(ctx, "11222333000181"); err == nil {
			t.Fatalf("failure %d not reported", status)
		}
	}
	sim.Fail(0)
	if _, err := l.Find(ctx, "11222333000181"); err != nil || sim.Requests() != 3 {
		t.Fatalf("after recovery: %v, %d calls", err, sim.Requests())
	}
	var n int
	_ = db.QueryRow(ctx, `SELECT count(*) FROM cnpj_cache`).Scan(&n)
	if n != 1 {
		t.Errorf("%d cache rows, want 1", n)
	}
}

func TestLookupRefusesInvalidNumbersWithoutAskingTheProvider(t *testing.T) {
	sim, url := simServer(t)
	l := &cnpj.Lookup{Provider: &cnpj.BrasilAPI{BaseURL: url, HTTP: client}, TTL: time.Hour} // no DB: no cache
	for _, s := range []string{"11.222.333/0001-82", "", "123", "00000000000000", "12ABC34501DE3A"} {
		if _, err := l.Find(context.Background(), s); !errors.Is(err, cnpj.ErrInvalid) {
			t.Errorf("%q: %v", s, err)
		}
	}
	if sim.Requests() != 0 {
		t.Errorf("%d provider calls for invalid numbers", sim.Requests())
	}
	if c, err := l.Find(context.Background(), "11222333000181"); err != nil || c.CNPJ != "11222333000181" {
		t.Errorf("without a cache: %+v %v", c, err)
	}
}

func TestAlphanumericCNPJUnknownToTheProviderIsNotFound(t *testing.T) {
	// A provider that knows numeric CNPJs only answers 400 to the 2026 format, as BrasilAPI did.
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		n := strings.TrimPrefix(r.URL.Path, "/api/cnpj/v1/")
		if strings.IndexFunc(n, func(r rune) bool { return r < '0' || r > '9' }) >= 0 {
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, `{"message":"CNPJ %s inválido.","type":"bad_request","name":"BadRequestError"}`, n)
			return
		}
		fmt.Fprint(w, `{"razao_social":"X LTDA","uf":"SP","municipio":"SAO PAULO","cep":"01310100"}`)
	}))
	defer srv.Close()
	db := testenv.DB(t)
	l := &cnpj.Lookup{DB: db, Provider: &cnpj.BrasilAPI{BaseURL: srv.URL, HTTP: client}, TTL: time.Hour, NotFoundTTL: time.Hour}
	if _, err := l.Find(testenv.Context(t), "12.ABC.345/01DE-35"); !errors.Is(err, cnpj.ErrNotFound) {
		t.Fatalf("alphanumeric: %v", err)
	}
	// The stand-in knows the alphanumeric ones.
	_, url := simServer(t)
	l.Provider = &cnpj.BrasilAPI{BaseURL: url, HTTP: client}
	l.DB = nil
	if c, err := l.Find(testenv.Context(t), "12.ABC.345/01DE-35"); err != nil || c.CNPJ != "12ABC34501DE35" || c.RazaoSocial == "" {
		t.Fatalf("stand-in alphanumeric: %+v %v", c, err)
	}
}

func TestConcurrentLookupsOfOneNumberCallTheProviderOnce(t *testing.T) {
	release := make(chan struct{})
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		<-release
		fmt.Fprint(w, `{"razao_social":"X LTDA","uf":"MG","municipio":"BELO HORIZONTE","cep":"30130010"}`)
	}))
	defer srv.Close()
	l := &cnpj.Lookup{Provider: &cnpj.BrasilAPI{BaseURL: srv.URL, HTTP: client}, TTL: time.Hour}
	var wg sync.WaitGroup
	errs := make(chan error, 5)
	for i := 0; i < 5; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := l.Find(context.Background(), "11222333000181")
			if err == nil && c.Cidade != "Belo Horizonte" {
				err = fmt.Errorf("city %q", c.Cidade)
			}
			errs <- err
		}()
	}
	time.Sleep(200 * time.Millisecond)
	close(release)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if calls.Load() != 1 {
		t.Errorf("%d provider calls, want 1", calls.Load())
	}
}
