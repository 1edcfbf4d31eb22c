package cnpj_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"oportuna/auth"
	"oportuna/cnpj"
	"oportuna/internal/dev/cnpjsim"
	"oportuna/internal/testenv"
	"oportuna/internal/testenv/cnpjtest"
)

type lookupEnv struct {
	base   string // API base URL
	sim    *cnpjsim.Server
	clock  *testenv.Clock
	signer *auth.Signer
	db     *pgxpool.Pool
}

// newLookupAPI serves the handler at /api/cnpj/{digits} (as the API mounts it),
// backed by the stand-in through the BrasilAPI client and a PostgreSQL cache.
func newLookupAPI(t *testing.T, db *pgxpool.Pool, simURL string, sim *cnpjsim.Server, clk *testenv.Clock) *lookupEnv {
	t.Helper()
	lookup := cachingLookup(db, simURL, clk)
	signer := &auth.Signer{Secret: []byte("0123456789abcdef0123456789abcdef"), TTL: time.Hour}
	h := cnpj.NewHandler(db, lookup)
	h.Signer = signer
	h.Now = clk.Now
	h.BrandOf = func(r *http.Request) string { return strings.SplitN(r.Host, ".", 2)[0] }
	r := chi.NewRouter()
	r.Route("/api", func(r chi.Router) { r.Get("/cnpj/{digits}", h.ServeHTTP) })
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	return &lookupEnv{base: srv.URL, sim: sim, clock: clk, signer: signer, db: db}
}

func setup(t *testing.T) *lookupEnv {
	t.Helper()
	sim, url := simServer(t)
	return newLookupAPI(t, testenv.DB(t), url, sim, newClock())
}

type answer struct {
	status int
	header http.Header
	body   map[string]any
}

