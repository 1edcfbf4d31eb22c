package cnpj_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"oportuna/cnpj"
	"oportuna/geo"
	"oportuna/internal/dev/cnpjsim"
	"oportuna/internal/testenv/cnpjtest"
)

func simServer(t *testing.T) (*cnpjsim.Server, string) {
	t.Helper()
	sim := cnpjsim.New()
	srv := httptest.NewServer(sim)
	t.Cleanup(srv.Close)
	return sim, srv.URL
}

var client = &http.Client{Timeout: 5 * time.Second}

func TestBrasilAPIClientAgainstTheStandIn(t *testing.T) {
	sim, url := simServer(t)
	p := &cnpj.BrasilAPI{BaseURL: url, HTTP: client}
	ctx := context.Background()
	for _, n := range []string{"11222333000181", "04252011000110", cnpjtest.Complete("123456780002"), "12ABC34501DE35"} {
		rec, err := cnpjsim.Company(n)
		if err != nil {
			t.Fatal(err)
		}
		c, err := p.Fetch(ctx, n)
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		want := cnpj.Company{
			CNPJ: n, NomeFantasia: rec.NomeFantasia, RazaoSocial: rec.RazaoSocial,
			Rua:    rec.TipoLogradouro + " " + rec.Logradouro + ", " + rec.Numero,
			Numero: rec.Numero, Complemento: rec.Complemento, Bairro: rec.Bairro, CEP: rec.CEP,
			Cidade: rec.City.Nome, Estado: rec.UF, CodigoIBGE: rec.City.ID,
		}
		if c != want {
			t.Errorf("%s:\n got %+v\nwant %+v", n, c, want)
		}
	}

	reserved := cnpjtest.Complete("999123450001")
	if _, err := p.Fetch(ctx, reserved); !errors.Is(err, cnpj.ErrNotFound) {
		t.Errorf("reserved root: %v, want ErrNotFound", err)
	}
	if _, err := p.Fetch(ctx, "11222333000182"); !errors.Is(err, cnpj.ErrNotFound) {
		t.Errorf("wrong check digits (provider 400): %v, want ErrNotFound", err)
	}
	sim.Fail(http.StatusServiceUnavailable)
	if _, err := p.Fetch(ctx, "11222333000181"); !errors.Is(err, cnpj.ErrUnavailable) {
		t.Errorf("outage: %v, want ErrUnavailable", err)
	}
	sim.Fail(http.StatusTooManyRequests)
	_, err := p.Fetch(ctx, "11222333000181")
	var rl *cnpj.RateLimitError
	if !errors.Is(err, cnpj.ErrRateLimited) || !errors.As(err, &rl) || rl.RetryAfter != time.Minute {
		t.Errorf("429: %v, want ErrRateLimited with the stand-in's Retry-After (60 s)", err)
	}
	sim.Fail(0)
	if _, err := p.Fetch(ctx, "11222333000181"); err != nil {
		t.Errorf("after recovery: %v", err)
	}
}

func TestStandInIsDeterministicAndKeepsTheCompanyAcrossBranches(t *testing.T) {
	a, _ := cnpjsim.Company("11.222.333/0001-81")
	b, _ := cnpjsim.Company("11222333000181")
	if a != b {
		t.Fatalf("same CNPJ, different companies: %+v %+v", a, b)
	}
	branch, err := cnpjsim.Company(cnpjtest.Complete("112223330002"))
	if err != nil || branch.RazaoSocial != a.RazaoSocial || !a.Matriz || branch.Matriz {
		t.Errorf("branch %+v (%v) of %+v", branch, err, a)
	}
	seen := map[string]bool{}
	for i := 0; i < 200; i++ {
		rec, err := cnpjsim.Company(cnpjtest.Complete(fmt.Sprintf("%08d0001", 10000000+i*7919)))
		if err != nil {
			t.Fatal(err)
		}
		seen[rec.RazaoSocial] = true
		if c, ok := geo.CityByID(rec.City.ID); !ok || c.UF != rec.UF || geo.Fold(c.Nome) != geo.Fold(rec.Municipio) {
			t.Fatalf("city of %s: %+v (%s/%s)", rec.CNPJ, rec.City, rec.Municipio, rec.UF)
		}
		st, found := geo.StateOfCEP(rec.CEP)
		if !found || st.Sigla != rec.UF {
			t.Errorf("%s: CEP %s is in %s, company in %s", rec.CNPJ, rec.CEP, st.Sigla, rec.UF)
		}
	}
	if len(seen) < 100 {
		t.Errorf("only %d distinct names in 200 companies", len(seen))
	}
	if _, err := cnpjsim.Company("11222333000182"); !errors.Is(err, cnpjsim.ErrInvalid) {
		t.Errorf("wrong check digits: %v", err)
	}
	for _, base := range []string{"999000000001", "999999990001", "99912ABC0001"} {
		if _, err := cnpjsim.Company(cnpjtest.Complete(base)); !errors.Is(err, cnpjsim.ErrReserved) {
			t.Errorf("%s: %v, want ErrReserved", base, err)
		}
	}
	if _, err := cnpjsim.Company(cnpjtest.Complete("998999990001")); err != nil {
		t.Errorf("root 998…: %v", err)
	}
}

