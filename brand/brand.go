// Package brand holds the eleven brands served by one deployment and picks
// one from a request's host name.
package brand

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"net"
	"strings"
)

//go:embed brands.json
var brandsJSON []byte

// Colors are the brand's palette, applied by the web app as CSS variables.
type Colors struct {
	Primary     string `json:"primary"`
	Secondary   string `json:"secondary"`
	PrimaryText string `json:"primaryText"`
}

// Person is a named contact.
type Person struct {
	Name  string `json:"name"`
	Email string `json:"email"`
	Phone string `json:"phone"`
}

// Contact is what the contact page shows.
type Contact struct {
	Email   string   `json:"email"`
	Phones  []string `json:"phones"`
	Address string   `json:"address"`
}

// Brand is one manufacturer served by the portal.
type Brand struct {
	Slug        string   `json:"slug"`
	Name        string   `json:"name"`
	Tagline     string   `json:"tagline"`
	Title       string   `json:"title"`
	Hosts       []string `json:"hosts"`
	Colors      Colors   `json:"colors"`
	Distributor string   `json:"distributor"`
	Admin       Person   `json:"admin"`
	Contact     Contact  `json:"contact"`
	LogoSVG     string   `json:"logo"`
	FaviconSVG  string   `json:"favicon"`
}

// Public is the brand as the web app receives it: assets by URL, no host list.
type Public struct {
	Slug        string  `json:"slug"`
	Name        string  `json:"name"`
	Tagline     string  `json:"tagline"`
	Title       string  `json:"title"`
	Colors      Colors  `json:"colors"`
	Logo        string  `json:"logo"`
	Favicon     string  `json:"favicon"`
	Distributor string  `json:"distributor"`
	Admin       Person  `json:"admin"`
	Contact     Contact `json:"contact"`
}

// AssetPath is the URL prefix of a brand's images.
func AssetPath(slug string) string { return "/brand-assets/" + slug + "/" }

// Public returns the client's view of the brand.
func (b *Brand) Public() Public {
	return Public{
		Slug: b.Slug, Name: b.Name, Tagline: b.Tagline, Title: b.Title, Colors: b.Colors,
		Logo: AssetURL(b.Slug, "logo.svg", []byte(b.LogoSVG)), Favicon: AssetURL(b.Slug, "favicon.svg", []byte(b.FaviconSVG)),
		Distributor: b.Distributor, Admin: b.Admin, Contact: b.Contact,
	}
}

// Registry is the set of brands, the first being the fallback.
type Registry struct {
	list   []*Brand
	bySlug map[string]*Brand
	byHost map[string]*Brand
}

// Load parses the embedded brand file.
func Load() (*Registry, error) { return Parse(brandsJSON) }

// MustLoad is Load for package-level use; the embedded file is checked by tests.
func MustLoad() *Registry {
	r, err := Load()
	if err != nil {
		panic(err)
	}
	return r
}

// Parse builds a registry from a JSON array of brands.
func Parse(data []byte) (*Registry, error) {
	var list []*Brand
	if err := json.Unmarshal(data, &list); err != nil {
		return nil, fmt.Errorf("brand: parse: %w", err)
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("brand: no brands")
	}
	r := &Registry{list: list, bySlug: map[string]*Brand{}, byHost: map[string]*Brand{}}
	for _, b := range list {
		if b.Slug == "" || b.Slug == "all" || strings.ToLower(b.Slug) != b.Slug {
			return nil, fmt.Errorf("brand: invalid slug %q", b.Slug)
		}
		if _, dup := r.bySlug[b.Slug]; dup {
			return nil, fmt.Errorf("brand: duplicate slug %q", b.Slug)
		}
		r.bySlug[b.Slug] = b
		for _, h := range append([]string{b.Slug + ".localhost"}, b.Hosts...) {
			h = strings.ToLower(h)
			if other, dup := r.byHost[h]; dup && other != b {
				return nil, fmt.Errorf("brand: host %q used by %q and %q", h, other.Slug, b.Slug)
			}
			r.byHost[h] = b
		}
	}
	return r, nil
}

// All returns the brands in file order.
func (r *Registry) All() []*Brand { return r.list }

// Default is the fallback brand (the first one).
func (r *Registry) Default() *Brand { return r.list[0] }

// BySlug finds a brand by slug (case-insensitive).
func (r *Registry) BySlug(slug string) (*Brand, bool) {
	b, ok := r.bySlug[strings.ToLower(strings.TrimSpace(slug))]
	return b, ok
}

// ForHost picks the brand of a Host header value ("yep.localhost:8080");
// unknown hosts get the fallback brand.
func (r *Registry) ForHost(host string) *Brand {
	h := strings.ToLower(strings.TrimSpace(host))
	if hostOnly, _, err := net.SplitHostPort(h); err == nil {
		h = hostOnly
	}
	h = strings.TrimSuffix(h, ".")
	if b, ok := r.byHost[h]; ok {
		return b
	}
	// Sub-domains of a brand host ("www.yep.localhost") belong to that brand.
	for i := strings.IndexByte(h, '.'); i >= 0; i = strings.IndexByte(h, '.') {
		h = h[i+1:]
		if b, ok := r.byHost[h]; ok {
			return b
		}
	}
	return r.Default()
}
