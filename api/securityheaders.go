package api

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// The browser policy (docs/security-browser.md). Every answer gets the
// headers of securityHeaders; the web app's page, the PDFs the app frames and
// the dev mailbox replace the Content-Security-Policy (and X-Frame-Options)
// with their own.
var (
	// appPolicy is the web app's page (index.html): scripts, styles and fonts
	// only from the origin, no inline script or style, no eval. img-src adds
	// data: for Blueprint's CSS icons (checkbox, select arrows: url(data:image/svg+xml…)).
	// frame-src 'self' is the PDF viewer (privacy policy, guidelines).
	appPolicy = strings.Join([]string{
		"default-src 'self'",
		"script-src 'self'",
		"style-src 'self'",
		"img-src 'self' data:",
		"font-src 'self'",
		"connect-src 'self'",
		"frame-src 'self'",
		"manifest-src 'self'",
		"worker-src 'none'",
		"object-src 'none'",
		"base-uri 'self'",
		"form-action 'self'",
		"frame-ancestors 'none'",
	}, "; ")

	// apiPolicy is every other answer (JSON, scripts, styles, files): nothing
	// loads from it and nobody frames it.
	apiPolicy = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

	// pdfPolicy lets the app's own PDF viewer frame the PDFs. Only
	// frame-ancestors: Chromium's PDF viewer does not render under a policy
	// that restricts object-src (default-src 'none' included).
	pdfPolicy = "frame-ancestors 'self'"

	// mailboxPolicy is the dev mailbox (/mailbox, never in production): a
	// server-rendered page without scripts, with one <style> element (the
	// brand's colours are templated into it, so no hash: 'unsafe-inline' for
	// styles, harmless where no script may run) and a frame of its own
	// /mailbox/{id}/body. The page and the body set their own policies
	// (mailer/mailbox.go); this one covers the mailbox's other answers, and
	// X-Frame-Options SAMEORIGIN lets the page frame the body.
	mailboxPolicy = strings.Join([]string{
		"default-src 'none'",
		"script-src 'none'",
		"style-src 'unsafe-inline'",
		"img-src 'self' data: http: https:",
		"frame-src 'self'",
		"base-uri 'none'",
		"form-action 'self'",
		"frame-ancestors 'self'",
	}, "; ")

	// permissionsPolicy denies the powerful features the app never uses, to
	// the page and to anything it would frame. Only features Chromium knows:
	// an unknown one is reported on the console.
	permissionsPolicy = strings.Join([]string{
		"accelerometer=()", "autoplay=()", "camera=()", "display-capture=()",
		"encrypted-media=()", "geolocation=()", "gyroscope=()", "hid=()", "idle-detection=()",
		"magnetometer=()", "microphone=()", "midi=()", "payment=()", "publickey-credentials-get=()",
		"screen-wake-lock=()", "serial=()", "usb=()", "xr-spatial-tracking=()",
	}, ", ")
)

// securityHeaders sets the browser policy headers on every answer: no MIME
// sniffing, no referrer outside the origin, not framable, no powerful
// features, a browsing-context group of its own (COOP), and HSTS when hsts > 0
// (HSTS_MAX_AGE: set only when the portal is served over https).
func securityHeaders(hsts time.Duration) func(http.Handler) http.Handler {
	sts := ""
	if secs := int64(hsts / time.Second); secs > 0 {
		sts = "max-age=" + strconv.FormatInt(secs, 10)
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h := w.Header()
			h.Set("Content-Security-Policy", apiPolicy)
			h.Set("X-Frame-Options", "DENY")
			h.Set("X-Content-Type-Options", "nosniff")
			h.Set("Referrer-Policy", "same-origin")
			h.Set("Cross-Origin-Opener-Policy", "same-origin")
			h.Set("Permissions-Policy", permissionsPolicy)
			if sts != "" {
				h.Set("Strict-Transport-Security", sts)
			}
			next.ServeHTTP(w, r)
		})
	}
}

// framableBySelf replaces the default policy for answers the app's own pages
// frame (PDF viewer, dev mailbox).
func framableBySelf(policy string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Security-Policy", policy)
			w.Header().Set("X-Frame-Options", "SAMEORIGIN")
			next.ServeHTTP(w, r)
		})
	}
}

// BrandScriptID is the id of the data block that carries the brand into the
// page (web/src/lib/brand.ts reads it).
const BrandScriptID = "oportuna-brand"

// brandDataBlock is the brand as a JSON data block: a <script> of type
// application/json is never run, so the policy needs no 'unsafe-inline' and no
// nonce. json.Marshal escapes <, > and & (\u003c…), so no value can close the
// element (</script>) or open a comment (<!--).
func brandDataBlock(v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	return `<script type="application/json" id="` + BrandScriptID + `">` + string(b) + `</script>`, nil
}