func TestReceitaWSClientAgainstTheStandIn(t *testing.T) {
	sim, url := simServer(t)
	p := &cnpj.ReceitaWS{BaseURL: url, HTTP: client}
	ctx := context.Background()
	rec, _ := cnpjsim.Company("11222333000181")
	c, err := p.Fetch(ctx, "11222333000181")
	if err != nil {
		t.Fatal(err)
	}
	// ReceitaWS writes the CEP as 00.000-000 and the city without accents: both come back canonical.
	want := cnpj.Company{
		CNPJ: "11222333000181", NomeFantasia: rec.NomeFantasia, RazaoSocial: rec.RazaoSocial,
		Rua:    rec.TipoLogradouro + " " + rec.Logradouro + ", " + rec.Numero,
		Numero: rec.Numero, Complemento: rec.Complemento, Bairro: rec.Bairro, CEP: rec.CEP,
		Cidade: rec.City.Nome, Estado: rec.UF, CodigoIBGE: rec.City.ID,
	}
	if c != want {
		t.Errorf("\n got %+v\nwant %+v", c, want)
	}
	if _, err := p.Fetch(ctx, cnpjtest.Complete("999000000001")); !errors.Is(err, cnpj.ErrNotFound) {
		t.Errorf("reserved (200 + ERROR): %v", err)
	}
	if _, err := p.Fetch(ctx, "11222333000182"); !errors.Is(err, cnpj.ErrNotFound) {
		t.Errorf("invalid (200 + ERROR): %v", err)
	}
	sim.Fail(http.StatusTooManyRequests)
	sim.SetRetryAfter("17")
	_, err = p.Fetch(ctx, "11222333000181")
	var rl *cnpj.RateLimitError
	if !errors.Is(err, cnpj.ErrRateLimited) || !errors.As(err, &rl) || rl.RetryAfter != 17*time.Second {
		t.Errorf("429: %v, want ErrRateLimited after 17 s", err)
	}
	sim.Fail(http.StatusGatewayTimeout)
	if _, err := p.Fetch(ctx, "11222333000181"); !errors.Is(err, cnpj.ErrUnavailable) {
		t.Errorf("504: %v", err)
	}
}

// receitaWSFake answers each CNPJ with a scripted status and body, and records
// the Authorization header it received.
func receitaWSFake(t *testing.T, script map[string][2]string) (string, *atomic.Value) {
	t.Helper()
	var auth atomic.Value
	auth.Store("")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth.Store(r.Header.Get("Authorization"))
		n := strings.TrimPrefix(r.URL.Path, "/v1/cnpj/")
		s, ok := script[n]
		if !ok || r.Method != http.MethodGet {
			http.NotFound(w, r)
			return
		}
		var status int
		fmt.Sscan(s[0], &status)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		fmt.Fprint(w, s[1])
	}))
	t.Cleanup(srv.Close)
	return srv.URL, &auth
}