func (e *lookupEnv) get(t *testing.T, digits string, header ...string) answer {
	t.Helper()
	a, err := e.do(digits, header...)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func (e *lookupEnv) do(digits string, header ...string) (answer, error) {
	req, _ := http.NewRequest(http.MethodGet, e.base+"/api/cnpj/"+digits, nil)
	for i := 0; i+1 < len(header); i += 2 {
		if header[i] == "Host" {
			req.Host = header[i+1]
			continue
		}
		req.Header.Set(header[i], header[i+1])
	}
	res, err := client.Do(req)
	if err != nil {
		return answer{}, err
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	var body map[string]any
	if err := json.Unmarshal(b, &body); err != nil {
		return answer{}, fmt.Errorf("GET %s: %d, body %q is not a JSON object", digits, res.StatusCode, b)
	}
	return answer{res.StatusCode, res.Header, body}, nil
}

func (e *lookupEnv) token(t *testing.T, user string) string {
	t.Helper()
	tok, _, err := e.signer.Issue(user, "Usuária", "nordata", []auth.Role{auth.Resale})
	if err != nil {
		t.Fatal(err)
	}
	return "Bearer " + tok
}

func TestLookupIsPublicAndAnswersTheCompany(t *testing.T) {
	e := setup(t)
	rec, _ := cnpjsim.Company("11222333000181")
	a := e.get(t, "11222333000181")
	if a.status != http.StatusOK {
		t.Fatalf("status %d %v", a.status, a.body)
	}
	for k, want := range map[string]string{
		"razao_social": rec.RazaoSocial, "nome_fantasia": rec.NomeFantasia, "rua": rec.TipoLogradouro + " " + rec.Logradouro + ", " + rec.Numero,
		"cep": rec.CEP, "cidade": rec.City.Nome, "estado": rec.UF, "cnpj": "11222333000181",
	} {
		if a.body[k] != want {
			t.Errorf("%s = %v, want %q", k, a.body[k], want)
		}
	}
	if a.header.Get("Cache-Control") != "no-store" {
		t.Errorf("Cache-Control %q", a.header.Get("Cache-Control"))
	}
	// Masked and URL-encoded, and with a session, it works the same.
	if a := e.get(t, "11.222.333%2F0001-81", "Authorization", e.token(t, "u-1")); a.status != http.StatusOK || a.body["razao_social"] != rec.RazaoSocial {
		t.Errorf("masked with session: %d %v", a.status, a.body)
	}
}

func wantMessage(t *testing.T, a answer, status int, msg string) {
	t.Helper()
	if a.status != status || a.body["message"] != msg {
		t.Fatalf("got %d %v, want %d %q", a.status, a.body, status, msg)
	}
}

func TestFourthLookupWithinAMinuteIsRefusedUntilTheWindowMoves(t *testing.T) {
	e := setup(t)
	// Cache hits count: the second and third ask for the same company.
	for i, n := range []string{"11222333000181", "11222333000181", "04252011000110"} {
		if a := e.get(t, n); a.status != http.StatusOK {
			t.Fatalf("lookup %d: %d %v", i+1, a.status, a.body)
		}
		e.clock.Add(10 * time.Second)
	}
	a := e.get(t, "11222333000181")
	wantMessage(t, a, http.StatusTooManyRequests, "É permitido somente 3 consultas por minuto")
	if a.header.Get("Retry-After") != "30" { // the first lookup leaves the window 30 s from now
		t.Errorf("Retry-After %q, want 30", a.header.Get("Retry-After"))
	}
	e.clock.Add(29 * time.Second)
	wantMessage(t, e.get(t, "11222333000181"), http.StatusTooManyRequests, cnpj.MsgTooMany)
	// 60 s after the first lookup one slot is free again: one more, not two.
	e.clock.Add(time.Second)
	if a := e.get(t, "11222333000181"); a.status != http.StatusOK {
		t.Fatalf("after the window: %d %v", a.status, a.body)
	}
	wantMessage(t, e.get(t, "11222333000181"), http.StatusTooManyRequests, cnpj.MsgTooMany)
	// Refused calls do not count: a minute later all three slots are free.
	e.clock.Add(time.Minute)
	for i := 0; i < 3; i++ {
		if a := e.get(t, "04252011000110"); a.status != http.StatusOK {
			t.Fatalf("new minute, lookup %d: %d", i+1, a.status)
		}
	}
	wantMessage(t, e.get(t, "04252011000110"), http.StatusTooManyRequests, cnpj.MsgTooMany)
}

func TestInvalidUnknownAndUnavailableAnswers(t *testing.T) {
	e := setup(t)
	// Wrong check digits and malformed input: 400, not counted.
	for _, n := range []string{"11222333000182", "123", "00000000000000", "abc", "12ABC34501DE3A", "11111111111111"} {
		wantMessage(t, e.get(t, n), http.StatusBadRequest, "CNPJ inválido! Por favor digite um CNPJ válido!")
	}
	// Unknown company (the stand-in's reserved 999 roots): 404.
	wantMessage(t, e.get(t, cnpjtest.Complete("999123450001")), http.StatusNotFound, "CNPJ inválido! Por favor digite um CNPJ válido!")
	// Provider outage: 502; provider rate limit: 429.
	e.sim.Fail(http.StatusServiceUnavailable)
	wantMessage(t, e.get(t, "11222333000181"), http.StatusBadGateway, cnpj.MsgUnavailable)
	e.sim.Fail(http.StatusTooManyRequests) // with the stand-in's Retry-After: 60
	a := e.get(t, "11222333000181", "Authorization", e.token(t, "u-2"))
	wantMessage(t, a, http.StatusTooManyRequests, "O serviço de consulta de CNPJ está recebendo muitas consultas. Tente novamente em 60 segundos.")
	if a.header.Get("Retry-After") != "60" {
		t.Errorf("Retry-After %q", a.header.Get("Retry-After"))
	}
	if e.sim.Requests() != 3 {
		t.Errorf("%d provider calls, want 3 (invalid numbers never reach it)", e.sim.Requests())
	}
}

func TestSignedInCallersAreCountedPerUser(t *testing.T) {
	e := setup(t)
	for i := 0; i < 3; i++ {
		if a := e.get(t, "11222333000181"); a.status != http.StatusOK {
			t.Fatalf("anonymous %d: %d", i+1, a.status)
		}
	}
	wantMessage(t, e.get(t, "11222333000181"), http.StatusTooManyRequests, cnpj.MsgTooMany)
	// Same address, signed in: the user's own count.
	ana, bia := e.token(t, "user-ana"), e.token(t, "user-bia")
	for i := 0; i < 3; i++ {
		if a := e.get(t, "11222333000181", "Authorization", ana); a.status != http.StatusOK {
			t.Fatalf("ana %d: %d %v", i+1, a.status, a.body)
		}
	}
	wantMessage(t, e.get(t, "11222333000181", "Authorization", ana), http.StatusTooManyRequests, cnpj.MsgTooMany)
	if a := e.get(t, "11222333000181", "Authorization", bia); a.status != http.StatusOK {
		t.Errorf("bia: %d", a.status)
	}
	// A token that does not verify is no session: counted with the address (exhausted).
	wantMessage(t, e.get(t, "11222333000181", "Authorization", "Bearer forjado"), http.StatusTooManyRequests, cnpj.MsgTooMany)
	// Another brand's host from the same address has its own count.
	if a := e.get(t, "11222333000181", "Host", "yep.localhost"); a.status != http.StatusOK {
		t.Errorf("other brand: %d", a.status)
	}
}

func TestClaimsInTheContextIdentifyTheCaller(t *testing.T) {
	_, url := simServer(t)
	db := testenv.DB(t)
	clk := newClock()
	lookup := &cnpj.Lookup{DB: db, Provider: &cnpj.BrasilAPI{BaseURL: url, HTTP: client}, TTL: time.Hour, Now: clk.Now}
	h := cnpj.NewHandler(db, lookup)
	h.Now = clk.Now
	r := chi.NewRouter()
	r.With(func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			c := &auth.Claims{}
			c.Subject = r.Header.Get("X-Test-User")
			next.ServeHTTP(w, r.WithContext(auth.WithClaims(r.Context(), c)))
		})
	}).Get("/cnpj/{digits}", h.ServeHTTP)
	srv := httptest.NewServer(r)
	defer srv.Close()
	get := func(user string) int {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"/cnpj/11222333000181", nil)
		req.Header.Set("X-Test-User", user)
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	for i := 0; i < 3; i++ {
		if s := get("a"); s != 200 {
			t.Fatalf("a %d: %d", i, s)
		}
	}
	if s := get("a"); s != http.StatusTooManyRequests {
		t.Errorf("a 4th: %d", s)
	}
	if s := get("b"); s != 200 {
		t.Errorf("b: %d", s)
	}
}

