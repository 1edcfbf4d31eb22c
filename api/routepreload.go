package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"sort"
	"strings"
)

// publicPages are the pages reached without a session (web/src/App.tsx), by
// the lower-cased path (React Router matches paths without regard to case).
// Their index.html is rendered at start per brand (docs/web.md "Lighthouse"):
// #root holds a first paint, the brand's logo in the page's card, shown
// before the app's script runs (createRoot replaces it), and, for a screen
// that is a lazy chunk of its own, the head names the chunk, its imports and
// its CSS, so the browser fetches them beside the entry script.
var publicPages = map[string]publicPage{
	"/":                  {shell: authShell},
	"/recovery-password": {shell: authShell},
	"/reset-password":    {shell: authShell, screen: "src/features/auth/recovery/ResetPasswordPage.tsx"},
	"/contact":           {shell: publicShell, screen: "src/features/contact/ContactPage.tsx"},
	"/registration":      {shell: publicShell, screen: "src/features/registration/RegistrationPage.tsx"},
}

type publicPage struct {
	// shell is the first paint: an HTML format with the logo's URL and the brand's name.
	shell string
	// screen is the source of the page's lazy screen (a key of Vite's manifest); "": none.
	screen string
}

// The first paints: the layouts' outer elements with their classes (AuthLayout,
// PublicPage), the card holding only the brand's logo, the size React gives it.
const (
	authShell   = `<div class="auth-page"><div class="auth-form-column"><div class="bp6-card bp6-elevation-2 auth-card">%s</div></div></div>`
	publicShell = `<div class="public-page"><div class="bp6-card bp6-elevation-2 public-card">%s</div></div>`
	shellLogo   = `<img class="brand-logo auth-logo" src="%s" alt="%s" width="220" height="48">`
)

// firstPaint is the shell of a public page for a brand, its values escaped.
func firstPaint(p publicPage, logo, name string) string {
	return fmt.Sprintf(p.shell, fmt.Sprintf(shellLogo, template.HTMLEscapeString(logo), template.HTMLEscapeString(name)))
}

// lowPriorityScripts marks the page's scripts and module preloads
// fetchpriority="low": the first paint of a public page needs only the HTML
// and the style sheets, so these load behind the CSS, not before it. (This is
// also what lets Lighthouse's simulation see the first paint as not waiting
// for the scripts: it counts a high-priority script as render-blocking.)
func lowPriorityScripts(html []byte) []byte {
	html = bytes.ReplaceAll(html, []byte(`<script type="module" crossorigin`), []byte(`<script type="module" fetchpriority="low" crossorigin`))
	return bytes.ReplaceAll(html, []byte(`<link rel="modulepreload" crossorigin`), []byte(`<link rel="modulepreload" fetchpriority="low" crossorigin`))
}

// viteManifest is where Vite writes its manifest (build.manifest in
// web/vite.config.ts): source module → chunk, its static imports and CSS.
const viteManifest = ".vite/manifest.json"

type manifestChunk struct {
	File    string   `json:"file"`
	Imports []string `json:"imports"`
	CSS     []string `json:"css"`
	IsEntry bool     `json:"isEntry"`
}

// routeKey is the publicPages key of a request path ("" for any other).
func routeKey(name string) string {
	k := "/" + strings.ToLower(strings.Trim(name, "/"))
	if _, ok := publicPages[k]; ok {
		return k
	}
	return ""
}

// routePreloads reads the build's manifest and returns, per publicPages key with a screen,
// the <link> elements that load the route's screen: a modulepreload per chunk
// and a stylesheet per CSS file that the entry (index.html) does not load
// already. No manifest (a test's hand-made web app): none.
func routePreloads(web fs.FS) (map[string]string, error) {
	raw, err := fs.ReadFile(web, viteManifest)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var m map[string]manifestChunk
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("api: web/dist/%s: %w", viteManifest, err)
	}
	// What the entry loads: its chunks and CSS are in index.html already.
	loaded := map[string]bool{}
	entries := map[string]bool{}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if m[k].IsEntry {
			walkChunks(m, k, entries, func(c manifestChunk) {
				loaded[c.File] = true
				for _, css := range c.CSS {
					loaded[css] = true
				}
			})
		}
	}
	out := map[string]string{}
	// Scripts as index.html names them: lowPriorityScripts marks them as it marks the entry's.
	for route, p := range publicPages {
		src := p.screen
		if src == "" {
			continue
		}
		if _, ok := m[src]; !ok {
			return nil, fmt.Errorf("api: the route %s's screen %s is not in web/dist/%s (renamed? update publicPages)", route, src, viteManifest)
		}
		var scripts, styles []string
		styled := map[string]bool{}
		walkChunks(m, src, map[string]bool{}, func(c manifestChunk) {
			if !loaded[c.File] {
				scripts = append(scripts, `<link rel="modulepreload" crossorigin href="/`+template.HTMLEscapeString(c.File)+`">`)
			}
			for _, css := range c.CSS {
				if !loaded[css] && !styled[css] {
					styled[css] = true
					styles = append(styles, `<link rel="stylesheet" crossorigin href="/`+template.HTMLEscapeString(css)+`">`)
				}
			}
		})
		out[route] = strings.Join(append(scripts, styles...), "\n")
	}
	return out, nil
}

// walkChunks visits the manifest's chunk key and, depth first, the chunks it
// imports, each once: seen holds the keys visited (shared by the walks that
// must not visit a chunk twice).
func walkChunks(m map[string]manifestChunk, key string, seen map[string]bool, visit func(manifestChunk)) {
	if seen[key] {
		return
	}
	seen[key] = true
	c := m[key]
	visit(c)
	for _, imp := range c.Imports {
		walkChunks(m, imp, seen, visit)
	}
}
