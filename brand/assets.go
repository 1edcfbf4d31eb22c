package brand

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"path"
	"regexp"
	"strconv"
	"strings"
)

// Brand assets are addressed by their content: logo.<fingerprint>.svg, a
// name that changes whenever the bytes do, so a browser may keep one for a
// year without asking again (api: Cache-Control immutable). The plain name
// (logo.svg) still answers, cached for an hour, for addresses written before.

// FingerprintLen is how many hex digits of the SHA-256 name a version.
const FingerprintLen = 10

// Fingerprint names a version of an asset: the first hex digits of its SHA-256.
func Fingerprint(body []byte) string {
	sum := sha256.Sum256(body)
	return hex.EncodeToString(sum[:])[:FingerprintLen]
}

// AssetName puts the fingerprint of body before the extension:
// logo.svg → logo.3f2a9c1b0d.svg.
func AssetName(name string, body []byte) string {
	ext := path.Ext(name)
	return strings.TrimSuffix(name, ext) + "." + Fingerprint(body) + ext
}

var fingerprinted = regexp.MustCompile(`^(.+)\.([0-9a-f]{` + strconv.Itoa(FingerprintLen) + `})(\.[a-z0-9]+)$`)

// SplitAssetName reads a file name of the brand's assets: "logo.3f2a9c1b0d.svg"
// is ("logo.svg", "3f2a9c1b0d"), "logo.svg" is ("logo.svg", "").
func SplitAssetName(file string) (name, fingerprint string) {
	if m := fingerprinted.FindStringSubmatch(file); m != nil {
		return m[1] + m[3], m[2]
	}
	return file, ""
}

// AssetURL is the content-addressed URL of one of a brand's assets.
func AssetURL(slug, name string, body []byte) string {
	return AssetPath(slug) + AssetName(name, body)
}

// The e-mail logos: each brand's logo.svg rendered to PNG by
// scripts/brand-logos.mjs (e-mail clients, Gmail and Outlook among them, show
// no SVG). Each PNG records the SHA-256 of the SVG it was drawn from
// (brand_test.go checks it is the current one).
//
//go:embed logos/*.png
var logoPNGs embed.FS

// LogoPNGScale is how many pixels of the PNG make one CSS pixel of the
// e-mail's logo (sharp on high-density screens).
const LogoPNGScale = 2

// LogoSourceKey is the PNG text chunk (tEXt) holding the SHA-256, in hex, of
// the SVG the PNG was drawn from.
const LogoSourceKey = "oportuna-svg-sha256"

// LogoPNG is the brand's logo for e-mails, or nil when none was rendered.
func (b *Brand) LogoPNG() []byte {
	data, err := logoPNGs.ReadFile("logos/" + b.Slug + ".png")
	if err != nil {
		return nil
	}
	return data
}

// LogoPNGSize is the e-mail logo's width and height in CSS pixels (the PNG's
// over LogoPNGScale); zero without a PNG.
func (b *Brand) LogoPNGSize() (width, height int) {
	w, h, ok := pngSize(b.LogoPNG())
	if !ok {
		return 0, 0
	}
	return w / LogoPNGScale, h / LogoPNGScale
}

var pngSignature = []byte("\x89PNG\r\n\x1a\n")

// pngSize reads a PNG's width and height from its IHDR chunk.
func pngSize(data []byte) (width, height int, ok bool) {
	if len(data) < 24 || string(data[:8]) != string(pngSignature) || string(data[12:16]) != "IHDR" {
		return 0, 0, false
	}
	be := func(b []byte) int { return int(b[0])<<24 | int(b[1])<<16 | int(b[2])<<8 | int(b[3]) }
	return be(data[16:20]), be(data[20:24]), true
}

// pngText reads a tEXt chunk of a PNG by keyword ("" when absent).
func pngText(data []byte, keyword string) string {
	if len(data) < 8 || string(data[:8]) != string(pngSignature) {
		return ""
	}
	for i := 8; i+8 <= len(data); {
		n := int(data[i])<<24 | int(data[i+1])<<16 | int(data[i+2])<<8 | int(data[i+3])
		kind := string(data[i+4 : i+8])
		if n < 0 || i+12+n > len(data) {
			return ""
		}
		if kind == "tEXt" {
			body := data[i+8 : i+8+n]
			if k, v, found := strings.Cut(string(body), "\x00"); found && k == keyword {
				return v
			}
		}
		if kind == "IEND" {
			return ""
		}
		i += 12 + n
	}
	return ""
}