func TestTheLimitIsSharedByEveryReplica(t *testing.T) {
	sim, url := simServer(t)
	db := testenv.DB(t)
	clk := newClock()
	one := newLookupAPI(t, db, url, sim, clk)
	two := newLookupAPI(t, db, url, sim, clk)
	tok := one.token(t, "user-shared")
	for i, e := range []*lookupEnv{one, two, one} {
		if a := e.get(t, "11222333000181", "Authorization", tok); a.status != http.StatusOK {
			t.Fatalf("lookup %d: %d", i+1, a.status)
		}
	}
	wantMessage(t, two.get(t, "11222333000181", "Authorization", tok), http.StatusTooManyRequests, cnpj.MsgTooMany)
	wantMessage(t, one.get(t, "11222333000181", "Authorization", tok), http.StatusTooManyRequests, cnpj.MsgTooMany)

	// Concurrent calls of one caller on both replicas: exactly three get through.
	clk.Add(time.Minute)
	tok2 := one.token(t, "user-race")
	results := make(chan int, 10)
	for i := 0; i < 10; i++ {
		e := one
		if i%2 == 1 {
			e = two
		}
		go func() {
			a, err := e.do("11222333000181", "Authorization", tok2)
			if err != nil {
				t.Error(err)
			}
			results <- a.status
		}()
	}
	ok := 0
	for i := 0; i < 10; i++ {
		if <-results == http.StatusOK {
			ok++
		}
	}
	if ok != 3 {
		t.Errorf("%d of 10 concurrent lookups allowed, want 3", ok)
	}
	// Old hits are deleted by the periodic pruning (internal/ratelimit.Prune,
	// tested there).
}

// TestTheProvidersRetryAfterReachesTheUser: when the provider refuses for too
// many requests, the wait it asks for in Retry-After (RFC 9110 §10.2.3:
// delay-seconds or an HTTP-date) is the API's 429 Retry-After and the
// seconds of the pt-BR message; without one, a minute.
func TestTheProvidersRetryAfterReachesTheUser(t *testing.T) {
	e := setup(t)
	e.sim.Fail(http.StatusTooManyRequests)
	for i, c := range []struct {
		retryAfter, header, seconds string
	}{
		{"42", "42", "42 segundos"},
		{"1", "1", "1 segundo"},
		{"", "60", "60 segundos"}, // the provider did not say
	} {
		e.sim.SetRetryAfter(c.retryAfter)
		a := e.get(t, "11222333000181", "Authorization", e.token(t, fmt.Sprintf("u-%d", i)))
		wantMessage(t, a, http.StatusTooManyRequests, "O serviço de consulta de CNPJ está recebendo muitas consultas. Tente novamente em "+c.seconds+".")
		if got := a.header.Get("Retry-After"); got != c.header {
			t.Errorf("provider Retry-After %q: API Retry-After %q, want %q", c.retryAfter, got, c.header)
		}
	}

	// An HTTP-date, counted from the provider's Date.
	date := time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)
	provider := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Date", date.Format(http.TimeFormat))
		w.Header().Set("Retry-After", date.Add(75*time.Second).Format(http.TimeFormat))
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusTooManyRequests)
		fmt.Fprint(w, `{"message":"Too Many Requests"}`)
	}))
	t.Cleanup(provider.Close)
	dated := newLookupAPI(t, e.db, provider.URL, nil, newClock())
	a := dated.get(t, "11222333000181")
	wantMessage(t, a, http.StatusTooManyRequests, "O serviço de consulta de CNPJ está recebendo muitas consultas. Tente novamente em 75 segundos.")
	if got := a.header.Get("Retry-After"); got != "75" {
		t.Errorf("HTTP-date Retry-After: API Retry-After %q, want 75", got)
	}
}
