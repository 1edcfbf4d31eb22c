package api

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"oportuna/auth"
	"oportuna/brand"
	"oportuna/internal/respond"
)

func newTestServer(t *testing.T) *httptest.Server {
	t.Helper()
	brands := brand.MustLoad()
	s := &Server{
		Brands: brands,
		Auth:   &auth.Service{Brands: brands, Signer: &auth.Signer{Secret: []byte("x")}},
		Web: fstest.MapFS{
			"index.html":      {Data: []byte(`<!doctype html><html><head><meta charset="utf-8"><title>Vite</title><link rel="icon" href="/vite.svg"></head><body><div id="root"></div></body></html>`)},
			"assets/app-1.js": {Data: []byte(`console.log(1)`)},
			"robots.txt":      {Data: []byte("User-agent: *")},
		},
	}
	return serve(t, s)
}

func get(t *testing.T, srv *httptest.Server, host, path string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", srv.URL+path, nil)
	req.Host = host
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

func TestIndexCarriesTheBrandOfTheHost(t *testing.T) {
	srv := newTestServer(t)
	brands := brand.MustLoad()
	for _, b := range brands.All() {
		for _, path := range []string{"/", "/Painel/Opportunities", "/recovery-password"} {
			res, body := get(t, srv, b.Slug+".localhost:8080", path)
			if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
				t.Fatalf("%s%s: %d %s", b.Slug, path, res.StatusCode, res.Header.Get("Content-Type"))
			}
			if strings.Count(body, "<title>") != 1 || !strings.Contains(body, "<title>"+b.Title+"</title>") {
				t.Errorf("%s: title not replaced: %s", b.Slug, body)
			}
			if strings.Contains(body, "/vite.svg") || !strings.Contains(body, `href="`+brand.AssetURL(b.Slug, "favicon.svg", []byte(b.FaviconSVG))+`"`) {
				t.Errorf("%s: favicon not replaced", b.Slug)
			}
			if strings.Count(body, `<meta name="description"`) != 1 || !strings.Contains(body, `content="Portal de Oportunidades `+b.Name+`: `) {
				t.Errorf("%s: no meta description of the brand", b.Slug)
			}
			open := `<script type="application/json" id="oportuna-brand">`
			start := strings.Index(body, open)
			end := strings.Index(body, "</script>")
			if start < 0 || end < start {
				t.Fatalf("%s: no brand data block", b.Slug)
			}
			var pub brand.Public
			if err := json.Unmarshal([]byte(body[start+len(open):end]), &pub); err != nil {
				t.Fatal(err)
			}
			if pub.Slug != b.Slug || pub.Colors.Primary != b.Colors.Primary || pub.Logo != brand.AssetURL(b.Slug, "logo.svg", []byte(b.LogoSVG)) {
				t.Errorf("%s: injected %+v", b.Slug, pub)
			}
		}
	}
	// Unknown hosts get the first brand.
	if _, body := get(t, srv, "portal.example.com", "/"); !strings.Contains(body, `"slug":"`+brands.Default().Slug+`"`) {
		t.Error("unknown host did not get the fallback brand")
	}
}

func TestStaticFilesAndAPINotFound(t *testing.T) {
	srv := newTestServer(t)
	res, body := get(t, srv, "yep.localhost", "/assets/app-1.js")
	if res.StatusCode != 200 || body != "console.log(1)" || !strings.Contains(res.Header.Get("Cache-Control"), "immutable") {
		t.Errorf("asset: %d %q %s", res.StatusCode, body, res.Header.Get("Cache-Control"))
	}
	if res, _ := get(t, srv, "yep.localhost", "/assets/missing.js"); res.StatusCode != 404 {
		t.Errorf("missing asset: %d (must not fall back to index.html)", res.StatusCode)
	}
	if _, body := get(t, srv, "yep.localhost", "/robots.txt"); body != "User-agent: *" {
		t.Errorf("robots: %q", body)
	}
	res, body = get(t, srv, "yep.localhost", "/api/nada")
	if res.StatusCode != 404 || !strings.Contains(body, "Recurso não encontrado.") {
		t.Errorf("unknown API path: %d %s", res.StatusCode, body)
	}
	if res, _ := get(t, srv, "yep.localhost", "/authenticator/auth/payload"); res.StatusCode != 401 {
		t.Errorf("authenticator not mounted: %d", res.StatusCode)
	}
}