func TestReceitaWSErrorShapes(t *testing.T) {
	a, b, c, d, e, f, g, h := cnpjtest.Complete("100000000001"), cnpjtest.Complete("200000000001"), cnpjtest.Complete("300000000001"),
		cnpjtest.Complete("400000000001"), cnpjtest.Complete("500000000001"), cnpjtest.Complete("600000000001"), cnpjtest.Complete("700000000001"),
		cnpjtest.Complete("800000000001")
	url, auth := receitaWSFake(t, map[string][2]string{
		a: {"200", `{"status":"ERROR","message":"CNPJ inválido"}`},
		b: {"200", `{"status":"ERROR","message":"CNPJ rejeitado pela Receita Federal"}`},
		c: {"200", `{"status":"ERROR","message":"Too many requests, please try again later."}`},
		d: {"429", `{"status":"ERROR","message":"Too many requests"}`},
		e: {"401", `{"status":"ERROR","message":"Token inválido"}`},
		f: {"200", `<html>manutenção</html>`},
		g: {"200", `{"status":"OK","nome":"EMPRESA X LTDA","fantasia":"","logradouro":"R  DOS  ANDRADAS","numero":"S/N",` +
			`"bairro":"CENTRO","municipio":"SANTA RITA DO PASSA QUATRO","uf":"sp","cep":"13.670-000"}`},
		h: {"200", `{"status":"OK","nome":"EMPRESA Y LTDA","logradouro":"RUA A","numero":12,"municipio":"CIDADE QUE NAO EXISTE","uf":"MG","cep":1310100}`},
	})
	p := &cnpj.ReceitaWS{BaseURL: url + "/", Token: "segredo", HTTP: client}
	ctx := context.Background()
	for n, want := range map[string]error{a: cnpj.ErrNotFound, b: cnpj.ErrNotFound, c: cnpj.ErrRateLimited,
		d: cnpj.ErrRateLimited, e: cnpj.ErrUnavailable, f: cnpj.ErrUnavailable} {
		if _, err := p.Fetch(ctx, n); !errors.Is(err, want) {
			t.Errorf("%s: %v, want %v", n, err, want)
		}
	}
	if got := auth.Load().(string); got != "Bearer segredo" {
		t.Errorf("Authorization %q", got)
	}
	co, err := p.Fetch(ctx, g)
	if err != nil {
		t.Fatal(err)
	}
	if co.Rua != "R DOS ANDRADAS, S/N" || co.Cidade != "Santa Rita do Passa Quatro" || co.CodigoIBGE != 3547502 ||
		co.Estado != "SP" || co.CEP != "13670000" || co.NomeFantasia != "" {
		t.Errorf("mapped %+v", co)
	}
	co, err = p.Fetch(ctx, h)
	if err != nil || co.Cidade != "Cidade Que Nao Existe" || co.CodigoIBGE != 0 || co.CEP != "01310100" || co.Numero != "12" {
		t.Errorf("unknown city: %+v %v", co, err)
	}

	// Without a token no Authorization header is sent.
	p.Token = ""
	_, _ = p.Fetch(ctx, a)
	if got := auth.Load().(string); got != "" {
		t.Errorf("Authorization without token: %q", got)
	}
}

func TestUnreachableOrSlowProviderIsUnavailable(t *testing.T) {
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(time.Minute):
		}
	}))
	defer slow.Close()
	p := &cnpj.BrasilAPI{BaseURL: slow.URL, HTTP: &http.Client{Timeout: 200 * time.Millisecond}}
	start := time.Now()
	if _, err := p.Fetch(context.Background(), "11222333000181"); !errors.Is(err, cnpj.ErrUnavailable) {
		t.Errorf("slow: %v", err)
	}
	// Far below the provider's minute, with room for a busy machine.
	if time.Since(start) > 10*time.Second {
		t.Errorf("the timeout did not cut the call: %s", time.Since(start))
	}
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	p = &cnpj.BrasilAPI{BaseURL: closed.URL, HTTP: client}
	if _, err := p.Fetch(context.Background(), "11222333000181"); !errors.Is(err, cnpj.ErrUnavailable) {
		t.Errorf("refused connection: %v", err)
	}
	garbage := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, `{"razao_social":`) }))
	defer garbage.Close()
	p = &cnpj.BrasilAPI{BaseURL: garbage.URL, HTTP: client}
	if _, err := p.Fetch(context.Background(), "11222333000181"); !errors.Is(err, cnpj.ErrUnavailable) {
		t.Errorf("unreadable body: %v", err)
	}
}

func TestBrasilAPINumericCEPAndCityByName(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/cnpj/v1/11222333000181" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, `{"razao_social":"CLIENTE BOM LTDA","nome_fantasia":null,"descricao_tipo_de_logradouro":"AVENIDA",`+
			`"logradouro":"AVENIDA PAULISTA","numero":"1578","complemento":"ANDAR 5","bairro":"BELA VISTA","cep":1310200,`+
			`"uf":"SP","municipio":"SAO PAULO","codigo_municipio":7107}`)
	}))
	defer srv.Close()
	c, err := (&cnpj.BrasilAPI{BaseURL: srv.URL, HTTP: client}).Fetch(context.Background(), "11222333000181")
	if err != nil {
		t.Fatal(err)
	}
	want := cnpj.Company{CNPJ: "11222333000181", RazaoSocial: "CLIENTE BOM LTDA", Rua: "AVENIDA PAULISTA, 1578", Numero: "1578",
		Complemento: "ANDAR 5", Bairro: "BELA VISTA", CEP: "01310200", Cidade: "São Paulo", Estado: "SP", CodigoIBGE: 3550308}
	if c != want {
		t.Errorf("\n got %+v\nwant %+v", c, want)
	}
}

