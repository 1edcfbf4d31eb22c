package geo

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"
)

func TestTablesHoldEveryStateAndMunicipality(t *testing.T) {
	if n := len(States()); n != 27 {
		t.Fatalf("%d states, want 27", n)
	}
	// 5,570 municipalities until 2024, plus Boa Esperança do Norte (MT), installed on 2025-01-01.
	if n := CityCount(); n != 5571 {
		t.Fatalf("%d municipalities, want 5571", n)
	}
	perState := map[string]int{"MG": 853, "SP": 645, "RS": 497, "BA": 417, "DF": 1, "RR": 15, "MT": 142}
	for uf, want := range perState {
		list, ok := Cities(uf)
		if !ok || len(list) != want {
			t.Errorf("Cities(%s) = %d, %v; want %d", uf, len(list), ok, want)
		}
	}
	total := 0
	for _, s := range States() {
		list, ok := Cities(s.Sigla)
		if !ok || len(list) == 0 {
			t.Errorf("state %s has no municipalities", s.Sigla)
		}
		for _, c := range list {
			if c.ID/100000 != s.ID || c.UF != s.Sigla {
				t.Errorf("%s (%d) listed under %s", c.Nome, c.ID, s.Sigla)
			}
		}
		total += len(list)
	}
	if total != CityCount() {
		t.Errorf("cities by state add up to %d, want %d", total, CityCount())
	}
}

func TestKnownIBGECodes(t *testing.T) {
	for _, tc := range []struct {
		id       int
		name, uf string
	}{
		{3106200, "Belo Horizonte", "MG"},
		{3550308, "São Paulo", "SP"},
		{5300108, "Brasília", "DF"},
		{3304557, "Rio de Janeiro", "RJ"},
		{4314902, "Porto Alegre", "RS"},
		{2611606, "Recife", "PE"},
		{1302603, "Manaus", "AM"},
		{5101837, "Boa Esperança do Norte", "MT"},
		{3132404, "Itajubá", "MG"},
	} {
		c, ok := CityByID(tc.id)
		if !ok || c.Nome != tc.name || c.UF != tc.uf {
			t.Errorf("CityByID(%d) = %+v, %v; want %s/%s", tc.id, c, ok, tc.name, tc.uf)
		}
		byName, ok := CityByName(tc.uf, tc.name)
		if !ok || byName.ID != tc.id {
			t.Errorf("CityByName(%s, %s) = %+v, %v", tc.uf, tc.name, byName, ok)
		}
	}
	if s, ok := StateByUF("31"); !ok || s.Sigla != "MG" || s.Nome != "Minas Gerais" || s.Regiao != Sudeste {
		t.Errorf("StateByUF(31) = %+v, %v", s, ok)
	}
	for _, in := range []string{"mg", " MG ", "Minas Gerais", "minas gerais"} {
		if s, ok := StateByUF(in); !ok || s.ID != 31 {
			t.Errorf("StateByUF(%q) = %+v, %v", in, s, ok)
		}
	}
	for _, in := range []string{"", "XX", "99", "M"} {
		if _, ok := StateByUF(in); ok {
			t.Errorf("StateByUF(%q) found a state", in)
		}
	}
	if c, ok := Capital("AM"); !ok || c.ID != 1302603 {
		t.Errorf("Capital(AM) = %+v, %v", c, ok)
	}
}

func TestCityByNameIgnoresAccentsCaseAndPunctuation(t *testing.T) {
	for _, in := range []string{"SAO PAULO", "são paulo", "Sao-Paulo", "  São  Paulo "} {
		if c, ok := CityByName("sp", in); !ok || c.ID != 3550308 {
			t.Errorf("CityByName(sp, %q) = %+v, %v", in, c, ok)
		}
	}
	if c, ok := CityByName("RN", "OLHO D AGUA DO BORGES"); !ok || c.Nome != "Olho d'Água do Borges" {
		t.Errorf("apostrophe name: %+v, %v", c, ok)
	}
	if _, ok := CityByName("MG", "São Paulo"); ok {
		t.Error("São Paulo found in MG")
	}
	if _, ok := CityByName("ZZ", "São Paulo"); ok {
		t.Error("unknown state accepted")
	}
}

func TestListsAreSortedByNameIgnoringAccents(t *testing.T) {
	st := States()
	if st[0].Sigla != "AC" || st[len(st)-1].Sigla != "TO" {
		t.Errorf("states not by name: first %s, last %s", st[0].Sigla, st[len(st)-1].Sigla)
	}
	// Espírito Santo sorts before Goiás; Amapá before Amazonas.
	pos := map[string]int{}
	for i, s := range st {
		pos[s.Sigla] = i
	}
	if !(pos["ES"] < pos["GO"] && pos["AP"] < pos["AM"] && pos["PA"] < pos["PB"] && pos["PB"] < pos["PR"]) {
		t.Errorf("state order: %v", pos)
	}
	sp, _ := Cities("SP")
	idx := map[string]int{}
	for i, c := range sp {
		idx[c.Nome] = i
	}
	// "Águas de Lindóia" is among the A's (not after Z as a byte sort puts it).
	if !(idx["Adamantina"] < idx["Águas de Lindóia"] && idx["Águas de Lindóia"] < idx["Alambari"]) {
		t.Errorf("accented name out of order: %d %d %d", idx["Adamantina"], idx["Águas de Lindóia"], idx["Alambari"])
	}
	// Initials, accents removed, never go backwards (a byte sort would put Á after Z).
	for i := 1; i < len(sp); i++ {
		if Fold(sp[i-1].Nome)[0] > Fold(sp[i].Nome)[0] {
			t.Errorf("%q before %q", sp[i-1].Nome, sp[i].Nome)
		}
	}
}