func TestBrandVersionAndCarouselEndpoints(t *testing.T) {
	srv := newTestServer(t)
	_, body := get(t, srv, "tagora.localhost:8080", "/api/brand")
	var pub brand.Public
	if err := json.Unmarshal([]byte(body), &pub); err != nil || pub.Slug != "tagora" || pub.Contact.Address == "" {
		t.Errorf("/api/brand = %s", body)
	}
	_, body = get(t, srv, "x", "/api/version")
	if !strings.Contains(body, `"version":"`) {
		t.Errorf("/api/version = %s", body)
	}
	var imgs struct {
		Data []Slide `json:"data"`
	}
	_, body = get(t, srv, "x", "/api/image?brand=codexa")
	if err := json.Unmarshal([]byte(body), &imgs); err != nil || len(imgs.Data) != 3 {
		t.Fatalf("/api/image = %s", body)
	}
	codexa, _ := brand.MustLoad().BySlug("codexa")
	for _, s := range imgs.Data {
		res, svg := get(t, srv, "x", s.URL)
		if res.StatusCode != 200 || res.Header.Get("Content-Type") != "image/svg+xml" || !strings.Contains(svg, codexa.Colors.Primary) {
			t.Errorf("%s: %d %s", s.URL, res.StatusCode, res.Header.Get("Content-Type"))
		}
		// The headline is the page's text, not the picture's: it reflows and is never cropped.
		if strings.Contains(svg, "<text") || s.Title == "" || s.Text == "" || s.Alt != s.Title {
			t.Errorf("%s: text inside the image, or a slide without its title and text: %+v", s.URL, s)
		}
	}
	if res, _ := get(t, srv, "x", "/api/image?brand=acme"); res.StatusCode != 404 {
		t.Errorf("unknown brand images: %d", res.StatusCode)
	}
	for path, ctype := range map[string]string{
		"/brand-assets/yep/logo.svg":       "image/svg+xml",
		"/brand-assets/yep/favicon.svg":    "image/svg+xml",
		"/brand-assets/yep/logo.png":       "image/png",
		"/brand-assets/lgpd.pdf":           "application/pdf",
		"/brand-assets/yep/guidelines.pdf": "application/pdf",
	} {
		res, body := get(t, srv, "x", path)
		if res.StatusCode != 200 || res.Header.Get("Content-Type") != ctype || len(body) < 100 {
			t.Errorf("%s: %d %s", path, res.StatusCode, res.Header.Get("Content-Type"))
		}
	}
	for _, path := range []string{"/brand-assets/acme/logo.svg", "/brand-assets/yep/carousel-9.svg", "/brand-assets/acme/guidelines.pdf"} {
		if res, _ := get(t, srv, "x", path); res.StatusCode != 404 {
			t.Errorf("%s: %d", path, res.StatusCode)
		}
	}
}

func TestPanicsBecomeAGenericPortugueseError(t *testing.T) {
	h := recoverJSON(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom") }))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/x", nil))
	if rec.Code != 500 || !strings.Contains(rec.Body.String(), "Houve um erro. Tente mais tarde!") {
		t.Errorf("%d %s", rec.Code, rec.Body.String())
	}
}

// TestEveryRouteAnswersJSONForTooLargeBodiesAndMisses: a 2 MB body to the API
// or the authenticator is a 413 with the pt-BR message (it was cut at 1 MiB and
// answered 400 "não é um JSON válido"); a miss under /brand-assets/ is a JSON
// 404 like the API's, not a text one or the web app's index.
func TestEveryRouteAnswersJSONForTooLargeBodiesAndMisses(t *testing.T) {
	srv := newTestServer(t)
	big := `{"email":"` + strings.Repeat("a", 2<<20) + `"}`
	for _, path := range []string{"/api/register/resale", "/api/contact", "/authenticator/auth/reset_password"} {
		res, err := http.Post(srv.URL+path, "application/json", strings.NewReader(big))
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		_ = json.NewDecoder(res.Body).Decode(&m)
		res.Body.Close()
		if res.StatusCode != http.StatusRequestEntityTooLarge || m["message"] != respond.MsgTooLarge {
			t.Errorf("POST %s with 2 MB: %d %v, want 413 %q", path, res.StatusCode, m, respond.MsgTooLarge)
		}
	}
	for _, path := range []string{"/brand-assets/yep/nada.svg", "/brand-assets/marca-nenhuma/logo.svg",
		"/brand-assets/marca-nenhuma/guidelines.pdf", "/brand-assets/yep/carousel-99.svg", "/brand-assets/yep",
		"/brand-assets/yep/a/b.svg", "/assets/missing.js"} {
		res, body := get(t, srv, "yep.localhost", path)
		var m map[string]any
		if res.StatusCode != 404 || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") ||
			json.Unmarshal([]byte(body), &m) != nil || m["message"] != MsgResourceNotFound {
			t.Errorf("GET %s: %d %s %q, want a JSON 404", path, res.StatusCode, res.Header.Get("Content-Type"), body)
		}
	}
}

// TestBrandAssetsAreCachedByTheirFingerprint: an image addressed by its
// content (logo.<fingerprint>.svg, what the pages and e-mails use) is cached a
// year without asking again; its plain name, or an older fingerprint (an old
// e-mail), answers the current image for an hour.
func TestBrandAssetsAreCachedByTheirFingerprint(t *testing.T) {
	srv := newTestServer(t)
	yep, _ := brand.MustLoad().BySlug("yep")
	var imgs struct {
		Data []Slide `json:"data"`
	}
	_, body := get(t, srv, "x", "/api/image?brand=yep")
	if err := json.Unmarshal([]byte(body), &imgs); err != nil || len(imgs.Data) == 0 {
		t.Fatalf("/api/image = %s", body)
	}
	urls := []string{yep.Public().Logo, yep.Public().Favicon, brand.AssetURL("yep", "logo.png", yep.LogoPNG()), imgs.Data[0].URL}
	for _, u := range urls {
		if !regexp.MustCompile(`/brand-assets/yep/[a-z0-9-]+\.[0-9a-f]{10}\.(svg|png)$`).MatchString(u) {
			t.Errorf("%s: not content-addressed", u)
		}
		res, body := get(t, srv, "x", u)
		if res.StatusCode != 200 || res.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" || len(body) < 100 {
			t.Errorf("%s: %d %q", u, res.StatusCode, res.Header.Get("Cache-Control"))
		}
	}
	for _, u := range []string{"/brand-assets/yep/logo.svg", "/brand-assets/yep/logo.0123456789.svg", "/brand-assets/yep/carousel-1.svg"} {
		res, body := get(t, srv, "x", u)
		if res.StatusCode != 200 || res.Header.Get("Cache-Control") != "public, max-age=3600" || len(body) < 100 {
			t.Errorf("%s: %d %q", u, res.StatusCode, res.Header.Get("Cache-Control"))
		}
	}
	if res, _ := get(t, srv, "x", "/brand-assets/yep/nada.0123456789.svg"); res.StatusCode != 404 {
		t.Errorf("unknown asset: %d", res.StatusCode)
	}
}
