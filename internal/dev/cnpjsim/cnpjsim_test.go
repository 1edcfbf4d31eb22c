package cnpjsim

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/go-chi/chi/v5"

	"oportuna/internal/testenv/cnpjtest"
)

func getJSON(t *testing.T, url string) (int, map[string]any) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %d %q", url, res.StatusCode, b)
	}
	return res.StatusCode, m
}

func TestServeSpeaksBothShapes(t *testing.T) {
	sim, base, stop, err := Serve("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer stop(context.Background())
	rec, _ := Company("11222333000181")

	status, m := getJSON(t, base+"/api/cnpj/v1/11222333000181")
	if status != 200 || m["razao_social"] != rec.RazaoSocial || m["municipio"] != rec.Municipio || m["cep"] != rec.CEP ||
		m["uf"] != rec.UF || m["codigo_municipio_ibge"] != float64(rec.City.ID) || m["descricao_matriz_filial"] != "MATRIZ" {
		t.Errorf("brasilapi shape: %d %v", status, m)
	}
	status, m = getJSON(t, base+"/api/cnpj/v1/"+cnpjtest.Complete("999000000001"))
	if status != 404 || m["name"] != "NotFoundError" {
		t.Errorf("reserved: %d %v", status, m)
	}
	status, m = getJSON(t, base+"/api/cnpj/v1/11222333000182")
	if status != 400 || m["name"] != "BadRequestError" {
		t.Errorf("invalid: %d %v", status, m)
	}

	status, m = getJSON(t, base+"/v1/cnpj/11222333000181")
	if status != 200 || m["status"] != "OK" || m["nome"] != rec.RazaoSocial || m["cnpj"] != "11.222.333/0001-81" ||
		m["cep"] != rec.CEP[:2]+"."+rec.CEP[2:5]+"-"+rec.CEP[5:] || m["logradouro"] != rec.TipoLogradouro+" "+rec.Logradouro {
		t.Errorf("receitaws shape: %d %v", status, m)
	}
	for _, n := range []string{cnpjtest.Complete("999000000001"), "11222333000182"} {
		status, m = getJSON(t, base+"/v1/cnpj/"+n)
		if status != 200 || m["status"] != "ERROR" || m["message"] == "" {
			t.Errorf("receitaws error %s: %d %v", n, status, m)
		}
	}
	sim.Fail(503)
	if status, _ := getJSON(t, base+"/api/cnpj/v1/11222333000181"); status != 503 {
		t.Errorf("failing: %d", status)
	}
	sim.Fail(0)
	if sim.Requests() != 7 {
		t.Errorf("%d requests counted", sim.Requests())
	}
}

func TestMountsUnderAPrefix(t *testing.T) {
	r := chi.NewRouter()
	r.Mount("/dev/cnpj", New())
	mux := http.NewServeMux()
	mux.Handle("/sim/", http.StripPrefix("/sim", New()))
	for _, h := range []http.Handler{r, mux} {
		srv := httptest.NewServer(h)
		url := srv.URL + "/dev/cnpj/api/cnpj/v1/11222333000181"
		if h == http.Handler(mux) {
			url = srv.URL + "/sim/api/cnpj/v1/11222333000181"
		}
		if status, m := getJSON(t, url); status != 200 || m["cnpj"] != "11222333000181" {
			t.Errorf("%s: %d %v", url, status, m)
		}
		srv.Close()
	}
}

func TestReservedRuleIsTheRootPrefix(t *testing.T) {
	// Every branch of a root starting with 999 is unknown; 999 elsewhere reserves nothing.
	for _, base := range []string{"999000000001", "999000000002", "999ABCDE0001", "999999999999"} {
		if _, err := Company(cnpjtest.Complete(base)); !errors.Is(err, ErrReserved) {
			t.Errorf("%s: %v, want ErrReserved", base, err)
		}
	}
	for _, base := range []string{"119990000001", "099900000001", "999000000001"[1:] + "1", "AB9990000001"} {
		if _, err := Company(cnpjtest.Complete(base)); err != nil {
			t.Errorf("%s: %v", base, err)
		}
	}
}

// TestRateLimitAnswersCarryRetryAfter: like the providers, a 429 says when to
// come back (Retry-After, RFC 9110 §10.2.3), in both shapes.
func TestRateLimitAnswersCarryRetryAfter(t *testing.T) {
	sim := New()
	srv := httptest.NewServer(sim)
	defer srv.Close()
	header := func(path string) (int, string) {
		res, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode, res.Header.Get("Retry-After")
	}
	sim.Fail(http.StatusTooManyRequests)
	for _, p := range []string{"/api/cnpj/v1/11222333000181", "/v1/cnpj/11222333000181"} {
		if status, v := header(p); status != 429 || v != DefaultRetryAfter {
			t.Errorf("%s: %d Retry-After %q, want 429 %q", p, status, v, DefaultRetryAfter)
		}
	}
	sim.SetRetryAfter("Wed, 21 Oct 2026 07:28:00 GMT")
	if _, v := header("/api/cnpj/v1/11222333000181"); v != "Wed, 21 Oct 2026 07:28:00 GMT" {
		t.Errorf("HTTP-date Retry-After %q", v)
	}
	sim.SetRetryAfter("")
	if _, v := header("/api/cnpj/v1/11222333000181"); v != "" {
		t.Errorf("Retry-After %q, want none", v)
	}
	sim.Fail(http.StatusServiceUnavailable)
	sim.SetRetryAfter("5")
	if status, v := header("/api/cnpj/v1/11222333000181"); status != 503 || v != "" {
		t.Errorf("503: Retry-After %q, want none", v)
	}
}