func TestConfigFromEnv(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	c, err := cnpj.ConfigFromEnv(env(nil))
	if err != nil || c.Provider != "brasilapi" || c.URL != "" || c.CacheTTL != 30*24*time.Hour || c.NotFoundTTL != time.Hour || c.Timeout != 10*time.Second {
		t.Fatalf("defaults %+v %v", c, err)
	}
	if c.BaseURL() != cnpj.BrasilAPIURL {
		t.Errorf("default URL %s", c.BaseURL())
	}
	p, _ := c.NewProvider()
	if _, ok := p.(*cnpj.BrasilAPI); !ok {
		t.Errorf("provider %T", p)
	}
	c, err = cnpj.ConfigFromEnv(env(map[string]string{"CNPJ_PROVIDER": "ReceitaWS", "CNPJ_URL": "http://127.0.0.1:9/", "CNPJ_TOKEN": "t",
		"CNPJ_CACHE_TTL": "7d", "CNPJ_NOT_FOUND_TTL": "0", "CNPJ_TIMEOUT": "3s"}))
	if err != nil || c.Provider != "receitaws" || c.BaseURL() != "http://127.0.0.1:9" || c.CacheTTL != 7*24*time.Hour || c.NotFoundTTL != 0 || c.Timeout != 3*time.Second {
		t.Fatalf("set %+v %v", c, err)
	}
	p, _ = c.NewProvider()
	if r, ok := p.(*cnpj.ReceitaWS); !ok || r.Token != "t" || r.BaseURL != "http://127.0.0.1:9" {
		t.Errorf("provider %+v", p)
	}
	if c, _ := cnpj.ConfigFromEnv(env(map[string]string{"CNPJ_PROVIDER": "receitaws"})); c.BaseURL() != cnpj.ReceitaWSURL {
		t.Errorf("receitaws default URL %s", c.BaseURL())
	}
	for k, v := range map[string]string{"CNPJ_PROVIDER": "serpro", "CNPJ_CACHE_TTL": "0", "CNPJ_TIMEOUT": "soon", "CNPJ_NOT_FOUND_TTL": "-1h"} {
		if _, err := cnpj.ConfigFromEnv(env(map[string]string{k: v})); err == nil || !strings.Contains(err.Error(), k) {
			t.Errorf("%s=%s accepted (%v)", k, v, err)
		}
	}
}

// TestParseRetryAfter: RFC 9110 §10.2.3 (Retry-After = HTTP-date /
// delay-seconds) with the three HTTP-date forms of §5.6.7, counted from the
// answer's Date when there is one.
func TestParseRetryAfter(t *testing.T) {
	now := time.Date(1994, 11, 6, 8, 48, 7, 0, time.UTC)
	for _, c := range []struct {
		v, date string
		want    time.Duration
		ok      bool
	}{
		{"120", "", 2 * time.Minute, true},
		{" 7 ", "", 7 * time.Second, true},
		{"0", "", time.Second, true},
		{"Sun, 06 Nov 1994 08:49:37 GMT", "", 90 * time.Second, true},                              // IMF-fixdate
		{"Sunday, 06-Nov-94 08:49:37 GMT", "", 90 * time.Second, true},                             // RFC 850
		{"Sun Nov  6 08:49:37 1994", "", 90 * time.Second, true},                                   // asctime
		{"Sun, 06 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:00 GMT", 37 * time.Second, true}, // the provider's clock
		{"Sun, 06 Nov 1994 08:00:00 GMT", "", time.Second, true},                                   // already past
		{"Mon, 07 Nov 1994 08:49:37 GMT", "", cnpj.MaxProviderWait, true},                          // a day: capped
		{"99999999999999999999999", "", cnpj.MaxProviderWait, true},
		{"", "", 0, false},
		{"-5", "", 0, false},
		{"1.5", "", 0, false},
		{"soon", "", 0, false},
		{"2026-03-02T12:00:00Z", "", 0, false},
	} {
		got, ok := cnpj.ParseRetryAfter(c.v, c.date, now)
		if got != c.want || ok != c.ok {
			t.Errorf("ParseRetryAfter(%q, %q) = %v %v, want %v %v", c.v, c.date, got, ok, c.want, c.ok)
		}
	}
}
