package api

import (
	"html/template"
	"io/fs"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"oportuna/auth"
	"oportuna/brand"
	"oportuna/web"
)

// manifestFor is a Vite manifest of an app whose entry imports shared.js, and
// whose lazy screens import shared.js (loaded by the entry) and one chunk of their own.
const manifestFor = `{
  "index.html": {"file": "assets/index-1.js", "src": "index.html", "isEntry": true, "imports": ["_shared-1.js"], "css": ["assets/index-1.css"]},
  "_shared-1.js": {"file": "assets/shared-1.js"},
  "_form-1.js": {"file": "assets/form-1.js", "imports": ["_shared-1.js"], "css": ["assets/form-1.css"]},
  "src/features/contact/ContactPage.tsx": {"file": "assets/ContactPage-1.js", "isDynamicEntry": true, "imports": ["index.html", "_shared-1.js", "_form-1.js"], "css": ["assets/ContactPage-1.css"]},
  "src/features/registration/RegistrationPage.tsx": {"file": "assets/RegistrationPage-1.js", "isDynamicEntry": true, "imports": ["index.html", "_form-1.js"]},
  "src/features/auth/recovery/ResetPasswordPage.tsx": {"file": "assets/ResetPasswordPage-1.js", "isDynamicEntry": true, "imports": ["index.html"]}
}`

const indexFor = `<!doctype html><html><head><title>Vite</title>` +
	`<script type="module" crossorigin src="/assets/index-1.js"></script>` +
	`<link rel="modulepreload" crossorigin href="/assets/shared-1.js">` +
	`<link rel="stylesheet" crossorigin href="/assets/index-1.css">` +
	`</head><body><div id="root"></div></body></html>`

func preloadServer(t *testing.T, manifest string) (*Server, error) {
	t.Helper()
	brands := brand.MustLoad()
	s := &Server{
		Brands: brands,
		Auth:   &auth.Service{Brands: brands, Signer: &auth.Signer{Secret: []byte("x")}},
		Web: fstest.MapFS{
			"index.html":          {Data: []byte(indexFor)},
			".vite/manifest.json": {Data: []byte(manifest)},
		},
	}
	_, err := s.Handler()
	return s, err
}

var linkRE = regexp.MustCompile(`<link rel="(modulepreload|stylesheet)" (?:fetchpriority="low" )?crossorigin href="([^"]+)">`)

// links lists the page's modulepreload and stylesheet links, as "rel href".
func links(body string) []string {
	var out []string
	for _, m := range linkRE.FindAllStringSubmatch(body, -1) {
		out = append(out, m[1]+" "+m[2])
	}
	return out
}