func TestCEPParsing(t *testing.T) {
	for in, want := range map[string]string{"01310-100": "01310100", "01.310-100": "01310100", "1310100": "01310100", "30130 010": "30130010"} {
		if got, ok := ParseCEP(in); !ok || got != want {
			t.Errorf("ParseCEP(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "123", "00000-000", "013101000", "0131O100", "01310/100"} {
		if got, ok := ParseCEP(in); ok {
			t.Errorf("ParseCEP(%q) = %q, want refusal", in, got)
		}
	}
	if FormatCEP("1310100") != "01310-100" || FormatCEP("abc") != "abc" {
		t.Errorf("FormatCEP: %q %q", FormatCEP("1310100"), FormatCEP("abc"))
	}
	for cep, uf := range map[string]string{"01310-100": "SP", "30130-010": "MG", "70040-010": "DF", "69900-000": "AC", "69301-000": "RR", "74000-000": "GO", "90010-000": "RS"} {
		if s, ok := StateOfCEP(cep); !ok || s.Sigla != uf {
			t.Errorf("StateOfCEP(%s) = %s, %v; want %s", cep, s.Sigla, ok, uf)
		}
	}
	if _, ok := StateOfCEP("00500-000"); ok {
		t.Error("CEP 00500 has no state")
	}
	// Every state has spans, and the spans do not overlap.
	seen := map[int]string{}
	for _, s := range States() {
		ranges := CEPRanges(s.Sigla)
		if len(ranges) == 0 {
			t.Errorf("%s has no CEP span", s.Sigla)
		}
		for _, r := range ranges {
			for p := r.From; p <= r.To; p += 50 {
				if other, dup := seen[p]; dup {
					t.Fatalf("CEP %05d in %s and %s", p, other, s.Sigla)
				}
				seen[p] = s.Sigla
			}
		}
	}
}

func geoServer(t *testing.T) string {
	t.Helper()
	r := chi.NewRouter()
	r.Route("/api", func(r chi.Router) { r.Mount("/geo", Routes()) })
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	return srv.URL
}

func get(t *testing.T, url string, header ...string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, b
}

func TestStatesEndpointHasTheIBGEShape(t *testing.T) {
	base := geoServer(t)
	res, b := get(t, base+"/api/geo/states")
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		t.Fatalf("status %d, %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	if res.Header.Get("Cache-Control") != CacheControl || res.Header.Get("ETag") == "" {
		t.Errorf("cache headers: %v", res.Header)
	}
	var raw []map[string]any
	if err := json.Unmarshal(b, &raw); err != nil || len(raw) != 27 {
		t.Fatalf("body %d states, %v", len(raw), err)
	}
	var mg map[string]any
	for _, s := range raw {
		if s["sigla"] == "MG" {
			mg = s
		}
	}
	want := `{"id":31,"nome":"Minas Gerais","regiao":{"id":3,"nome":"Sudeste","sigla":"SE"},"sigla":"MG"}`
	if got, _ := json.Marshal(mg); string(got) != want {
		t.Errorf("MG = %s, want %s", got, want)
	}
	if raw[0]["nome"] != "Acre" || raw[26]["nome"] != "Tocantins" {
		t.Errorf("not sorted by nome: %v … %v", raw[0]["nome"], raw[26]["nome"])
	}

	res2, _ := get(t, base+"/api/geo/states", "If-None-Match", res.Header.Get("ETag"))
	if res2.StatusCode != http.StatusNotModified {
		t.Errorf("revalidation: %d, want 304", res2.StatusCode)
	}
}

func TestCitiesEndpoint(t *testing.T) {
	base := geoServer(t)
	for _, uf := range []string{"31", "MG", "mg"} {
		res, b := get(t, base+"/api/geo/states/"+uf+"/cities")
		if res.StatusCode != 200 || res.Header.Get("Cache-Control") != CacheControl {
			t.Fatalf("%s: status %d, cache %q", uf, res.StatusCode, res.Header.Get("Cache-Control"))
		}
		var list []map[string]any
		if err := json.Unmarshal(b, &list); err != nil || len(list) != 853 {
			t.Fatalf("%s: %d cities, %v", uf, len(list), err)
		}
		if len(list[0]) != 2 || list[0]["nome"] != "Abadia dos Dourados" || list[0]["id"] != float64(3100104) {
			t.Errorf("%s: first city %v", uf, list[0])
		}
		found := false
		for _, c := range list {
			if c["id"] == float64(3106200) && c["nome"] == "Belo Horizonte" {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: Belo Horizonte missing", uf)
		}
	}
	for _, uf := range []string{"XX", "99", "minas", "3"} {
		res, b := get(t, base+"/api/geo/states/"+uf+"/cities")
		var msg struct{ Message string }
		_ = json.Unmarshal(b, &msg)
		if res.StatusCode != 404 || msg.Message != MsgUnknownState {
			t.Errorf("%s: %d %s", uf, res.StatusCode, b)
		}
	}
}
