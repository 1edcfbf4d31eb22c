package brand

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestEveryLogoHasAPNGDrawnFromItsCurrentSVG: e-mails show the logo as a PNG
// (mail clients show no SVG). Each brand's PNG records the SHA-256 of the SVG
// it was drawn from; a logo changed in brands.json without `make brand-logos`
// fails here. The PNG keeps the SVG's proportions at twice the e-mail's size.
func TestEveryLogoHasAPNGDrawnFromItsCurrentSVG(t *testing.T) {
	viewBox := regexp.MustCompile(`viewBox="([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+)"`)
	for _, b := range MustLoad().All() {
		png := b.LogoPNG()
		if png == nil {
			t.Errorf("%s: no brand/logos/%s.png (make brand-logos)", b.Slug, b.Slug)
			continue
		}
		sum := sha256.Sum256([]byte(b.LogoSVG))
		if got := pngText(png, LogoSourceKey); got != hex.EncodeToString(sum[:]) {
			t.Errorf("%s: the PNG was drawn from another version of the logo (%q): run make brand-logos", b.Slug, got)
		}
		w, h := b.LogoPNGSize()
		if h != 40 || w == 0 {
			t.Errorf("%s: e-mail logo %d×%d, want 40 px high", b.Slug, w, h)
		}
		m := viewBox.FindStringSubmatch(b.LogoSVG)
		if m == nil {
			t.Errorf("%s: the logo has no viewBox", b.Slug)
			continue
		}
		vw, _ := strconv.ParseFloat(m[3], 64)
		vh, _ := strconv.ParseFloat(m[4], 64)
		if want := 40 * vw / vh; math.Abs(float64(w)-want) > 1 {
			t.Errorf("%s: e-mail logo %d px wide, want %.0f (the SVG's proportions)", b.Slug, w, want)
		}
	}
}

func TestAssetNamesCarryTheirContentsFingerprint(t *testing.T) {
	a, b := []byte("<svg>1</svg>"), []byte("<svg>2</svg>")
	name := AssetName("logo.svg", a)
	if !regexp.MustCompile(`^logo\.[0-9a-f]{10}\.svg$`).MatchString(name) || name == AssetName("logo.svg", b) {
		t.Fatalf("names %q and %q", name, AssetName("logo.svg", b))
	}
	if got, fp := SplitAssetName(name); got != "logo.svg" || fp != Fingerprint(a) {
		t.Errorf("split %q: %q %q", name, got, fp)
	}
	for _, plain := range []string{"logo.svg", "carousel-1.svg", "logo.12345.svg", "logo.ABCDEF1234.svg"} {
		if got, fp := SplitAssetName(plain); got != plain || fp != "" {
			t.Errorf("split %q: %q %q", plain, got, fp)
		}
	}
	for _, br := range MustLoad().All() {
		p := br.Public()
		if !strings.HasPrefix(p.Logo, AssetPath(br.Slug)+"logo.") || p.Logo != AssetURL(br.Slug, "logo.svg", []byte(br.LogoSVG)) {
			t.Errorf("%s: logo URL %q", br.Slug, p.Logo)
		}
		if p.Favicon != AssetURL(br.Slug, "favicon.svg", []byte(br.FaviconSVG)) {
			t.Errorf("%s: favicon URL %q", br.Slug, p.Favicon)
		}
	}
}
