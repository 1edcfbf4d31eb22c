package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"sort"
	"strings"
)

// routeScreens are the public paths whose screen is a lazy chunk of its own
// (web/src/App.tsx), by the lower-cased path (React Router matches paths
// without regard to case): their page names the screen's chunk, its imports
// and its CSS in the head, so the browser fetches them beside the entry
// script instead of after it (docs/web.md "Lighthouse").
var routeScreens = map[string]string{
	"contact":        "src/features/contact/ContactPage.tsx",
	"registration":   "src/features/registration/RegistrationPage.tsx",
	"reset-password": "src/features/auth/recovery/ResetPasswordPage.tsx",
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

// routeKey is the routeScreens key of a request path ("" for any other).
func routeKey(name string) string {
	k := strings.ToLower(strings.Trim(name, "/"))
	if _, ok := routeScreens[k]; ok {
		return k
	}
	return ""
}

// routePreloads reads the build's manifest and returns, per routeScreens key,
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
	var walk func(key string, visit func(manifestChunk))
	seen := map[string]bool{}
	walk = func(key string, visit func(manifestChunk)) {
		if seen[key] {
			return
		}
		seen[key] = true
		c := m[key]
		visit(c)
		for _, imp := range c.Imports {
			walk(imp, visit)
		}
	}
	markLoaded := func(c manifestChunk) {
		loaded[c.File] = true
		for _, css := range c.CSS {
			loaded[css] = true
		}
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if m[k].IsEntry {
			walk(k, markLoaded)
		}
	}
	out := map[string]string{}
	for route, src := range routeScreens {
		if _, ok := m[src]; !ok {
			return nil, fmt.Errorf("api: the route /%s's screen %s is not in web/dist/%s (renamed? update routeScreens)", route, src, viteManifest)
		}
		var scripts, styles []string
		seen = map[string]bool{}
		styled := map[string]bool{}
		walk(src, func(c manifestChunk) {
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
