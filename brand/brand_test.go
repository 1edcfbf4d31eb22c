package brand

import "testing"

func TestEmbeddedFileHasElevenValidBrands(t *testing.T) {
	r, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if n := len(r.All()); n != 11 {
		t.Fatalf("brands = %d, want 11", n)
	}
	if _, ok := r.BySlug("yep"); !ok {
		t.Fatal("the special brand yep is missing")
	}
	for _, b := range r.All() {
		if b.Name == "" || b.Title == "" || b.Colors.Primary == "" || b.Colors.Secondary == "" ||
			b.Admin.Email == "" || b.Admin.Name == "" || b.Admin.Phone == "" || len(b.Contact.Phones) == 0 || b.Contact.Address == "" {
			t.Errorf("%s: incomplete brand %+v", b.Slug, b)
		}
		if len(b.LogoSVG) < 100 || b.LogoSVG[:4] != "<svg" || len(b.FaviconSVG) < 50 || b.FaviconSVG[:4] != "<svg" {
			t.Errorf("%s: logo or favicon is not an SVG", b.Slug)
		}
	}
}

func TestBrandIsChosenByHost(t *testing.T) {
	r := MustLoad()
	cases := map[string]string{
		"yep.localhost:8080":       "yep",
		"YEP.localhost":            "yep",
		"codexa.localhost:5173":    "codexa",
		"parceiros.tagora.example": "tagora",
		"www.printaq.localhost":    "printaq",
		"localhost:8080":           "nordata",
		"127.0.0.1:8080":           "nordata",
		"[::1]:8080":               "nordata",
		"unknown.example.com":      "nordata",
		"":                         "nordata",
		"marcatto.localhost.:8080": "marcatto",
		"evil-yep.localhost":       "nordata",
	}
	for host, want := range cases {
		if got := r.ForHost(host).Slug; got != want {
			t.Errorf("ForHost(%q) = %s, want %s", host, got, want)
		}
	}
}

func TestParseRejectsDuplicateHostsAndSlugs(t *testing.T) {
	if _, err := Parse([]byte(`[{"slug":"a"},{"slug":"a"}]`)); err == nil {
		t.Error("duplicate slug accepted")
	}
	if _, err := Parse([]byte(`[{"slug":"a","hosts":["x.example"]},{"slug":"b","hosts":["x.example"]}]`)); err == nil {
		t.Error("duplicate host accepted")
	}
	if _, err := Parse([]byte(`[]`)); err == nil {
		t.Error("empty list accepted")
	}
	if _, err := Parse([]byte(`[{"slug":"all"}]`)); err == nil {
		t.Error("reserved slug accepted")
	}
}
