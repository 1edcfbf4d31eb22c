package api

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"oportuna/auth"
	"oportuna/brand"
)

func headerServer(t *testing.T, hsts time.Duration) *httptest.Server {
	t.Helper()
	brands := brand.MustLoad()
	s := &Server{
		Brands:     brands,
		Auth:       &auth.Service{Brands: brands, Signer: &auth.Signer{Secret: []byte("x")}},
		HSTSMaxAge: hsts,
		Web: fstest.MapFS{
			"index.html":         {Data: []byte(`<!doctype html><html><head><title>Vite</title><script type="module" crossorigin src="/assets/app-1.js"></script></head><body><div id="root"></div></body></html>`)},
			"assets/app-1.js":    {Data: []byte(`console.log(1)`)},
			"assets/app-1.js.gz": {Data: gz(t, `console.log(1)`)},
		},
	}
	return serve(t, s)
}

// directives splits a Content-Security-Policy into directive → sources.
func directives(policy string) map[string][]string {
	out := map[string][]string{}
	for _, d := range strings.Split(policy, ";") {
		f := strings.Fields(d)
		if len(f) > 0 {
			out[f[0]] = f[1:]
		}
	}
	return out
}

func TestTheAppPageCarriesAStrictBrowserPolicy(t *testing.T) {
	srv := headerServer(t, 0)
	for _, path := range []string{"/", "/Painel/Opportunities", "/index.html"} {
		res, body := get(t, srv, "nordata.localhost", path)
		h := res.Header
		csp := directives(h.Get("Content-Security-Policy"))
		want := map[string]string{
			"default-src": "'self'", "script-src": "'self'", "style-src": "'self'", "object-src": "'none'",
			"base-uri": "'self'", "form-action": "'self'", "frame-ancestors": "'none'", "connect-src": "'self'",
			"font-src": "'self'", "img-src": "'self' data:", "frame-src": "'self'",
		}
		for d, v := range want {
			if got := strings.Join(csp[d], " "); got != v {
				t.Errorf("%s: %s = %q, want %q (policy %q)", path, d, got, v, h.Get("Content-Security-Policy"))
			}
		}
		if p := h.Get("Content-Security-Policy"); strings.Contains(p, "unsafe-") || strings.Contains(p, "*") {
			t.Errorf("%s: policy allows unsafe sources: %q", path, p)
		}
		for name, v := range map[string]string{
			"X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "same-origin",
			"Cross-Origin-Opener-Policy": "same-origin",
		} {
			if h.Get(name) != v {
				t.Errorf("%s: %s = %q, want %q", path, name, h.Get(name), v)
			}
		}
		for _, feature := range []string{"camera=()", "microphone=()", "geolocation=()", "payment=()", "usb=()"} {
			if !strings.Contains(h.Get("Permissions-Policy"), feature) {
				t.Errorf("%s: Permissions-Policy %q lacks %s", path, h.Get("Permissions-Policy"), feature)
			}
		}
		if h.Get("Strict-Transport-Security") != "" {
			t.Errorf("%s: HSTS sent without HSTS_MAX_AGE: %q", path, h.Get("Strict-Transport-Security"))
		}
		// script-src 'self' without 'unsafe-inline': the page must hold no inline script to run.
		for _, tag := range regexp.MustCompile(`<script[^>]*>`).FindAllString(body, -1) {
			if !strings.Contains(tag, ` src="`) && !strings.Contains(tag, `type="application/json"`) {
				t.Errorf("%s: inline script %s would be blocked by the policy", path, tag)
			}
		}
	}
}

func TestEveryOtherAnswerIsNotFramableNorSniffed(t *testing.T) {
	srv := headerServer(t, 0)
	for _, c := range []struct{ path, accept string }{
		{"/api/version", ""}, {"/api/nada", ""}, {"/authenticator/auth/payload", ""},
		{"/assets/app-1.js", ""}, {"/assets/app-1.js", "gzip"}, {"/brand-assets/nordata/logo.svg", ""},
	} {
		req, _ := http.NewRequest("GET", srv.URL+c.path, nil)
		req.Host = "nordata.localhost"
		if c.accept != "" {
			req.Header.Set("Accept-Encoding", c.accept)
		}
		res, err := http.DefaultTransport.RoundTrip(req) // no transparent gunzip: the encoding stays visible
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		h := res.Header
		if h.Get("X-Frame-Options") != "DENY" || h.Get("X-Content-Type-Options") != "nosniff" ||
			h.Get("Referrer-Policy") != "same-origin" || h.Get("Permissions-Policy") == "" {
			t.Errorf("%s: %d headers %v", c.path, res.StatusCode, h)
		}
		csp := directives(h.Get("Content-Security-Policy"))
		if c.path == "/brand-assets/nordata/logo.svg" {
			if strings.Join(csp["default-src"], " ") != "'none'" {
				t.Errorf("svg policy %q", h.Get("Content-Security-Policy"))
			}
			continue
		}
		if strings.Join(csp["default-src"], " ") != "'none'" || strings.Join(csp["frame-ancestors"], " ") != "'none'" {
			t.Errorf("%s: policy %q", c.path, h.Get("Content-Security-Policy"))
		}
		if c.accept == "gzip" && (h.Get("Content-Encoding") != "gzip" || h.Get("Vary") != "Accept-Encoding") {
			t.Errorf("%s: precompressed copy lost: %v", c.path, h)
		}
	}
	// The PDFs are framed by the app's own viewer: framable by the origin only.
	for _, path := range []string{"/brand-assets/lgpd.pdf", "/brand-assets/nordata/guidelines.pdf"} {
		res, _ := get(t, srv, "nordata.localhost", path)
		if res.StatusCode != 200 || res.Header.Get("Content-Security-Policy") != "frame-ancestors 'self'" ||
			res.Header.Get("X-Frame-Options") != "SAMEORIGIN" || res.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: %d %v", path, res.StatusCode, res.Header)
		}
	}
}

func TestHSTSOnlyWhenConfigured(t *testing.T) {
	srv := headerServer(t, 8760*time.Hour)
	for _, path := range []string{"/", "/api/version", "/assets/app-1.js"} {
		res, _ := get(t, srv, "nordata.localhost", path)
		if got := res.Header.Get("Strict-Transport-Security"); got != "max-age=31536000" {
			t.Errorf("%s: Strict-Transport-Security = %q", path, got)
		}
	}
	srv = headerServer(t, 0)
	if res, _ := get(t, srv, "nordata.localhost", "/api/version"); res.Header.Get("Strict-Transport-Security") != "" {
		t.Errorf("HSTS without HSTS_MAX_AGE: %q", res.Header.Get("Strict-Transport-Security"))
	}
}

func TestTheBrandDataBlockCannotBeClosedByItsValues(t *testing.T) {
	value := map[string]string{"name": `</script><script>alert(1)</script><!--`, "title": "Ação & <b>"}
	block, err := brandDataBlock(value)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(block, "</script>") != 1 || !strings.HasSuffix(block, "</script>") || strings.Contains(block, "<!--") {
		t.Fatalf("the value escapes the data block: %s", block)
	}
	open := `<script type="application/json" id="oportuna-brand">`
	var back map[string]string
	if err := json.Unmarshal([]byte(strings.TrimSuffix(strings.TrimPrefix(block, open), "</script>")), &back); err != nil ||
		back["name"] != value["name"] || back["title"] != value["title"] {
		t.Fatalf("round trip: %v %v", back, err)
	}
}