func TestAPublicRoutesPageNamesItsScreensChunks(t *testing.T) {
	s, err := preloadServer(t, manifestFor)
	if err != nil {
		t.Fatal(err)
	}
	srv := serve(t, s)
	entry := []string{"modulepreload /assets/shared-1.js", "stylesheet /assets/index-1.css"}
	cases := map[string][]string{
		"/Contact": append(entry, "modulepreload /assets/ContactPage-1.js", "modulepreload /assets/form-1.js",
			"stylesheet /assets/ContactPage-1.css", "stylesheet /assets/form-1.css"),
		"/contact/": append(entry, "modulepreload /assets/ContactPage-1.js", "modulepreload /assets/form-1.js",
			"stylesheet /assets/ContactPage-1.css", "stylesheet /assets/form-1.css"),
		"/Registration":         append(entry, "modulepreload /assets/RegistrationPage-1.js", "modulepreload /assets/form-1.js", "stylesheet /assets/form-1.css"),
		"/reset-password":       append(entry, "modulepreload /assets/ResetPasswordPage-1.js"),
		"/":                     entry,
		"/recovery-password":    entry,
		"/Painel/Opportunities": entry,
		"/Contact/more":         entry,
		"/nowhere":              entry,
		"/.vite/manifest.json":  entry, // the manifest is not served: the path gets the page
		"/Contact.txt":          entry,
	}
	for path, want := range cases {
		for _, slug := range []string{"nordata", "etiquetron"} {
			res, body := get(t, srv, slug+".localhost", path)
			if res.StatusCode != 200 {
				t.Fatalf("%s %s: %d", slug, path, res.StatusCode)
			}
			if got := links(body); strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("%s %s: links\n%s\nwant\n%s", slug, path, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			if got := res.Header.Get("Content-Security-Policy"); got != appPolicy {
				t.Errorf("%s %s: policy %q, want the app's", slug, path, got)
			}
			if !strings.Contains(body, `id="oportuna-brand"`) || !strings.Contains(body, `"slug":"`+slug+`"`) {
				t.Errorf("%s %s: not the brand's page", slug, path)
			}
			if strings.Contains(body, "isDynamicEntry") {
				t.Errorf("%s %s: the manifest was served", slug, path)
			}
		}
	}
}

func TestAScreenMissingFromTheManifestStopsTheServer(t *testing.T) {
	broken := strings.Replace(manifestFor, "src/features/contact/ContactPage.tsx", "src/features/contact/Contact.tsx", 1)
	if _, err := preloadServer(t, broken); err == nil || !strings.Contains(err.Error(), "ContactPage.tsx") {
		t.Fatalf("err = %v, want the missing screen named", err)
	}
}

// The real build: the manifest is there and names the public routes' screens.
func TestTheBuiltAppNamesThePublicScreensChunks(t *testing.T) {
	if testing.Short() {
		t.Skip("needs the web app built by npm (web/dist): -short (make check) builds none")
	}
	dist, err := web.App()
	if err != nil {
		t.Fatal(err) // build the web app first (make web)
	}
	preloads, err := routePreloads(dist)
	if err != nil {
		t.Fatal(err)
	}
	for route, chunk := range map[string]string{"/contact": "/assets/ContactPage-", "/registration": "/assets/RegistrationPage-", "/reset-password": "/assets/ResetPasswordPage-"} {
		if !strings.Contains(preloads[route], `<link rel="modulepreload" crossorigin href="`+chunk) {
			t.Errorf("%s: no preload of %s…: %s", route, chunk, preloads[route])
		}
		if strings.Contains(preloads[route], "/assets/index-") {
			t.Errorf("%s: preloads the entry's own files again: %s", route, preloads[route])
		}
	}
	if preloads["/contact"] == preloads["/registration"] {
		t.Error("/Contact and /Registration preload the same")
	}
	// A route's screen has its own CSS: the page links it.
	if !strings.Contains(preloads["/contact"], `<link rel="stylesheet" crossorigin href="/assets/ContactPage-`) {
		t.Errorf("/Contact: no stylesheet of its screen: %s", preloads["/contact"])
	}
	// lowPriorityScripts rewrites Vite's own tags: a change of their form would leave them high.
	raw, err := fs.ReadFile(dist, "index.html")
	if err != nil {
		t.Fatal(err)
	}
	low := string(lowPriorityScripts(raw))
	if !strings.Contains(low, `<script type="module" fetchpriority="low" crossorigin src="/assets/index-`) ||
		strings.Contains(low, `<script type="module" crossorigin`) || strings.Contains(low, `<link rel="modulepreload" crossorigin`) {
		t.Errorf("the built index.html's scripts are not all at low priority:\n%s", low)
	}
}

// A public page's #root holds the brand's logo in the page's card (the first
// paint before the script runs); any other path's #root is empty.
func TestAPublicPageHasAFirstPaintOfTheBrand(t *testing.T) {
	s, err := preloadServer(t, manifestFor)
	if err != nil {
		t.Fatal(err)
	}
	srv := serve(t, s)
	rootRE := regexp.MustCompile(`<div id="root">(.*?)</body>`)
	cases := map[string]string{
		"/": "auth-page", "/recovery-password": "auth-page", "/reset-password": "auth-page",
		"/Contact": "public-page", "/registration": "public-page",
		"/Painel/Opportunities": "", "/nowhere": "",
	}
	for _, b := range brand.MustLoad().All() {
		for path, layout := range cases {
			_, body := get(t, srv, b.Slug+".localhost", path)
			m := rootRE.FindStringSubmatch(body)
			if m == nil {
				t.Fatalf("%s %s: no #root: %s", b.Slug, path, body)
			}
			if layout == "" {
				if m[1] != "</div>" {
					t.Errorf("%s %s: #root not empty: %s", b.Slug, path, m[1])
				}
				if strings.Contains(body, "fetchpriority") {
					t.Errorf("%s %s: low-priority scripts without a first paint", b.Slug, path)
				}
				continue
			}
			logo := `<img class="brand-logo auth-logo" src="` + template.HTMLEscapeString(b.Public().Logo) + `" alt="` +
				template.HTMLEscapeString(b.Name) + `" width="220" height="48">`
			if !strings.HasPrefix(m[1], `<div class="`+layout+`">`) || !strings.Contains(m[1], logo) {
				t.Errorf("%s %s: first paint %s, want the %s with %s", b.Slug, path, m[1], layout, logo)
			}
			if strings.Contains(body, `<link rel="modulepreload" crossorigin`) || !strings.Contains(body, `<script type="module" fetchpriority="low" crossorigin src="/assets/index-1.js">`) {
				t.Errorf("%s %s: scripts not at low priority behind the first paint: %s", b.Slug, path, body)
			}
			if strings.Contains(m[1], "<script") {
				t.Errorf("%s %s: a script in the first paint", b.Slug, path)
			}
		}
	}
}
